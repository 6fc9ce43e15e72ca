"""Naming a cell of a roster or a file of filings: ``roster.csv:14:4`` in a CSV, and in a
workbook's sheet the way a spreadsheet names it, ``Workers.xlsx:Sheet1!D14``."""

from __future__ import annotations

# A workbook sheet's name as docgen shows it: the file, a colon, the sheet (docgen.load.workbook).
WORKBOOK_SUFFIXES = (".xlsx", ".xlsm")


def is_sheet(shown: str) -> bool:
    """Whether ``shown`` names a workbook's sheet (``Workers.xlsx:Sheet1``), not a CSV."""
    name, colon, _ = shown.rpartition(":")
    return bool(colon) and name.lower().endswith(WORKBOOK_SUFFIXES)


def column_letters(number: int) -> str:
    """A column's letters as a spreadsheet shows them: 1 is A, 27 is AA."""
    letters = ""
    while number > 0:
        number, rest = divmod(number - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def cell_name(shown: str, line: int | None, column: int | None = None) -> str:
    """Where a cell is, as a message names it."""
    if line is None:
        return shown
    if is_sheet(shown):
        return f"{shown}!{column_letters(column)}{line}" if column else f"{shown}!{line}:{line}"
    return f"{shown}:{line}" + (f":{column}" if column else "")


def problem_place(shown: str, line: int, column: int | None = None) -> tuple[str, int | None]:
    """The (file, line) a Problem about a cell carries: a sheet's cell is named whole
    (``Workers.xlsx:Sheet1!D14``, no line after it), a CSV's by its file and line."""
    if is_sheet(shown):
        return cell_name(shown, line, column), None
    return shown, line
