"""Benchmark: `docgen payroll` for a realistic Plan Year, biweekly, against `docgen compute`, and
one pay date's extract (`--pay-date`, A24) from the HRIS shape.

Run by `make bench`. Builds 1,000 and 10,000 participants (bench/realistic.py) paid on a biweekly
plan.pay_schedule (each bonus on a pay date in March), runs `docgen compute` and `docgen payroll`
in-process, prints the wall times and the feed's rows, and checks that the two agree; then, from
the same people in the HRIS's CSVs (write_hris), the whole year and one pay date's extract, which
must be the year's rows of that day. The aims (issue 40): the whole year under 5 s, one pay date
under 1 s, for 10,000 participants.
"""

from __future__ import annotations

import csv
import io
import json
import tempfile
import time
from datetime import date
from decimal import Decimal
from pathlib import Path

from machine import describe
from realistic import rrp_facts, write_hris, write_json
from typer.testing import CliRunner

from docgen.cli import app


def scheduled(count: int) -> dict:
    facts = rrp_facts(count)
    facts["plan"]["pay_schedule"] = {"frequency": "biweekly", "first_pay_date": date(2026, 1, 9)}
    for person in facts["participants"]:
        person.pop("pay_periods", None)
        if person.get("bonus_compensation"):
            person["bonus_paid_on"] = date(2026, 3, 20)
    return facts


def main() -> None:
    runner = CliRunner()
    print(f"docgen payroll, biweekly, against docgen compute, on {describe()}:")
    with tempfile.TemporaryDirectory() as folder:
        for count in (1_000, 10_000):
            path = write_json(scheduled(count), Path(folder) / f"rrp-{count}.json")
            started = time.perf_counter()
            computed = runner.invoke(app, ["compute", str(path), "--format", "json"])
            compute_s = time.perf_counter() - started
            started = time.perf_counter()
            fed = runner.invoke(app, ["payroll", str(path)])
            payroll_s = time.perf_counter() - started
            assert computed.exit_code == 0 and fed.exit_code == 0, fed.output
            rows = list(csv.DictReader(io.StringIO(fed.stdout)))
            total = sum(Decimal(r["elective_deferral"] or 0) for r in rows)
            expected = sum(
                Decimal(p["elective_deferral"] or 0)
                for p in json.loads(computed.stdout)["participants"]
            )
            assert total == expected, (total, expected)
            print(
                f"  {count:>6,} participants: compute {compute_s:6.2f} s, payroll "
                f"{payroll_s:6.2f} s ({len(rows):,} paycheck rows; deferrals {total:,.2f})"
            )
            hris = write_hris(scheduled(count), Path(folder), f"rrp-{count}")
            started = time.perf_counter()
            year = runner.invoke(app, ["payroll", str(hris)])
            year_s = time.perf_counter() - started
            started = time.perf_counter()
            day = runner.invoke(app, ["payroll", str(hris), "--pay-date", "2026-09-18"])
            day_s = time.perf_counter() - started
            assert year.exit_code == 0 and day.exit_code == 0, day.output
            of_day = [row for row in year.stdout.splitlines() if ",2026-09-18," in row]
            assert day.stdout.splitlines()[1:] == of_day
            print(
                f"  {count:>6,} from the HRIS CSVs: payroll {year_s:6.2f} s (aim 5 s), "
                f"--pay-date 2026-09-18 {day_s:6.2f} s (aim 1 s; {len(of_day):,} paychecks)"
            )


if __name__ == "__main__":
    main()
