"""The RRP's election in force (DESIGN.md, "Elections roll over"), and the checker agreeing with the
Plan's timing terms it words (docgen.kinds.rrp.timing): one definition, read the same way
everywhere."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docgen.checker.cases import bases, deep_merge
from docgen.checker.runner import run_checks
from docgen.kinds.rrp.facts import RRPPlanYearFacts
from docgen.kinds.rrp.terms import election_in_force, takes_effect_for
from docgen.kinds.rrp.timing import timeliness
from docgen.load import LoadedFacts, SourceMap

TIMING_RULES = {
    "RRP-ELECTION-LATE",
    "RRP-FIRST-YEAR-LATE",
    "RRP-NOT-NEWLY-ELIGIBLE",
    # RRP-FIRST-YEAR-PRIOR-SERVICES is no timing rule any more: it says, as info, how much of the
    # pay a first-year election in force reaches (DESIGN.md, "The Plan's arithmetic").
    "RRP-PBC-LATE",
    "RRP-PBC-NOT-QUALIFIED",
    "RRP-PBC-SERVICE-GAP",
}


def facts_with(*elections: dict, plan_year: int = 2026, **participant) -> RRPPlanYearFacts:
    data = deep_merge(bases()["rrp"]["facts"], {"plan_year": plan_year})
    data["participants"] = [
        {**data["participants"][0], **participant, "elections": list(elections)}
    ]
    if plan_year > 2026:
        data["plan"] = {"compensation_limit": "370000"}
    return RRPPlanYearFacts.model_validate(data)


def salary(percent, made_on, year=2026, **more) -> dict:
    return {"kind": "salary", "plan_year": year, "percent": percent, "made_on": made_on, **more}


def loaded(facts) -> LoadedFacts:
    return LoadedFacts(facts=facts, source=SourceMap("generated.yaml"), path=None, sha256="0" * 64)


# ------------------------------------------------------------------ the election in force


def test_of_two_timely_elections_for_the_year_the_later_one_governs():
    facts = facts_with(salary(10, "2025-11-20"), salary(12, "2025-12-10"))
    found = election_in_force(facts.participants[0], 2026, "salary")
    assert found.election.percent == 12 and found.position == 1
    assert found.notes == (
        "the salary election of 10% made 2025-11-20 was replaced by the later one made "
        "2025-12-10 (Plan 2.03(b))",
    )


def test_a_new_election_replaces_a_rolled_over_one_from_the_year_it_takes_effect():
    facts = facts_with(salary(5, "2022-12-01", year=2023), salary(9, "2025-11-30"))
    person = facts.participants[0]
    assert election_in_force(person, 2025, "salary").election.percent == 5
    assert election_in_force(person, 2026, "salary").election.percent == 9
    assert election_in_force(person, 2027, "salary").election.percent == 9  # and rolls over


def test_a_revoked_election_does_not_revive_the_one_it_replaced():
    # The 2026 election is revoked before its deadline: nothing is in force for 2026, and the
    # 2023 election it replaced does not come back (docs/rrp-arithmetic.md).
    facts = facts_with(
        salary(5, "2022-12-01", year=2023), salary(9, "2025-11-30", revoked_on="2025-12-20")
    )
    found = election_in_force(facts.participants[0], 2026, "salary")
    assert found.election is None and "revoked on 2025-12-20, effective for 2026" in found.reason


def test_a_first_year_election_revoked_within_its_30_days_never_takes_effect():
    facts = facts_with(
        salary(10, "2026-03-10", revoked_on="2026-03-31"), first_eligible_on="2026-03-02"
    )
    assert election_in_force(facts.participants[0], 2026, "salary").election is None
    # Revoked April 2, a day after the 30 days (April 1): in force for 2026, stops for 2027.
    facts = facts_with(
        salary(10, "2026-03-10", revoked_on="2026-04-02"), first_eligible_on="2026-03-02"
    )
    assert election_in_force(facts.participants[0], 2026, "salary").election is not None
    assert election_in_force(facts.participants[0], 2027, "salary").election is None


@pytest.mark.parametrize(
    ("made_on", "year"),
    [
        ("2025-12-31", 2026),  # timely for 2026 itself
        ("2026-01-01", 2027),  # late for 2026: the first deadline it meets is December 31, 2026
        ("2026-12-31", 2027),
        ("2027-01-01", 2028),
    ],
)
def test_a_late_election_takes_effect_for_the_first_plan_year_whose_deadline_it_meets(
    made_on, year
):
    facts = facts_with(salary(10, made_on))
    assert takes_effect_for(facts.participants[0], facts.participants[0].elections[0]) == year


def test_not_an_eligible_employee_has_no_election_in_force():
    facts = facts_with(salary(10, "2025-12-10"), eligible_employee=False)
    found = election_in_force(facts.participants[0], 2026, "salary")
    assert found.election is None
    assert found.reason == (
        "no Deferral Election is in force for 2026: not an Eligible Employee (Plan 1.11, 2.01)"
    )


def test_the_reason_names_the_election_in_force_and_the_year_it_rolled_over_to():
    """InForce.reason, worked out when asked from what the InForce holds: the election in force
    and the Plan Year it names, and the later Plan Year it rolled over to (Plan 2.03(b))."""
    facts = facts_with(salary(10, "2025-12-10"))
    participant = facts.participants[0]
    assert election_in_force(participant, 2026, "salary").reason == (
        "the salary election of 10% made 2025-12-10 for 2026 (Plan 2.03(b))"
    )
    assert election_in_force(participant, 2027, "salary").reason == (
        "the salary election of 10% made 2025-12-10 for 2026, rolled over to 2027 (Plan 2.03(b))"
    )
    assert election_in_force(participant, 2026, "bonus").reason == (
        "no bonus or performance-based pay Deferral Election in force for 2026: none on file "
        "(Plan 2.03(b))"
    )


def test_the_late_change_finding_names_the_election_that_stays():
    facts = facts_with(salary(10, "2025-12-10"), salary(20, "2026-01-20"))
    report = run_checks(loaded(facts), date(2026, 2, 1), "year")
    late = [f for f in report.findings if f.rule == "RRP-ELECTION-LATE"]
    assert [f.path for f in late] == ["participants[0].elections[1].made_on"]
    assert "the salary election of 10% made 2025-12-10 stays in force for 2026" in late[0].message


# ------------------------------------------------------------------ the checker words the term

days = st.dates(min_value=date(2024, 6, 1), max_value=date(2027, 6, 30))


@st.composite
def one_election(draw):
    kind = draw(st.sampled_from(["salary", "bonus", "performance_based"]))
    election = {
        "kind": kind,
        "plan_year": 2026,
        "made_on": draw(days),
        "percent": draw(st.integers(0, 75)),
    }
    if kind == "performance_based" or (kind == "bonus" and draw(st.booleans())):
        start = draw(st.dates(min_value=date(2025, 1, 1), max_value=date(2026, 12, 31)))
        end = start + timedelta(days=draw(st.integers(200, 500)))
        criteria = draw(st.none() | st.just(start + timedelta(days=draw(st.integers(0, 120)))))
        election["performance_period"] = {
            "start": start,
            "end": end,
            "criteria_established_on": criteria,
        }
    person = {
        "first_eligible_on": draw(st.none() | st.dates(date(2025, 11, 1), date(2026, 12, 31))),
        "previously_eligible_until": draw(
            st.none() | st.dates(date(2023, 1, 1), date(2025, 6, 30))
        ),  # noqa: E501
        "hired_on": draw(st.none() | st.dates(date(2020, 1, 1), date(2026, 12, 31))),
    }
    return facts_with(election, **person)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(one_election())
def test_the_timing_findings_say_what_the_timing_term_decides(facts):
    person = facts.participants[0]
    reading = timeliness(person, person.elections[0])
    report = run_checks(loaded(facts), date(2027, 12, 31), "year")
    found = [f for f in report.findings if f.rule in TIMING_RULES]
    if reading == "yes":
        assert not found
    elif reading == "doubtful":
        assert found and all(f.severity == "warning" for f in found)
    else:
        assert any(f.severity == "error" for f in found)
        assert "RRP-ELECTION-LATE" in {f.rule for f in found}  # the prior-year route is open
    # compute and the checker agree: an election the checker rejects is not in force.
    in_force = election_in_force(
        person, 2026, "salary" if person.elections[0].kind == "salary" else "bonus"
    ).election
    assert (in_force is not None) is (reading != "no")
