"""Packet-level reuse (docgen.issue.reuse): a packet is carried over into a re-issue only when
its inputs are unchanged and its files are still the ones issued."""

from __future__ import annotations

import dataclasses
import hashlib
from datetime import date
from decimal import Decimal

import pytest

from docgen.issue.reuse import PacketInputs, _canonical, decide, packet_inputs, slice_digests
from docgen.kinds import kind_of
from docgen.load import load_facts

INPUTS = PacketInputs(
    subject="jsmith",
    documents=("notice", "exhibit-i"),
    facts_slice_sha256="a" * 64,
    templates_sha256="b" * 64,
    docgen_version="0.1.0",
    renderer="WeasyPrint 70.0",
    stage="grant",
    as_of="2026-06-23",
)


def issued(folder, inputs=INPUTS, content=b"%PDF-1.7 notice"):
    """A packet as an earlier issue left it: its files on disk, its manifest entries."""
    (folder / "jsmith").mkdir(exist_ok=True)
    files = {}
    documents = []
    for name in inputs.documents:
        paths = {}
        for fmt in ("pdf", "docx"):
            relative = f"jsmith/{name}.{fmt}"
            data = content + name.encode() + fmt.encode()
            (folder / relative).write_bytes(data)
            files[relative] = {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
            paths[fmt] = relative
        documents.append({"name": name, "files": paths, "key_facts": ["Jane Q. Smith"]})
    entry = {"subject": "jsmith", "documents": documents, "inputs_sha256": inputs.sha256}
    return entry, files


def test_an_unchanged_packet_is_carried_over_with_its_hashes(tmp_path):
    entry, files = issued(tmp_path)
    reuse = decide(entry, files, INPUTS, tmp_path)
    assert reuse.carried and reuse.reason == "unchanged"
    assert reuse.entries == files
    assert reuse.documents == entry["documents"]


def test_a_packet_new_in_this_issue_is_rendered(tmp_path):
    assert not decide(None, {}, INPUTS, tmp_path).carried


@pytest.mark.parametrize(
    "field, value",
    [
        ("facts_slice_sha256", "c" * 64),
        ("templates_sha256", "d" * 64),
        ("docgen_version", "0.2.0"),
        ("renderer", "WeasyPrint 71.0"),
        ("stage", "elections"),
        ("as_of", "2026-06-24"),
    ],
)
def test_any_changed_input_renders_the_packet_again(tmp_path, field, value):
    entry, files = issued(tmp_path)
    changed = dataclasses.replace(INPUTS, **{field: value})
    assert changed.sha256 != INPUTS.sha256
    reuse = decide(entry, files, changed, tmp_path)
    assert not reuse.carried and "changed" in reuse.reason


def test_other_documents_render_the_packet_again(tmp_path):
    entry, files = issued(tmp_path)
    fewer = dataclasses.replace(INPUTS, documents=("notice",))
    entry["inputs_sha256"] = fewer.sha256  # even with a matching digest
    assert decide(entry, files, fewer, tmp_path).reason == "its documents changed"


@pytest.mark.parametrize("damage", ["edited", "deleted", "truncated"])
def test_a_file_changed_since_it_was_issued_is_made_again(tmp_path, damage):
    entry, files = issued(tmp_path)
    target = tmp_path / "jsmith" / "exhibit-i.docx"
    if damage == "edited":
        target.write_bytes(target.read_bytes().replace(b"PDF", b"PDX"))
    elif damage == "deleted":
        target.unlink()
    else:
        target.write_bytes(target.read_bytes()[:-1])
    reuse = decide(entry, files, INPUTS, tmp_path)
    assert not reuse.carried
    assert reuse.reason == "jsmith/exhibit-i.docx changed or went missing since it was issued"


def test_a_manifest_without_input_digests_renders_everything(tmp_path):
    entry, files = issued(tmp_path)
    del entry["inputs_sha256"]  # a folder issued before packets recorded their inputs
    assert not decide(entry, files, INPUTS, tmp_path).carried


def test_a_file_the_manifest_does_not_list_is_not_carried(tmp_path):
    entry, files = issued(tmp_path)
    del files["jsmith/notice.pdf"]
    assert not decide(entry, files, INPUTS, tmp_path).carried


# ------------------------------------------------------------------ the facts slice


def test_slice_digest_holds_what_the_record_slice_holds(samples):
    """The digest covers exactly Kind.slice: a director's own facts and the cycle's."""
    loaded = load_facts(samples / "director-grant-2026.yaml")
    kind = kind_of(loaded.facts)
    digests = slice_digests(kind, loaded.facts)
    assert set(digests) == {d.id for d in loaded.facts.directors}
    first, second = loaded.facts.directors[0].id, loaded.facts.directors[1].id

    def with_units(director_id, units):
        directors = [
            d.model_copy(update={"units": units}) if d.id == director_id else d
            for d in loaded.facts.directors
        ]
        return slice_digests(kind, loaded.facts.model_copy(update={"directors": directors}))

    corrected = with_units(second, 99)
    assert corrected[first] == digests[first]  # another director's correction: not mine
    assert corrected[second] != digests[second]
    grant = loaded.facts.grant.model_copy(update={"fair_market_value": Decimal("46.00")})
    moved = slice_digests(kind, loaded.facts.model_copy(update={"grant": grant}))
    assert all(moved[d] != digests[d] for d in digests)  # a cycle-level fact: every packet


def test_slice_digest_is_the_record_slice(samples):
    loaded = load_facts(samples / "rrp-2026.yaml")
    kind = kind_of(loaded.facts)
    digests = slice_digests(kind, loaded.facts)
    for subject in list(digests)[:3]:
        piece = kind.slice(loaded.facts, subject)
        person = piece.pop(kind.subjects_field)[0]
        expected = hashlib.sha256(hashlib.sha256(_canonical(piece)).digest())
        expected.update(_canonical(person))
        assert digests[subject] == expected.hexdigest()


def test_packet_inputs_of_a_batch(samples):
    loaded = load_facts(samples / "director-grant-2026.yaml")
    packets = [("jsmith", ["notice", "exhibit-i"])]
    inputs = packet_inputs(loaded, packets, "grant", date(2026, 6, 23))["jsmith"]
    assert inputs.documents == ("notice", "exhibit-i") and inputs.as_of == "2026-06-23"
    again = packet_inputs(
        load_facts(samples / "director-grant-2026.yaml"), packets, "grant", date(2026, 6, 23)
    )["jsmith"]
    assert again.sha256 == inputs.sha256  # the same facts, the same digest, in a new load
