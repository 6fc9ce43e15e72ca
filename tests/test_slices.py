"""Kind.slices: every packet's facts slice made from one serialization of the facts, each the
very slice Kind.slice gives a record (a batch records one per packet: one serialization each
would make a 10,000-participant Plan Year quadratic)."""

from __future__ import annotations

import pytest

from docgen.kinds import kind_of
from docgen.load import load_facts


@pytest.mark.parametrize("sample", ["director-grant-2026.yaml", "rrp-2026.yaml"])
def test_slices_are_the_kinds_slices(samples, sample):
    loaded = load_facts(samples / sample)
    kind = kind_of(loaded.facts)
    ids = [subject.id for subject in kind.subjects(loaded.facts)]
    slices = kind.slices(loaded.facts, ids)
    assert list(slices) == ids
    for subject_id in ids:
        alone = kind.slice(loaded.facts, subject_id)
        assert slices[subject_id] == alone
        assert list(slices[subject_id]) == list(alone)  # the same order of fields
        assert [p["id"] for p in alone[kind.subjects_field]] == [subject_id]


def test_a_slice_of_someone_the_facts_do_not_have(samples):
    loaded = load_facts(samples / "director-grant-2026.yaml")
    kind = kind_of(loaded.facts)
    with pytest.raises(KeyError, match="nobody"):
        kind.slices(loaded.facts, ["jsmith", "nobody"])
    with pytest.raises(KeyError, match="nobody"):
        kind.slice(loaded.facts, "nobody")
