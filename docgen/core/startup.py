"""What a process builds once, built without the cycle collector watching: the command line's
imports, and a renderer's (WeasyPrint, python-docx, pypdf) with its set-up (the stylesheet
parsed, the DOCX template built).

Those imports make about 100,000 objects that live as long as the process. CPython's cycle
collector wakes every 700 new objects and, as they pile up, rescans the survivors again and
again: a fifth of a fresh rendering process's floor went on it (measured: 0.73 s against 0.56 s
CPU, the mean of six runs each; under callgrind 3.17 against 2.91 billion instructions). Built
with the collector asleep and then frozen (``gc.freeze``: moved to a generation it never scans),
they cost nothing more after. The price is the cyclic garbage the imports leave behind, which is
kept rather than collected: 1,308 objects of the floor's 96,612, once per process.

A batch's workers fork after it (docgen.issue.pool): frozen objects are also never written by a
collection, so the pages they share with the batch stay shared.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def built_once() -> Iterator[None]:
    """Run the block with the cycle collector asleep, then freeze all that is alive and restore
    the collector as the caller had it. Nested blocks freeze at each end; only the outermost
    wakes the collector."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()
