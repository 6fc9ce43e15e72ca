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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from docgen.core.errors import LoadError, Problem
from docgen.core.numbers import SourceNumber

CellKind = Literal["id", "text", "lines", "boolean", "whole", "list"]
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


@dataclass(frozen=True)
class Column:
    name: str
    kind: CellKind = "text"
    required: bool = False


@dataclass
class RosterRow:
    """One person's row: the converted non-empty cells, the line each cell starts on and its
    column (the cell's place in the row, counted from 1, as a spreadsheet counts A, B, C)."""

    index: int  # the person's position in the facts' list of subjects
    line: int  # the row's first line in the file
    values: dict[str, Any] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)
    columns: dict[str, int] = field(default_factory=dict)

    def cell(self, shown: str, column: str) -> tuple[str, int, int]:
        """Where the cell of ``column`` is: the file, its line and its column, for a SourceMap."""
        return shown, self.lines[column], self.columns[column]


def _header_problems(header: list[str], columns: Sequence[Column], shown: str) -> list[Problem]:
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
    for column in header:
        if column in seen:
            problems.append(
                Problem(
                    shown,
                    1,
                    f"column {column}",
                    "the column appears twice",
                    None,
                    "Keep one column of each name.",
                )
            )
        seen.add(column)
        if column not in names:
            guess = difflib.get_close_matches(column, names, n=1)
            hint = f"Did you mean {guess[0]}? " if guess else ""
            problems.append(
                Problem(shown, 1, f"column {column}", "unknown column", None, f"{hint}{listed}")
            )
    for wanted in columns:
        if wanted.required and wanted.name not in header:
            problems.append(
                Problem(
                    shown,
                    1,
                    f"column {wanted.name}",
                    "required column is missing",
                    None,
                    f"Add a {wanted.name} column to the header row.",
                )
            )
    return problems


def _convert(kind: CellKind, cell: str) -> Any:
    if kind == "id":
        return cell  # as typed: the model refuses spaces around an id, and says why
    if kind == "lines":
        return [part.strip() for part in _LINE_PARTS.split(cell) if part.strip()]
    if kind == "list":
        return [part.strip() for part in _LIST_PARTS.split(cell) if part.strip()]
    text = cell.strip()
    if kind == "boolean":
        return BOOLEANS.get(text.lower(), text)
    if kind == "whole":
        # A spreadsheet writes 2450 as "2,450": commas grouping thousands are read; any other
        # comma ("2,4,5,0", "24,50") goes to the field as written, which refuses it, never dropped.
        grouped = _GROUPED_WHOLE.fullmatch(text)
        return SourceNumber(text.replace(",", "") if grouped else text)
    return text


def _records(reader: Any, shown: str) -> Iterator[list[str]]:
    """The CSV's records; a record the csv module cannot read (a cell over its limit of 131,072
    characters, 128 KiB: no fact is that long) is a refusal with its file and line (issue 44)."""
    while True:
        try:
            yield next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            limit = csv.field_size_limit()
            raise LoadError(
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
            ) from None


def read_rows(
    text: str, shown: str, columns: Sequence[Column], list_name: str, first_index: int
) -> tuple[list[RosterRow], list[Problem]]:
    """Every person's row of a roster CSV, and every problem in the rows, found in one pass (a
    row with a problem is still returned, so the fact model can report the rest of it)."""
    reader = csv.reader(io.StringIO(text, newline=""))
    records = _records(reader, shown)
    try:
        header = [name.strip() for name in next(records)]
    except StopIteration:
        header = []
    by_name = {column.name: column for column in columns}
    problems = _header_problems(header, columns, shown)
    if problems:
        raise LoadError(problems)  # without its header nothing in the file can be read
    rows: list[RosterRow] = []
    for cells in records:
        if not any(cell.strip() for cell in cells):
            continue
        index = first_index + len(rows)
        breaks = [len(_BREAK.findall(cell)) for cell in cells]
        start = reader.line_num - sum(breaks)
        row = RosterRow(index, start)
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
        line = start
        for number, (column, cell, count) in enumerate(
            zip(header, cells, breaks, strict=False), start=1
        ):
            kind = by_name[column].kind
            if cell.strip():
                if kind not in ("lines", "list") and _BREAK.search(cell.strip()):
                    problems.append(
                        Problem(
                            shown,
                            line,
                            f"{list_name}[{index}].{column}",
                            "a line break inside the cell (Alt+Enter in Excel)",
                            " / ".join(_BREAK.split(cell.strip())),
                            "Put it on one line; only an address cell may hold several.",
                        )
                    )
                else:
                    row.values[column] = _convert(kind, cell)
                    row.lines[column] = line
                    row.columns[column] = number
            line += count
        rows.append(row)
    return rows, problems
