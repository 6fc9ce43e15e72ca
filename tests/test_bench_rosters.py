"""The benchmarks' realistic rosters (bench/realistic.py) are facts docgen reads, in every shape,
and the same seed gives the same bytes (so two bench runs time the same files)."""

from __future__ import annotations

import sys
from pathlib import Path

from docgen.load import load_facts

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import realistic  # noqa: E402


def _write_all(folder: Path) -> list[Path]:
    facts = realistic.rrp_facts(60)
    return [
        realistic.write_json(facts, folder / "rrp.json"),
        realistic.write_yaml(facts, folder / "rrp.yaml"),
        realistic.write_roster(facts, folder, "rrp"),
        realistic.write_yaml(realistic.director_facts(30), folder / "board.yaml"),
        realistic.write_hris(facts, folder, "rrp"),
    ]


def test_every_shape_loads_with_its_people(tmp_path):
    json_path, yaml_path, roster_path, board_path, hris_path = _write_all(tmp_path)
    from_json, from_yaml = load_facts(json_path).facts, load_facts(yaml_path).facts
    assert from_json == from_yaml
    assert len(load_facts(roster_path).facts.participants) == 60
    assert len(load_facts(board_path).facts.directors) == 30
    # The HRIS export holds every form on record: each person's elections, Beneficiaries and
    # allocation read back from its CSVs as the one-file YAML gives them.
    from_hris = {p.id: p for p in load_facts(hris_path).facts.participants}
    for person in from_json.participants:
        again = from_hris[person.id]
        assert again.elections == person.elections
        assert again.beneficiaries == person.beneficiaries
        assert again.investments == person.investments
    people = from_json.participants
    assert all(len(p.beneficiaries) == 2 and p.investments for p in people)
    kinds = {e.kind for p in people for e in p.elections}
    assert kinds == {"salary", "bonus", "performance_based"}
    assert any(e.revoked_on for p in people for e in p.elections)


def test_same_seed_same_bytes(tmp_path):
    first, second = tmp_path / "1", tmp_path / "2"
    first.mkdir(), second.mkdir()
    for one, two in zip(_write_all(first), _write_all(second), strict=True):
        assert one.read_bytes() == two.read_bytes()
