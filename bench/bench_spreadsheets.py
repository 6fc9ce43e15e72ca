"""Benchmark: reading a 10,000-row roster kept as an Excel workbook (A24), against its CSV.

Run by `make bench`. Writes the HRIS shape of 10,000 participants (bench/realistic.py,
write_hris) and saves its roster as `.xlsx` with openpyxl (the tests' writer of workbooks) twice:
with docgen's own headers, and as an HRIS exports it (its own headers, money and dates typed as
numbers and dates, yes/no as Y/N) read through a columns: block, so every mapped cell goes through
its reader. Times reading the sheet (docgen.load.workbook, python-calamine) and loading the whole
facts file (the roster, its three CSVs of filings, the fact model) with the roster as CSV, as a
workbook and as a mapped workbook: the CPU time of the best of three runs, which the other work
on the machine does not stretch, and the wall time beside it with the load average. The aim
(issue 40): a 10,000-row workbook roster read, facts and all, in under 2 s (the aim is for
10,000 rows; --participants N times another size, as the tests run it small).
"""

from __future__ import annotations

import argparse
import csv
import tempfile
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import openpyxl
from machine import describe
from realistic import rrp_facts, write_hris

from docgen.load import load_facts
from docgen.load.workbook import workbook_table

AIM_S = 2.0
# docgen's column -> the HRIS export's header for it (the others keep docgen's names)
EXPORT_HEADERS = {
    "id": "Worker ID",
    "name": "Legal Name",
    "address": "Mailing Address",
    "eligible_employee": "Regular Employee",
    "compensation": "Annual Pay Paid in Plan Year",
    "hired_on": "Hire Date",
}
MAPPING = """
columns:
  participants_csv:
    sheet: Workers
    id: Worker ID
    name: Legal Name
    address: Mailing Address
    eligible_employee: {column: Regular Employee, read: yes_no}
    compensation: {column: Annual Pay Paid in Plan Year, read: money, is: paid_in_year}
    hired_on: {column: Hire Date, read: date}
"""


def _best(run: Callable[[], object], runs: int) -> tuple[float, float]:
    """The least CPU time and the least wall time of ``runs`` runs."""
    cpu, wall = [], []
    for _ in range(runs):
        started, clock = time.process_time(), time.perf_counter()
        run()
        cpu.append(time.process_time() - started)
        wall.append(time.perf_counter() - clock)
    return min(cpu), min(wall)


def _export_cell(column: str, cell: str) -> object:
    """A cell as an HRIS's own .xlsx holds it: money a number, a date a date, a flag Y/N."""
    if not cell:
        return None
    if column == "compensation":
        return float(cell)
    if column == "hired_on":
        return datetime.fromisoformat(cell)
    if column == "eligible_employee":
        return "Y" if cell == "yes" else "N"
    return cell


def _workbooks(roster: Path, plain: Path, exported: Path) -> None:
    with roster.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    for target, as_exported in ((plain, False), (exported, True)):
        book = openpyxl.Workbook(write_only=True)
        sheet = book.create_sheet("Workers")
        header = rows[0]
        sheet.append([EXPORT_HEADERS.get(c, c) if as_exported else c for c in header])
        for row in rows[1:]:
            sheet.append(
                [_export_cell(c, v) for c, v in zip(header, row, strict=True)]
                if as_exported
                else row
            )
        book.save(target)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--participants", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    count, runs = options.participants, options.runs
    print(f"Reading a roster kept as .xlsx, on {describe()}:")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        facts = write_hris(rrp_facts(count), folder, "rrp-10000")
        plain = folder / "rrp-10000-participants.xlsx"
        exported = folder / "rrp-10000-workers.xlsx"
        _workbooks(folder / "rrp-10000-participants.csv", plain, exported)
        text = facts.read_text(encoding="utf-8")
        as_xlsx = folder / "rrp-10000-xlsx.yaml"
        as_xlsx.write_text(text.replace("participants.csv", "participants.xlsx"))
        as_export = folder / "rrp-10000-export.yaml"
        as_export.write_text(text.replace("participants.csv", "workers.xlsx") + MAPPING)
        raw = plain.read_bytes()
        assert len(workbook_table(raw, plain.name, None).rows) == count
        sheet_cpu, sheet_wall = _best(lambda: workbook_table(raw, plain.name, None), runs)
        timings = {}
        for label, path in (("CSV", facts), ("xlsx", as_xlsx), ("mapped xlsx", as_export)):
            assert len(load_facts(path).facts.participants) == count
            timings[label] = _best(lambda path=path: load_facts(path), runs)
        read = f"{sheet_cpu:5.2f} s CPU ({sheet_wall:5.2f} s wall)"
        print(f"  {count:,} rows: the sheet read in {read}")
        for label, (cpu, wall) in timings.items():
            verdict = "within" if cpu < AIM_S else "OVER"
            print(
                f"  the facts loaded with the roster as {label:11}: {cpu:5.2f} s CPU "
                f"({wall:5.2f} s wall), {verdict} the aim of {AIM_S:.0f} s"
            )


if __name__ == "__main__":
    main()
