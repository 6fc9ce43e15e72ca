"""Properties of the checker over generated facts: determinism, and the prior-year safe harbour."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docgen.checker.cases import bases, deep_merge
from docgen.checker.runner import run_checks
from docgen.kinds.rrp.facts import RRPPlanYearFacts
from docgen.load import LoadedFacts, SourceMap

TIMING_RULES = {
    "RRP-ELECTION-LATE",
    "RRP-FIRST-YEAR-LATE",
    "RRP-NOT-NEWLY-ELIGIBLE",
    "RRP-FIRST-YEAR-PRIOR-SERVICES",
    "RRP-PBC-LATE",
    "RRP-PBC-NOT-QUALIFIED",
    "RRP-PBC-SERVICE-GAP",
}
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

days = st.dates(min_value=date(2018, 1, 1), max_value=date(2032, 12, 31))


@st.composite
def periods(draw):
    start = draw(days)
    end = start + timedelta(days=draw(st.integers(0, 800)))
    criteria = draw(st.none() | st.just(start + timedelta(days=draw(st.integers(-30, 200)))))
    return {"start": start, "end": end, "criteria_established_on": criteria}


@st.composite
def elections(draw, plan_year: int, made_on=None):
    kind = draw(st.sampled_from(["salary", "bonus", "performance_based"]))
    election = {
        "kind": kind,
        "plan_year": plan_year,
        "percent": draw(st.decimals(min_value=-5, max_value=100, places=1)),
        "made_on": made_on if made_on is not None else draw(days),
    }
    if kind == "performance_based" or (kind == "bonus" and draw(st.booleans())):
        election["performance_period"] = period = draw(periods())
        if made_on is not None:
            # DESIGN.md, "RRP election timing": pay earned over a period that begins before the Plan
            # Year has its prior-year deadline on December 31 before the year the period begins.
            begins = date(min(plan_year, period["start"].year) - 1, 12, 31)
            election["made_on"] = min(made_on, begins)
    return election


@st.composite
def participants(draw, index: int, plan_year: int, timely: bool):
    deadline = date(plan_year - 1, 12, 31)
    made = (
        (lambda: deadline - timedelta(days=draw(st.integers(0, 400)))) if timely else (lambda: None)
    )
    termination = draw(
        st.none()
        | st.builds(
            lambda on, reason: {"on": on, "reason": reason},
            days,
            st.sampled_from(["retirement", "death", "disability", "other"]),
        )
    )
    return {
        "id": f"p{index}",
        "name": f"Participant {index}",
        "eligible_employee": draw(st.booleans()) if not timely else True,
        "compensation": str(draw(st.integers(100_000, 900_000))),
        "hired_on": draw(st.none() | days),
        "first_eligible_on": draw(st.none() | days),
        "previously_eligible_until": draw(st.none() | days),
        "key_employee_on": sorted(
            {date(y, 12, 31) for y in draw(st.lists(st.integers(2018, 2031), max_size=3))}
        ),
        "beneficiaries": draw(st.sampled_from([[], [{"name": "B", "percent": 100}]])),
        "investments": draw(st.sampled_from([{}, {"A": 40, "B": 60}, {"A": 40.5, "B": 59.5}])),
        "elections": [draw(elections(plan_year, made())) for _ in range(draw(st.integers(0, 3)))],
        "termination": termination,
        "payments": [{"on": draw(days), "amount": "1000"} for _ in range(draw(st.integers(0, 2)))],
    }


@st.composite
def rrp_facts(draw, timely: bool = False):
    plan_year = draw(st.integers(2019, 2026))
    count = draw(st.integers(1, 4))
    data = deep_merge(bases()["rrp"]["facts"], {"plan_year": plan_year})
    data["participants"] = [draw(participants(i, plan_year, timely)) for i in range(count)]
    return RRPPlanYearFacts.model_validate(data)


def loaded(facts) -> LoadedFacts:
    return LoadedFacts(facts=facts, source=SourceMap("generated.yaml"), path=None, sha256="0" * 64)


@SETTINGS
@given(rrp_facts(), days, st.sampled_from(["enrollment", None]))
def test_findings_are_deterministic(facts, as_of, stage):
    first = run_checks(loaded(facts), as_of, stage).to_json_dict()
    second = run_checks(loaded(facts.model_copy(deep=True)), as_of, stage).to_json_dict()
    assert first == second
    # Every error before any warning (issue 44), then subjects in file order within a severity.
    rank = {"error": 0, "warning": 1, "info": 2}
    order = {f"p{i}": i for i in range(len(facts.participants))}
    keys = [(rank[f["severity"]], order.get(f["subject"], -1)) for f in first["findings"]]
    assert keys == sorted(keys)


@SETTINGS
@given(rrp_facts(timely=True), days)
def test_an_election_by_december_31_before_the_plan_year_is_never_late(facts, as_of):
    # ... and before the year its pay's period begins, when that is earlier (DESIGN.md, "RRP
    # election timing").
    report = run_checks(loaded(facts), as_of, "enrollment")
    flagged = {f.rule for f in report.findings} & TIMING_RULES
    assert not flagged, [f.message for f in report.findings if f.rule in flagged]


@SETTINGS
@given(
    grant_date=days,
    offset=st.integers(0, 500),
    meeting=st.none() | st.integers(-200, 500),
    first_eligible=st.none() | days,
)
def test_a_director_election_before_the_grant_year_is_timely_under_409a(
    grant_date, offset, meeting, first_eligible
):
    from docgen.kinds.director_rsu.facts import DirectorGrantFacts

    filed = date(grant_date.year - 1, 12, 31) - timedelta(days=offset)
    meeting_date = grant_date + timedelta(days=meeting) if meeting is not None else None
    data = deep_merge(
        bases()["director"]["facts"],
        {
            "grant": {
                "grant_date": grant_date,
                "notice_date": grant_date,
                "election_deadline": grant_date,
                "vesting": {"annual_meeting_date": meeting_date},
            },
        },
    )
    # deep_merge copies only what it merges: copy the director before changing it, or the
    # cached case base (bases()) is changed for every later test.
    data["directors"] = [{**data["directors"][0], "first_eligible_on": first_eligible}]
    data["directors"][0]["elections"] = [
        {"grant_id": "2026-annual", "filed_on": filed, "percent": 100, "pay_on": "separation"}
    ]
    report = run_checks(loaded(DirectorGrantFacts.model_validate(data)), grant_date, "grant")
    assert "RSU-ELECTION-409A-TIMING" not in report.rule_ids()
    assert "RSU-ELECTION-LATE" not in report.rule_ids()
