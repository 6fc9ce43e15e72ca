"""Loading without the cycle collector: a large roster makes millions of objects and no cycles.

CPython's cycle collector wakes every 700 new objects and, as the heap grows, rescans everything
that survived: reading 10,000 participants once cost more in collections than in parsing. While a
facts file loads, it sleeps; it is woken as it was, and the garbage the load leaves (the YAML
nodes) is freed by reference counting before it wakes, so it never scans them.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager


@contextmanager
def collector_asleep(settle: bool = False) -> Iterator[None]:
    """Hold off cycle collection for the block; restore whatever state the caller had. With
    ``settle``, see :func:`collector_asleep_and_heap_settled`."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if settle:
                gc.freeze()
                gc.unfreeze()
            gc.enable()


def collector_asleep_and_heap_settled() -> AbstractContextManager[None]:
    """Hold off cycle collection for the block, and on leaving it settle what the block made
    into the oldest generation unscanned (``gc.freeze`` then ``gc.unfreeze``) before waking the
    collector: a roster loaded with the collector asleep sits whole in the youngest generation,
    and the first collection after it wakes would scan every object of it (1.4 s at 50,000
    participants) to promote what lives on anyway. Cycles among them are still collected by the
    next full collection, as any old object's are. For a run that keeps its facts to the end
    (`docgen intake` and `docgen elect`)."""
    return collector_asleep(settle=True)
