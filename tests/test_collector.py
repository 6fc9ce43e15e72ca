"""The cycle collector around a load and a batch's fork (docgen.core.collector): off while facts
load and back as the caller had it, even after an error; what a batch froze for its workers
unfrozen when they are done."""

from __future__ import annotations

import gc

import pytest

from docgen.core.collector import frozen_for_workers, paused_for_a_population


def test_the_collector_is_off_while_loading_and_back_as_the_caller_had_it():
    with paused_for_a_population():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with paused_for_a_population():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_collector_is_back_after_an_error_in_the_load():
    with pytest.raises(ZeroDivisionError), paused_for_a_population():
        1 / 0  # noqa: B018
    assert gc.isenabled()


def test_what_was_frozen_for_the_workers_is_unfrozen_after():
    gc.unfreeze()
    with frozen_for_workers():
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0


def test_what_the_pause_made_goes_to_the_oldest_generation_without_a_scan():
    """The population a load makes is not left in the youngest generation, where the first
    collection after the load would scan all of it (docgen.core.collector)."""
    with paused_for_a_population():
        made = [[index] for index in range(1_000)]
        assert any(item is made for item in gc.get_objects(generation=0))
    assert not any(item is made for item in gc.get_objects(generation=0))
    assert any(item is made for item in gc.get_objects(generation=2))
    assert gc.get_freeze_count() == 0


def test_the_pause_leaves_what_a_batch_froze_for_its_workers_frozen():
    gc.unfreeze()
    with frozen_for_workers():
        frozen = gc.get_freeze_count()
        with paused_for_a_population():
            made = [[index] for index in range(1_000)]
        assert gc.get_freeze_count() == frozen
        assert not any(item is made for item in gc.get_objects(generation=2))
    assert gc.get_freeze_count() == 0
