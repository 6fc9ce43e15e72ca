"""Reading a roster CSV (a spreadsheet's export, one row per person) strictly and line-exactly.

Both kinds' rosters (docgen/kinds/*/roster.py) read their rows here, so they refuse alike: an
unknown or repeated column (with a did-you-mean), a missing required column, a row with more
cells than columns, a line break where one line is expected. Every problem names the file, the
line of the cell and the column. A cell typed the normal Excel way with Alt+Enter holds line
breaks: in an address column they become the address lines, as `` | `` between lines also does.
Rows whose every cell is empty (a spreadsheet's trailing ``,,,,`` lines) are not people and are
skipped. Values are converted only where a spreadsheet cannot say what it means (``yes`` for
true, ``2,450`` for a number); everything else is left as text for the fact model to judge.
"""

from __future__ import annotations

import csv
import difflib
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from docgen.core.cells import problem_place
from docgen.core.errors import LoadError, Problem, listed_once
from docgen.core.export_names import common_field
from docgen.core.numbers import SourceNumber

CellKind = Literal["id", "text", "lines", "boolean", "whole", "list", "date"]
BOOLEANS = {
    "true": True,
    "yes": True,
    "y": True,
    "1": True,
    "false": False,
    "no": False,
    "n": False,
    "0": False,
}
_BREAK = re.compile(r"\r\n|\r|\n")
_LINE_PARTS = re.compile(r"\r\n|\r|\n|\s\|\s")
_LIST_PARTS = re.compile(r"\r\n|\r|\n|;")
_GROUPED_WHOLE = re.compile(r"[1-9][0-9]{0,2}(?:,[0-9]{3})+")


# A date as a US export writes it (11/26/2012), with any time of day after it (09:14).
US_DATE = re.compile(
    r"(\d{1,2})/(\d{1,2})/(\d{4})(?:[ T]\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AaPp][Mm])?)?"
)
ISO_DAY = re.compile(r"(\d{4}-\d{2}-\d{2})(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?")


class UnreadCell(ValueError):
    """A cell its column's reader cannot read: what was expected, and the fix."""

    def __init__(self, what: str, fix: str):
        super().__init__(what)
        self.what = what
        self.fix = fix


def us_date(text: str) -> str:
    """A date cell with no order stated (A24): ISO as written; a US date read only when it
    cannot be read two ways (``11/26/2012``: no 26th month), else refused naming
    ``date_order``. A time of day after the date is the day's, and left out."""
    iso = ISO_DAY.fullmatch(text)
    if iso:
        return iso.group(1)
    found = US_DATE.fullmatch(text)
    if not found:
        return text  # the fact model says what a date must look like
    first, second, year = (int(part) for part in found.groups())
    if first > 12 >= second:
        raise UnreadCell(
            "a day-first date, and the file states no date order",
            "Add date_order: day_first to this file's columns: block (docs/fact-files.md).",
        )
    if first <= 12 and second <= 12 and first != second:
        raise UnreadCell(
            f"an ambiguous date: month {first} day {second}, or day {first} month {second}",
            "State the order in this file's columns: block, date_order: month_first (a US "
            "export) or day_first (docs/fact-files.md).",
        )
    return f"{year:04d}-{first:02d}-{second:02d}"


@dataclass(frozen=True)
class Column:
    name: str
    kind: CellKind = "text"
    required: bool = False
    instead: str | None = None  # a column that may stand for a required one (annual_rate)
    needs: str | None = None  # a column whose cell a filled cell of this one needs (its reason)
    words: tuple[str, ...] = ()  # the words docgen reads in the cell, when only those


@dataclass(slots=True)
class RosterRow:
    """One person's row: the converted non-empty cells, and where each cell is (its line and its
    column, the cell's place in the row counted from 1, as a spreadsheet counts A, B, C), read
    from the row as the table holds it when a message asks."""

    index: int  # the person's position in the facts' list of subjects
    line: int  # the row's first line in the file
    values: dict[str, Any]
    read: TableRow  # the row as read: the line and column of each of its cells
    places: dict[str, int]  # each column's place in the file's header, counted from 0

    def line_of(self, column: str) -> int:
        """The line the cell of ``column`` starts on."""
        return self.read.line_at(self.places[column])

    def column_of(self, column: str) -> int:
        """The column of the cell of ``column``: its place in the row, or where a mapping read
        it from (docgen.core.column_map)."""
        return _column_number(self.read, self.places[column])

    def cell(self, shown: str, column: str) -> tuple[str, int, int]:
        """Where the cell of ``column`` is: the file, its line and its column, for a SourceMap."""
        return shown, self.line_of(column), self.column_of(column)


def _article(word: str) -> str:
    """ "an" before a vowel sound as spelled (an id column, an email column), else "a"."""
    return "an" if word[:1].lower() in "aeio" else "a"


def _header_problems(
    header: list[str], columns: Sequence[Column], shown: str, header_line: int = 1
) -> list[Problem]:
    names = [column.name for column in columns]
    listed = f"Columns: {', '.join(names)}."
    problems = []
    if len(header) == 1 and header[0].count(";") >= 1:
        return [
            Problem(
                shown,
                1,
                "header",
                "the columns are separated by semicolons, not commas",
                None,
                "Save the spreadsheet as CSV UTF-8 (comma delimited).",
            )
        ]
    seen: set[str] = set()
    unknown: list[Problem] = []
    for number, column in enumerate(header, start=1):
        if column in seen:
            problems.append(
                Problem(
                    *problem_place(shown, header_line, number),
                    f"column {column}",
                    "the column appears twice",
                    None,
                    "Keep one column of each name.",
                )
            )
        seen.add(column)
        if column not in names:
            guess = difflib.get_close_matches(column, names, n=1)
            common = common_field(column, names)
            hint = f"Did you mean {guess[0]}?" if guess else None
            if common is not None:  # an HRIS export's name: say how to read the file as it is
                hint = (
                    f"Did you mean {common}? {column} is what HRIS exports commonly call it: "
                    f"rename the column {common}, or read the file as exported through a "
                    "columns: block (`docgen columns FILE --kind ...` proposes one)."
                )
            unknown.append(
                Problem(
                    *problem_place(shown, header_line, number),
                    f"column {column}",
                    "unknown column",
                    None,
                    hint,
                )
            )
    # The columns are listed once, in docgen's order, after any did-you-mean, not with each.
    problems.extend(listed_once(unknown, listed))
    for wanted in columns:
        if wanted.required and wanted.name not in header and wanted.instead not in header:
            problems.append(
                Problem(
                    *problem_place(shown, header_line),
                    f"column {wanted.name}",
                    "required column is missing",
                    None,
                    f"Add {_article(wanted.name)} {wanted.name} column"
                    + (f" (or {wanted.instead})" if wanted.instead else "")
                    + " to the header row.",
                )
            )
    return problems


def _convert(kind: CellKind, cell: str) -> Any:
    """A cell of ``kind`` (not text, nor an id: read_rows takes them as they are)."""
    if kind == "lines":
        return [part.strip() for part in _LINE_PARTS.split(cell) if part.strip()]
    if kind == "list":
        return [part.strip() for part in _LIST_PARTS.split(cell) if part.strip()]
    text = cell.strip()
    if kind == "date":
        return us_date(text)
    if kind == "boolean":
        return BOOLEANS.get(text.lower(), text)
    if kind == "whole":
        # A spreadsheet writes 2450 as "2,450": commas grouping thousands are read; any other
        # comma ("2,4,5,0", "24,50") goes to the field as written, which refuses it, never dropped.
        grouped = _GROUPED_WHOLE.fullmatch(text)
        return SourceNumber(text.replace(",", "") if grouped else text)
    return text


def _unreadable(reader: Any, shown: str, error: csv.Error) -> LoadError:
    """A record the csv module cannot read (a cell over its limit of 131,072 characters, 128
    KiB: no fact is that long) is a refusal with its file and line (issue 44)."""
    limit = csv.field_size_limit()
    return LoadError(
        [
            Problem(
                shown,
                reader.line_num or 1,
                "",
                f"a cell docgen cannot read ({error}): a cell may hold at most "
                f"{limit:,} characters",
                fix="Shorten the cell, or close the quote it opens.",
            )
        ]
    )


@dataclass(slots=True)
class TableRow:
    """One row of a table as read: its cells' text, the line (a workbook's row) each cell starts
    on, and the row's first line."""

    line: int
    cells: list[str]
    lines: Sequence[int] = ()  # each cell's line, when given (a table read through a mapping)
    columns: Sequence[int] = ()  # each cell's column, when not its place
    # A CSV record read from one line of the file: none of its cells holds a line break (a
    # break in a cell ends the line the csv module reads, so the record spans two).
    one_line: bool = False
    # A CSV record over several lines: each cell starts below the line breaks of the cells
    # before it (worked out when a message asks: a roster's every address may hold one).
    spans_lines: bool = False

    def line_at(self, place: int) -> int:
        """The line the cell at ``place`` (counted from 0) starts on."""
        if self.lines:
            return self.lines[place]
        if not self.spans_lines:
            return self.line
        return self.line + sum(_breaks(cell) for cell in self.cells[:place])


def _breaks(text: str) -> int:
    """The line breaks in ``text``: each \\r\\n, \\r or \\n (as the csv module ends a line)."""
    return text.count("\n") + text.count("\r") - text.count("\r\n")


@dataclass
class Table:
    """A roster or a file of filings as read, before its cells are judged: the header and the
    rows. ``shown`` is the file as messages name it (``Workers.xlsx:Sheet1`` for a workbook's
    sheet, whose cells are then named ``Workers.xlsx:Sheet1!D14``)."""

    shown: str
    header: list[str]
    rows: list[TableRow]
    header_line: int = 1
    # the header's columns, when a mapping read the file (each docgen column's first source)
    header_columns: list[int] = field(default_factory=list)
    # docgen's column -> the company's header it is read from, when a mapping read the file: a
    # message about a cell names the column as the company's file does
    written: dict[str, str] = field(default_factory=dict)

    def header_of(self, column: str) -> str:
        """The header the file gives docgen's ``column`` (the company's, or docgen's own)."""
        return self.written.get(column, column)


def csv_table(text: str, shown: str) -> Table:
    """A CSV's header and rows, each cell with the line it starts on (a cell typed with Alt+Enter
    spans lines); rows whose every cell is empty are left out."""
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        return _read_table(reader, shown)
    except csv.Error as error:
        raise _unreadable(reader, shown, error) from None


def _read_table(reader: Any, shown: str) -> Table:
    header = [name.strip() for name in next(reader, [])]
    rows: list[TableRow] = []
    ended = reader.line_num  # the line the previous record ended on
    for cells in reader:
        spans = reader.line_num - ended  # the lines this record took (blank ones before it too)
        ended = reader.line_num
        if not "".join(cells).strip():
            continue
        if spans == 1:  # one line, as nearly every row is: every cell is on it
            rows.append(TableRow(ended, cells, one_line=True))
            continue
        # the record starts as many lines before its end as its cells hold breaks (the cells
        # joined by a character that is no break, so a \r ending one cell and a \n starting the
        # next are not read as one \r\n)
        start = ended - _breaks("\0".join(cells))
        rows.append(TableRow(start, cells, spans_lines=True))
    return Table(shown, header, rows)


def _column_number(read: TableRow, place: int) -> int:
    """The column of a row's cell at ``place`` (counted from 0): where a mapping read it from,
    else its place counted from 1."""
    return read.columns[place] if read.columns else place + 1


def read_rows(
    table: Table | str,
    shown: str,
    columns: Sequence[Column],
    list_name: str,
    first_index: int,
) -> tuple[list[RosterRow], list[Problem]]:
    """Every person's row of a roster (a CSV's text, or a table already read: a workbook's sheet,
    or a file read through its ``columns:`` mapping, docgen.core.column_map), and every problem
    in the rows, found in one pass (a row with a problem is still returned, so the fact model can
    report the rest of it)."""
    if isinstance(table, str):
        table = csv_table(table, shown)
    shown = table.shown
    header = table.header
    by_name = {column.name: column for column in columns}
    problems = _header_problems(header, columns, shown, table.header_line)
    if problems:
        raise LoadError(problems)  # without its header nothing in the file can be read
    kinds = [by_name[column].kind for column in header]
    # each cell's place in the row: where a message finds it (RosterRow.line_of, column_of)
    places = {column: place for place, column in enumerate(header)}
    breaks_allowed = [kind in ("lines", "list") for kind in kinds]
    width = len(header)
    rows: list[RosterRow] = []
    for read in table.rows:
        cells = read.cells
        index = first_index + len(rows)
        start = read.line
        values: dict[str, Any] = {}
        if len(cells) > len(header):
            problems.append(
                Problem(
                    shown,
                    start,
                    f"{list_name}[{index}]",
                    "more cells than columns",
                    f"{len(cells)} cells, {len(header)} columns",
                    "Quote any cell that contains a comma.",
                )
            )
        one_line = read.one_line
        # a cell past the last column is not read (said above); an empty one is no fact
        for place, cell in enumerate(cells if len(cells) <= width else cells[:width]):
            if not cell:
                continue
            text = cell.strip()
            if not text:
                continue
            column, kind = header[place], kinds[place]
            if not one_line and not breaks_allowed[place] and ("\n" in text or "\r" in text):
                problems.append(
                    Problem(
                        *problem_place(shown, read.line_at(place), _column_number(read, place)),
                        f"{list_name}[{index}].{column}",
                        "a line break inside the cell (Alt+Enter in Excel)",
                        " / ".join(_BREAK.split(text)),
                        "Put it on one line; only an address cell may hold several.",
                    )
                )
                continue
            if kind == "text":  # text as typed, stripped: the other kinds strip it themselves
                values[column] = text
                continue
            if kind == "id":  # as typed: the model refuses spaces around an id, and says why
                values[column] = cell
                continue
            try:
                values[column] = _convert(kind, cell)
            except UnreadCell as unread:
                problems.append(
                    Problem(
                        *problem_place(shown, read.line_at(place), _column_number(read, place)),
                        f"{list_name}[{index}].{column}",
                        unread.what,
                        text,
                        unread.fix,
                    )
                )
        rows.append(RosterRow(index, start, values, read, places))
    return rows, problems
