"""`docgen payroll --pay-date`: one pay date's deductions and matches in the payroll system's own
import layout (A24), pinned by hand in two layouts (ADP-style and Workday-style).

The figures of 2026-09-11, the 19th biweekly paycheck from January 2, worked by hand:
e1001 earns $520,000 a year, $20,000.00 a paycheck; the 18 paychecks before bring the year's pay
to $360,000, the 2026 401(a)(17) limit, so all $20,000.00 of this one is Plan Compensation
(Plan 1.21). Their 10% salary election defers $2,000.00 (Plan 3.03); the match is 100% of it but
not more than 6% of the paycheck's Plan Compensation, $1,200.00 (Plan 3.04). e1004's salary,
$1,450,000 over 26 paychecks, is $55,769.23; 75% of it is $41,826.92 and 6% $3,346.15. e1003's
annual rate of $500,000 pays $19,230.77 a paycheck (500,000 / 26 = 19,230.769..., half a cent up,
docs/rrp-arithmetic.md); 15% is 2,884.6155, $2,884.62, and 6% $1,153.85. e1007 is paid
semimonthly (the 15th and month ends), so has no paycheck that day. Everyone else defers nothing
on that day (under the limit, or no salary election in force), and a zero is no line.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from docgen.core.errors import LoadError
from docgen.load import load_facts

SAMPLES = Path(__file__).resolve().parent.parent / "samples"

ADP = (
    "Co Code,File #,Pay Date,Deduction Code,Deduction Amount\r\n"
    "CMX,e1001,09/11/2026,NQDEF,2000.00\r\n"
    "CMX,e1001,09/11/2026,NQMATCH,1200.00\r\n"
    "CMX,e1003,09/11/2026,NQDEF,2884.62\r\n"
    "CMX,e1003,09/11/2026,NQMATCH,1153.85\r\n"
    "CMX,e1004,09/11/2026,NQDEF,41826.92\r\n"
    "CMX,e1004,09/11/2026,NQMATCH,3346.15\r\n"
)

WORKDAY_LAYOUT = """payroll:
  layout:
    columns:
      - {header: Employee ID, holds: employee_id}
      - {header: Worker, holds: name}
      - {header: Pay Component, holds: code}
      - {header: Effective Date, holds: pay_date}
      - {header: Amount, holds: amount}
      - {header: Currency, holds: value, value: USD}
    codes: {elective_deferral: NQDC_DEFERRAL, matching_restoration: NQDC_MATCH}
    number_format: grouped
"""

WORKDAY = (
    "Employee ID,Worker,Pay Component,Effective Date,Amount,Currency\r\n"
    'e1001,Pat Lee,NQDC_DEFERRAL,2026-09-11,"2,000.00",USD\r\n'
    'e1001,Pat Lee,NQDC_MATCH,2026-09-11,"1,200.00",USD\r\n'
    'e1003,Casey Okafor,NQDC_DEFERRAL,2026-09-11,"2,884.62",USD\r\n'
    'e1003,Casey Okafor,NQDC_MATCH,2026-09-11,"1,153.85",USD\r\n'
    'e1004,Jordan Brennan,NQDC_DEFERRAL,2026-09-11,"41,826.92",USD\r\n'
    'e1004,Jordan Brennan,NQDC_MATCH,2026-09-11,"3,346.15",USD\r\n'
)


def test_one_pay_date_in_an_adp_style_layout(cli):
    result = cli("payroll", SAMPLES / "rrp-2026-workday.yaml", "--pay-date", "2026-09-11")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ADP.replace("\r\n", "\n")


def test_one_pay_date_in_a_workday_style_layout(cli, tmp_path):
    shutil.copytree(SAMPLES / "workday", tmp_path / "workday")
    text = (SAMPLES / "rrp-2026-workday.yaml").read_text(encoding="utf-8")
    start = text.index("payroll:")
    end = text.index("    number_format: plain\n") + len("    number_format: plain\n")
    (tmp_path / "facts.yaml").write_text(text[:start] + WORKDAY_LAYOUT + text[end:])
    result = cli("payroll", tmp_path / "facts.yaml", "--pay-date", "2026-09-11")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == WORKDAY.replace("\r\n", "\n")


def test_the_extract_is_the_whole_years_rows_of_that_day(cli):
    """Without a layout (or as json), the pay date's rows are the whole year's feed's rows."""
    year = cli("payroll", SAMPLES / "rrp-2026-hris.yaml").stdout.splitlines()
    day = cli("payroll", SAMPLES / "rrp-2026-hris.yaml", "--pay-date", "2026-09-11").stdout
    assert day.splitlines() == [year[0], *(row for row in year if ",2026-09-11," in row)]


def test_a_day_with_no_paycheck_is_refused_with_the_next_pay_dates(cli):
    """The next pay dates are every payroll's: the biweekly Fridays and the semimonthly 15th."""
    result = cli("payroll", SAMPLES / "rrp-2026-workday.yaml", "--pay-date", "2026-09-10")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(
        "--pay-date: no paycheck on 2026-09-10. The next pay dates: 2026-09-11, 2026-09-15, "
        "2026-09-25. Give a pay date of the Plan Year (`docgen payroll` lists every paycheck)."
    )


def test_a_layout_without_an_amount_column_is_refused(tmp_path):
    shutil.copytree(SAMPLES / "workday", tmp_path / "workday")
    text = (SAMPLES / "rrp-2026-workday.yaml").read_text(encoding="utf-8")
    text = text.replace("      - {header: Deduction Amount, holds: amount}\n", "")
    (tmp_path / "facts.yaml").write_text(text)
    try:
        load_facts(tmp_path / "facts.yaml")
    except LoadError as refused:
        assert [p.what for p in refused.problems] == ["no column holds amount"]
    else:
        raise AssertionError("a layout without an amount column was taken")


def test_a_layout_without_the_employees_id_column_is_refused(tmp_path):
    """The payroll system finds each person by their id (a Worker ID, an ADP file number): a
    layout that names no column for it is refused, never written without it."""
    shutil.copytree(SAMPLES / "workday", tmp_path / "workday")
    text = (SAMPLES / "rrp-2026-workday.yaml").read_text(encoding="utf-8")
    text = text.replace('      - {header: "File #", holds: employee_id}\n', "")
    (tmp_path / "facts.yaml").write_text(text)
    try:
        load_facts(tmp_path / "facts.yaml")
    except LoadError as refused:
        assert [(p.what, p.fix) for p in refused.problems] == [
            (
                "no column holds employee_id",
                "A deduction import names the employee, the code and the amount: add a column "
                "with holds: employee_id.",
            )
        ]
    else:
        raise AssertionError("a layout without the employee's id column was taken")
