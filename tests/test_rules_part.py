"""The rules run after a recording over the subjects recorded only (run_checks(only=...)) find
exactly what the whole run finds about those subjects and about the cycle, plus every finding of
the rules declared ``across_subjects``: on every sample, every rule case and generated rosters of
both kinds, subject by subject. A rule that looks across subjects without saying so fails here,
named, with what to declare."""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from docgen.checker.cases import cases_dir, load_case_file
from docgen.checker.part import part_of
from docgen.checker.rules import rules_of
from docgen.checker.runner import run_checks
from docgen.core.findings import Report
from docgen.core.rules import Hit, rule, unregister_rule
from docgen.kinds import get_kind, kind_of
from docgen.load import LoadedFacts, SourceMap, load_facts

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from realistic import director_facts, rrp_facts  # noqa: E402

SAMPLES = sorted(
    path
    for folder in ("samples", "samples/problems", "samples/tour")
    for path in (ROOT / folder).glob("*.yaml")
)


def _loaded(data: dict[str, Any], name: str) -> LoadedFacts:
    facts = get_kind(data["kind"]).model.model_validate(data)
    return LoadedFacts(facts=facts, source=SourceMap(name), path=Path(name), sha256="0" * 64)


def _expected(whole: Report, subjects: set[str], across: set[str]) -> list[Any]:
    head = whole.subjects[0]
    return [
        f for f in whole.findings if f.rule in across or f.subject == head or f.subject in subjects
    ]


def mismatches(loaded: LoadedFacts, as_of: date, stage: str | None, *, issuing: bool) -> list[str]:
    """Each rule (not declared across subjects) whose findings over one subject alone are not
    what the whole run finds about that subject, as one line naming it; empty: equivalent."""
    kind = kind_of(loaded.facts)
    across = {r.id for r in rules_of(loaded.facts.kind) if r.across_subjects}
    whole = run_checks(loaded, as_of, stage, issuing=issuing)
    found = []
    people = [s.id for s in kind.subjects(loaded.facts)]
    groups = [{ident} for ident in people]
    if len(people) > 2:  # and some at once: the first, the last and one between
        groups.append({people[0], people[len(people) // 2], people[-1]})
    for group in groups:
        limited = run_checks(loaded, as_of, stage, issuing=issuing, only=group)
        assert limited.checked == tuple(p for p in people if p in group)
        expected = _expected(whole, group, across)
        if list(limited.findings) == expected:
            continue
        differ = {f.rule for f in set(limited.findings) ^ set(expected)} or {"(order)"}
        found += [
            f"{rule_id} finds other things about {sorted(group)} when run over them alone: "
            "it looks across subjects; declare it so (@rule(..., across_subjects=True))"
            for rule_id in sorted(differ)
        ]
    return sorted(set(found))


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_each_sample_limited_run_is_the_whole_run_for_its_subjects(path: Path) -> None:
    loaded = load_facts(path)
    as_of = date(2026, 1, 15) if loaded.facts.kind == "rrp-plan-year" else date(2026, 5, 1)
    for issuing in (False, True):
        assert mismatches(loaded, as_of, None, issuing=issuing) == []


def _all_cases() -> list[Any]:
    return [
        case
        for path in sorted(cases_dir().glob("*.yaml"))
        if not path.name.startswith("_")
        for case in load_case_file(path)
    ]


@pytest.mark.slow
def test_every_rule_case_limited_run_is_the_whole_run_for_its_subjects() -> None:
    problems = []
    for case in _all_cases():
        loaded = case.loaded()
        for issuing in (False, True):
            problems += [
                f"{case.file.name} ({case.name}): {line}"
                for line in mismatches(loaded, case.as_of, case.stage, issuing=issuing)
            ]
    assert problems == []


def test_generated_rrp_roster() -> None:
    """bench/realistic.py's roster (each participant a late revocation, a warning, too)."""
    loaded = _loaded(rrp_facts(80, seed=7, warn_each=True), "rrp-80.json")
    seen: set[str] = set()
    for as_of in (date(2025, 12, 20), date(2026, 1, 15), date(2026, 7, 15)):
        seen |= run_checks(loaded, as_of, issuing=False).rule_ids()
        assert mismatches(loaded, as_of, None, issuing=False) == []
    assert len(seen) >= 4, seen


def case_roster(base: str) -> tuple[dict[str, Any], set[str]]:
    """One roster of every rule case's person (the cases that change only their first person,
    on one base): each rule's failing and passing people side by side, each with an id of its
    own. Returns the facts and the rules whose failing cases it holds."""
    cases = [
        case
        for case in _all_cases()
        if case.base_name == base and set(case.overrides) in ({"director"}, {"participant"})
    ]
    data = cases[0].fact_data()
    field = "participants" if "participants" in data else "directors"
    people = list(data[field])
    for number, case in enumerate(cases):
        person = dict(case.fact_data()[field][0])
        person["id"] = f"{person['id']}-{number}"
        people.append(person)
    data[field] = people
    return data, {rule for case in cases for rule in case.expect}


@pytest.mark.parametrize("base", ["rrp", "director"])
@pytest.mark.slow
def test_every_rule_cases_people_in_one_roster(base: str) -> None:
    data, failing = case_roster(base)
    loaded = _loaded(data, f"{base}-cases.json")
    as_ofs = sorted({case.as_of for case in _all_cases() if case.base_name == base})
    stages = get_kind(data["kind"]).stages
    seen: set[str] = set()
    # Every case's day for the rules about the record (as a recording runs them); the rules of
    # one stage's documents too on the first, middle and last day (each run reviews the clauses).
    issuing_on = {as_ofs[0], as_ofs[len(as_ofs) // 2], as_ofs[-1]}
    for as_of in as_ofs:
        for stage in stages:
            seen |= run_checks(loaded, as_of, stage).rule_ids()
            for issuing in (False, True) if as_of in issuing_on else (False,):
                assert mismatches(loaded, as_of, stage, issuing=issuing) == [], (as_of, stage)
    assert len(seen & failing) >= len(failing) // 2, sorted(failing - seen)


@pytest.mark.slow
def test_generated_director_roster_with_many_rules_findings() -> None:
    loaded = _loaded(director_facts(40, seed=7), "directors-40.json")
    for as_of in (date(2026, 3, 1), date(2026, 6, 30), date(2027, 7, 1)):
        assert mismatches(loaded, as_of, None, issuing=True) == []


def test_a_rule_looking_across_subjects_undeclared_is_named() -> None:
    """A toy rule that reports a participant sharing a name with another, undeclared: the
    equivalence check names it; declared, it passes, its findings kept whole."""
    loaded = _loaded(rrp_facts(6, seed=3), "six.json")
    people = loaded.facts.participants
    same = [
        p.model_copy(update={"name": people[0].name}) if i == 1 else p for i, p in enumerate(people)
    ]
    loaded = _loaded(loaded.facts.model_copy(update={"participants": same}).model_dump(), "six")

    def twins(context: Any) -> list[Hit]:
        names = [p.name for p in context.facts.participants]
        return [
            Hit(p.id, f"participants[{i}].name", "shares a name")
            for i, p in enumerate(context.facts.participants)
            if names.count(p.name) > 1
        ]

    for declared in (False, True):
        try:
            rule(
                "RRP-TOY-TWINS",
                title="toy",
                severity="warning",
                cites=rules_of("rrp-plan-year")[0].citations,
                explanation="toy",
                applies_to="rrp-plan-year",
                across_subjects=declared,
            )(twins)
            found = mismatches(loaded, date(2026, 1, 15), None, issuing=False)
            if declared:
                assert found == []
            else:
                assert found and all(line.startswith("RRP-TOY-TWINS ") for line in found)
                assert "across_subjects=True" in found[0]
        finally:
            unregister_rule("RRP-TOY-TWINS")


def test_part_turns_paths_back_into_the_files() -> None:
    loaded = _loaded(rrp_facts(6, seed=3), "six.json")
    kind = kind_of(loaded.facts)
    ids = [p.id for p in loaded.facts.participants]
    part = part_of(loaded.facts, kind, {ids[4], ids[1]})
    assert [p.id for p in part.facts.participants] == [ids[1], ids[4]]  # file order
    assert (
        part.path("participants[1].elections[0].made_on") == "participants[4].elections[0].made_on"
    )
    assert part.path("participants[0]") == "participants[1]"
    assert part.path("plan_year") == "plan_year"
    assert part.path("participants_csv") == "participants_csv"
    assert part.facts.plan_year == loaded.facts.plan_year
