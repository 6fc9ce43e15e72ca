"""A roster's or a file of filings' ``columns:`` mapping (A24): the company's headers read as
docgen's columns, each cell through the reader the mapping states.

A mapping is written once per source, under the facts' ``columns:`` keyed by the field naming
the file (``participants_csv``). Each docgen column is given as the company's header, or as a
mapping: ``column:`` (one header) or ``join:`` (several, as lines: an address in four columns),
``read:`` (``date``, ``money``, ``percent``, ``fraction``, ``yes_no``, ``text``), ``values:``
(the company's words to docgen's: ``Base Salary: salary``), ``yes:``/``no:`` (the words of a
yes/no column), ``value:`` (one value for every row), ``made_from:`` with ``rule: slug`` (ids
made from a name when the file has none), ``determined_on:`` (a key-employee flag: the December
31 determination a ``yes`` answers, Plan 1.14), ``is:`` (on ``compensation``, required: pay
``paid_in_year``, or an ``annual_rate`` of base salary, read into ``annual_rate`` and worked
through the pay schedule). The file's own options: ``sheet:`` (a
workbook's), ``date_order:`` (``month_first``, ``day_first``, ``iso``), ``ignore:`` (headers
left out on purpose). A header the mapping does not name, that is not docgen's own column and is
not ignored, is refused: nothing is dropped silently.

Every reader refuses what it cannot read with the cell's place, what was expected and the fix;
it never guesses (a money cell with letters, ``maybe`` in a yes/no column, a date the stated
order cannot read).
"""

from __future__ import annotations

import dataclasses
import difflib
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from docgen.core.cells import problem_place
from docgen.core.errors import Problem, listed_once
from docgen.core.export_names import common_field, normalised
from docgen.core.roster import ISO_DAY, Column, Table, TableRow, UnreadCell, us_date

READERS = ("text", "date", "money", "percent", "fraction", "yes_no")
DATE_ORDERS = ("month_first", "day_first", "iso")
ID_RULES = ("slug",)
FILE_OPTIONS = ("sheet", "date_order", "ignore")
FIELD_OPTIONS = (
    "column",
    "join",
    "lines",
    "read",
    "values",
    "yes",
    "no",
    "value",
    "made_from",
    "rule",
    "determined_on",
    "is",
)
YES_WORDS = ("y", "yes", "true", "x", "1")
NO_WORDS = ("n", "no", "false", "0")
# Plan Compensation is pay actually paid in the Plan Year (Plan 1.21): a column of an annual
# rate is a different figure, and which one a column holds is stated, never guessed.
COMPENSATION_IS = ("paid_in_year", "annual_rate")
_MONEY = re.compile(r"\$?\s*([0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(\.[0-9]+)?")
_PERCENT = re.compile(r"([0-9]+(?:\.[0-9]+)?)\s*%?")
_DATE_PARTS = re.compile(
    r"(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?:[ T]\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AaPp][Mm])?)?"
)
_SLUG = re.compile(r"[^a-z0-9]+")
_BRACED = re.compile(r"\{([^{}]+)\}")

Locate = Callable[[tuple[str | int, ...]], tuple[str, int | None]]


@dataclass(frozen=True)
class FieldMap:
    """How one docgen column is read: from which of the company's headers, through which
    reader."""

    field: str
    sources: tuple[str, ...] = ()  # the headers (several: joined, one line each)
    lines: tuple[str, ...] = ()  # line templates naming headers: "{City}, {State} {Postal Code}"
    read: str = "text"
    values: Mapping[str, str] = dataclasses.field(default_factory=dict)
    yes: tuple[str, ...] = YES_WORDS
    no: tuple[str, ...] = NO_WORDS
    value: str | None = None  # one value for every row
    made_from: str | None = None  # an id made from this header by ``rule``
    determined_on: str | None = None
    compensation_is: str | None = None


@dataclass(frozen=True)
class ColumnMap:
    """A file's mapping: its fields, the headers ignored on purpose, its date order and sheet."""

    facts_field: str  # participants_csv
    fields: tuple[FieldMap, ...]
    ignore: frozenset[str] = frozenset()
    date_order: str | None = None
    sheet: str | None = None

    def compensation_is(self) -> str | None:
        for one in self.fields:
            if one.field == "compensation":
                return one.compensation_is
        return None


def _words(value: Any) -> tuple[str, ...] | None:
    if isinstance(value, str):
        return (value.strip().lower(),)
    if isinstance(value, list) and all(isinstance(v, str | int) for v in value):
        return tuple(str(v).strip().lower() for v in value)
    return None


def parse_block(
    facts_field: str, block: Any, columns: Sequence[Column], locate: Locate
) -> tuple[ColumnMap | None, list[Problem]]:
    """The ``columns:`` block of one file, or the problems that keep it from being read (each
    at its line of the facts file)."""
    base: tuple[str | int, ...] = ("columns", facts_field)
    problems: list[Problem] = []

    def refuse(at: tuple[str | int, ...], what: str, got: str | None, fix: str) -> None:
        file, line = locate((*base, *at))
        path = ".".join(str(part) for part in (*base, *at))
        problems.append(Problem(file, line, path, what, got, fix))

    if not isinstance(block, dict):
        refuse(
            (),
            "expected a mapping of docgen's columns to the file's headers",
            None,
            "Start from what `docgen columns FILE --kind ...` prints (docs/fact-files.md).",
        )
        return None, problems
    names = [column.name for column in columns]
    fields: list[FieldMap] = []
    ignore: frozenset[str] = frozenset()
    date_order = block.get("date_order")
    if "date_order" in block and date_order not in DATE_ORDERS:
        refuse(
            ("date_order",),
            f"expected {', '.join(DATE_ORDERS)}",
            str(date_order),
            "month_first reads 06/01/2009 as June 1; day_first as 6 January.",
        )
        date_order = None
    sheet = block.get("sheet")
    if sheet is not None and not isinstance(sheet, str):
        refuse(("sheet",), "expected the sheet's name", str(sheet), "Name the sheet as its tab.")
        sheet = None
    ignored = block.get("ignore", [])
    if isinstance(ignored, list) and all(isinstance(v, str) for v in ignored):
        ignore = frozenset(v.strip() for v in ignored)
    else:
        refuse(
            ("ignore",),
            "expected a list of the file's headers",
            None,
            "List the headers left out on purpose: ignore: [Cost Center, Manager].",
        )
    not_columns: list[Problem] = []
    for key, given in block.items():
        if key in FILE_OPTIONS:
            continue
        if key not in names:
            guess = difflib.get_close_matches(str(key), names, n=1)
            file, line = locate((*base, key))
            not_columns.append(
                Problem(
                    file,
                    line,
                    ".".join(str(part) for part in (*base, key)),
                    "not a column of this file",
                    None,
                    f"Did you mean {guess[0]}?" if guess else None,
                )
            )
            continue
        one = _field_map(str(key), given, refuse)
        if one is not None:
            fields.append(one)
    listing = f"Columns: {', '.join(names)}; options: {', '.join(FILE_OPTIONS)}."
    problems.extend(listed_once(not_columns, listing))
    if problems:
        return None, problems
    return ColumnMap(facts_field, tuple(fields), ignore, date_order, sheet), problems


def _field_map(
    key: str, given: Any, refuse: Callable[[tuple[str | int, ...], str, str | None, str], None]
) -> FieldMap | None:
    if isinstance(given, str):
        return FieldMap(key, (given.strip(),))
    if given is None:  # a line `docgen columns` left to FILL IN, pasted as it was
        refuse(
            (key,),
            "no header given",
            None,
            f"Write the file's header for {key} after {key}:, or remove the line.",
        )
        return None
    if not isinstance(given, dict):
        refuse(
            (key,),
            "expected the file's header, or a mapping",
            None,
            f"Write {key}: HEADER, or {key}: {{column: HEADER, read: ...}}.",
        )
        return None
    unknown = sorted(set(given) - set(FIELD_OPTIONS))
    if unknown:
        guess = difflib.get_close_matches(unknown[0], FIELD_OPTIONS, n=1)
        refuse(
            (key, unknown[0]),
            "unknown option",
            None,
            (f"Did you mean {guess[0]}? " if guess else "")
            + f"Options: {', '.join(FIELD_OPTIONS)}.",
        )
        return None
    sources: tuple[str, ...] = ()
    if "column" in given and "join" in given:
        refuse((key,), "both column: and join:", None, "Give one header, or several to join.")
        return None
    if "column" in given:
        if not isinstance(given["column"], str):
            refuse((key, "column"), "expected the file's header", None, "Write it as in row 1.")
            return None
        sources = (given["column"].strip(),)
    elif "lines" in given:
        templates = given["lines"]
        if not (
            isinstance(templates, list) and templates and all(isinstance(v, str) for v in templates)
        ):
            refuse(
                (key, "lines"),
                "expected a list of lines naming headers in braces",
                None,
                'Write lines: ["{Address Line 1}", "{City}, {State} {Postal Code}"].',
            )
            return None
        named = tuple(dict.fromkeys(n.strip() for t in templates for n in _BRACED.findall(t)))
        if not named:
            refuse(
                (key, "lines"),
                "no header named in braces",
                None,
                'Name each header in braces: "{City}, {State} {Postal Code}".',
            )
            return None
        return FieldMap(key, named, lines=tuple(templates))
    elif "join" in given:
        joined = given["join"]
        if not (isinstance(joined, list) and joined and all(isinstance(v, str) for v in joined)):
            refuse(
                (key, "join"),
                "expected a list of the file's headers",
                None,
                "List them in the order their lines are read: join: [Address 1, City].",
            )
            return None
        sources = tuple(v.strip() for v in joined)
    read = given.get("read", "text")
    if read not in READERS:
        refuse(
            (key, "read"),
            f"expected {', '.join(READERS)}",
            str(read),
            "Say how the cells are written.",
        )
        return None
    values = given.get("values", {})
    if not isinstance(values, dict) or not all(
        isinstance(v, str | int) and not isinstance(v, bool) for v in values.values()
    ):
        refuse(
            (key, "values"),
            "expected the company's words and docgen's",
            None,
            "Write values: {Base Salary: salary, Annual Bonus: bonus}.",
        )
        return None
    yes = _words(given.get("yes", list(YES_WORDS)))
    no = _words(given.get("no", list(NO_WORDS)))
    if yes is None or no is None:
        refuse((key,), "expected yes: and no: as lists of words", None, "Write yes: [Y], no: [N].")
        return None
    made_from = given.get("made_from")
    if made_from is not None:
        if given.get("rule") not in ID_RULES:
            refuse(
                (key, "rule"),
                f"expected rule: {' or '.join(ID_RULES)}",
                None,
                "slug makes Jane Q. Doe into jane-q-doe; state it so ids are never guessed.",
            )
            return None
        sources = (str(made_from).strip(),)
    value = given.get("value")
    if value is not None and sources:
        refuse((key,), "both a column and value:", None, "value: is one value for every row.")
        return None
    if value is None and not sources:
        refuse((key,), "no column: join: made_from: or value:", None, "Say where the cells are.")
        return None
    determined_on = given.get("determined_on")
    if "determined_on" in given and determined_on is None:
        refuse(
            (key, "determined_on"),
            "no date given",
            None,
            "Give the December 31 determination a yes in this column answers (Plan 1.14).",
        )
        return None
    if key == "key_employee_on" and read == "yes_no" and determined_on is None:
        refuse(
            (key,),
            "a yes/no column of Key Employees needs the determination it answers",
            None,
            "Add determined_on: the December 31 of the determination (Plan 1.14).",
        )
        return None
    if determined_on is not None:
        determined_on = str(determined_on)
        if read != "yes_no":
            refuse(
                (key, "determined_on"),
                "determined_on is for a yes/no column",
                None,
                "Add read: yes_no.",
            )
            return None
    compensation_is = given.get("is")
    if key == "compensation" and compensation_is not in COMPENSATION_IS:
        refuse(
            (key, "is"),
            f"expected is: {' or '.join(COMPENSATION_IS)}",
            None if compensation_is is None else str(compensation_is),
            "Plan Compensation is pay paid in the Plan Year (Plan 1.21): say whether this "
            "column is that (paid_in_year) or a rate of pay (annual_rate).",
        )
        return None
    if key == "compensation" and compensation_is == "annual_rate" and len(sources) != 1:
        # A rate is of base salary; a bonus in the same file is pay paid (bonus_compensation),
        # and added to a rate it would be worked through the pay schedule as salary.
        refuse(
            (key, "is"),
            "an annual rate is one column: the annual rate of base salary",
            None,
            "Give the rate's column alone (column: HEADER); map a bonus column to "
            "bonus_compensation, the bonus paid in the Plan Year.",
        )
        return None
    return FieldMap(
        key,
        sources,
        read=str(read),
        values={str(k).strip().lower(): str(v) for k, v in values.items()},
        yes=yes,
        no=no,
        value=None if value is None else str(value),
        made_from=None if made_from is None else str(made_from).strip(),
        determined_on=determined_on,
        compensation_is=None if compensation_is is None else str(compensation_is),
    )


def apply(
    mapping: ColumnMap, table: Table, columns: Sequence[Column], locate: Locate
) -> tuple[Table, list[Problem]]:
    """The table as docgen's columns, each cell read by its reader (where it was: its line and
    column in the file), and every problem found."""
    shown = table.shown
    names = [column.name for column in columns]
    positions: dict[str, list[int]] = {}
    for number, header in enumerate(table.header, start=1):
        positions.setdefault(header, []).append(number)
    header_line = table.header_line
    problems: list[Problem] = []
    at_header = problem_place(shown, header_line)

    def mapping_line(field_name: str) -> str:
        file, line = locate(("columns", mapping.facts_field, field_name))
        return f" (the columns: block, {file}:{line})" if line else ""

    used: dict[str, str] = {}  # header -> the field it gives
    plan: list[tuple[FieldMap, list[int]]] = []
    for one in mapping.fields:
        sources: list[int] = []
        for header in one.sources:
            found = positions.get(header)
            if not found:
                lowered = {name.lower(): name for name in positions}
                close = difflib.get_close_matches(header.lower(), list(lowered), n=1)
                guess = [lowered[close[0]]] if close else []
                problems.append(
                    Problem(
                        *problem_place(shown, header_line),
                        f"column {header}",
                        f"the columns: block maps {one.field} to {header}, which is not in "
                        "the file's header" + mapping_line(one.field),
                        None,
                        (f"Did you mean {guess[0]}? " if guess else "")
                        + "Correct the header in the columns: block, or in the file.",
                    )
                )
                continue
            if len(found) > 1:
                problems.append(
                    Problem(
                        *problem_place(shown, header_line, found[1]),
                        f"column {header}",
                        "the column appears twice",
                        None,
                        "Keep one column of each name.",
                    )
                )
            sources.append(found[0])
            used[header] = one.field
        plan.append((one, sources))
    mapped_fields = {_gives(one) for one in mapping.fields}
    unmapped: list[Problem] = []
    for header, found in positions.items():
        if header in used or header in mapping.ignore or not header:
            continue
        if header in names:
            if header in mapped_fields:
                problems.append(
                    Problem(
                        *problem_place(shown, header_line, found[0]),
                        f"column {header}",
                        f"two columns give {header}: this one and the one the columns: block "
                        f"maps to it" + mapping_line(header),
                        None,
                        f"Keep one: add {header} to ignore:, or remove {header} from the "
                        "columns: block.",
                    )
                )
                continue
            plan.append((FieldMap(header, (header,)), [found[0]]))
            mapped_fields.add(header)
            continue
        common = common_field(header, names)
        close = difflib.get_close_matches(normalised(header).replace(" ", "_"), names, n=1)
        if common:
            hint = (
                f"Did you mean {common}? {header} is what an HRIS export commonly calls it: "
                f"map it ({common}: {header}), "
            )
        elif close:
            hint = f"Did you mean {close[0]}? Map it ({close[0]}: {header}), "
        else:
            hint = "Map it to one of docgen's columns, "
        unmapped.append(
            Problem(
                *problem_place(shown, header_line, found[0]),
                f"column {header}",
                "a column the columns: block neither maps nor ignores",
                None,
                f"{hint}or list it under ignore: (`docgen columns` proposes a block).",
            )
        )
    problems.extend(listed_once(unmapped, f"Columns: {', '.join(names)}."))
    for wanted in columns:
        if wanted.required and not {wanted.name, wanted.instead} & mapped_fields:
            problems.append(
                Problem(
                    *at_header,
                    f"column {wanted.name}",
                    "required column is missing",
                    None,
                    f"Map {wanted.name} in the columns: block to the file's header for it.",
                )
            )
    kinds = {column.name: column.kind for column in columns}
    out_header = [_gives(one) for one, _ in plan]
    rows: list[TableRow] = []
    for row in table.rows:
        cells: list[str] = []
        lines: list[int] = []
        numbers: list[int] = []
        for one, sources in plan:
            number = sources[0] if sources else 0
            line = row.line_at(number - 1) if 0 < number <= len(row.cells) else row.line
            text = ""
            try:
                text = _read(one, mapping, kinds.get(one.field, "text"), row, sources)
            except UnreadCell as unread:
                problems.append(
                    Problem(
                        *problem_place(shown, line, number or None),
                        f"{one.field} (column {one.sources[0] if one.sources else one.field})",
                        unread.what,
                        _cell(row, number).strip() or None,
                        unread.fix,
                    )
                )
            cells.append(text)
            lines.append(line)
            numbers.append(number)
        rows.append(TableRow(row.line, cells, lines, numbers))
    written = {one.field: one.sources[0] for one, _ in plan if one.sources and not one.made_from}
    return Table(shown, out_header, rows, header_line, written=written), problems


def _gives(one: FieldMap) -> str:
    """The docgen column a field map gives: its own, save a compensation column that is an
    annual rate, which gives ``annual_rate`` (worked into the pay paid through the pay
    schedule, docgen.kinds.rrp.annual_rate)."""
    return "annual_rate" if one.compensation_is == "annual_rate" else one.field


def _cell(row: TableRow, number: int) -> str:
    return row.cells[number - 1] if 0 < number <= len(row.cells) else ""


def _read(one: FieldMap, mapping: ColumnMap, kind: str, row: TableRow, sources: list[int]) -> str:
    if one.value is not None:
        return one.value
    if one.made_from is not None:
        name = _cell(row, sources[0]).strip() if sources else ""
        return slug(name)
    if one.lines:
        cells = {
            header: _cell(row, number).strip()
            for header, number in zip(one.sources, sources, strict=False)
        }
        made = []
        for template in one.lines:
            text = _BRACED.sub(lambda found: cells.get(found.group(1).strip(), ""), template)
            text = " ".join(text.split()).strip(" ,")
            if text:
                made.append(text)
        return "\n".join(made)
    if len(sources) > 1 and one.read == "money":
        # Money joined is money added: pay paid in the year given as base pay and a bonus.
        amounts = [read_money(_cell(row, n)) for n in sources if _cell(row, n).strip()]
        return format(sum((Decimal(a) for a in amounts), Decimal("0.00")), "f") if amounts else ""
    if len(sources) > 1:
        parts = [_cell(row, number).strip() for number in sources]
        glue = "\n" if kind in ("lines", "list") else " "
        return glue.join(part for part in parts if part)
    text = _cell(row, sources[0]).strip() if sources else ""
    if not text:
        return ""
    if one.values:
        mapped = one.values.get(text.lower())
        if mapped is None:
            raise UnreadCell(
                f"a value the columns: block's values: does not list (it lists "
                f"{', '.join(one.values)})",
                f"Add it to values: under {one.field}, or correct the cell.",
            )
        text = mapped
    if one.read == "date":
        return read_date(text, mapping.date_order)
    if one.read == "money":
        return read_money(text)
    if one.read == "percent":
        return read_percent(text)
    if one.read == "fraction":
        return read_fraction(text)
    if one.read == "yes_no":
        answer = read_yes_no(text, one.yes, one.no)
        if one.determined_on is not None:
            return one.determined_on if answer else ""
        return "true" if answer else "false"
    if kind == "date":
        return read_date(text, mapping.date_order)
    return text


def slug(name: str) -> str:
    """An id made from a name by the rule ``slug``: letters without their accents, lower case,
    every run of anything else one hyphen (Hanna Müller is hanna-muller)."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    return _SLUG.sub("-", plain.lower()).strip("-")


def read_date(text: str, order: str | None) -> str:
    """A date cell as ISO text, in the file's stated order (or, with none stated, as
    docgen.core.roster.us_date reads it)."""
    if order is None:
        return us_date(text)
    iso = ISO_DAY.fullmatch(text)
    if iso:
        return iso.group(1)
    found = _DATE_PARTS.fullmatch(text)
    written = {"month_first": "MM/DD/YYYY", "day_first": "DD/MM/YYYY", "iso": "YYYY-MM-DD"}
    if found and order != "iso":
        first, second, year = (int(part) for part in found.groups())
        month, day = (first, second) if order == "month_first" else (second, first)
        if 1 <= month <= 12 and 1 <= day <= 31:
            return f"{year:04d}-{month:02d}-{day:02d}"
    raise UnreadCell(
        f"not a date in the stated order, date_order: {order} ({written[order]})",
        "Correct the cell, or the columns: block's date_order.",
    )


def read_money(text: str) -> str:
    """Money as written (``$1,250,000.00``), as a plain decimal with its cents (a workbook's
    number cell ``520000`` is ``520000.00``, as its CSV's ``$520,000.00`` is)."""
    found = _MONEY.fullmatch(text.strip())
    if not found:
        raise UnreadCell(
            "expected an amount of money, like $1,250,000.00",
            "Correct the cell: digits, commas between thousands, a point before the cents.",
        )
    cents = (found.group(2) or ".").ljust(3, "0")  # dollars and cents, as a workbook's 520000
    return found.group(1).replace(",", "") + cents


def read_percent(text: str) -> str:
    """A percentage as written (``10%``, ``10``), as its number."""
    found = _PERCENT.fullmatch(text.strip())
    if not found:
        raise UnreadCell("expected a percentage, like 10%", "Correct the cell.")
    return found.group(1)


def read_fraction(text: str) -> str:
    """A percentage a workbook keeps as a fraction (0.1 shown as 10%), as its number (10)."""
    try:
        value = Decimal(text.strip()) * 100
    except InvalidOperation:
        raise UnreadCell("expected a fraction, like 0.1 for 10%", "Correct the cell.") from None
    return format(value.normalize(), "f")


def read_yes_no(text: str, yes: tuple[str, ...], no: tuple[str, ...]) -> bool:
    """A yes/no cell in the words the column states."""
    word = text.strip().lower()
    if word in yes:
        return True
    if word in no:
        return False
    raise UnreadCell(
        f"expected yes ({', '.join(yes)}) or no ({', '.join(no)})",
        "Correct the cell, or add the word to yes: or no: in the columns: block.",
    )
