"""Reading a roster or a file of filings kept as a workbook (``.xlsx``, A24) into the same table a
CSV gives (docgen.core.roster.Table), the sheet named by the file's ``columns:`` block or else
the first, each cell with its row and column so every message names it
(``Workers.xlsx:Sheet1!D14``).

Decisions, and why:

* python-calamine reads the workbook (its public ``CalamineWorkbook.from_filelike``,
  ``get_sheet_by_name``, ``to_python``): a maintained binding of the Rust calamine reader, read
  only (docgen never writes a workbook: filings for its people go to the CSV of filings the facts
  name), and fast enough that a 10,000-row roster is read well inside the 2 s a user waits
  (openpyxl, the other maintained reader, parses the XML in Python and takes several times as
  long on the same sheet; it is the tests' writer of workbooks only).
* A cell's value comes as the workbook typed it: text as written; a whole number stored as a
  float (``1250000.0``) as its digits (``1250000``); a date or date and time cell as ISO
  (``2009-06-01``), so no date order is involved; true/false as ``true``/``false``. The
  ``columns:`` readers then judge the text as they judge a CSV's.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from datetime import date, datetime, time, timedelta
from decimal import Decimal

from docgen.core.errors import LoadError, Problem
from docgen.core.roster import Table, TableRow


def is_workbook(name: str) -> bool:
    """Whether a roster's or a filing file's name is a workbook's (read here, never written)."""
    return name.lower().endswith((".xlsx", ".xlsm"))


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == time(0) else value.isoformat(" ")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value))
        return format(Decimal(repr(value)), "f")
    if isinstance(value, timedelta | time):
        return str(value)
    return str(value)


def _row_text(row: Sequence[object]) -> list[str]:
    """A row's cells as text. Most cells of a roster are text already and are taken as they
    are; only a typed cell (a number, a date) is converted (10,000 rows of 29 cells: 0.25 s
    of CPU saved on this machine, bench/bench_spreadsheets.py)."""
    return [value if isinstance(value, str) else _text(value) for value in row]


def workbook_table(raw: bytes, shown: str, sheet: str | None) -> Table:
    """The sheet's header (its first non-empty row) and rows, as text, with their places."""
    # here, not at the top: only a facts file that names a workbook reads one
    from python_calamine import CalamineError, CalamineWorkbook, WorksheetNotFound

    try:
        book = CalamineWorkbook.from_filelike(io.BytesIO(raw))
        names = list(book.sheet_names)
        name = sheet if sheet is not None else (names[0] if names else "")
        found = book.get_sheet_by_name(name)
        values = found.to_python(skip_empty_area=False)
    except WorksheetNotFound:
        raise LoadError(
            [
                Problem(
                    shown,
                    None,
                    "sheet",
                    f"no sheet named {sheet}",
                    None,
                    f"Its sheets: {', '.join(names)}. Name one in the columns: block's sheet:.",
                )
            ]
        ) from None
    except (CalamineError, ValueError, OSError) as error:
        raise LoadError(
            [
                Problem(
                    shown,
                    None,
                    "",
                    f"cannot be read as a workbook ({error})",
                    None,
                    "Save it from the spreadsheet as Excel Workbook (.xlsx), or as CSV UTF-8.",
                )
            ]
        ) from None
    where = f"{shown}:{name}"
    header_at = next(
        (number for number, row in enumerate(values) if any(t.strip() for t in _row_text(row))),
        None,
    )
    if header_at is None:
        return Table(where, [], [])
    header = [text.strip() for text in _row_text(values[header_at])]
    while header and not header[-1]:
        header.pop()
    rows: list[TableRow] = []
    for number, row in enumerate(values[header_at + 1 :], start=header_at + 2):
        cells = _row_text(row)
        if not any(cell.strip() for cell in cells):
            continue
        while len(cells) > len(header) and not cells[-1].strip():
            cells.pop()
        rows.append(TableRow(number, cells))  # a sheet's row: every cell on it
    return Table(where, header, rows, header_at + 1)
