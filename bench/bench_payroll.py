"""Benchmark: `docgen payroll` for a realistic Plan Year, biweekly, against `docgen compute`, and
one pay date's extract (`--pay-date`, A24) from the HRIS shape.

Run by `make bench`. Builds 1,000 and 10,000 participants (bench/realistic.py) paid on a biweekly
plan.pay_schedule (each bonus on a pay date in March), runs `docgen compute` and `docgen payroll`
in-process, prints the times and the feed's rows, and checks that the two agree; then, from
the same people in the HRIS's CSVs (write_hris), the whole year and one pay date's extract, which
must be the year's rows of that day. The aims (issue 40): the whole year under 5 s, one pay date
under 1 s, for 10,000 participants. Each figure is the best wall time of --runs runs, with the
median and the CPU time (bench/machine.py); the aims are judged on CPU time, which the other
work of a shared machine changes far less.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import tempfile
from datetime import date
from decimal import Decimal
from pathlib import Path

from machine import describe, run_here
from realistic import rrp_facts, write_hris, write_json
from typer.testing import CliRunner

from docgen.cli import app

PAY_DATE = "2026-09-18"


def scheduled(count: int) -> dict:
    facts = rrp_facts(count)
    facts["plan"]["pay_schedule"] = {"frequency": "biweekly", "first_pay_date": date(2026, 1, 9)}
    for person in facts["participants"]:
        person.pop("pay_periods", None)
        if person.get("bonus_compensation"):
            person["bonus_paid_on"] = date(2026, 3, 20)
    return facts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--participants", type=int, nargs="+", default=[1_000, 10_000])
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    runner = CliRunner()
    results: dict[str, object] = {}

    def invoke(name: str, arguments: list[str]):
        def work() -> None:
            results[name] = runner.invoke(app, arguments)

        return work

    print(f"docgen payroll, biweekly, against docgen compute, on {describe()}:")
    with tempfile.TemporaryDirectory() as folder:
        for count in options.participants:
            path = write_json(scheduled(count), Path(folder) / f"rrp-{count}.json")
            compute_s = run_here(invoke("compute", ["compute", str(path), "--format", "json"]), 1)
            payroll_s = run_here(invoke("payroll", ["payroll", str(path)]), options.runs)
            computed, fed = results["compute"], results["payroll"]
            assert computed.exit_code == 0 and fed.exit_code == 0, fed.output
            rows = list(csv.DictReader(io.StringIO(fed.stdout)))
            total = sum(Decimal(r["elective_deferral"] or 0) for r in rows)
            expected = sum(
                Decimal(p["elective_deferral"] or 0)
                for p in json.loads(computed.stdout)["participants"]
            )
            assert total == expected, (total, expected)
            print(
                f"  {count:>6,} participants ({len(rows):,} paycheck rows; deferrals "
                f"{total:,.2f}): compute {compute_s.best:.2f} s (CPU {compute_s.cpu:.2f} s)\n"
                f"      payroll, whole year, from the facts: {payroll_s.show(5)}"
            )
            hris = write_hris(scheduled(count), Path(folder), f"rrp-{count}")
            year_s = run_here(invoke("year", ["payroll", str(hris)]), options.runs)
            day_s = run_here(
                invoke("day", ["payroll", str(hris), "--pay-date", PAY_DATE]), options.runs
            )
            year, day = results["year"], results["day"]
            assert year.exit_code == 0 and day.exit_code == 0, day.output
            of_day = [row for row in year.stdout.splitlines() if f",{PAY_DATE}," in row]
            assert day.stdout.splitlines()[1:] == of_day
            print(
                f"      payroll, whole year, from the HRIS CSVs: {year_s.show(5)}\n"
                f"      payroll --pay-date {PAY_DATE} ({len(of_day):,} paychecks), from the "
                f"HRIS CSVs: {day_s.show(1)}"
            )


if __name__ == "__main__":
    main()
