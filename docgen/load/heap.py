"""Loading without the cycle collector: a large roster makes millions of objects and no cycles.

CPython's cycle collector wakes every 700 new objects and, as the heap grows, rescans everything
that survived: reading 10,000 participants once cost more in collections than in parsing. While a
facts file loads, it sleeps; it is woken as it was, and the garbage the load leaves (the YAML
nodes) is freed by reference counting before it wakes, so it never scans them.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_asleep() -> Iterator[None]:
    """Hold off cycle collection for the block; restore whatever state the caller had."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
