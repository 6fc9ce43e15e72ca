"""`docgen payroll` (DESIGN.md A18, A20): per participant, per paycheck, the Plan Compensation, the
election in force, the deferral and the match with its cap, adding up to `docgen compute`."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
import yaml

from docgen.kinds.rrp.pay_schedule import PaySchedule, pay_dates

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = sorted(
    path
    for path in (ROOT / "samples").glob("*.yaml")
    if "kind: rrp-plan-year" in path.read_text(encoding="utf-8")
)

# The samples whose roster is in docgen's own columns, which _scheduled_copy rewrites; the
# Workday sample (read through a columns: block) holds rrp-2026-hris.yaml's people and pay.
IN_DOCGEN_COLUMNS = [p for p in SAMPLES if "\ncolumns:" not in p.read_text(encoding="utf-8")]


def _json(cli, command: str, path: Path) -> dict:
    result = cli(command, path, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _assert_totals_equal_compute(cli, path: Path) -> int:
    """Every participant's paychecks add up to compute's figures; returns the paychecks seen."""
    computed = {p["id"]: p for p in _json(cli, "compute", path)["participants"]}
    fed = _json(cli, "payroll", path)
    assert [p["id"] for p in fed["participants"]] == list(computed)
    seen = 0
    for person in fed["participants"]:
        figures = computed[person["id"]]
        for field in ("plan_compensation", "elective_deferral", "matching_restoration"):
            amounts = [row[field] for row in person["paychecks"]]
            if figures[field] is None:
                assert set(amounts) == {None}, (person["id"], field)
                continue
            total = sum(Decimal(a) for a in amounts)
            assert total == Decimal(figures[field]), (person["id"], field, total)
            assert person["totals"][field] == figures[field]
        for row in person["paychecks"]:
            for field in ("plan_compensation", "elective_deferral", "matching_restoration"):
                if row[field] is None or Decimal(row[field]) == 0:
                    assert row["notes"], (person["id"], row["paid_on"], field)
        seen += len(person["paychecks"])
    return seen


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_payroll_adds_up_to_compute_for_every_sample(cli, sample):
    assert _assert_totals_equal_compute(cli, sample) > 0


def _scheduled_copy(sample: Path, folder: Path, frequency: str, first: str) -> Path:
    """The sample with this plan.pay_schedule (in place of its own, if it has one), and each
    bonus paid on March 13 (in its roster too), its CSVs copied beside it."""
    text = sample.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^  pay_schedule:.*\n(?:    .*\n)*", "", text)
    text = re.sub(r"(?m)^(\s+)(- )?bonus_paid_on:.*\n", "", text)
    text = re.sub(
        r"(?m)^(plan:.*\n(?:  .*\n)*?)(  name: .*\n)",
        lambda m: (
            m.group(1)
            + m.group(2)
            + f"  pay_schedule: {{ frequency: {frequency}, first_pay_date: {first} }}\n"
        ),
        text,
        count=1,
    )
    text = re.sub(
        r"(?m)^(\s+)(- )?bonus_compensation:(.*)$",
        lambda m: (
            m.group(0) + "\n" + m.group(1) + ("  " if m.group(2) else "") + "bonus_paid_on: "
            "2026-03-13"
        ),
        text,
    )
    assert "pay_schedule" in text
    facts = yaml.safe_load(text)
    for field in ("participants_csv", "elections_csv", "beneficiaries_csv", "allocations_csv"):
        if facts.get(field):
            (folder / facts[field]).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(sample.parent / facts[field], folder / facts[field])
    roster = facts.get("participants_csv")
    if roster:
        with (sample.parent / roster).open(encoding="utf-8-sig", newline="") as handle:
            rows = list(csv.DictReader(handle))
        with (folder / roster).open("w", encoding="utf-8", newline="") as handle:
            writer = csv.DictWriter(handle, [*dict.fromkeys([*rows[0], "bonus_paid_on"])])
            writer.writeheader()
            for row in rows:
                writer.writerow(
                    {**row, "bonus_paid_on": "2026-03-13" if row["bonus_compensation"] else ""}
                )
    copy = folder / sample.name
    copy.write_text(text, encoding="utf-8")
    return copy


@pytest.mark.parametrize("sample", IN_DOCGEN_COLUMNS, ids=lambda p: p.name)
@pytest.mark.parametrize(
    ("frequency", "first"),
    [("biweekly", "2026-01-09"), ("semimonthly", "2026-01-15"), ("monthly", "2026-01-31")],
)
def test_paychecks_from_a_pay_schedule_add_up_to_compute(cli, tmp_path, sample, frequency, first):
    copy = _scheduled_copy(sample, tmp_path, frequency, first)
    fed = _json(cli, "payroll", copy)
    assert {p["paychecks_from"] for p in fed["participants"]} == {"schedule"}
    assert _assert_totals_equal_compute(cli, copy) > len(fed["participants"])


# ------------------------------------------------------------------ pinned by hand

PINNED = """\
kind: rrp-plan-year
company: {{ name: "CarMax, Inc." }}
plan:
  name: CarMax, Inc. Retirement Restoration Plan
  pay_schedule: {{ frequency: biweekly, first_pay_date: 2026-01-02 }}
plan_year: 2026
participants:
  - id: e1
    name: Pat Lee
    eligible_employee: true
    compensation: "600500"
    bonus_compensation: "100000"
    bonus_paid_on: {bonus_paid_on}
    elections:
      - {{ kind: salary, plan_year: 2026, percent: 10, made_on: 2025-12-10 }}
      - {{ kind: bonus, plan_year: 2026, percent: 20, made_on: 2025-12-10 }}
"""


def test_a_biweekly_schedule_crossing_the_limit_mid_paycheck(cli, tmp_path):
    """Worked by hand. 2026 limit $360,000 (checks/parameters). Biweekly from Friday January 2:
    January 2 + 14k days to December 18 (January 1, 2027 is next): 26 pay dates. Salary
    600,500 - 100,000 = 500,500, or 19,250.00 per paycheck (500,500 / 26, no cents left over).
    The bonus of 100,000 is paid on August 28, the 18th regular pay date (January 2 + 17 x 14).

    Year-to-date pay after 17 paychecks: 17 x 19,250 = 327,250. The 18th pays salary 19,250
    (to 346,500: still under the limit, so no salary Plan Compensation) and the bonus 100,000 (to
    446,500): the limit is crossed inside the paycheck, by the bonus; Plan Compensation
    446,500 - 360,000 = 86,500, all of it bonus. Deferral 20% x 86,500 = 17,300.00; cap 6% x
    86,500 = 5,190.00; match min(17,300, 5,190) = 5,190.00 (Plan 3.04).

    Paychecks 19-26 (8 of them): Plan Compensation 19,250 each, salary; deferral 10% = 1,925.00;
    cap 6% = 1,155.00; match 1,155.00. Paychecks 1-17: no Plan Compensation, nothing deferred.

    Year: Plan Compensation 86,500 + 8 x 19,250 = 240,500 (= 600,500 - 360,000); deferral
    17,300 + 8 x 1,925 = 32,700.00; match 5,190 + 8 x 1,155 = 14,430.00.
    """
    facts = tmp_path / "pinned.yaml"
    facts.write_text(PINNED.format(bonus_paid_on="2026-08-28"), encoding="utf-8")
    result = cli("payroll", facts)
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) == 26
    assert rows[0]["paid_on"] == "2026-01-02" and rows[-1]["paid_on"] == "2026-12-18"
    assert {row["salary"] for row in rows} == {"19250.00"}
    for row in rows[:17]:
        assert (row["plan_compensation"], row["elective_deferral"]) == ("0.00", "0.00")
        assert "not above the 2026 401(a)(17) limit of 360000.00 (Plan 1.21)" in row["notes"]
    crossing = rows[17]
    assert crossing["paid_on"] == "2026-08-28"
    assert (crossing["bonus"], crossing["compensation"], crossing["year_to_date"]) == (
        "100000.00",
        "119250.00",
        "446500.00",
    )
    assert (
        crossing["salary_plan_compensation"],
        crossing["bonus_plan_compensation"],
        crossing["plan_compensation"],
    ) == ("0.00", "86500.00", "86500.00")
    assert (crossing["salary_percent"], crossing["bonus_percent"]) == ("10", "20")
    assert (
        crossing["elective_deferral"],
        crossing["match_cap"],
        crossing["matching_restoration"],
    ) == ("17300.00", "5190.00", "5190.00")
    for row in rows[18:]:
        assert (
            row["plan_compensation"],
            row["elective_deferral"],
            row["match_cap"],
            row["matching_restoration"],
        ) == ("19250.00", "1925.00", "1155.00", "1155.00")
    (computed,) = _json(cli, "compute", facts)["participants"]
    assert (
        computed["plan_compensation"],
        computed["elective_deferral"],
        computed["matching_restoration"],
    ) == ("240500.00", "32700.00", "14430.00")


def test_a_bonus_off_the_pay_dates_is_a_paycheck_of_its_own(cli, tmp_path):
    """August 29 is no pay date: the bonus is a 27th paycheck, after the 18th (August 28) and
    before the 19th; the year's pay through it is the same 446,500, so the figures above stand,
    the 18th paycheck now holding only salary."""
    facts = tmp_path / "pinned.yaml"
    facts.write_text(PINNED.format(bonus_paid_on="2026-08-29"), encoding="utf-8")
    fed = _json(cli, "payroll", facts)
    (person,) = fed["participants"]
    rows = person["paychecks"]
    assert len(rows) == 27
    bonus = rows[18]
    assert (bonus["paid_on"], bonus["salary"], bonus["bonus"]) == (
        "2026-08-29",
        "0.00",
        "100000.00",
    )
    assert (bonus["plan_compensation"], bonus["elective_deferral"]) == ("86500.00", "17300.00")
    assert any("not a regular pay date" in note for note in person["notes"])
    assert person["totals"]["elective_deferral"] == "32700.00"


def test_the_output_file_and_the_formats(cli, tmp_path):
    facts = tmp_path / "pinned.yaml"
    facts.write_text(PINNED.format(bonus_paid_on="2026-08-28"), encoding="utf-8")
    written = tmp_path / "feed.csv"
    result = cli("payroll", facts, "-o", written)
    assert result.exit_code == 0, result.output
    assert written.read_text(encoding="utf-8") == cli("payroll", facts).stdout
    text = cli("payroll", facts, "--format", "text")
    assert text.exit_code == 0
    assert "2026-08-28" in text.stdout and "17,300.00" in text.stdout
    assert "biweekly" in text.stdout  # the schedule's reading is stated


def test_a_director_grant_has_no_payroll(cli):
    result = cli("payroll", ROOT / "samples" / "director-grant-2026.yaml")
    assert result.exit_code == 2
    assert "has no payroll" in result.output


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            ("    bonus_paid_on: 2026-08-28\n", ""),
            "participants[0].bonus_paid_on: the pay schedule",
        ),
        (("bonus_paid_on: 2026-08-28", "bonus_paid_on: 2027-01-08"), "not in the 2026 Plan Year"),
        (("first_pay_date: 2026-01-02", "first_pay_date: 2025-12-26"), "first pay date"),
        (("biweekly", "semimonthly"), "the 15th and the last day of the month"),
        (("biweekly", "fortnightly"), "pay_schedule.frequency"),
    ],
)
def test_a_schedule_that_leaves_a_question_open_is_refused(cli, tmp_path, change, expected):
    facts = tmp_path / "bad.yaml"
    facts.write_text(PINNED.format(bonus_paid_on="2026-08-28").replace(*change), encoding="utf-8")
    result = cli("payroll", facts)
    assert result.exit_code == 2, result.output
    assert expected in result.output
    assert "bad.yaml:" in result.output
    assert result.stdout == "" or "nothing was written" in result.output


# ------------------------------------------------------------------ pay dates


def _dates(frequency: str, first: str, year: int) -> tuple[date, ...]:
    return pay_dates(
        PaySchedule(frequency=frequency, first_pay_date=date.fromisoformat(first)), year
    )


def test_weekly_pay_dates_in_a_leap_year():
    # 2028 has 366 days: from Saturday January 1, 52 weeks later is December 30: 53 pay dates.
    weekly = _dates("weekly", "2028-01-01", 2028)
    assert len(weekly) == 53 and weekly[-1] == date(2028, 12, 30)
    # from January 7 the 53rd would be January 5, 2029: 52.
    assert len(_dates("weekly", "2028-01-07", 2028)) == 52


def test_biweekly_can_have_27_pay_dates():
    # 2026-01-02 + 26 x 14 = 2027-01-01: 26; 2027-01-01 + 26 x 14 = 2027-12-31: 27.
    assert len(_dates("biweekly", "2026-01-02", 2026)) == 26
    dates_2027 = _dates("biweekly", "2027-01-01", 2027)
    assert len(dates_2027) == 27 and dates_2027[-1] == date(2027, 12, 31)


def test_monthly_on_a_day_some_months_lack():
    leap = _dates("monthly", "2028-01-30", 2028)
    assert leap[1] == date(2028, 2, 29) and leap[2] == date(2028, 3, 30) and len(leap) == 12
    assert _dates("monthly", "2027-01-30", 2027)[1] == date(2027, 2, 28)
    month_ends = _dates("monthly", "2028-01-31", 2028)
    assert month_ends[1] == date(2028, 2, 29) and month_ends[3] == date(2028, 4, 30)
    assert _dates("monthly", "2026-03-15", 2026)[0] == date(2026, 3, 15)
    assert len(_dates("monthly", "2026-03-15", 2026)) == 10


def test_semimonthly_the_15th_and_the_month_end():
    leap = _dates("semimonthly", "2028-01-15", 2028)
    assert len(leap) == 24 and date(2028, 2, 29) in leap and date(2028, 2, 28) not in leap
    assert _dates("semimonthly", "2027-02-28", 2027)[0] == date(2027, 2, 28)
    assert len(_dates("semimonthly", "2027-02-28", 2027)) == 21


def test_salary_over_53_weekly_paychecks_leaves_no_cent_behind(cli, tmp_path):
    text = (
        PINNED.format(bonus_paid_on="2028-01-01")
        .replace("2026", "2028")
        .replace("2025-12-10", "2027-12-10")
        .replace("biweekly, first_pay_date: 2028-01-02", "weekly, first_pay_date: 2028-01-01")
        .replace('compensation: "600500"', 'compensation: "600000"')
        .replace('    bonus_compensation: "100000"\n    bonus_paid_on: 2028-01-01\n', "")
        .replace("  pay_schedule:", '  compensation_limit: "360000"\n  pay_schedule:')
    )
    facts = tmp_path / "leap.yaml"
    facts.write_text(text, encoding="utf-8")
    fed = _json(cli, "payroll", facts)
    (person,) = fed["participants"]
    rows = person["paychecks"]
    # 600,000 / 53 = 11,320.754...: 52 paychecks of 11,320.75, the last 11,321.00.
    assert len(rows) == 53
    assert {row["salary"] for row in rows[:-1]} == {"11320.75"} and rows[-1]["salary"] == "11321.00"
    assert sum(Decimal(row["salary"]) for row in rows) == Decimal(600000)
    assert _assert_totals_equal_compute(cli, facts) == 53


def test_a_participant_paid_nothing_on_the_schedule_is_one_line_that_says_so(cli, tmp_path):
    text = PINNED.format(bonus_paid_on="2026-08-28").replace(
        '    compensation: "600500"\n    bonus_compensation: "100000"\n'
        "    bonus_paid_on: 2026-08-28\n",
        '    compensation: "0"\n',
    )
    facts = tmp_path / "nothing.yaml"
    facts.write_text(text, encoding="utf-8")
    (person,) = _json(cli, "payroll", facts)["participants"]
    (row,) = person["paychecks"]
    assert row["paid_on"] is None and row["plan_compensation"] == "0.00"
    assert any("no pay on any of plan.pay_schedule's pay dates" in n for n in row["notes"])
    assert _assert_totals_equal_compute(cli, facts) == 1


def test_salary_alone_crossing_the_limit_inside_a_paycheck(cli, tmp_path):
    """By hand: salary 500,500 biweekly from January 2 (26 x 19,250), 10%, no bonus. After 18
    paychecks 346,500; the 19th (September 11) takes the year to 365,750: Plan Compensation
    5,750.00, deferral 575.00, cap and match 345.00 (6% of 5,750). Paychecks 20-26: 19,250 each,
    deferral 1,925.00, match 1,155.00. Year: 140,500 of Plan Compensation, 14,050.00 deferred,
    8,430.00 matched (345 + 7 x 1,155)."""
    text = (
        PINNED.format(bonus_paid_on="2026-08-28")
        .replace('compensation: "600500"', 'compensation: "500500"')
        .replace('    bonus_compensation: "100000"\n    bonus_paid_on: 2026-08-28\n', "")
    )
    facts = tmp_path / "salary.yaml"
    facts.write_text(text, encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(cli("payroll", facts).stdout)))
    crossing = rows[18]
    assert (crossing["paid_on"], crossing["year_to_date"]) == ("2026-09-11", "365750.00")
    assert (
        crossing["plan_compensation"],
        crossing["elective_deferral"],
        crossing["match_cap"],
        crossing["matching_restoration"],
    ) == ("5750.00", "575.00", "345.00", "345.00")
    assert rows[17]["plan_compensation"] == "0.00" and rows[19]["elective_deferral"] == "1925.00"
    (computed,) = _json(cli, "compute", facts)["participants"]
    assert (computed["elective_deferral"], computed["matching_restoration"]) == (
        "14050.00",
        "8430.00",
    )


@pytest.mark.parametrize(
    "amounts",
    [
        ("1234.5", "0", "-0.00", "0.005", "0.004", "-0.005", "360000", "0E-7"),
        ("0.00", "0.00", "0.00", "0", "-0", "12.345", "7", "7"),
        ("100.00", "-0.00", "99.999", "0.00", "1E+3", "0.015", "5.00", "4.99"),
    ],
)
def test_a_payroll_row_writes_each_figure_as_money_text_and_percent_text_do(amounts):
    """PayrollRow.texts writes money_text's figures inline (payroll writes millions of them):
    signed zeros, sub-cent amounts rounded half up, whole amounts, a sum and a match equal to
    its cap all come out as money_text writes them."""
    from docgen.core.formats import money_text
    from docgen.kinds.rrp.payroll import PayrollRow

    salary, bonus, ytd, salary_plan, bonus_plan, deferral, cap, match = map(Decimal, amounts)
    for salary_percent, bonus_percent in ((Decimal("6.50"), None), (None, Decimal("10"))):
        row = PayrollRow(
            date(2026, 3, 6),
            salary,
            bonus,
            ytd,
            salary_plan,
            bonus_plan,
            salary_percent,
            bonus_percent,
            deferral,
            cap,
            match,
            (),
        )

        def percent(value):
            return None if value is None else format(value.normalize(), "f")

        assert row.texts() == (
            "2026-03-06",
            money_text(salary),
            money_text(bonus),
            money_text(salary + bonus),
            money_text(ytd),
            money_text(salary_plan),
            money_text(bonus_plan),
            money_text(salary_plan + bonus_plan),
            percent(salary_percent),
            percent(bonus_percent),
            money_text(deferral),
            money_text(cap),
            money_text(match),
        )
    empty = PayrollRow(None, *map(Decimal, amounts[:5]), None, None, None, None, None, ())
    assert empty.texts()[0] is None and empty.texts()[8:] == (None,) * 5


def test_the_payroll_table_rounds_a_half_cent_as_the_csv_does():
    """The table (`--format text`) and the CSV write one participant's year line from the same
    figures: a Plan Compensation a first-year election leaves with a half cent (salary times a
    share of days) is rounded half up in both, never half to even in the table alone."""
    from rich.console import Console

    from docgen.kinds.rrp.figures import ParticipantPay
    from docgen.kinds.rrp.payroll import PayrollYear, as_table, rows_of

    year = PayrollYear(2026, Decimal("360000"), "360000.00")
    who = ParticipantPay(
        id="e1",
        name="Ann",
        eligible_employee=True,
        plan_compensation=Decimal("100.125"),
        salary_plan_compensation=Decimal("100.125"),
        bonus_plan_compensation=Decimal(0),
        elective_deferral=Decimal("10.01"),
        matching_restoration=Decimal("6.01"),
        retirement_restoration=None,
        pay_periods=(),
        paychecks=(),
        paychecks_from="none",
        applied_percent={"salary": Decimal(10)},
        compensation=Decimal("360100.125"),
        bonus_pay=Decimal(0),
        notes=(),
    )
    (row,) = rows_of(year, who)
    in_csv = row.texts()
    assert "100.13" in in_csv and "360100.13" in in_csv  # money_text: half up
    console = Console(record=True, width=200)
    console.print(as_table(year, [who]))
    shown = console.export_text()
    assert "100.13" in shown and "360,100.13" in shown
    assert "100.12" not in shown
