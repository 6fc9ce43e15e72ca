"""The cycle collector and the objects a run keeps: held off while a run makes many objects that
stay alive, and told afterwards how to treat them.

CPython's cycle collector wakes every 700 new objects and, as the heap grows, rescans everything
that survived. Two kinds of work pile up objects that have no cycles among them and live on:

- loading a facts file: a large roster makes millions of objects. Reading 10,000 participants
  once cost more in collections than in parsing. While a facts file loads, the collector sleeps;
  it is woken as it was, and the garbage the load leaves (the YAML nodes) is freed by reference
  counting before it wakes, so it never scans them (:func:`collector_asleep`, and
  :func:`collector_asleep_and_heap_settled` for a run that keeps its facts to the end);
- what a process builds once: the command line's imports, and a renderer's (WeasyPrint,
  python-docx, pypdf) with its set-up (the stylesheet parsed, the DOCX template built). Those
  imports make about 100,000 objects that live as long as the process, and the collector spent a
  fifth of a fresh rendering process's floor rescanning them as they piled up (measured against
  the commit before this, alternated run by run: a mean of 0.77 s against 0.56 s CPU over eight
  runs each of bench/bench_batch.py's FLOOR, and under callgrind 3.17 against 2.89 billion
  instructions). They are built with it asleep, then frozen (:func:`built_once`). The price is
  the cyclic garbage the imports leave, kept rather than collected: 1,308 objects of the floor's
  96,612, once per process. A batch's workers fork after it (docgen.issue.pool): frozen objects
  are never written by a collection either, so the pages they share with the batch stay shared.

CPython unfreezes all or nothing: a settle (freeze, then unfreeze) returns what an earlier
:func:`built_once` froze to the oldest generation too. After `docgen check`'s or `intake`'s
settle, the imports are old rather than frozen: scanned only by a full collection, which such a
short run rarely reaches. Keeping them frozen would mean freezing the roster with them, which a
program that records forms again and again in one process (the tests, a library caller) could
never free.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Literal


@contextmanager
def _asleep(then: Literal["wake", "settle", "freeze"]) -> Iterator[None]:
    """Hold off cycle collection for the block; then leave what is alive as it is ("wake"),
    settled unscanned into the oldest generation ("settle") or frozen ("freeze"), and restore
    whatever state the caller had. Nested blocks act at each end; only the outermost wakes the
    collector."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if then != "wake":
            gc.freeze()
            if then == "settle":
                gc.unfreeze()
        if enabled:
            gc.enable()


def collector_asleep(settle: bool = False) -> AbstractContextManager[None]:
    """Hold off cycle collection for the block; restore whatever state the caller had. With
    ``settle``, see :func:`collector_asleep_and_heap_settled`."""
    return _asleep("settle" if settle else "wake")


def collector_asleep_and_heap_settled() -> AbstractContextManager[None]:
    """Hold off cycle collection for the block, and on leaving it settle what the block made
    into the oldest generation unscanned (``gc.freeze`` then ``gc.unfreeze``) before waking the
    collector: a roster loaded with the collector asleep sits whole in the youngest generation,
    and the first collection after it wakes would scan every object of it (1.4 s at 50,000
    participants) to promote what lives on anyway. Cycles among them are still collected by the
    next full collection, as any old object's are. For a run that keeps its facts to the end
    (`docgen intake` and `docgen elect`, and `docgen check`'s load and rules)."""
    return _asleep("settle")


def built_once() -> AbstractContextManager[None]:
    """Run the block with the cycle collector asleep, then freeze all that is alive (never to be
    scanned again) and restore the collector as the caller had it: for what a process builds
    once and keeps to its end (see the module docstring)."""
    return _asleep("freeze")
