"""Workbooks for the tests, written with openpyxl (a maintained writer; docgen itself only reads
workbooks, through python-calamine): a CSV's rows saved as a sheet, as the company's spreadsheet
program would save the same export as .xlsx."""

from __future__ import annotations

import csv
from datetime import datetime
from decimal import Decimal
from pathlib import Path

import pytest

openpyxl = pytest.importorskip("openpyxl")


def write_workbook(source: Path, target: Path, sheet: str, typed: bool) -> None:
    """``source``'s rows as a workbook's sheet; ``typed``: money and dates as a spreadsheet types
    them (numbers and dates), as Workday's own .xlsx export does; untyped, every cell is the
    text the CSV holds."""
    book = openpyxl.Workbook()
    page = book.active
    page.title = sheet
    with source.open(encoding="utf-8-sig", newline="") as file:
        for number, row in enumerate(csv.reader(file)):
            cells: list[object] = []
            for cell in row:
                value: object = cell
                if typed and number and cell.startswith("$"):
                    value = float(Decimal(cell.strip("$").replace(",", "")))
                elif typed and number and cell.count("/") == 2 and " " not in cell:
                    month, day, year = (int(part) for part in cell.split("/"))
                    value = datetime(year, month, day)
                cells.append(value if value != "" else None)
            page.append(cells)
    book.save(target)
