"""The checker's per-participant view (docgen.kinds.rrp.view) gives the answers the Plan's terms
give when asked directly, is frozen, and is made afresh for each run: nothing is remembered
between runs, so a second file checked in the same process is judged on its own facts."""

from __future__ import annotations

import dataclasses
import sys
from datetime import date
from pathlib import Path

import pytest

from docgen.checker.runner import run_checks
from docgen.core.rules import CheckContext
from docgen.kinds.rrp import terms, timing
from docgen.kinds.rrp.view import plan_year_view, view_of
from docgen.load import load_facts

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import realistic  # noqa: E402


@pytest.fixture(scope="module")
def roster(tmp_path_factory):
    folder = tmp_path_factory.mktemp("view")
    return load_facts(realistic.write_json(realistic.rrp_facts(400), folder / "rrp.json"))


def test_view_answers_as_the_terms_do(roster):
    facts = roster.facts
    view = plan_year_view(facts)
    assert [v.participant for v in view.participants] == list(facts.participants)
    assert [v.index for v in view.participants] == list(range(len(facts.participants)))
    for seen in view.participants:
        participant = seen.participant
        assert seen.in_force == terms.elections_in_force(participant, facts.plan_year)
        assert list(seen.concerning) == terms.elections_for_plan_year(participant, facts.plan_year)
        for e_index, election in enumerate(participant.elections):
            assert seen.readings_for(e_index) == timing.route_readings(participant, election)
        untimely = [
            e_index
            for e_index, election in enumerate(participant.elections)
            if election.plan_year == facts.plan_year
            and participant.eligible_employee
            and timing.timeliness(participant, election) != "yes"
        ]
        assert list(seen.untimely) == untimely
    assert view.electing == tuple(v for v in view.participants if v.participant.eligible_employee)


def test_the_roster_exercises_every_answer(roster):
    # The comparison above means something only if the roster has each case in it.
    view = plan_year_view(roster.facts)
    found = [f for v in view.electing for f in v.in_force.values()]
    assert any(f.election is None for f in found) and any(f.election for f in found)
    assert any(f.notes for f in found)
    assert any(v.untimely for v in view.electing)
    assert any(len(v.concerning) > 1 for v in view.electing)


def test_view_is_frozen(roster):
    view = plan_year_view(roster.facts)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.participants[0].in_force = {}  # type: ignore[misc]
    with pytest.raises(TypeError):
        view.participants[0].in_force["salary"] = None  # type: ignore[index]


def test_a_context_without_the_view_is_judged_alike(roster):
    facts = roster.facts
    given = CheckContext(facts, date(2026, 8, 1), "year", plan_year_view(facts))
    assert view_of(given) is given.view
    bare = CheckContext(facts, date(2026, 8, 1), "year")
    assert view_of(bare) == given.view
    # a view of other facts is never used for these
    other = CheckContext(facts, date(2026, 8, 1), "year", plan_year_view(facts.model_copy()))
    assert view_of(other) is not other.view


def test_each_run_reads_its_own_facts(tmp_path):
    # Two rosters that differ in one election, checked one after the other in one process: the
    # second run's findings are its own (no answer is kept from the first run).
    first = realistic.rrp_facts(40)
    second = realistic.rrp_facts(40)
    late = second["participants"][3]["elections"][0]
    late["made_on"] = f"{second['plan_year']}-03-01"  # after every deadline for the Plan Year
    late["kind"] = "salary"
    reports = []
    for name, facts in (("a", first), ("b", second), ("a2", first)):
        loaded = load_facts(realistic.write_json(facts, tmp_path / f"{name}.json"))
        reports.append(run_checks(loaded, date(2026, 8, 1), "year"))
    paths = [{(f.rule, f.path) for f in r.findings} for r in reports]
    assert paths[0] == paths[2]
    assert ("RRP-ELECTION-LATE", "participants[3].elections[0].made_on") in paths[1] - paths[0]
