"""`docgen columns`: a proposed ``columns:`` block (A24) for a spreadsheet as the company exports
it, from its header and a sample of its rows, each guess with its reason as a YAML comment and
each thing it cannot decide marked ``FILL IN``.

Nothing here is read by the loader: the facts file takes the block only when the user pastes it,
so every guess is seen before it counts. A ``FILL IN`` leaves a value empty, which the loader
refuses with its fix, so an undecided line cannot be taken by mistake.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docgen.core.cells import WORKBOOK_SUFFIXES
from docgen.core.column_map import NO_WORDS, YES_WORDS
from docgen.core.errors import LoadError, Problem
from docgen.core.export_names import common_field, normalised
from docgen.core.roster import ISO_DAY, US_DATE, Column, Table, csv_table
from docgen.core.safe_text import for_message
from docgen.kinds.registry import Kind, get_kind
from docgen.load.text import decode, display, read_bytes
from docgen.load.workbook import is_workbook, workbook_table
from docgen.load.yaml_core import STR, plain_tag

SAMPLE_ROWS = 50  # rows read for the readers' guesses (the header is read whole)
_MONEY = re.compile(r"\$\s*[0-9][0-9,]*(\.[0-9]+)?|[0-9]{1,3}(,[0-9]{3})+(\.[0-9]+)?")
_PERCENT = re.compile(r"[0-9]+(\.[0-9]+)?\s*%")
_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ()./_-]*")
_ADDRESS_WORDS = ("address", "street", "city", "state", "zip", "postal", "country", "line")
# The field a value map serves, with its words in docgen's facts, and a word that marks each.
_VALUE_WORDS = {
    # the first word found wins: "Performance Bonus" is performance-based pay, not a bonus
    "kind": {"performance": "performance_based", "salary": "salary", "bonus": "bonus"},
    "termination_reason": {
        "retire": "retirement",
        "death": "death",
        "deceased": "death",
        "disab": "disability",
    },
}

# A pay frequency's words, letters only and lower case, to docgen's; only a word that can be read
# one way ("Bi-monthly" is every other month to some and twice a month to others: FILL IN).
_FREQUENCY_WORDS = {
    "weekly": "weekly",
    "biweekly": "biweekly",
    "fortnightly": "biweekly",
    "everyotherweek": "biweekly",
    "semimonthly": "semimonthly",
    "twiceamonth": "semimonthly",
    "monthly": "monthly",
}


@dataclass(frozen=True)
class Line:
    """One line of the block: its YAML and the comment saying why (or what to fill in)."""

    text: str
    why: str = ""


# Words YAML 1.1 readers take as booleans or null (YAML 1.2, docgen's, reads yes as text): quoted
# too, so the block means the same in whatever tool the user passes it through.
_YAML_WORDS = frozenset({"y", "n", "yes", "no", "on", "off", "true", "false", "null", "~"})


def _quoted(header: str) -> str:
    """A header (or a cell's word) as a YAML scalar that reads back as exactly that text: plain
    where every YAML reader reads it so, else double-quoted with ``"`` and ``\\`` escaped and
    each character that does not show itself (a line break, U+200B) written as YAML's own escape
    (``\\n``, ``\\u200b``), which the loader reads back as the character."""
    if (
        _PLAIN.fullmatch(header)
        and header.strip() == header
        and header.lower() not in _YAML_WORDS
        and plain_tag(header) == STR
    ):
        return header
    escaped = header.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return '"' + for_message(escaped.replace("\t", "\\t")) + '"'


def _comment(text: str) -> str:
    """A comment's text on one line: a header's line break or invisible character escaped, so
    nothing in it can end the comment and become YAML."""
    return for_message(text)


def _cells(table: Table, number: int) -> list[tuple[int, str]]:
    return [
        (row.line, row.cells[number].strip())
        for row in table.rows[:SAMPLE_ROWS]
        if number < len(row.cells) and row.cells[number].strip()
    ]


def _date_order(table: Table, dated: list[int]) -> Line | None:
    """The date order the sample decides, with the cell that decides it; None if no US dates."""
    seen = False
    for number in dated:
        for line, cell in _cells(table, number):
            found = US_DATE.fullmatch(cell)
            if not found:
                continue
            seen = True
            first, second = int(found.group(1)), int(found.group(2))
            where = f"row {line}'s {table.header[number]} {cell}"
            if second > 12 >= first:
                return Line("date_order: month_first", f"{where} has no month {second}")
            if first > 12 >= second:
                return Line("date_order: day_first", f"{where} has no month {first}")
    if not seen:
        return None
    return Line(
        "date_order:",
        "FILL IN month_first (06/01/2009 is June 1) or day_first: no sample date decides it",
    )


def propose(table: Table, columns: Sequence[Column], facts_field: str, command: str) -> str:
    """The proposed block, as text to paste under the facts' ``columns:``."""
    names = [column.name for column in columns]
    kinds = {column.name: column.kind for column in columns}
    by_name = {column.name: column for column in columns}
    taken: dict[str, list[int]] = {}
    left: list[int] = []
    lines: list[Line] = []
    ignore: list[Line] = []
    for number, header in enumerate(table.header):
        if not header:
            continue
        field = header if header in names else common_field(header, names, prefix=True)
        if field is None:
            close = difflib.get_close_matches(normalised(header).replace(" ", "_"), names, n=1)
            field = close[0] if close else None
        if field is None and any(word in normalised(header) for word in _ADDRESS_WORDS):
            if "address" in names:
                field = "address"
        if field is None or (field in taken and field != "address"):
            left.append(number)
            continue
        taken.setdefault(field, []).append(number)
    dated = [n for f, ns in taken.items() for n in ns if kinds.get(f) == "date"]
    order = _date_order(table, dated)
    if order is not None:
        lines.append(order)
    for field, numbers in taken.items():
        header = table.header[numbers[0]]
        if len(numbers) > 1:
            joined = ", ".join(_quoted(table.header[n]) for n in numbers)
            lines.append(
                Line(
                    f"{field}: {{join: [{joined}]}}",
                    "address parts in their columns, one line each, in the file's order",
                )
            )
            continue
        reason = _reason(header, field, names)
        options = _reader(table, numbers[0], field, kinds.get(field, "text"))
        if not options:
            words = by_name[field].words if field in by_name else ()
            if words:  # no sample cell to map: say which words the cells must be
                reason += (
                    f"; docgen reads {', '.join(words)}: if the file writes other words, map "
                    "them with values:"
                )
            lines.append(Line(f"{field}: {_quoted(header)}", reason))
            continue
        text = ", ".join(f"{key}: {value}" for key, value, _ in options)
        whys = "; ".join(why for _, _, why in options if why)
        lines.append(Line(f"{field}: {{column: {_quoted(header)}, {text}}}", f"{reason}; {whys}"))
    for wanted in columns:
        if wanted.required and wanted.name not in taken:
            if wanted.name == "id" and "name" in taken:
                header = table.header[taken["name"][0]]
                lines.append(
                    Line(
                        f"id: {{made_from: {_quoted(header)}, rule: slug}}",
                        "the file has no id column: ids made from names (Jane Q. Doe is "
                        "jane-q-doe); check they are unique and will not change, or map an id "
                        "column",
                    )
                )
            else:
                lines.append(
                    Line(
                        f"{wanted.name}:", f"FILL IN: a required column; no header is {wanted.name}"
                    )
                )
    for field, numbers in list(taken.items()):
        needed = by_name[field].needs if field in by_name else None
        if needed is None or needed in taken:
            continue
        header = table.header[numbers[0]]
        words = by_name[needed].words
        lines.append(
            Line(
                f"{needed}:",
                f"FILL IN the file's column for {needed}, which {header} needs"
                + (f" ({needed} is one of {', '.join(words)})" if words else "")
                + f", or remove this line if the file has none: a row with a {header} is then "
                "refused",
            )
        )
    for number in left:
        header = table.header[number]
        ignore.append(
            Line(
                f"- {_quoted(header)}",
                f"FILL IN: none of docgen's columns; map it ({', '.join(names[:4])}, ...) or "
                "keep it here",
            )
        )
    out = [
        _comment(
            f"# Proposed by `{command}` from the header and the first "
            f"{min(len(table.rows), SAMPLE_ROWS)} rows of {table.shown}."
        ),
        "# Each line says why; check every one, fill in each FILL IN, then paste the block under",
        "# columns: in the facts file (docs/spreadsheets.md). Nothing is read until you do.",
        "columns:",
        f"  {facts_field}:",
    ]
    if table.shown.rpartition(":")[0].lower().endswith((".xlsx", ".xlsm")):
        sheet = table.shown.rpartition(":")[2]
        out.append(f"    sheet: {_quoted(sheet)}  # the sheet read (the first); name another here")
    for line in lines:
        if line.why:
            out.append(f"    # {_comment(line.why)}")
        out.append(f"    {line.text}")
    if ignore:
        out.append("    ignore:")
        for line in ignore:
            out.extend([f"      # {_comment(line.why)}", f"      {line.text}"])
    return "\n".join(out) + "\n"


def _reason(header: str, field: str, names: list[str]) -> str:
    if header == field:
        return f"the column's name is docgen's {field}"
    if common_field(header, names) == field:
        return f"{header} is what HRIS and portal exports commonly call {field}"
    if common_field(header, names, prefix=True) == field:
        return f"{header} starts with a name exports commonly give {field}: check it"
    if field == "address":
        return "an address column"
    return f"the name nearest {field}: check it"


def _reader(table: Table, number: int, field: str, kind: str) -> list[tuple[str, str, str]]:
    """(option, value, why) for the column's reader, from its sample cells."""
    cells = _cells(table, number)
    if not cells:
        return []
    words = {cell.lower() for _, cell in cells}
    line, first = cells[0]
    if words <= set(YES_WORDS) | set(NO_WORDS):
        found: list[tuple[str, str, str]] = [
            ("read", "yes_no", f"its cells are {', '.join(sorted({c for _, c in cells}))}")
        ]
        if field == "key_employee_on":
            found.append(
                (
                    "determined_on",
                    "",
                    "FILL IN the December 31 determination a yes answers (Plan 1.14)",
                )
            )
        return found
    if all(_PERCENT.fullmatch(cell) for _, cell in cells):
        return [("read", "percent", f"row {line} holds {first}")]
    if kind == "whole":
        return []  # a count: "2,450" is read as 2450 as it is (docgen.core.roster)
    if all(_MONEY.fullmatch(cell) for _, cell in cells):
        found = [("read", "money", f"row {line} holds {first}")]
        if field == "compensation":
            found.append(
                (
                    "is",
                    "",
                    "FILL IN paid_in_year or annual_rate: Plan Compensation is pay paid "
                    "in the Plan Year (Plan 1.21), and which this column is cannot be seen from it",
                )
            )
        return found
    if kind == "date" or all(US_DATE.fullmatch(c) or ISO_DAY.fullmatch(c) for _, c in cells):
        if all(ISO_DAY.fullmatch(cell) for _, cell in cells):
            return []
        return [("read", "date", f"row {line} holds {first}")]
    if field == "pay_frequency":
        mapped = []
        for word in sorted({cell for _, cell in cells}):
            letters = "".join(ch for ch in word.lower() if ch.isalpha())
            mapped.append(f"{_quoted(word)}: {_FREQUENCY_WORDS.get(letters, '')}")
        why = "each word of the sample read as the frequency it names"
        if any(m.endswith(": ") for m in mapped):
            why += "; FILL IN the ones left empty (weekly, biweekly, semimonthly or monthly)"
        why += "; each frequency needs its schedule in plan.pay_schedule or plan.pay_schedules"
        return [("values", "{" + ", ".join(mapped) + "}", why)]
    if field in _VALUE_WORDS:
        mapped = []
        for word in sorted({cell for _, cell in cells}):
            target = next((v for k, v in _VALUE_WORDS[field].items() if k in word.lower()), None)
            mapped.append(f"{_quoted(word)}: {target or ''}")
        unknown = [m for m in mapped if m.endswith(": ")]
        why = "each word of the sample mapped by the word in it"
        if unknown:
            why += "; FILL IN the ones left empty"
        return [("values", "{" + ", ".join(mapped) + "}", why)]
    return []


def files_of(kind: Kind[Any]) -> dict[str, tuple[str, tuple[Column, ...]]]:
    """The files of a kind a block can map, by what ``--as`` calls them (``participants``,
    ``elections``): each one's facts field and columns."""
    found: dict[str, tuple[str, tuple[Column, ...]]] = {}
    if kind.roster is not None:
        found[kind.roster.field.removesuffix("_csv")] = (kind.roster.field, kind.roster.cells)
    for spec in kind.records:
        found[spec.field.removesuffix("_csv")] = (spec.field, spec.columns)
    return found


def propose_columns(path: Path, kind_name: str, file_is: str | None) -> str:
    """The proposed block for the file at ``path`` read as the kind's roster (or, with
    ``file_is``, as its file of that name: ``elections``)."""
    kind = get_kind(kind_name)
    files = files_of(kind)
    if not files:
        raise LoadError([Problem(kind_name, None, "--kind", "a kind with no roster", None, None)])
    chosen = file_is or next(iter(files))
    if chosen not in files:
        raise LoadError(
            [
                Problem(
                    display(path),
                    None,
                    "--as",
                    f"{kind_name} has no file of {chosen}",
                    None,
                    f"Give --as {' or '.join(files)}.",
                )
            ]
        )
    facts_field, columns = files[chosen]
    shown = display(path)
    if not path.name.lower().endswith((".csv", *WORKBOOK_SUFFIXES)):
        # A facts file, a PDF or anything else read as a CSV would give a proposal from its
        # lines: a guess, which docgen never makes silently (found by tests/test_hostile_inputs).
        raise LoadError(
            [
                Problem(
                    shown,
                    None,
                    "",
                    "not a spreadsheet: `docgen columns` reads one as exported, a .csv, .xlsx or "
                    ".xlsm file",
                    None,
                    "Export the sheet as .csv or .xlsx and name that file (a facts file is read by "
                    "`docgen check`).",
                )
            ]
        )
    raw = read_bytes(path, shown)
    table = (
        workbook_table(raw, shown, None)
        if is_workbook(shown)
        else csv_table(decode(raw, shown), shown)
    )
    command = f"docgen columns {shown} --kind {kind_name}" + (f" --as {file_is}" if file_is else "")
    return propose(table, columns, facts_field, command)
