"""Plan Compensation from an annual rate (A24; Plan 1.21: Compensation is pay actually paid in the
Plan Year): the salary a rate pays on a person's own pay dates, hire to termination, worked by
hand for each frequency, a hire and a leaver within a pay period, month ends and a leap year; and
a person's own pay frequency, paid on the company's schedule of that frequency.

The rule (docs/rrp-arithmetic.md): a full period pays the rate / the frequency's periods in a year
(52, 26, 24, 12); a paycheck whose period (the days after the previous pay date through its own)
the person was hired or left within pays for the days worked, out of the period's days; each
paycheck is rounded to the cent, half a cent up, from the exact figure; the year's salary is
their sum."""

from __future__ import annotations

import csv
import io
import shutil
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from docgen.core.errors import LoadError
from docgen.kinds.rrp.arithmetic import compute
from docgen.kinds.rrp.facts import RRPPlanYearFacts
from docgen.kinds.rrp.paychecks import paychecks
from docgen.load import load_facts

D = Decimal


def _facts(
    rate: str,
    frequency: str,
    first: str,
    *,
    year: int = 2026,
    hired_on: str | None = None,
    terminated_on: str | None = None,
    **participant: Any,
) -> RRPPlanYearFacts:
    person: dict[str, Any] = {
        "id": "e1",
        "name": "Pat Lee",
        "eligible_employee": True,
        "annual_rate": rate,
        **participant,
    }
    if hired_on:
        person["hired_on"] = date.fromisoformat(hired_on)
    if terminated_on:
        person["termination"] = {"on": date.fromisoformat(terminated_on), "reason": "other"}
    return RRPPlanYearFacts.model_validate(
        {
            "kind": "rrp-plan-year",
            "company": {"name": "X Corp."},
            "plan": {
                "name": "X Corp. Retirement Restoration Plan",
                "compensation_limit": "360000",
                "pay_schedule": {
                    "frequency": frequency,
                    "first_pay_date": date.fromisoformat(first),
                },
            },
            "plan_year": year,
            "participants": [person],
        },
        strict=False,
    )


def _paid(facts: RRPPlanYearFacts) -> list[tuple[date, Decimal]]:
    return [(p.paid_on, p.compensation) for p in paychecks(facts, facts.participants[0]).periods]


def _year(facts: RRPPlanYearFacts) -> Decimal:
    return paychecks(facts, facts.participants[0]).compensation


# ------------------------------------------------------------------ a full year, each frequency


@pytest.mark.parametrize(
    ("rate", "frequency", "first", "count", "each", "year_pay"),
    [
        # 520,000 / 52 = 10,000.00; Fridays from January 2: 52 of them in 2026
        ("520000", "weekly", "2026-01-02", 52, "10000.00", "520000.00"),
        # 415,000 / 26 = 15,961.538...: 15,961.54, half a cent up; x 26 = 415,000.04
        ("415000", "biweekly", "2026-01-02", 26, "15961.54", "415000.04"),
        # 400,000 / 24 = 16,666.666...: 16,666.67; x 24 = 400,000.08
        ("400000", "semimonthly", "2026-01-15", 24, "16666.67", "400000.08"),
        # 500,000 / 12 = 41,666.666...: 41,666.67; x 12 = 500,000.04
        ("500000", "monthly", "2026-01-31", 12, "41666.67", "500000.04"),
    ],
)
def test_a_full_year_pays_the_rate_per_period_on_every_pay_date(
    rate, frequency, first, count, each, year_pay
):
    facts = _facts(rate, frequency, first)
    paid = _paid(facts)
    assert [amount for _, amount in paid] == [D(each)] * count
    assert _year(facts) == D(year_pay)
    # Plan 1.21: the excess of that Compensation over the limit
    result = compute(facts).participants[0]
    assert result.plan_compensation == D(year_pay) - D("360000")


def test_a_year_with_27_biweekly_pay_dates_pays_27_periods():
    # 2027-01-01 is a Friday: + 26 x 14 days is December 31, a 27th pay date. Payroll pays
    # each at 520,000 / 26 = 20,000.00: 540,000 paid in 2027, which is the Plan Year's pay.
    facts = _facts("520000", "biweekly", "2027-01-01", year=2027)
    assert len(_paid(facts)) == 27 and _year(facts) == D("540000.00")
    notes = paychecks(facts, facts.participants[0]).notes
    assert any("540000.00 in 27 paychecks" in note for note in notes)


# ------------------------------------------------------------------ a hire within a period


def test_a_semimonthly_hire_mid_period_is_paid_for_the_days_worked():
    # The July 15 paycheck pays for July 1-15, 15 days; hired July 10: 6 worked.
    # 900,000 x 6 / (24 x 15) = 15,000.00; then 11 full periods of 37,500.00 (July 31 to
    # December 31): 15,000 + 412,500 = 427,500.00, of which 67,500.00 is Plan Compensation.
    facts = _facts("900000", "semimonthly", "2026-01-15", hired_on="2026-07-10")
    paid = _paid(facts)
    assert paid[0] == (date(2026, 7, 15), D("15000.00"))
    assert [amount for _, amount in paid[1:]] == [D("37500.00")] * 11
    assert _year(facts) == D("427500.00")
    assert compute(facts).participants[0].plan_compensation == D("67500.00")
    notes = paychecks(facts, facts.participants[0]).notes
    assert any(
        "the 2026-07-15 paycheck pays for the days worked, 2026-07-10 to 2026-07-15: 6 of its "
        "period's 15 days, 15000.00" in note
        for note in notes
    )


def test_a_biweekly_hire_mid_period_is_paid_for_the_days_worked():
    # Pay dates every other Friday from January 2; the July 17 paycheck pays July 4-17.
    # Hired Wednesday July 8: 10 of 14 days, 20,000 x 10 / 14 = 14,285.714...: 14,285.71.
    # Then July 31 to December 18, 11 full paychecks: 234,285.71.
    facts = _facts("520000", "biweekly", "2026-01-02", hired_on="2026-07-08")
    paid = _paid(facts)
    assert paid[0] == (date(2026, 7, 17), D("14285.71"))
    assert len(paid) == 12 and _year(facts) == D("234285.71")


@pytest.mark.parametrize(
    ("hired_on", "first_check"),
    [
        ("2026-07-01", "37500.00"),  # the period's first day: a full period
        ("2026-07-15", "2500.00"),  # the pay date itself: 1 of 15 days, 900,000 / 360
        ("2026-07-16", "37500.00"),  # the next period's first day: its July 31 paycheck is full
    ],
)
def test_a_hire_on_a_periods_boundary(hired_on, first_check):
    facts = _facts("900000", "semimonthly", "2026-01-15", hired_on=hired_on)
    assert _paid(facts)[0][1] == D(first_check)


def test_a_hire_late_in_the_year_before_is_paid_for_those_days_in_the_first_paycheck():
    # Hired Monday December 28, 2026; the first 2027 paycheck, Friday January 1, pays for
    # December 19 to January 1: 5 days worked of 14, 20,000 x 5 / 14 = 7,142.857...: 7,142.86.
    # Paid in 2027, it is 2027's Compensation, whichever year its days were worked.
    facts = _facts("520000", "biweekly", "2027-01-01", year=2027, hired_on="2026-12-28")
    assert _paid(facts)[0] == (date(2027, 1, 1), D("7142.86"))


# ------------------------------------------------------------------ a leaver


def test_a_september_leaver_is_paid_through_the_termination_date():
    # Biweekly from January 2: 19 paychecks through September 11 (380,000.00). Terminated
    # Wednesday September 16: the September 25 paycheck pays for September 12-16, 5 of 14 days,
    # 20,000 x 5 / 14 = 7,142.857...: 7,142.86. The year: 387,142.86; Plan Compensation 27,142.86.
    facts = _facts("520000", "biweekly", "2026-01-02", terminated_on="2026-09-16")
    paid = _paid(facts)
    assert len(paid) == 20
    assert paid[-2] == (date(2026, 9, 11), D("20000.00"))
    assert paid[-1] == (date(2026, 9, 25), D("7142.86"))
    assert _year(facts) == D("387142.86")
    assert compute(facts).participants[0].plan_compensation == D("27142.86")


def test_a_leaver_on_a_pay_date_has_no_paycheck_after_it():
    facts = _facts("520000", "biweekly", "2026-01-02", terminated_on="2026-09-11")
    paid = _paid(facts)
    assert paid[-1] == (date(2026, 9, 11), D("20000.00")) and len(paid) == 19


def test_a_semimonthly_leaver_at_a_month_end():
    # January 15 to September 30: 18 full periods of 16,666.67 = 300,000.06.
    facts = _facts("400000", "semimonthly", "2026-01-15", terminated_on="2026-09-30")
    assert len(_paid(facts)) == 18 and _year(facts) == D("300000.06")


def test_days_worked_after_the_years_last_pay_date_are_not_the_years_pay():
    # The last 2026 pay date is December 18; terminated December 28, the days December 19-28
    # are paid on January 1, 2027: not Compensation paid in 2026.
    facts = _facts("520000", "biweekly", "2026-01-02", terminated_on="2026-12-28")
    assert len(_paid(facts)) == 26 and _year(facts) == D("520000.00")


def test_hired_and_left_within_one_period():
    # Semimonthly: the March 15 paycheck pays March 1-15 (15 days); hired March 3, left March 9:
    # 7 days, 900,000 x 7 / 360 = 17,500.00, and nothing after.
    facts = _facts(
        "900000", "semimonthly", "2026-01-15", hired_on="2026-03-03", terminated_on="2026-03-09"
    )
    assert _paid(facts) == [(date(2026, 3, 15), D("17500.00"))]


# ------------------------------------------------------------------ month ends and a leap year


def test_a_monthly_hire_at_the_end_of_february():
    # Monthly on month ends: February 28, 2026 pays February 1-28; hired February 20, 9 of 28
    # days, 50,000 x 9 / 28 = 16,071.428...: 16,071.43; March to December 10 x 50,000.
    facts = _facts("600000", "monthly", "2026-01-31", hired_on="2026-02-20")
    paid = _paid(facts)
    assert paid[0] == (date(2026, 2, 28), D("16071.43"))
    assert _year(facts) == D("516071.43")


def test_a_monthly_hire_in_a_leap_february():
    # 2028: February 29 pays February 1-29; hired February 20, 10 of 29 days,
    # 50,000 x 10 / 29 = 17,241.379...: 17,241.38; then 10 full months: 517,241.38.
    facts = _facts("600000", "monthly", "2028-01-31", year=2028, hired_on="2028-02-20")
    paid = _paid(facts)
    assert paid[0] == (date(2028, 2, 29), D("17241.38"))
    assert _year(facts) == D("517241.38")


def test_a_semimonthly_hire_in_a_leap_february():
    # 2028: February 29 pays February 16-29, 14 days; hired February 20, 10 worked:
    # 20,000 x 10 / 14 = 14,285.714...: 14,285.71; March 15 to December 31, 20 x 20,000.
    facts = _facts("480000", "semimonthly", "2028-01-15", year=2028, hired_on="2028-02-20")
    paid = _paid(facts)
    assert paid[0] == (date(2028, 2, 29), D("14285.71"))
    assert _year(facts) == D("414285.71")


def test_monthly_on_the_30th_pays_february_in_full_on_its_last_day():
    # Monthly on the 30th: February 29, 2028 stands for it and pays January 31 to February 29.
    facts = _facts("600000", "monthly", "2028-01-30", year=2028, hired_on="2028-02-15")
    # January 31 - February 29: 30 days; hired February 15: 15 worked. 50,000 x 15/30.
    assert _paid(facts)[0] == (date(2028, 2, 29), D("25000.00"))


# ------------------------------------------------------------------ the bonus stays pay paid


def test_the_bonus_is_pay_paid_beside_the_rate():
    # 400,000 at 24 semimonthly paychecks = 400,000.08, and a 100,000 bonus paid March 13.
    facts = _facts(
        "400000",
        "semimonthly",
        "2026-01-15",
        bonus_compensation="100000",
        bonus_paid_on=date(2026, 3, 13),
    )
    assert _year(facts) == D("500000.08")
    bonus = [p for p in paychecks(facts, facts.participants[0]).periods if p.bonus]
    assert [(p.paid_on, p.compensation) for p in bonus] == [(date(2026, 3, 13), D("100000"))]
    assert compute(facts).participants[0].compensation == D("500000.08")


# ------------------------------------------------------------------ a person's own frequency


def _two_payrolls(frequency: str | None) -> RRPPlanYearFacts:
    person: dict[str, Any] = {
        "id": "e1",
        "name": "Pat Lee",
        "eligible_employee": True,
        "annual_rate": "480000",
    }
    if frequency:
        person["pay_frequency"] = frequency
    return RRPPlanYearFacts.model_validate(
        {
            "kind": "rrp-plan-year",
            "company": {"name": "X Corp."},
            "plan": {
                "name": "X Corp. Retirement Restoration Plan",
                "pay_schedule": {"frequency": "biweekly", "first_pay_date": date(2026, 1, 2)},
                "pay_schedules": [
                    {"frequency": "semimonthly", "first_pay_date": date(2026, 1, 15)},
                    {"frequency": "monthly", "first_pay_date": date(2026, 1, 30)},
                ],
            },
            "plan_year": 2026,
            "participants": [person],
        },
        strict=False,
    )


@pytest.mark.parametrize(
    ("frequency", "where", "count", "first_paid"),
    [
        (None, "plan.pay_schedule (the Plan's schedule", 26, date(2026, 1, 2)),
        ("biweekly", "plan.pay_schedule (the participant's own", 26, date(2026, 1, 2)),
        ("semimonthly", "plan.pay_schedules[0] (the participant's own", 24, date(2026, 1, 15)),
        ("monthly", "plan.pay_schedules[1] (the participant's own", 12, date(2026, 1, 30)),
    ],
)
def test_a_person_is_paid_on_the_schedule_of_their_own_frequency(
    frequency, where, count, first_paid
):
    facts = _two_payrolls(frequency)
    person = facts.participants[0]
    pay = paychecks(facts, person)
    assert len(pay.periods) == count and pay.periods[0].paid_on == first_paid
    assert pay.notes[0].startswith(f"paid on {where}")
    assert facts.pay_schedule_of(person) is not None
    assert facts.pay_schedule_of(person).first_pay_date == first_paid


# ------------------------------------------------------------------ refused, never guessed

PLAN = """kind: rrp-plan-year
company: {name: X Corp.}
plan:
  name: X Corp. Retirement Restoration Plan
PAY
plan_year: 2026
participants:
  - id: e1
    name: Pat Lee
    eligible_employee: true
PERSON
"""


def _refused(tmp_path: Path, pay: str, person: str) -> str:
    facts = tmp_path / "facts.yaml"
    facts.write_text(PLAN.replace("PAY\n", pay).replace("PERSON\n", person), encoding="utf-8")
    with pytest.raises(LoadError) as refused:
        load_facts(facts)
    return str(refused.value)


def test_a_rate_with_no_pay_schedule_is_refused_with_the_fix(tmp_path):
    message = _refused(tmp_path, "", '    annual_rate: "520000"\n')
    assert (
        "facts.yaml:10: participants[0].annual_rate: the annual rate of e1 is worked into the "
        "pay paid in the Plan Year on each participant's pay dates, and the Plan states no pay "
        "schedule. Add plan.pay_schedule: {frequency: ..., first_pay_date: YYYY-MM-DD} (the "
        "company's payroll), or give compensation, the pay paid in the Plan Year, in place of "
        "the rate (Plan 1.21)."
    ) in message


def test_a_frequency_with_no_schedule_stated_is_refused_with_the_fix(tmp_path):
    pay = "  pay_schedule: {frequency: biweekly, first_pay_date: 2026-01-02}\n"
    message = _refused(tmp_path, pay, '    compensation: "520000"\n    pay_frequency: monthly\n')
    assert (
        "facts.yaml:12: participants[0].pay_frequency: e1 is paid monthly, but the Plan states "
        "no monthly pay schedule: the first monthly pay date is not known, and docgen does not "
        "guess it. Add the company's monthly payroll to plan.pay_schedules: {frequency: "
        "monthly, first_pay_date: YYYY-MM-DD} (its first pay date in 2026), or correct the "
        "participant's pay frequency."
    ) in message


def test_everyone_paid_on_a_frequency_with_no_schedule_is_named_in_one_message(tmp_path):
    pay = "  pay_schedule: {frequency: biweekly, first_pay_date: 2026-01-02}\n"
    person = '    compensation: "1"\n    pay_frequency: weekly\n'
    others = "".join(
        f"  - {{id: e{n}, name: Person {n}, eligible_employee: true, compensation: '1', "
        "pay_frequency: weekly}\n"
        for n in range(2, 9)
    )
    message = _refused(tmp_path, pay, person + others)
    assert "e1, e2, e3, e4, e5 and 3 more are paid weekly, but the Plan states no weekly" in (
        message
    )
    assert message.count("pay schedule:") == 1


def test_an_unknown_frequency_word_is_refused(tmp_path):
    pay = "  pay_schedule: {frequency: biweekly, first_pay_date: 2026-01-02}\n"
    message = _refused(tmp_path, pay, '    compensation: "1"\n    pay_frequency: fortnightly\n')
    assert (
        "facts.yaml:12: participants[0].pay_frequency: expected one of weekly, biweekly, "
        "semimonthly or monthly (got fortnightly). Use one of weekly, biweekly, semimonthly or "
        "monthly."
    ) in message


def test_both_a_rate_and_pay_paid_are_refused(tmp_path):
    pay = "  pay_schedule: {frequency: biweekly, first_pay_date: 2026-01-02}\n"
    message = _refused(tmp_path, pay, '    compensation: "1"\n    annual_rate: "2"\n')
    assert "participants[0].annual_rate: both compensation and annual_rate" in message


def test_neither_a_rate_nor_pay_paid_is_refused(tmp_path):
    message = _refused(tmp_path, "", "")
    assert (
        "participants[0].compensation: required field is missing. Add compensation (the pay "
        "paid in the Plan Year, Plan 1.21), or annual_rate"
    ) in message


def test_two_schedules_of_one_frequency_are_refused(tmp_path):
    pay = (
        "  pay_schedule: {frequency: biweekly, first_pay_date: 2026-01-02}\n"
        "  pay_schedules:\n    - {frequency: biweekly, first_pay_date: 2026-01-09}\n"
    )
    message = _refused(tmp_path, pay, '    compensation: "1"\n')
    assert "plan.pay_schedules[0].frequency: a second biweekly pay schedule" in message


# ------------------------------------------------------------------ the Workday export


def test_the_workday_export_is_read_from_its_rate_and_each_workers_frequency(tmp_path):
    """samples/rrp-2026-workday.yaml reads Annual Base Pay as the rate it is and Pay Frequency
    per worker; two hires and a September leaver added to the export as Workday writes them are
    paid as worked by hand above, with no reshaping and no pro-rating by hand."""
    samples = Path(__file__).resolve().parent.parent / "samples"
    shutil.copytree(samples / "workday", tmp_path / "workday")
    shutil.copy(samples / "rrp-2026-workday.yaml", tmp_path)
    workers = tmp_path / "workday" / "Workers.csv"
    rows = list(csv.reader(io.StringIO(workers.read_text(encoding="utf-8"))))
    added = [
        ["e2001", "Noor Haddad", "$520,000.00", "07/08/2026", "Biweekly", ""],
        ["e2002", "Ira Stone", "$900,000.00", "07/10/2026", "Semi-Monthly", ""],
        ["e2003", "Lee Park", "$520,000.00", "03/03/2015", "Biweekly", "09/16/2026"],
    ]
    for worker, name, rate, hired, frequency, left in added:
        address = ["1 Main St", "Richmond", "VA", "23220", "Y"]
        rows.append([worker, name, *address, rate, hired, frequency, "", "", "N", left, "CC-20"])
    # A leaver's reason, as a Workday report adds it in a column of its own
    for row in rows:
        row.append("Termination Reason" if row is rows[0] else ("Resignation" if row[13] else ""))
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    workers.write_text(out.getvalue(), encoding="utf-8")
    yaml = tmp_path / "rrp-2026-workday.yaml"
    yaml.write_text(
        yaml.read_text(encoding="utf-8").replace(
            "    ignore: [Cost Center]\n",
            "    termination_reason: {column: Termination Reason, values: {Resignation: other}}\n"
            "    ignore: [Cost Center]\n",
        ),
        encoding="utf-8",
    )
    facts = load_facts(tmp_path / "rrp-2026-workday.yaml").facts
    people = {p.id: p for p in compute(facts).participants}
    assert people["e2001"].compensation == D("234285.71")  # biweekly, hired mid-period
    assert people["e2002"].compensation == D("427500.00")  # semimonthly, hired mid-period
    assert people["e2003"].compensation == D("387142.86")  # a September leaver
    assert people["e1001"].compensation == D("520000.00")  # the whole year at 20,000.00 x 26
    e1007 = people["e1007"]  # the semimonthly worker: 24 paychecks of 395,000 / 24
    assert len(e1007.paychecks) == 24 and e1007.compensation == D("394999.92")
    assert e1007.notes[0].startswith(
        "paid on plan.pay_schedules[0] (the participant's own pay_frequency; semimonthly"
    )


def test_docgen_columns_maps_pay_frequency_words_it_can_read_one_way(cli, tmp_path):
    export = tmp_path / "Workers.csv"
    export.write_text(
        "Worker ID,Legal Name,Pay Frequency\n"
        "e1,Pat Lee,Bi-weekly\ne2,Kim Roe,Semi-monthly\ne3,Sam Poe,Bi-Monthly\ne4,Al Ng,Monthly\n",
        encoding="utf-8",
    )
    result = cli("columns", export, "--kind", "rrp-plan-year")
    assert result.exit_code == 0, result.stderr
    assert (
        "    pay_frequency: {column: Pay Frequency, values: {Bi-Monthly: , Bi-weekly: biweekly, "
        "Monthly: monthly, Semi-monthly: semimonthly}}"
    ) in result.stdout.splitlines()
    assert "FILL IN the ones left empty (weekly, biweekly, semimonthly or monthly)" in (
        result.stdout
    )


def test_the_payroll_feed_says_which_schedule_each_person_was_paid_on(cli):
    samples = Path(__file__).resolve().parent.parent / "samples"
    result = cli("payroll", samples / "rrp-2026-workday.yaml", "--format", "csv")
    assert result.exit_code == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    first = {row["id"]: row for row in reversed(rows)}  # each person's first paycheck
    assert first["e1007"]["paid_on"] == "2026-01-15"
    assert (
        "paid on plan.pay_schedules[0] (the participant's own pay_frequency; semimonthly"
        in (first["e1007"]["notes"])
    )
    assert first["e1001"]["paid_on"] == "2026-01-02"
    assert (
        "paid on plan.pay_schedule (the participant's own pay_frequency; biweekly"
        in (first["e1001"]["notes"])
    )
    assert {row["paid_on"] for row in rows if row["id"] == "e1007"} >= {"2026-02-28", "2026-12-31"}
