"""The cycle collector around the moments a run makes many objects with no cycles among them:
a facts file read with its roster and the rules run over it, and a batch's workers forking.

Both use only the ``gc`` module's documented calls:

- :func:`paused_for_a_population`: CPython's cycle collector runs every few hundred new objects
  and, as the heap grows, rescans the objects that survived. Loading a roster of 10,000 people
  makes about a million objects with no cycles among them, and the rules' run over it (each
  person's view, the findings) makes more while those million are alive, so the collector would
  rescan them again and again. It is disabled while a facts file loads (``docgen.load``),
  while the rules run (``docgen.checker.runner``) and while `docgen payroll --pay-date` works
  out every participant's paychecks (``docgen.kinds.rrp.payroll``), and enabled again after, as
  the ``gc`` documentation suggests for code that makes many objects and no cycles; what any of
  them leaves behind is freed by reference counting as usual. Measured on a 10,000-participant
  HRIS export, `docgen check` spends 0.4 s (a fifth of its CPU) in the collector without the
  pause around the rules (bench/bench_check.py), `docgen payroll --pay-date` about 0.01 s.
  Nothing renders inside a pause: a document's layout makes cycles, and the collector stays on
  for it.

  What the block made is still in the youngest generation when it ends, and the first collection
  after would scan all of it, and the next generation's collection again (0.13 s and more on a
  10,000-participant HRIS export; `docgen payroll --pay-date` spent a fifth of its CPU so). So
  the block ends with ``gc.freeze()`` then ``gc.unfreeze()``: as documented, the first moves
  every tracked object into the permanent generation and the second puts them back into the
  oldest, so the population goes where its long life would take it without being scanned on the
  way. Anything cyclic among it is freed by the oldest generation's next collection, as any
  long-lived object's is. Skipped while a batch has frozen objects for its workers (below), whose
  freeze this would undo.
- :func:`frozen_for_workers`: a batch's workers fork from the process that loaded the facts and
  imported the renderers. ``gc.freeze()`` just before the fork moves everything alive into a
  generation the collector never scans, so a worker's collections neither rescan what it
  inherited nor write to its pages, which stay shared with the batch (the use the ``gc.freeze``
  documentation describes). The batch unfreezes it when its workers are done, so a program
  that issues again and again in one process (the tests, a library caller) can still free it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_for_a_population() -> Iterator[None]:
    """The cycle collector disabled for the block, then restored as the caller had it."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if not gc.get_freeze_count():  # (never while a batch has frozen for its workers)
                gc.freeze()  # what the block made, into the oldest generation unscanned
                gc.unfreeze()
            gc.enable()


@contextmanager
def frozen_for_workers() -> Iterator[None]:
    """Everything alive when the block starts left out of cycle collection until it ends: the
    block forks the workers (see the module docstring)."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
