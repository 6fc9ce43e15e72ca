"""The cycle collector around the two moments a run makes many long-lived objects: loading a
facts file with its roster, and a batch's workers forking.

Both use only the ``gc`` module's documented calls:

- :func:`paused_while_loading`: CPython's cycle collector runs every few hundred new objects and,
  as the heap grows, rescans the objects that survived. Loading a roster of 10,000 people makes
  about a million objects with no cycles among them, which the collector would rescan again and
  again as they pile up. It is disabled while a facts file loads and enabled again after (as
  the ``gc`` documentation suggests for code that makes many objects and no cycles); the
  garbage the load leaves behind is freed by reference counting as usual.
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
def paused_while_loading() -> Iterator[None]:
    """The cycle collector disabled for the block, then restored as the caller had it."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
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
