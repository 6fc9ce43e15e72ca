"""Benchmark: reading a 10,000-row roster kept as an Excel workbook (A24), against its CSV.

Run by `make bench`. Writes the HRIS shape of 10,000 participants (bench/realistic.py,
write_hris), saves its roster as `.xlsx` with openpyxl (the tests' writer of workbooks), and times
reading the sheet (docgen.load.workbook, python-calamine) and loading the whole facts file with
the roster as CSV and as a workbook. The aim (issue 40): the workbook read under 2 s.
"""

from __future__ import annotations

import csv
import tempfile
import time
from pathlib import Path

import openpyxl
from machine import describe
from realistic import rrp_facts, write_hris

from docgen.load import load_facts
from docgen.load.workbook import workbook_table


def main() -> None:
    print(f"Reading a roster kept as .xlsx, on {describe()}:")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        facts = write_hris(rrp_facts(10_000), folder, "rrp-10000")
        roster = folder / "rrp-10000-participants.csv"
        book = openpyxl.Workbook(write_only=True)
        sheet = book.create_sheet("Workers")
        with roster.open(encoding="utf-8", newline="") as handle:
            for row in csv.reader(handle):
                sheet.append(row)
        book.save(folder / "rrp-10000-participants.xlsx")
        text = facts.read_text(encoding="utf-8")
        as_xlsx = folder / "rrp-10000-xlsx.yaml"
        as_xlsx.write_text(text.replace("participants.csv", "participants.xlsx"))
        raw = (folder / "rrp-10000-participants.xlsx").read_bytes()
        started = time.perf_counter()
        table = workbook_table(raw, "rrp-10000-participants.xlsx", None)
        sheet_s = time.perf_counter() - started
        assert len(table.rows) == 10_000
        timings = {}
        for label, path in (("CSV", facts), ("xlsx", as_xlsx)):
            started = time.perf_counter()
            loaded = load_facts(path)
            timings[label] = time.perf_counter() - started
            assert len(loaded.facts.participants) == 10_000
        print(
            f"  10,000 rows: the sheet read {sheet_s:5.2f} s (aim 2 s); the facts loaded with "
            f"the roster as CSV {timings['CSV']:5.2f} s, as xlsx {timings['xlsx']:5.2f} s"
        )


if __name__ == "__main__":
    main()
