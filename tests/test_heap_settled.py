"""docgen.core.heap.collector_asleep_and_heap_settled: what the block made waits in the oldest
generation, unscanned, when the collector wakes; the collector's state is restored; a cycle made
in the block is still collected by a full collection."""

from __future__ import annotations

import gc
import weakref

from docgen.core.heap import collector_asleep_and_heap_settled


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def test_the_block_runs_asleep_and_its_objects_wake_old() -> None:
    assert gc.isenabled()
    with collector_asleep_and_heap_settled():
        assert not gc.isenabled()
        made = [[n] for n in range(50_000)]  # a roster's worth of tracked objects
        assert gc.get_count()[0] > 40_000  # all young while the collector sleeps
    assert gc.isenabled()
    assert gc.get_count()[0] < 1_000  # settled: the first young collection will not scan them
    assert gc.get_freeze_count() == 0  # nothing left frozen
    assert len(made) == 50_000


def test_a_cycle_made_in_the_block_is_still_collected() -> None:
    with collector_asleep_and_heap_settled():
        first, second = _Node(), _Node()
        first.other, second.other = second, first
        gone = weakref.ref(first)
        del first, second
    assert gone() is not None  # refcounting alone cannot free a cycle
    gc.collect()
    assert gone() is None


def test_the_collector_stays_asleep_for_a_caller_that_put_it_to_sleep() -> None:
    gc.disable()
    try:
        with collector_asleep_and_heap_settled():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_check_leaves_the_roster_it_loaded_in_the_oldest_generation() -> None:
    from datetime import date
    from pathlib import Path

    from docgen.api import check_loaded

    sample = Path(__file__).resolve().parent.parent / "samples" / "rrp-2026.yaml"
    loaded, _ = check_loaded(sample, date(2025, 12, 1))
    # Loaded asleep, the facts would otherwise wake in the youngest generation, and the first
    # collection after the rules would scan the whole roster.
    assert any(held is loaded.facts for held in gc.get_objects(generation=2))
