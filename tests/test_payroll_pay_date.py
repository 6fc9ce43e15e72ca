"""`docgen payroll --pay-date` works each participant's paychecks up to that day and no further
(issue 40, Speed), and must give exactly the whole year's rows of that day: a paycheck's figures
rest on the pay to date (the 401(a)(17) limit is reached by cumulative pay, Plan 1.21), the
elections in force (Plan 2.03) and, for a first-year election, the service days after the
previous pay date (Plan 2.03(c)), never on a later paycheck. Checked on every pay date of a year
that holds each of those: the bench's realistic people (the facts' own monthly pay periods for
some, leavers) on a biweekly schedule with bonuses on and off its pay dates, a mid-period hire
with a first-year election and pay periods without service dates, another on the schedule with
a bonus off its pay dates, a semimonthly leaver paid at
an annual rate from a hire mid-period, two payrolls on one day, and people with no election or
not eligible."""

from __future__ import annotations

import csv
import io
import json
import sys
from datetime import date
from pathlib import Path

import pytest

from docgen.kinds.rrp.arithmetic import ZERO, pay_of, paychecks_on
from docgen.kinds.rrp.terms import compensation_limit
from docgen.load import load_facts

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import realistic  # noqa: E402

HANDMADE = [
    {  # a first-year election (Plan 2.03(c)) and pay periods without service dates: above the
        # limit from the first paycheck, so the April 15 deferral reaches only the days after
        # April 1 of those from the day after the previous pay date (March 16 to April 15)
        "id": "h0001",
        "name": "Rowan Hale",
        "address": ["1 Oak Lane", "Richmond, VA 23220"],
        "eligible_employee": True,
        "compensation": "4000000",
        "hired_on": date(2026, 3, 10),
        "first_eligible_on": date(2026, 3, 10),
        "elections": [
            {"kind": "salary", "plan_year": 2026, "percent": 30, "made_on": date(2026, 4, 1)}
        ],
        "pay_periods": [
            {"paid_on": date(2026, month, 15), "compensation": "400000.00"}
            for month in range(3, 13)
        ],
    },
    {  # two payrolls on one day: the second's year to date counts the first
        "id": "h0002",
        "name": "Quinn Ashby",
        "address": ["2 Oak Lane", "Richmond, VA 23220"],
        "eligible_employee": True,
        "compensation": "900000",
        "bonus_compensation": "300000",
        "hired_on": date(2010, 5, 1),
        "elections": [
            {"kind": "salary", "plan_year": 2026, "percent": 12, "made_on": date(2025, 12, 1)},
            {"kind": "bonus", "plan_year": 2026, "percent": 40, "made_on": date(2025, 12, 1)},
        ],
        "pay_periods": [
            *(
                {"paid_on": date(2026, month, 28), "compensation": "50000.00"}
                for month in range(1, 13)
            ),
            {"paid_on": date(2026, 6, 28), "compensation": "300000.00", "bonus": "300000.00"},
        ],
    },
    {  # no election on file: paychecks with Plan Compensation, no deferral, each saying why
        "id": "h0003",
        "name": "Drew Tate",
        "address": ["3 Oak Lane", "Richmond, VA 23220"],
        "eligible_employee": True,
        "compensation": "780000",
        "hired_on": date(2012, 1, 9),
    },
    {  # paid semimonthly at an annual rate from a hire mid-period (A24), a leaver in November
        "id": "h0005",
        "name": "Jamie Park",
        "address": ["5 Oak Lane", "Richmond, VA 23220"],
        "eligible_employee": True,
        "annual_rate": "1300000.00",
        "pay_frequency": "semimonthly",
        "hired_on": date(2026, 2, 9),
        "first_eligible_on": date(2026, 2, 9),
        "termination": {"on": date(2026, 11, 20), "reason": "other", "age": 50},
        "elections": [
            {"kind": "salary", "plan_year": 2026, "percent": 20, "made_on": date(2026, 3, 2)}
        ],
    },
    {  # hired mid-period on the Plan's biweekly schedule, the salary given for the year in
        # equal parts (the first for the days worked), a bonus in a paycheck of its own, and
        # first-year elections (Plan 2.03(c)): the bonus's service days start the day after the
        # regular pay date before it
        "id": "h0006",
        "name": "Avery Lund",
        "address": ["6 Oak Lane", "Richmond, VA 23220"],
        "eligible_employee": True,
        "compensation": "2600000",
        "bonus_compensation": "400000",
        "bonus_paid_on": date(2026, 7, 1),
        "hired_on": date(2026, 2, 11),
        "first_eligible_on": date(2026, 2, 11),
        "elections": [
            {"kind": "salary", "plan_year": 2026, "percent": 25, "made_on": date(2026, 3, 4)},
            {"kind": "bonus", "plan_year": 2026, "percent": 30, "made_on": date(2026, 3, 4)},
        ],
    },
    {  # not an Eligible Employee (Plan 1.11, 2.01)
        "id": "h0004",
        "name": "Sam Ortiz",
        "address": ["4 Oak Lane", "Richmond, VA 23220"],
        "eligible_employee": False,
        "compensation": "820000",
        "hired_on": date(2015, 7, 1),
    },
]


@pytest.fixture(scope="module")
def facts_file(tmp_path_factory) -> Path:
    facts = realistic.rrp_facts(160)
    facts["plan"]["pay_schedule"] = {"frequency": "biweekly", "first_pay_date": date(2026, 1, 9)}
    facts["plan"]["pay_schedules"] = [
        {"frequency": "semimonthly", "first_pay_date": date(2026, 1, 15)}
    ]
    for number, person in enumerate(facts["participants"]):
        if person.get("bonus_compensation") and "pay_periods" not in person:
            # every third bonus off the pay dates: a paycheck of its own
            person["bonus_paid_on"] = date(2026, 3, 21 if number % 3 == 0 else 20)
    facts["participants"].extend(HANDMADE)
    return realistic.write_json(facts, tmp_path_factory.mktemp("pay-date") / "facts.json")


def _pay_dates(year: dict) -> list[str]:
    return sorted(
        {row["paid_on"] for who in year["participants"] for row in who["paychecks"]} - {None}
    )


def test_each_participants_paychecks_of_a_day_are_the_years_of_that_day(facts_file):
    """The arithmetic itself: for every participant and every pay date of the year (and a day
    with no pay), the day's figures are the whole year's paychecks of that day, field by field."""
    facts = load_facts(facts_file).facts
    limit = compensation_limit(facts)
    days = set()
    years = []
    for participant in facts.participants:
        year = pay_of(facts, participant, limit)
        years.append((participant, year))
        days.update(paycheck.paid_on for paycheck in year.paychecks)
    assert len(days) > 26  # the schedule's, the facts' own and the off-cycle bonus's
    for day in sorted(days | {date(2026, 9, 19)}):
        for participant, year in years:
            on_day = paychecks_on(facts, participant, limit, day)
            assert on_day.paychecks == tuple(p for p in year.paychecks if p.paid_on == day), (
                participant.id,
                day,
            )
            if on_day.paychecks:  # what the rows' notes say of the year's deferral
                assert on_day.deferring == (year.elective_deferral is not None)


def test_every_pay_dates_extract_is_the_whole_years_rows_of_that_day(cli, facts_file):
    """The command: for every pay date, --pay-date's json and csv rows are the year's rows of that
    day (the csv's first row of a participant also carries the participant's own notes)."""
    result = cli("payroll", facts_file, "--format", "json")
    assert result.exit_code == 0, result.output
    year = json.loads(result.stdout)
    year_csv = list(csv.DictReader(io.StringIO(cli("payroll", facts_file).stdout)))
    days = _pay_dates(year)
    assert {"2026-03-21", "2026-06-28", "2026-03-15", "2026-02-15", "2026-11-15"} <= set(days)
    for day in days:
        expected = [
            {"id": who["id"], "name": who["name"], **row}
            for who in year["participants"]
            for row in who["paychecks"]
            if row["paid_on"] == day
        ]
        shown = cli("payroll", facts_file, "--format", "json", "--pay-date", day)
        assert shown.exit_code == 0, shown.output
        assert json.loads(shown.stdout)["paychecks"] == expected, day

        rows = list(
            csv.DictReader(io.StringIO(cli("payroll", facts_file, "--pay-date", day).stdout))
        )
        of_day = [row for row in year_csv if row["paid_on"] == day]
        assert [row["id"] for row in rows] == [row["id"] for row in of_day]
        for row, in_year, in_json in zip(rows, of_day, expected, strict=True):
            assert row == {**in_year, "notes": "; ".join(in_json["notes"])}, (day, row["id"])


def test_a_day_no_one_is_paid_names_the_next_pay_dates(cli, facts_file):
    result = cli("payroll", facts_file, "--pay-date", "2026-12-29")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(
        "--pay-date: no paycheck on 2026-12-29. Give a pay date of the Plan Year"
    )
    result = cli("payroll", facts_file, "--pay-date", "2026-03-16")
    assert result.exit_code == 2
    assert "The next pay dates: 2026-03-20, 2026-03-21, 2026-03-28." in result.stderr


def test_a_days_paychecks_are_worked_with_the_collector_off_then_on(facts_file, monkeypatch):
    """Working out every participant's paychecks of a day makes many objects and no cycles
    (docgen.core.collector): the cycle collector is off while they are worked, on after."""
    import gc

    from docgen.kinds.rrp import payroll

    worked = payroll.each_paychecks_on
    collecting: list[bool] = []

    def watched(facts, day):
        for who in worked(facts, day):
            collecting.append(gc.isenabled())
            yield who

    monkeypatch.setattr(payroll, "each_paychecks_on", watched)
    facts = load_facts(facts_file).facts
    first = pay_of(facts, facts.participants[0], compensation_limit(facts)).paychecks[0]
    assert payroll.on_pay_date(facts, payroll.payroll_year(facts), first.paid_on)
    assert collecting and not any(collecting)
    assert gc.isenabled()


def _days_to_try(facts) -> list[date]:
    """Every pay date of anyone in the facts, the first of the first one's month and December
    31 of the last one's year: a day's figures are tried on each, in date order."""
    from docgen.kinds.rrp.paychecks import paychecks

    days: set[date] = set()
    for participant in facts.participants:
        days.update(period.paid_on for period in paychecks(facts, participant).periods)
    first, last = min(days), max(days)
    return sorted(days | {first.replace(day=1), last.replace(month=12, day=31)})


def test_a_days_paychecks_are_laid_out_through_that_day_as_the_year_has_them(facts_file):
    """paychecks(..., through=day) gives the year's paychecks paid on or before the day, the
    year's Compensation and notes all the same, for each person of the facts (their own pay
    periods, a schedule's with bonuses on and off its pay dates, a rate, a hire mid-period),
    on every pay date and the days either side of the first and last; and one Schedules
    shared by everyone gives the same as each person's own."""
    from docgen.kinds.rrp.paychecks import Schedules, paychecks

    facts = load_facts(facts_file).facts
    shared = Schedules(facts)
    for day in _days_to_try(facts):
        for participant in facts.participants:
            year = paychecks(facts, participant)
            through = paychecks(facts, participant, shared, through=day)
            if year.source == "schedule":
                assert through.periods == tuple(p for p in year.periods if p.paid_on <= day)
            else:
                assert through.periods == year.periods
            assert (through.source, through.notes, through.compensation) == (
                year.source,
                year.notes,
                year.compensation,
            )
    schedules = [s for _, s in facts.plan.schedules()]
    assert schedules and all(shared.pay_dates(s) is shared.pay_dates(s) for s in schedules)
    # everyone employed over the same days on a schedule shares its regular pay dates
    start, end = date(facts.plan_year, 1, 1), date(facts.plan_year, 12, 31)
    for s in schedules:
        whole_year = shared.regular_days(s, start, end)
        assert whole_year is shared.regular_days(s, start, end)
        assert whole_year.days == shared.pay_dates(s) and set(whole_year.shares) == {1}


def test_the_pay_before_a_day_added_up_is_the_laid_out_paychecks_pay(facts_file):
    """pay_through adds up the equal parts of a salary paid before the day without laying each
    paycheck out: its pay before the day (Plan 1.21: the limit is reached by pay to date), last
    pay date before it (a first-year election's service days start the day after, Plan 2.03(c))
    and paychecks of the day are those of the laid-out paychecks, for everyone it serves (a hire
    mid-period, leavers, bonuses in a regular paycheck and in one of their own), on every pay
    date and the days either side of the first and last."""
    from docgen.kinds.rrp.paychecks import Schedules, pay_through, paychecks

    facts = load_facts(facts_file).facts
    shared = Schedules(facts)
    served = set()
    for day in _days_to_try(facts):
        for participant in facts.participants:
            through = pay_through(facts, participant, shared, day)
            if through is None:  # their own pay periods, or a rate: laid out (test above)
                assert participant.pay_periods or participant.annual_rate is not None
                continue
            served.add(participant.id)
            periods = paychecks(facts, participant, shared, through=day).periods
            before = [p for p in periods if p.paid_on < day]
            assert through.paid_before == sum((p.compensation for p in before), ZERO)
            assert through.previous == (before[-1].paid_on if before else None)
            assert through.on_day == tuple(p for p in periods if p.paid_on == day)
    people = {p.id: p for p in facts.participants if p.id in served}
    assert any(p.termination for p in people.values())
    assert any(p.bonus_paid_on for p in people.values())
    assert any(p.hired_on and p.hired_on.year == facts.plan_year for p in people.values())
