"""The Plan's arithmetic, worked by hand in the comments and checked against
docgen.kinds.rrp.arithmetic."""

from __future__ import annotations

import csv
import io
import json
from datetime import date
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from docgen.kinds.rrp.arithmetic import compute
from docgen.kinds.rrp.facts import RRPPlanYearFacts
from docgen.kinds.rrp.terms import payment_window, vesting
from docgen.load import load_facts

LIMIT_2026 = Decimal(360_000)


def plan_year(*participants: dict, **top) -> RRPPlanYearFacts:
    data = {
        "kind": "rrp-plan-year",
        "company": {"name": "CarMax, Inc.", "publicly_traded": True},
        "plan": {"name": "CarMax, Inc. Retirement Restoration Plan"},
        "plan_year": 2026,
        "retirement_contribution_percent": "4",
        "participants": list(participants),
    }
    plan = top.pop("plan", {})
    data.update(top)
    data["plan"] = {**data["plan"], **plan}
    return RRPPlanYearFacts.model_validate(data)


def person(id="e1", compensation="520000", elections=(), **more) -> dict:
    return {
        "id": id,
        "name": "Pat Lee",
        "eligible_employee": True,
        "compensation": compensation,
        "elections": list(elections),
        **more,
    }


def salary(percent, made_on="2025-12-10", year=2026) -> dict:
    return {"kind": "salary", "plan_year": year, "percent": percent, "made_on": made_on}


def bonus(percent, made_on="2025-12-10", year=2026, **more) -> dict:
    return {"kind": "bonus", "plan_year": year, "percent": percent, "made_on": made_on, **more}


def only(facts: RRPPlanYearFacts):
    return compute(facts).participants[0]


# ------------------------------------------------------------------------ worked examples


def test_the_design_example():
    # Compensation 520,000; 2026 limit 360,000 -> Plan Compensation 160,000 (Plan 1.21).
    # 10% salary election -> 16,000 deferred (Plan 2.03, 3.03).
    # Match: min(100% x 16,000, 6% x 160,000 = 9,600) = 9,600 (Plan 3.04).
    # Retirement restoration: 4% x 160,000 = 6,400 (Plan 3.02), employed on December 31.
    row = only(plan_year(person(elections=[salary(10)])))
    assert row.plan_compensation == Decimal("160000")
    assert row.elective_deferral == Decimal("16000.00")
    assert row.matching_restoration == Decimal("9600.00")
    assert row.retirement_restoration == Decimal("6400.00")
    assert row.payment_due_on is None


def test_a_deferral_under_the_cap_is_matched_in_full():
    # 415,000 - 360,000 = 55,000; 5% -> 2,750; 6% cap = 3,300; match = 2,750.
    row = only(plan_year(person(compensation="415000", elections=[salary(5)])))
    assert (row.elective_deferral, row.matching_restoration) == (Decimal("2750.00"),) * 2


def test_compensation_at_or_under_the_limit_gives_no_plan_compensation():
    # 360,000 - 360,000 = 0 and 340,000 - 360,000 would be negative: both 0, never negative.
    for compensation in ("360000", "340000"):
        row = only(plan_year(person(compensation=compensation, elections=[salary(10)])))
        assert row.plan_compensation == 0
        assert row.elective_deferral == row.matching_restoration == 0
        assert any("not above the 2026 limit" in note for note in row.notes)


def test_one_dollar_over_the_limit():
    # 360,001 - 360,000 = 1.00; 10% -> 0.10; match min(0.10, 0.06) = 0.06.
    row = only(plan_year(person(compensation="360001", elections=[salary(10)])))
    assert (row.plan_compensation, row.elective_deferral, row.matching_restoration) == (
        Decimal(1),
        Decimal("0.10"),
        Decimal("0.06"),
    )


def test_salary_absorbs_the_limit_first():
    # 600,000 = 450,000 salary + 150,000 bonus. Salary Plan Compensation 450,000 - 360,000
    # = 90,000; bonus Plan Compensation 240,000 - 90,000 = 150,000.
    # 10% x 90,000 = 9,000 + 20% x 150,000 = 30,000 -> 39,000 deferred.
    # Match min(39,000, 6% x 240,000 = 14,400) = 14,400.
    row = only(
        plan_year(
            person(
                compensation="600000",
                bonus_compensation="150000",
                elections=[salary(10), bonus(20)],
            )
        )
    )
    assert row.salary_plan_compensation == Decimal(90_000)
    assert row.bonus_plan_compensation == Decimal(150_000)
    assert row.elective_deferral == Decimal("39000.00")
    assert row.matching_restoration == Decimal("14400.00")


def test_a_bonus_below_the_limit_after_salary_is_all_plan_compensation():
    # Salary 300,000 (under the limit) + bonus 100,000: salary Plan Compensation 0, bonus
    # Plan Compensation 400,000 - 360,000 = 40,000. 50% bonus election -> 20,000.
    row = only(
        plan_year(
            person(
                compensation="400000",
                bonus_compensation="100000",
                elections=[salary(10), bonus(50)],
            )
        )
    )
    assert row.salary_plan_compensation == 0
    assert row.elective_deferral == Decimal("20000.00")
    assert row.matching_restoration == Decimal("2400.00")  # 6% x 40,000


def test_a_performance_based_election_reaches_the_bonus_part_in_full():
    # Made June 15 for a calendar period: not pro-rated (the performance-based route). 900,000 =
    # 600,000 salary + 300,000 bonus; bonus Plan Compensation 300,000 (salary absorbs the limit:
    # 600,000 - 360,000 = 240,000). 40% x 300,000 = 120,000. Match (DESIGN.md, "The Plan's
    # arithmetic"): 6% of the Plan Compensation of the pay deferred, the bonus only: min(120,000, 6%
    # x 300,000 = 18,000) = 18,000, never 6% x 540,000 = 32,400 (the salary's 240,000 was not
    # deferred from).
    election = {
        "kind": "performance_based",
        "plan_year": 2026,
        "percent": 40,
        "made_on": "2026-06-15",
        "performance_period": {
            "start": "2026-01-01",
            "end": "2026-12-31",
            "criteria_established_on": "2026-03-15",
        },
    }
    row = only(
        plan_year(
            person(
                compensation="900000",
                bonus_compensation="300000",
                elections=[election],
            )
        )
    )
    assert row.elective_deferral == Decimal("120000.00")
    assert row.matching_restoration == Decimal("18000.00")


def test_a_first_year_salary_election_in_march():
    # Hired and first eligible March 2, 2026; 8% elected March 30 (day 28 of 30). Plan Compensation
    # is the top slice of the year's pay (Plan 1.21; DESIGN.md, "The Plan's arithmetic"): cumulative
    # pay passes the 360,000 limit late in the year, long after March 30. Salary for services up to
    # the election: 410,000 x 29 days (Mar 2-30) / 305 days (Mar 2-Dec 31) = 38,983.61. Reached:
    # max(0, 410,000 - max(360,000, 38,983.61)) = 50,000, all of the Plan Compensation. 8% x 50,000
    # = 4,000.00; match min(4,000, 6% x 50,000 = 3,000) = 3,000.00. (Pro-rating by days, 50,000 x 8%
    # x 276/365 = 3,024.66, understated it.)
    row = only(
        plan_year(
            person(
                compensation="410000",
                hired_on="2026-03-02",
                first_eligible_on="2026-03-02",
                elections=[salary(8, made_on="2026-03-30")],
            )
        )
    )
    assert row.elective_deferral == Decimal("4000.00")
    assert row.matching_restoration == Decimal("3000.00")
    assert any("Plan 2.03(c)" in note for note in row.notes)


def test_a_first_year_salary_election_after_pay_passed_the_limit():
    # Employed all year, first eligible July 1 (selected mid-year); 10% elected July 15.
    # Salary for services Jan 1-Jul 15: 800,000 x 196/365 = 429,589.04, above the limit, so the
    # election reaches 800,000 - 429,589.04 = 370,410.96 of the 440,000 Plan Compensation.
    # 10% -> 37,041.10; match min(37,041.10, 6% x 370,410.96 = 22,224.66) = 22,224.66.
    row = only(
        plan_year(
            person(
                compensation="800000",
                hired_on="2010-01-04",
                first_eligible_on="2026-07-01",
                elections=[salary(10, made_on="2026-07-15")],
            )
        )
    )
    assert row.plan_compensation == Decimal(440_000)
    assert row.elective_deferral == Decimal("37041.10")
    assert row.matching_restoration == Decimal("22224.66")


def test_a_bonus_only_election_with_salary_above_the_limit():
    # 640,000 = 400,000 salary + 240,000 bonus. Salary absorbs the limit: salary Plan Compensation
    # 40,000, bonus Plan Compensation 240,000. 50% bonus election -> 120,000. Match (Plan 3.04,
    # DESIGN.md, "The Plan's arithmetic"): 6% of the bonus's Plan Compensation, the pay deferred
    # from: min(120,000, 6% x 240,000 = 14,400) = 14,400 (not 6% x 280,000 = 16,800).
    row = only(
        plan_year(
            person(
                compensation="640000",
                bonus_compensation="240000",
                elections=[bonus(50)],
            )
        )
    )
    assert (row.salary_plan_compensation, row.bonus_plan_compensation) == (40_000, 240_000)
    assert row.elective_deferral == Decimal("120000.00")
    assert row.matching_restoration == Decimal("14400.00")


def test_a_first_year_bonus_election_is_pro_rated_over_its_period():
    # Bonus earned over the calendar year; elected Feb 10: 365 - 41 = 324 days left.
    # 450,000 = 350,000 salary + 100,000 bonus; bonus Plan Compensation 90,000.
    # 20% x 90,000 x 324/365 = 15,978.082... -> 15,978.08. The bonus is taken as paid in a pay
    # period of its own (no pay periods given): the match cap is 6% of all of that period's Plan
    # Compensation, 6% x 90,000 = 5,400, not of the share the election reaches (Plan 3.04).
    row = only(
        plan_year(
            person(
                compensation="450000",
                bonus_compensation="100000",
                first_eligible_on="2026-01-15",
                elections=[bonus(20, made_on="2026-02-10")],
            )
        )
    )
    assert row.elective_deferral == Decimal("15978.08")
    assert row.matching_restoration == Decimal("5400.00")


def test_a_rolled_over_election():
    # Plan 2.03(b): a 10% salary election made for 2025 and nothing new rolls over to 2026.
    # 520,000 - 360,000 = 160,000; 10% -> 16,000; match min(16,000, 9,600) = 9,600.
    row = only(plan_year(person(elections=[salary(10, year=2025, made_on="2024-12-01")])))
    assert row.elective_deferral == Decimal("16000.00")
    assert row.matching_restoration == Decimal("9600.00")
    assert row.elections_in_force["salary"]["plan_year"] == 2025
    assert any("rolled over to 2026 (Plan 2.03(b))" in note for note in row.notes)


def test_a_late_change_after_a_timely_election():
    # 10% made December 10, 2025 (timely for 2026), then 20% on January 20, 2026 (late for 2026:
    # its deadline was December 31, 2025). The late change never takes effect for 2026: the 10%
    # stays (DESIGN.md, "Elections roll over"): 16,000 deferred, matched 9,600.
    late = salary(20, made_on="2026-01-20")
    row = only(plan_year(person(elections=[salary(10), late])))
    assert row.elective_deferral == Decimal("16000.00")
    assert row.elections_in_force["salary"]["percent"] == "10"
    assert any("20% made 2026-01-20 does not take effect for 2026" in n for n in row.notes)
    # It met 2027's deadline (December 31, 2026): in force for 2027. With a 370,000 limit,
    # 520,000 - 370,000 = 150,000; 20% -> 30,000; match min(30,000, 9,000) = 9,000.
    row_2027 = only(
        plan_year(
            person(elections=[salary(10), late]),
            plan_year=2027,
            plan={"compensation_limit": "370000"},
        )
    )
    assert row_2027.elective_deferral == Decimal("30000.00")
    assert row_2027.matching_restoration == Decimal("9000.00")


@pytest.mark.parametrize(
    ("revoked_on", "deferral"),
    [
        # Filed by December 31, 2025: meets 2026's deadline, so no election is in force.
        ("2025-11-10", None),
        ("2025-12-31", None),
        # Filed January 1, 2026: late for 2026, the election stays (16,000); stops for 2027.
        ("2026-01-01", Decimal("16000.00")),
    ],
)
def test_a_revocation_filed_in_time_and_one_filed_late(revoked_on, deferral):
    election = {**salary(10, year=2025, made_on="2024-12-10"), "revoked_on": revoked_on}
    row = only(plan_year(person(elections=[election])))
    assert row.elective_deferral == deferral
    if deferral is None:
        assert row.matching_restoration is None
        assert [n for n in row.notes if "revoked on" in n] == [
            "no salary Deferral Election in force for 2026: the salary election of 10% made "
            f"2024-12-10 was revoked on {revoked_on}, effective for 2026 (Plan 2.03(b))"
        ]
    else:
        assert any("stays in force for 2026 and stops for 2027" in n for n in row.notes)
        row_2027 = only(
            plan_year(
                person(elections=[election]),
                plan_year=2027,
                plan={"compensation_limit": "370000"},
            )
        )
        assert row_2027.elective_deferral is None


def test_a_march_to_february_bonus():
    # A bonus earned March 1, 2025 to February 28, 2026, paid in the 2026 Plan Year. DESIGN.md, "RRP
    # election timing": its prior-year deadline is December 31 before the year the period begins:
    # Dec 31, 2024.
    period = {"start": "2025-03-01", "end": "2026-02-28"}
    # Elected December 15, 2024: in force. 600,000 = 450,000 salary + 150,000 bonus; bonus Plan
    # Compensation 150,000 (salary absorbs the limit); 25% -> 37,500; match min(37,500, 6% x
    # 150,000 = 9,000) = 9,000.
    timely = bonus(25, made_on="2024-12-15", performance_period=period)
    row = only(
        plan_year(
            person(
                compensation="600000",
                bonus_compensation="150000",
                elections=[timely],
            )
        )
    )
    assert (row.elective_deferral, row.matching_restoration) == (
        Decimal("37500.00"),
        Decimal("9000.00"),
    )
    # Elected December 10, 2025: late for that bonus, so nothing is deferred for 2026 (no other
    # election): null, with the reason; it takes effect for the next bonus period (2027).
    late = bonus(25, made_on="2025-12-10", performance_period=period)
    row = only(
        plan_year(
            person(
                compensation="600000",
                bonus_compensation="150000",
                elections=[late],
            )
        )
    )
    assert row.elective_deferral is None and row.matching_restoration is None
    assert row.notes[0].startswith("no bonus or performance-based pay Deferral Election in force")
    assert any("applies from 2027 (Plan 2.03(b))" in note for note in row.notes)


@pytest.mark.parametrize("percent", ["7.5", "76", "80"])
def test_a_percent_the_plan_does_not_allow_is_never_used(percent):
    row = only(plan_year(person(elections=[salary(percent)])))
    assert row.elective_deferral is None and row.matching_restoration is None
    assert any("Plan 2.03(a)" in note for note in row.notes)
    assert row.retirement_restoration == Decimal("6400.00")  # still credited (Plan 3.02)


def test_the_plan_maximum_is_used():
    # 75% of 1,090,000 = 817,500; match capped at 6% = 65,400.
    row = only(plan_year(person(compensation="1450000", elections=[salary(75)])))
    assert (row.elective_deferral, row.matching_restoration) == (
        Decimal("817500.00"),
        Decimal("65400.00"),
    )


def test_no_election_still_gets_retirement_restoration():
    # No Deferral Election in force: deferral and match are null, with the reason (DESIGN.md,
    # "Elections roll over"); the Retirement Restoration Contribution is 4% x 340,000 = 13,600 (Plan
    # 3.02).
    row = only(plan_year(person(compensation="700000")))
    assert row.elective_deferral is row.matching_restoration is None
    assert row.notes == ("no Deferral Election in force for 2026: none on file (Plan 2.03(b))",)
    assert row.retirement_restoration == Decimal("13600.00")


def test_a_late_election_is_never_given_a_figure():
    # Made January 2, 2026 for 2026, no first-year route: not in force (DESIGN.md, "Elections roll
    # over").
    row = only(plan_year(person(elections=[salary(10, made_on="2026-01-02")])))
    assert row.elective_deferral is None and row.matching_restoration is None
    assert len(row.notes[0].splitlines()) == 1 and "(Plan 2.03(b))" in row.notes[0]
    # A first-year election by someone not newly eligible is no better (RRP-NOT-NEWLY-ELIGIBLE).
    row = only(
        plan_year(
            person(
                first_eligible_on="2026-03-02",
                previously_eligible_until="2025-03-31",
                elections=[salary(10, made_on="2026-03-20")],
            )
        )
    )
    assert row.elective_deferral is None


def test_no_declared_retirement_contribution_gives_null():
    row = only(plan_year(person(), retirement_contribution_percent=None))
    assert row.retirement_restoration is None


def test_not_an_eligible_employee_gets_no_contributions():
    row = only(plan_year(person(eligible_employee=False, elections=[salary(10)])))
    assert row.elective_deferral is row.matching_restoration is row.retirement_restoration is None


@pytest.mark.parametrize(
    ("termination", "restoration"),
    [
        ({"on": "2026-07-04", "reason": "death", "age": 61, "hours_of_service": 900}, "6400.00"),
        # Retired at 65 with 1,000 hours: both boundaries met.
        (
            {"on": "2026-09-30", "reason": "retirement", "age": 65, "hours_of_service": 1000},
            "6400.00",
        ),
        # 999 hours, or age 64: not Retired after 1,000 Hours of Service.
        ({"on": "2026-09-30", "reason": "retirement", "age": 65, "hours_of_service": 999}, "0.00"),
        ({"on": "2026-09-30", "reason": "other", "age": 64, "hours_of_service": 1500}, "0.00"),
        # Left on December 31: employed on the last day of the Plan Year.
        ({"on": "2026-12-31", "reason": "other", "age": 40, "hours_of_service": 2000}, "6400.00"),
        ({"on": "2026-12-30", "reason": "other", "age": 40, "hours_of_service": 2000}, "0.00"),
        # Age unknown: not guessed.
        ({"on": "2026-09-30", "reason": "retirement"}, None),
    ],
)
def test_retirement_restoration_depends_on_how_the_year_ended(termination, restoration):
    row = only(plan_year(person(termination=termination)))
    expected = None if restoration is None else Decimal(restoration)
    assert row.retirement_restoration == expected


# ------------------------------------------------------------------------ pay periods


def test_match_is_capped_pay_period_by_pay_period():
    # Three payrolls: 200,000, 200,000, 120,000 (= 520,000). Cumulative: 200,000 (under
    # 360,000 -> 0 Plan Compensation); 400,000 (40,000 above); 520,000 (120,000 above).
    # Bonus 120,000 in the third. 10% salary on period 2: 4,000 (match min(4,000, 2,400) = 2,400).
    # Period 3 is all bonus: 50% x 120,000 = 60,000; match min(60,000, 7,200) = 7,200.
    periods = [
        {"paid_on": "2026-04-30", "compensation": "200000"},
        {"paid_on": "2026-08-31", "compensation": "200000"},
        {"paid_on": "2026-12-31", "compensation": "120000", "bonus": "120000"},
    ]
    row = only(plan_year(person(pay_periods=periods, elections=[salary(10), bonus(50)])))
    assert [p.plan_compensation for p in row.pay_periods] == [0, 40_000, 120_000]
    assert [p.elective_deferral for p in row.pay_periods] == [0, Decimal(4000), Decimal(60000)]
    assert [p.matching_restoration for p in row.pay_periods] == [0, Decimal(2400), Decimal(7200)]
    assert row.elective_deferral == Decimal("64000.00")
    assert row.matching_restoration == Decimal("9600.00")


def test_the_per_period_cap_binds_where_an_annual_cap_would_not():
    # Period 1: 400,000 salary, 40,000 above the limit; 10% -> 4,000; cap 6% x 40,000 = 2,400.
    # Period 2: 120,000 bonus, all above; 0% bonus election -> nothing deferred, no match.
    # Per period: match 2,400. Worked annually it would be min(4,000, 6% x 160,000) = 4,000.
    periods = [
        {"paid_on": "2026-06-30", "compensation": "400000"},
        {"paid_on": "2026-12-31", "compensation": "120000", "bonus": "120000"},
    ]
    row = only(plan_year(person(pay_periods=periods, elections=[salary(10), bonus(0)])))
    assert row.elective_deferral == Decimal("4000.00")
    assert row.matching_restoration == Decimal("2400.00")
    # Worked annually, salary 400,000 + bonus 120,000, salary election only: the salary's Plan
    # Compensation is 40,000, the bonus's 120,000 is not deferred from, so the cap is 6% x 40,000
    # = 2,400 as well (DESIGN.md, "The Plan's arithmetic"), not 6% x 160,000 = 9,600.
    annual = only(plan_year(person(bonus_compensation="120000", elections=[salary(10)])))
    assert annual.elective_deferral == Decimal("4000.00")
    assert annual.matching_restoration == Decimal("2400.00")


def test_first_year_salary_election_reaches_later_payrolls_only():
    # Elected June 15; the June 15 payroll is not after it, the June 30 one is.
    periods = [
        {"paid_on": "2026-06-15", "compensation": "400000"},  # 40,000 above the limit
        {"paid_on": "2026-06-30", "compensation": "10000"},  # 10,000 above
    ]
    row = only(
        plan_year(
            person(
                compensation="410000",
                first_eligible_on="2026-06-01",
                pay_periods=periods,
                elections=[salary(10, made_on="2026-06-15")],
            )
        )
    )
    assert [p.elective_deferral for p in row.pay_periods] == [0, Decimal(1000)]


def test_pay_periods_must_add_up_to_compensation():
    with pytest.raises(ValueError, match="pay_periods add up to 100000 but compensation is 520000"):
        plan_year(person(pay_periods=[{"paid_on": "2026-01-15", "compensation": "100000"}]))


money = st.decimals(min_value=0, max_value=2_000_000, places=2, allow_nan=False)
percent = st.integers(min_value=0, max_value=75)


@settings(max_examples=150, deadline=None)
@given(
    pays=st.lists(st.tuples(money, st.booleans()), min_size=1, max_size=26),
    salary_percent=percent,
    bonus_percent=percent,
)
def test_pay_period_properties(pays, salary_percent, bonus_percent):
    periods = [
        {
            "paid_on": date(2026, 1, 1 + i).isoformat(),
            "compensation": str(pay),
            "bonus": str(pay) if is_bonus else "0",
        }
        for i, (pay, is_bonus) in enumerate(pays)
    ]
    total = sum(pay for pay, _ in pays)
    facts = plan_year(
        person(
            compensation=str(total),
            pay_periods=periods,
            elections=[salary(salary_percent), bonus(bonus_percent)],
        )
    )
    row = only(facts)
    # Per-pay-period Plan Compensation adds up to the year's; the totals are the periods' sums.
    assert sum(p.plan_compensation for p in row.pay_periods) == row.plan_compensation
    assert row.plan_compensation == max(Decimal(0), total - LIMIT_2026)
    assert sum(p.elective_deferral for p in row.pay_periods) == row.elective_deferral
    assert sum(p.matching_restoration for p in row.pay_periods) == row.matching_restoration
    for p in row.pay_periods:
        assert 0 <= p.matching_restoration <= p.elective_deferral
        assert p.matching_restoration <= p.plan_compensation * 6 / 100 + Decimal("0.005")
        assert p.elective_deferral <= p.plan_compensation * 75 / 100 + Decimal("0.005")


@settings(max_examples=200, deadline=None)
@given(
    compensation=money,
    bonus_share=st.fractions(min_value=0, max_value=1),
    salary_percent=percent,
    bonus_percent=percent,
    rate=st.integers(min_value=0, max_value=100),
    cap=st.integers(min_value=0, max_value=10),
)
# Found by the search: matching the unrounded deferral (40076.8025) credited 17233.03, a cent over
# 43% of the 40076.80 deferred; and a two-part case, each part's match rounded up.
@example(Decimal("932525.75"), Fraction(0), 7, 0, 43, 10)
@example(Decimal("932525.75"), Fraction(2, 100), 7, 5, 43, 6)
def test_annual_properties(compensation, bonus_share, salary_percent, bonus_percent, rate, cap):
    bonus_pay = (
        (compensation * bonus_share.numerator / bonus_share.denominator)
        .quantize(Decimal("0.01"))
        .min(compensation)
    )
    facts = plan_year(
        person(
            compensation=str(compensation),
            bonus_compensation=str(bonus_pay),
            elections=[salary(salary_percent), bonus(bonus_percent)],
        ),
        plan={"match_rate_percent": rate, "match_cap_percent": cap},
    )
    row = only(facts)
    for amount in (
        row.plan_compensation,
        row.elective_deferral,
        row.matching_restoration,
        row.retirement_restoration,
        row.salary_plan_compensation,
        row.bonus_plan_compensation,
    ):
        assert amount >= 0
    assert row.salary_plan_compensation + row.bonus_plan_compensation == row.plan_compensation
    # The match never exceeds the match rate of the deferral credited, nor the cap on Plan
    # Compensation: half a cent for each part (salary, bonus) rounded to the cent on its own.
    parts = (row.salary_plan_compensation > 0) + (row.bonus_plan_compensation > 0)
    rounding = Decimal("0.005") * max(parts, 1)
    assert row.matching_restoration <= row.elective_deferral * rate / 100 + rounding
    assert row.matching_restoration <= row.plan_compensation * cap / 100 + rounding
    assert row.elective_deferral <= row.plan_compensation * 75 / 100 + rounding


def test_annual_match_is_on_the_deferral_credited():
    """Plan 3.04 matches the Elective Deferral the account is credited with, to the cent: 7% of
    572,525.75 is 40,076.8025, credited as 40,076.80, and 43% of that is 17,233.024, so 17,233.02
    (matching the unrounded deferral gave 17,233.03)."""
    facts = plan_year(
        person(compensation="932525.75", elections=[salary(7)]),
        plan={"match_rate_percent": 43, "match_cap_percent": 10},
    )
    row = only(facts)
    assert row.elective_deferral == Decimal("40076.80")
    assert row.matching_restoration == Decimal("17233.02")


def test_annual_parts_round_as_pay_periods_of_their_own():
    """No pay periods: the salary and the bonus are each rounded to the cent, as the pay period
    each stands for, and the year's deferral is their sum (docs/rrp-arithmetic.md)."""
    facts = plan_year(
        person(
            compensation="360001.00", bonus_compensation="0.50", elections=[salary(1), bonus(1)]
        ),
    )
    row = only(facts)
    # 50 cents of each above the limit, 1% of each half a cent: a cent each, two in all, where
    # one rounding for the year (of a cent) would credit one.
    assert row.salary_plan_compensation == Decimal("0.50")
    assert row.bonus_plan_compensation == Decimal("0.50")
    assert row.elective_deferral == Decimal("0.02")
    assert row.matching_restoration == Decimal("0.02")


# ------------------------------------------------------------------------ payment dates


def termination(on: str, reason: str = "other", age: int = 50) -> dict:
    return {"on": on, "reason": reason, "age": age, "hours_of_service": 1500}


@pytest.mark.parametrize(
    ("left_on", "key_employee_on", "expected"),
    [
        # Not a Key Employee: 60 days after (Plan 4.01(a)). Mar 31 + 60 days = May 30.
        ("2026-03-31", [], ("2026-03-31", "2026-05-30")),
        # Leap year: Jan 1, 2028 + 60 days = Mar 1, 2028 (Feb has 29 days).
        ("2028-01-01", [], ("2028-01-01", "2028-03-01")),
        ("2027-01-01", [], ("2027-01-01", "2027-03-02")),
        # Key Employee from April 1 after the Dec 31 determination (Plan 1.14).
        # April 1: first day of the Key Employee period. Oct 1 -> Nov 1.
        ("2026-04-01", ["2025-12-31"], ("2026-11-01", "2026-11-01")),
        # March 31, the day before: not yet a Key Employee on that determination.
        ("2026-03-31", ["2025-12-31"], ("2026-03-31", "2026-05-30")),
        # March 31, 2027: the last day of the period that began April 1, 2026. Sep 30 -> Oct 1.
        ("2027-03-31", ["2025-12-31"], ("2027-10-01", "2027-10-01")),
        # Aug 31 + 6 months = Feb 28, 2027 -> Mar 1, 2027.
        ("2026-08-31", ["2025-12-31"], ("2027-03-01", "2027-03-01")),
        # Aug 31, 2027 + 6 months = Feb 29, 2028 (leap) -> Mar 1, 2028.
        ("2027-08-31", ["2026-12-31"], ("2028-03-01", "2028-03-01")),
        # May 29 + 6 months = Nov 29 -> Dec 1 (the sample's e1011).
        ("2026-05-29", ["2024-12-31", "2025-12-31"], ("2026-12-01", "2026-12-01")),
    ],
)
def test_payment_window(left_on, key_employee_on, expected):
    year = int(left_on[:4])
    facts = plan_year(
        person(termination=termination(left_on), key_employee_on=key_employee_on),
        plan_year=year,
        plan={"compensation_limit": "360000"},
    )
    window = payment_window(facts, facts.participants[0])
    assert tuple(day.isoformat() for day in window) == expected


@pytest.mark.parametrize("reason", ["death", "disability"])
def test_a_key_employee_who_dies_or_is_disabled_is_paid_within_60_days(reason):
    # Plan 4.01(b) applies only to a termination other than by death or disability.
    facts = plan_year(
        person(
            termination=termination("2026-08-31", reason=reason),
            key_employee_on=["2025-12-31"],
        )
    )
    assert payment_window(facts, facts.participants[0]) == (date(2026, 8, 31), date(2026, 10, 30))


def test_no_delay_when_the_stock_is_not_publicly_traded():
    facts = plan_year(
        person(termination=termination("2026-08-31"), key_employee_on=["2025-12-31"]),
        company={"name": "Private Co.", "publicly_traded": False},
    )
    assert payment_window(facts, facts.participants[0])[1] == date(2026, 10, 30)


def test_a_key_employee_beneficiary_payment_with_and_without_a_recorded_death():
    # A Key Employee (December 31, 2025 determination: April 1, 2026 - March 31, 2027) leaves
    # April 30, 2026: Apr 30 + 6 months = Oct 30 -> paid November 1 (Plan 4.01(b)).
    ke = person(termination=termination("2026-04-30"), key_employee_on=["2025-12-31"])
    facts = plan_year(ke)
    assert payment_window(facts, facts.participants[0]) == (date(2026, 11, 1), date(2026, 11, 1))
    # Died July 20: the delay ends at death (Code 409A(a)(2)(B)(i)); the Beneficiary is paid
    # within 60 days of it: July 20 + 60 days = September 18.
    facts = plan_year({**ke, "died_on": "2026-07-20"})
    assert payment_window(facts, facts.participants[0]) == (date(2026, 7, 20), date(2026, 9, 18))


# ------------------------------------------------------------------------ vesting


def test_a_2019_hire_who_left_in_2025_is_vested():
    # Plan 3.06(b): anyone credited with an Hour of Service on or after January 1, 2017 is fully
    # vested in the restoration accounts, whenever they left. Hired 2019, left June 13, 2025; the
    # 2026 Plan Year file still shows the former Participant's account as vested.
    facts = plan_year(
        person(
            eligible_employee=False,
            compensation="0",
            hired_on="2019-06-03",
            termination=termination("2025-06-13"),
        )
    )
    vested = vesting(facts, facts.participants[0])
    assert vested.restoration_accounts is True
    assert vested.because == "an Hour of Service on or after January 1, 2017 (Plan 3.06(b))"
    # Left December 31, 2016, the day before: not on that ground (three years, death or
    # retirement would still vest).
    facts = plan_year(
        person(
            eligible_employee=False,
            compensation="0",
            hired_on="2015-06-03",
            termination=termination("2016-12-31"),
        )
    )
    assert vesting(facts, facts.participants[0]).restoration_accounts is False


@pytest.mark.parametrize(
    ("year", "more", "because"),
    [
        (2026, {}, "Hour of Service"),
        (2016, {}, None),
        (2016, {"years_of_vesting_service": 3}, "three Years"),
        (2016, {"years_of_vesting_service": 2}, None),
        (2016, {"termination": termination("2016-05-01", "death")}, "died"),
        (2016, {"termination": termination("2016-05-01", "other", age=65)}, "Retired"),
        (2016, {"termination": termination("2016-05-01", "other", age=64)}, None),
    ],
)
def test_vesting(year, more, because):
    facts = RRPPlanYearFacts.model_validate(
        {
            "kind": "rrp-plan-year",
            "company": {"name": "C"},
            "plan": {"name": "C Plan"},
            "plan_year": year,
            "participants": [person(**more)],
        }
    )
    vested = vesting(facts, facts.participants[0])
    assert vested.elective_deferral_account is True  # Plan 3.06(a): always
    assert vested.restoration_accounts is (because is not None)
    if because:
        assert because in vested.because


# ------------------------------------------------------------------------ the sample and CLI


def test_the_enrollment_sample_worked_by_hand(samples):
    facts = load_facts(samples / "rrp-2026.yaml").facts
    rows = {row.id: row for row in compute(facts).participants}
    # e1004: 75% made for 2024, rolled over. 1,450,000 - 360,000 = 1,090,000; 75% -> 817,500;
    # match 6% -> 65,400; restoration 4% -> 43,600.
    assert (rows["e1004"].elective_deferral, rows["e1004"].matching_restoration) == (
        Decimal("817500.00"),
        Decimal("65400.00"),
    )
    assert rows["e1004"].retirement_restoration == Decimal("43600.00")
    # e1019: 395,000 - 360,000 = 35,000; 9% -> 3,150; match min(3,150, 2,100) = 2,100.
    assert (rows["e1019"].elective_deferral, rows["e1019"].matching_restoration) == (
        Decimal("3150.00"),
        Decimal("2100.00"),
    )
    # e1005, bonus only: 50% x 240,000 = 120,000; match 6% x 240,000 = 14,400.
    assert rows["e1005"].matching_restoration == Decimal("14400.00")
    # e1003: salary 15% x 140,000 = 21,000 (match min(21,000, 8,400) = 8,400); bonus 25% x
    # 280,000 = 70,000 (match min(70,000, 16,800) = 16,800): 91,000 and 25,200.
    assert (rows["e1003"].elective_deferral, rows["e1003"].matching_restoration) == (
        Decimal("91000.00"),
        Decimal("25200.00"),
    )
    # e1006 revoked in November 2025: nothing in force for 2026. e1007: the 2026 election (6%)
    # replaced the 2023 one (3%): 6% x 35,000 = 2,100.
    assert rows["e1006"].elective_deferral is None
    assert rows["e1007"].elective_deferral == Decimal("2100.00")
    # e1017: 340,000 is under the limit. e1018 is not an Eligible Employee.
    assert rows["e1017"].plan_compensation == 0
    assert rows["e1018"].elective_deferral is None
    # e1028, hired 2019 and left June 13, 2025: vested (an Hour of Service on or after
    # January 1, 2017, Plan 3.06(b)); paid by June 13 + 60 days = August 12, 2025.
    assert rows["e1028"].vested.restoration_accounts is True
    assert rows["e1028"].payment_due_on == date(2025, 8, 12)


def test_the_year_sample_worked_by_hand(samples):
    facts = load_facts(samples / "rrp-2026-year.yaml").facts
    rows = {row.id: row for row in compute(facts).participants}
    # e1006: first-year salary election in March: 8% x 50,000 = 4,000; match 3,000 (DESIGN.md, "The
    # Plan's arithmetic").
    assert (rows["e1006"].elective_deferral, rows["e1006"].matching_restoration) == (
        Decimal("4000.00"),
        Decimal("3000.00"),
    )
    # e1007: hired July 1, 6% on July 31: salary before the election 395,000 x 31/184 =
    # 66,548.91 < limit, so all 35,000 is reached: 2,100, matched 2,100.
    assert rows["e1007"].elective_deferral == Decimal("2100.00")
    # e1008: first-year bonus, 20% x 90,000 x 324/365 = 15,978.08; the bonus is paid in a pay
    # period of its own, capped at 6% of all of its Plan Compensation: 6% x 90,000 = 5,400.
    assert (rows["e1008"].elective_deferral, rows["e1008"].matching_restoration) == (
        Decimal("15978.08"),
        Decimal("5400.00"),
    )
    # e1012 Retired at 66 after 1,450 hours on Sep 30: restoration 4% x 250,000 = 10,000;
    # paid by Sep 30 + 60 days = Nov 29.
    assert rows["e1012"].retirement_restoration == Decimal("10000.00")
    assert rows["e1012"].payment_due_on == date(2026, 11, 29)
    # e1011 Key Employee left May 29 at 58 with 700 hours: no restoration; paid Dec 1.
    assert rows["e1011"].retirement_restoration == 0
    assert rows["e1011"].payment_due_on == date(2026, 12, 1)
    # e1013 died July 4: 4% x 145,000 = 5,800; paid by Sep 2.
    assert rows["e1013"].retirement_restoration == Decimal("5800.00")
    assert rows["e1013"].payment_due_on == date(2026, 9, 2)
    # e1029 revoked in time: null. e1030 revoked January 12, 2026: 7% x 80,000 = 5,600 stays.
    assert rows["e1029"].elective_deferral is None
    assert rows["e1030"].elective_deferral == Decimal("5600.00")
    # e1032, a Key Employee who left April 30 and died July 20: paid within 60 days of the death
    # (Sep 18), not on November 1.
    assert (rows["e1032"].payment_earliest_on, rows["e1032"].payment_due_on) == (
        date(2026, 7, 20),
        date(2026, 9, 18),
    )
    # e1033, the March-to-February bonus elected December 15, 2024: 25% x 150,000 = 37,500.
    assert rows["e1033"].elective_deferral == Decimal("37500.00")


def test_cli_json_has_the_contract_keys(cli, samples):
    result = cli("compute", samples / "rrp-2026-year.yaml", "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["plan_year"] == 2026 and data["compensation_limit"] == "360000.00"
    first = data["participants"][0]
    assert set(first) >= {
        "id",
        "plan_compensation",
        "elective_deferral",
        "matching_restoration",
        "retirement_restoration",
        "vested",
        "payment_due_on",
        "elections_in_force",
    }
    assert first["plan_compensation"] == "160000.00" and first["payment_due_on"] is None
    assert first["elections_in_force"] == {
        "salary": {
            "kind": "salary",
            "percent": "10",
            "made_on": "2024-12-10",
            "plan_year": 2025,
            "in_force_since": 2025,
        },
        "bonus": None,
    }
    rows = {row["id"]: row for row in data["participants"]}
    assert rows["e1011"]["payment_due_on"] == "2026-12-01"


def test_cli_csv_and_text(cli, samples):
    rows = list(
        csv.DictReader(
            io.StringIO(cli("compute", samples / "rrp-2026.yaml", "--format", "csv").stdout)
        )
    )
    assert len(rows) == 28 and rows[0]["elective_deferral"] == "16000.00"
    # No election in force: the deferral is empty and the note says why.
    e1016 = next(row for row in rows if row["id"] == "e1016")
    assert e1016["elective_deferral"] == "" and "none on file (Plan 2.03(b))" in e1016["notes"]
    text = cli("compute", samples / "rrp-2026.yaml").stdout
    assert "160,000.00" in text and "e1028" in text


DIVIDEND_GRANT = """kind: director-rsu-grant
company:
  name: Example Co.
  secretary_phone: "(555) 555-0100"
  governing_law: Commonwealth of Virginia
stock_plan: Example Co. Stock Incentive Plan
form_10k_fiscal_year: 2026
grant:
  id: 2026-annual
  grant_date: 2026-06-23
  notice_date: 2026-06-23
  election_deadline: 2026-06-23
  fair_market_value: "45.10"
  dividends:
    - {paid_on: 2026-09-15, per_share: "0.50", fair_market_value: "50.00"}
    - {paid_on: 2026-12-15, per_share: "0.50", fair_market_value: "40.00"}
    - {paid_on: 2027-03-15, per_share: "0.50", fair_market_value: "45.10"}
    - {paid_on: 2027-07-15, per_share: "0.50", fair_market_value: "45.10"}
directors:
  - {id: paid, name: Pat Paid, units: 1000}
  - id: gone
    name: Gene Gone
    units: 1000
    settlement: {separation_on: 2027-06-22}
"""


def test_a_directors_dividend_equivalent_units_worked_by_hand(cli, tmp_path):
    # Notice E, no election: paid on the first anniversary, 2027-06-23 (Notice C.1(iv)).
    # 2026-09-15: 1,000 x 0.50 / 50.00 = 10.0000 units -> 1,010.0000
    # 2026-12-15: 1,010 x 0.50 / 40.00 = 12.6250 -> 1,022.6250
    # 2027-03-15: 1,022.625 x 0.50 / 45.10 = 11.33730... -> 11.3373 -> 1,033.9623
    # 2027-07-15 is after the Payment Date: not counted. Shares: 1,033 whole, 0.9623 left over.
    path = tmp_path / "grant.yaml"
    path.write_text(DIVIDEND_GRANT, encoding="utf-8")
    result = cli("compute", path, "--format", "json")
    assert result.exit_code == 0, result.stderr
    paid, gone = json.loads(result.stdout)["directors"]
    assert [step["units_added"] for step in paid["dividends"]] == ["10.0000", "12.6250", "11.3373"]
    assert paid["dividend_equivalent_units"] == "33.9623"
    assert (paid["total_units"], paid["shares_to_deliver"]) == ("1033.9623", 1033)
    assert paid["fractional_unit"] == "0.9623"
    assert (paid["vesting_date"], paid["payment_date"]) == ("2027-06-23", "2027-06-23")
    assert paid["delivery_window"] == {"from": "2027-06-23", "to": "2027-08-22"}
    assert paid["citations"]["dividend_equivalent_units"] == "Notice E"
    # Service ended the day before the Vesting Date: forfeited with the dividend equivalents.
    assert (gone["forfeited_on"], gone["vesting_date"], gone["shares_to_deliver"]) == (
        "2027-06-22",
        None,
        0,
    )
    assert any("Notice A" in note for note in gone["notes"])
    rows = list(csv.DictReader(io.StringIO(cli("compute", path, "--format", "csv").stdout)))
    assert (rows[0]["shares_to_deliver"], rows[0]["deliver_by"]) == ("1033", "2027-08-22")
    text = cli("compute", path).stdout
    assert "1,033" in text and "forfeited 2027-06-22" in text


def test_compute_for_the_director_sample(cli, samples):
    result = cli("compute", samples / "director-grant-2026.yaml", "--format", "json")
    assert result.exit_code == 0, result.stderr
    rows = {row["id"]: row for row in json.loads(result.stdout)["directors"]}
    assert rows["rgarcia"]["payment_date"] == "2030-07-01"  # the governing form's date
    assert rows["jsmith"]["payment_date"] is None  # paid on separation: none on record


def test_cli_names_a_year_with_no_limit(cli, tmp_path, samples):
    text = (samples / "rrp-2026.yaml").read_text().replace("plan_year: 2026 ", "plan_year: 2031 ")
    path = tmp_path / "rrp-2031.yaml"
    path.write_text(text)
    result = cli("compute", path)
    assert result.exit_code == 2
    assert "2031" in result.stderr


def test_compute_writes_to_a_file_with_o(cli, samples, tmp_path):
    target = tmp_path / "arithmetic.csv"
    result = cli("compute", samples / "rrp-2026.yaml", "--format", "csv", "-o", target)
    assert result.exit_code == 0 and result.stdout == ""
    assert target.read_text().splitlines()[0].startswith("id,name,plan_compensation")
    table = tmp_path / "arithmetic.txt"
    assert cli("compute", samples / "rrp-2026.yaml", "-o", table).exit_code == 0
    assert "e1001" in table.read_text() and "\x1b[" not in table.read_text()


# ------------------------------------------------ per pay period and per election (A18 readings)


def _monthly(salary: str, year: int = 2026, **december) -> list[dict]:
    """Twelve month-end payrolls of ``salary``; ``december`` adds to the last one."""
    ends = ["01-31", "02-28", "03-31", "04-30", "05-31", "06-30"]
    ends += ["07-31", "08-31", "09-30", "10-31", "11-30", "12-31"]
    periods = [{"paid_on": f"{year}-{end}", "compensation": salary} for end in ends]
    periods[-1].update(december)
    return periods


def test_the_match_cap_counts_all_of_a_shared_pay_periods_plan_compensation():
    # 480,000 salary, 40,000 a month; December also pays a 100,000 bonus. The 360,000 limit is
    # reached at the end of September: October, November and December are Plan Compensation
    # (40,000; 40,000; 140,000). A 10% salary election, no bonus election: 4,000 a month.
    # Match (Plan 3.04: "not to exceed six percent (6%) of Plan Compensation for such pay
    # period"): October min(4,000, 2,400) = 2,400; November 2,400; December min(4,000, 6% x
    # 140,000 = 8,400) = 4,000. Total 8,800 (capping December at 6% of the salary alone gave
    # 2,400, 7,200 in all).
    periods = _monthly("40000", compensation="140000", bonus="100000")
    row = only(
        plan_year(
            person(
                compensation="580000",
                bonus_compensation="100000",
                pay_periods=periods,
                elections=[salary(10)],
            )
        )
    )
    assert [p.matching_restoration for p in row.pay_periods][-3:] == [
        Decimal("2400.00"),
        Decimal("2400.00"),
        Decimal("4000.00"),
    ]
    assert row.elective_deferral == Decimal("12000.00")
    assert row.matching_restoration == Decimal("8800.00")


def test_a_first_year_75_percent_bonus_election_is_not_capped_twice():
    # First eligible April 15, 2026; 75% of the bonus elected May 13 (day 28). The bonus is earned
    # over the calendar year: 232 of 365 days are after the election. Salary 360,000 absorbs the
    # limit, so the 150,000 bonus is all Plan Compensation. Deferral 75% x 150,000 x 232/365 =
    # 71,506.849... -> 71,506.85 (the percentage is not cut to 75 x 232/365 = 47.67% as well).
    # Match: the bonus paid in a period of its own, min(71,506.85, 6% x 150,000) = 9,000.
    facts = plan_year(
        person(
            compensation="510000",
            bonus_compensation="150000",
            first_eligible_on="2026-04-15",
            elections=[bonus(75, made_on="2026-05-13")],
        )
    )
    row = only(facts)
    assert row.elective_deferral == Decimal("71506.85")
    assert row.matching_restoration == Decimal("9000.00")
    assert any("pay period of its own" in note for note in row.notes)


def test_an_arrears_payroll_pays_for_services_before_the_election():
    # 1,200,000 salary, 100,000 a month, the limit passed in April. First eligible July 15; 10%
    # elected July 30. The July 31 payroll pays for July 1-31, of which only July 31 is after the
    # election: 100,000 x 1/31 x 10% = 322.58 (matched in full, under 6% x 100,000). August to
    # December: 10,000 deferred a month, matched 6,000 each. Deferral 50,322.58, match 30,322.58.
    periods = _monthly("100000")
    for period in periods:
        month = int(period["paid_on"][5:7])
        period["services_from"] = f"2026-{month:02d}-01"
        period["services_to"] = period["paid_on"]
    person_facts = person(
        compensation="1200000",
        hired_on="2010-01-04",
        first_eligible_on="2026-07-15",
        pay_periods=periods,
        elections=[salary(10, made_on="2026-07-30")],
    )
    row = only(plan_year(person_facts))
    july = row.pay_periods[6]
    assert (july.elective_deferral, july.matching_restoration) == (
        Decimal("322.58"),
        Decimal("322.58"),
    )
    assert row.elective_deferral == Decimal("50322.58")
    assert row.matching_restoration == Decimal("30322.58")
    assert not any("services_from" in note for note in row.notes)
    # Without the service dates, each payroll is taken as pay for the days since the previous
    # one (July 1-31 here): the same figures, and a note saying what was assumed.
    for period in periods:
        del period["services_from"], period["services_to"]
    row = only(plan_year(person_facts))
    assert row.elective_deferral == Decimal("50322.58")
    assert any("services_from, services_to" in note for note in row.notes)


def test_a_valid_bonus_election_beside_an_invalid_salary_election():
    # 76% salary is above the Plan maximum (Plan 2.03(a)): that part defers nothing, with a note.
    # The 25% bonus election stands on its own: 500,000 = 400,000 salary + 100,000 bonus; salary
    # absorbs the limit first, so the bonus Plan Compensation is 100,000: 25,000 deferred, match
    # min(25,000, 6% x 100,000) = 6,000.
    row = only(
        plan_year(
            person(
                compensation="500000",
                bonus_compensation="100000",
                elections=[salary(76), bonus(25)],
            )
        )
    )
    assert (row.elective_deferral, row.matching_restoration) == (
        Decimal("25000.00"),
        Decimal("6000.00"),
    )
    assert any("76%" in note and "Plan 2.03(a)" in note for note in row.notes)


def test_a_zero_deferral_says_why():
    # 25% of salary, but the 300,000 salary never passes the 360,000 limit: 0.00, with the reason.
    row = only(plan_year(person(compensation="300000", elections=[salary(25)])))
    assert row.elective_deferral == Decimal("0.00")
    assert any("defers 0.00" in note and "Plan 1.21" in note for note in row.notes)


def test_cli_compute_works_the_match_cap_and_the_service_period(cli, tmp_path):
    """Through `docgen compute`: the shared December pay period (8,800, not 7,200) and a first-year
    election on an arrears payroll with its service dates."""
    months = _monthly("40000", compensation="140000", bonus="100000")
    lines = [
        "kind: rrp-plan-year",
        "company: {name: Example Co.}",
        "plan: {name: Example Co. Retirement Restoration Plan}",
        "plan_year: 2026",
        "participants:",
        "  - {id: shared, name: Sam Shared, eligible_employee: true, compensation: '580000',",
        "     bonus_compensation: '100000',",
        "     elections: [{kind: salary, plan_year: 2026, percent: 10, made_on: 2025-12-10}],",
        "     pay_periods: [",
    ]
    for period in months:
        bonus_part = f", bonus: '{period['bonus']}'" if "bonus" in period else ""
        lines.append(
            f"       {{paid_on: {period['paid_on']}, compensation: '{period['compensation']}'"
            f"{bonus_part}}},"
        )
    lines += [
        "     ]}",
        "  - {id: arrears, name: Ari Arrears, eligible_employee: true, compensation: '1200000',",
        "     hired_on: 2010-01-04, first_eligible_on: 2026-07-15,",
        "     elections: [{kind: salary, plan_year: 2026, percent: 10, made_on: 2026-07-30}],",
        "     pay_periods: [",
    ]
    for period in _monthly("100000"):
        month = period["paid_on"][5:7]
        lines.append(
            f"       {{paid_on: {period['paid_on']}, compensation: '100000', "
            f"services_from: 2026-{month}-01, services_to: {period['paid_on']}}},"
        )
    lines.append("     ]}")
    path = tmp_path / "rrp.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = cli("compute", path, "--format", "json")
    assert result.exit_code == 0, result.stdout + result.stderr
    shared, arrears = json.loads(result.stdout)["participants"]
    assert shared["matching_restoration"] == "8800.00"
    assert (arrears["elective_deferral"], arrears["matching_restoration"]) == (
        "50322.58",
        "30322.58",
    )
    assert arrears["pay_periods"][6]["elective_deferral"] == "322.58"


def test_a_hire_after_the_prior_year_deadline_is_told_what_the_first_year_route_needs(
    cli, tmp_path
):
    # Hired 2026-03-02 with no first_eligible_on: the prior-year deadline (2025-12-31) was never
    # hers to meet; both check and compute say so, and name the fact that opens Plan 2.03(c).
    path = tmp_path / "rrp.yaml"
    path.write_text(
        "kind: rrp-plan-year\ncompany: {name: Example Co.}\n"
        "plan: {name: Example Co. Retirement Restoration Plan}\nplan_year: 2026\n"
        "participants:\n"
        "  - {id: new, name: Nia New, eligible_employee: true, compensation: '500000',\n"
        "     hired_on: 2026-03-02,\n"
        "     elections: [{kind: salary, plan_year: 2026, percent: 10, made_on: 2026-03-20}]}\n",
        encoding="utf-8",
    )
    result = cli("check", path, "--as-of", "2026-04-01", "--stage", "year", "--format", "json")
    (late,) = [f for f in json.loads(result.stdout)["findings"] if f["rule"] == "RRP-ELECTION-LATE"]
    assert "hired 2026-03-02, after that deadline" in late["message"]
    assert "first_eligible_on" in late["message"]
    (row,) = json.loads(cli("compute", path, "--format", "json").stdout)["participants"]
    assert any("hired 2026-03-02" in note for note in row["notes"])
