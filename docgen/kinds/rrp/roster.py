"""The participant roster: a CSV file named by ``participants_csv``, one row per participant, as
an HRIS or payroll export gives them (ids in their payroll form, money with commas)."""

from __future__ import annotations

import typing
from typing import Any

from docgen.core.cells import problem_place
from docgen.core.errors import Problem
from docgen.core.filings import Amend, Append, Edit, FormRefused
from docgen.core.model import Location, PathKey, fact_path
from docgen.core.numbers import SourceNumber
from docgen.core.record_rows import cell_text
from docgen.core.roster import Column, RosterRow, Table, read_rows
from docgen.kinds.rrp.facts import Termination
from docgen.kinds.rrp.records import RECORDS

# A Deferral Election for the Plan Year in two columns per kind of pay (Plan 2.03(a)).
_ELECTIONS = {
    "salary": ("salary_percent", "salary_made_on"),
    "bonus": ("bonus_percent", "bonus_made_on"),
}
# What a roster row's election keeps of its form besides percent and made_on, in the columns
# salary_form_sha256, salary_received_as, ... (issue 44: nothing a participant wrote is dropped;
# the form's SHA-256 refuses the same PDF taken in again).
_PROVENANCE = ("form_sha256", "received_as", "signed_on", "recorded_by", "recorded_on")
# The reasons for a termination docgen reads (Plan 1.30): the fact model's.
REASONS: tuple[str, ...] = typing.get_args(Termination.model_fields["reason"].annotation)
COLUMNS = (
    Column("id", "id", required=True),
    Column("name", required=True),
    Column("address", "lines"),
    Column("email"),
    Column("eligible_employee", "boolean", required=True),
    # Pay paid in the Plan Year, or an annual rate of base salary worked through the pay
    # schedule (Plan 1.21): one of the two.
    Column("compensation", required=True, instead="annual_rate"),
    Column("annual_rate"),
    Column("bonus_compensation"),
    Column("bonus_paid_on", "date"),
    Column("pay_frequency"),
    Column("hired_on", "date"),
    Column("first_eligible_on", "date"),
    Column("previously_eligible_until", "date"),
    Column("key_employee_on", "list"),
    Column("years_of_vesting_service", "whole"),
    *(
        Column(name, "date" if name.endswith("_made_on") else "text")
        for pair in _ELECTIONS.values()
        for name in pair
    ),
    # A termination (Plan 1.30, Termination of Employment) as two columns: the day and why.
    Column("terminated_on", "date", needs="termination_reason"),
    Column("termination_reason", words=REASONS),
    *(Column(f"{kind}_{name}") for kind in _ELECTIONS for name in _PROVENANCE),
)
ROSTER_COLUMNS = tuple(column.name for column in COLUMNS)
_TERMINATION = {"terminated_on": "on", "termination_reason": "reason"}


def read_roster(
    text: Table | str,
    shown: str,
    first_index: int,
    place: typing.Callable[[typing.Callable[[dict[PathKey, Location]], None]], None],
    data: dict[str, Any],
) -> tuple[list[dict[str, Any]], list[Problem]]:
    """Participants from a CSV roster, columns named as in ROSTER_COLUMNS.

    ``address`` holds the mailing address, one line per line of the cell (Alt+Enter in Excel) or
    separated by `` | ``; ``key_employee_on`` lists December 31 determinations separated by
    ``;`` or line breaks; ``salary_percent``/``salary_made_on`` and ``bonus_percent``/
    ``bonus_made_on`` give a Deferral Election for the facts' Plan Year.
    ``terminated_on`` and ``termination_reason`` give a Termination of Employment (Plan 1.30;
    the reason in the facts' words: retirement, death, disability, other). Beneficiaries,
    investments, performance-based elections and payments are not roster columns:
    give them in ``elections_csv``, ``beneficiaries_csv`` and ``allocations_csv``
    (docgen.kinds.rrp.records), or list such a participant in the facts file itself.

    Where each fact is (its row, its cell) is handed to ``place`` as a filler, worked out only
    when a message asks (docgen.load.source.SourceMap.defer).
    """
    plan_year = data.get("plan_year")
    rows, problems = read_rows(text, shown, COLUMNS, "participants", first_index)
    election_columns = {name: kind for kind, pair in _ELECTIONS.items() for name in pair}
    election_columns |= {f"{kind}_{name}": kind for kind in _ELECTIONS for name in _PROVENANCE}
    participants = []
    # each row with the elections made from it: (kind, the columns giving percent and made_on)
    placed: list[tuple[RosterRow, list[tuple[str, tuple[str, ...]]]]] = []
    for row in rows:
        participant: dict[str, Any] = {}
        elections: list[dict[str, Any]] = []
        made: list[tuple[str, tuple[str, ...]]] = []
        for column, value in row.values.items():
            if column in _TERMINATION:
                participant.setdefault("termination", {})[_TERMINATION[column]] = value
            elif column not in election_columns:
                participant[column] = value
        for kind, (percent, made_on) in _ELECTIONS.items():
            if percent not in row.values and made_on not in row.values:
                continue
            given = {c: row.values[c] for c in (percent, made_on) if c in row.values}
            if len(given) == 1:
                (present,) = given
                absent = made_on if present == percent else percent
                problems.append(
                    Problem(
                        shown,
                        row.line_of(present),
                        fact_path("participants", row.index, absent),
                        f"{present} is filled in but {absent} is empty",
                        None,
                        f"Fill in {absent} too, or clear {present} (no {kind} election).",
                    )
                )
                continue
            election: dict[str, Any] = {"kind": kind}
            if isinstance(
                plan_year, int | SourceNumber
            ):  # as the file wrote it; the model reads it
                election["plan_year"] = plan_year
            for column, value in given.items():
                election["percent" if column == percent else "made_on"] = value
            for name in _PROVENANCE:
                column = f"{kind}_{name}"
                if column in row.values:
                    election[name] = row.values[column]
            elections.append(election)
            made.append((kind, tuple(given)))
        if elections:
            participant["elections"] = elections
        placed.append((row, made))
        half = (  # a row without a termination has none of it
            _half_a_termination(row, text if isinstance(text, Table) else None, shown)
            if "termination" in participant
            else None
        )
        if half is not None:
            problems.append(half)
            del participant["termination"]  # said here, in the roster's terms, not again
        participants.append(participant)

    def fill(lines: dict[PathKey, Location]) -> None:
        """Each participant at their row, each fact at its cell, each election made from the
        row at its first cell given."""
        for row, made in placed:
            base: PathKey = ("participants", row.index)
            lines[base] = (shown, row.line)
            for column in row.values:
                if column in _TERMINATION:
                    lines[base + ("termination", _TERMINATION[column])] = row.cell(shown, column)
                    lines.setdefault(base + ("termination",), row.cell(shown, column))
                elif column not in election_columns:
                    lines[base + (column,)] = row.cell(shown, column)
            for number, (kind, given) in enumerate(made):
                percent = _ELECTIONS[kind][0]
                at = base + ("elections", number)
                lines[at] = row.cell(shown, given[0])
                for column in given:
                    field = "percent" if column == percent else "made_on"
                    lines[at + (field,)] = row.cell(shown, column)
                for name in _PROVENANCE:
                    column = f"{kind}_{name}"
                    if column in row.values:
                        lines[at + (name,)] = row.cell(shown, column)
            if made:
                lines[base + ("elections",)] = (shown, row.line)

    place(fill)
    return participants, problems


def _half_a_termination(row: RosterRow, table: Table | None, shown: str) -> Problem | None:
    """A termination date without its reason, or a reason without its date (Plan 1.30: the
    reason decides what is paid and when), said in the roster's terms: the column as the
    company's file names it, the cell, and the reasons docgen reads."""
    given = [column for column in _TERMINATION if column in row.values]
    if len(given) != 1:
        return None
    (present,) = given
    (absent,) = (column for column in _TERMINATION if column != present)
    header = table.header_of if table is not None else str
    in_file = table is None or absent in table.header
    mapped = table is not None and bool(table.written)
    reasons = ", ".join(REASONS[:-1]) + f" or {REASONS[-1]}"
    if present == "terminated_on" and not in_file:
        what = (
            "a termination date with no reason, and the file has no column of termination reasons"
        )
        fix = (
            "Map the column that says why employment ended in the columns: block "
            "(termination_reason: {column: HEADER, values: {Retired: retirement, ...}}); the "
            f"reasons docgen reads are {reasons.replace(' or ', ' and ')} (Plan 1.30)."
            if mapped
            else f"Add a termination_reason column: {reasons} (Plan 1.30)."
        )
    elif present == "terminated_on":
        what = f"a termination date with no reason: the row's {header(absent)} cell is empty"
        fix = (
            f"Fill in the cell with why employment ended: {reasons}, or a word the columns: "
            "block's values: maps to one of them (Plan 1.30)."
            if mapped
            else f"Fill in the cell: {reasons} (Plan 1.30)."
        )
    else:
        what = (
            f"a termination reason with no date: the row's {header(absent)} cell is empty"
            if in_file
            else "a termination reason with no date, and the file has no column of termination "
            "dates"
        )
        fix = "Give the date employment ended in the same row, or clear the reason (Plan 1.30)."
    return Problem(
        *problem_place(shown, row.line_of(present), row.column_of(present)),
        f"{present} (column {header(present)})",
        what,
        str(row.values[present]),
        fix,
    )


_CSV_FOR = {spec.into: spec for spec in RECORDS}  # the CSV of filings for each list


def _name_csv(into: str, then: str = "then take the form in again") -> str:
    """The fix for a filing a roster row cannot hold: the CSV to name, and the first line to
    create it with (docgen.kinds.rrp.records)."""
    spec = _CSV_FOR[into]
    return (
        f"Name a CSV for them in the facts' {spec.field} field, created with the first line "
        f"{','.join(spec.column_names)} (docs/fact-files.md); {then}."
    )


def record_in_row(cells: dict[str, str], edit: Edit) -> tuple[dict[str, str], Any]:
    """`docgen intake` for a participant kept in the roster, when the facts name no CSV for the
    filing: a salary or bonus Deferral Election for the facts' Plan Year goes into the row's
    columns for it (a row holds one of each), with its form's SHA-256, how it was received, the
    date signed and who recorded it (``salary_form_sha256`` ...: a column the roster lacks is
    added at the end of its header, docgen.intake.roster_text); anything else needs the CSV of
    its kind (``elections_csv``, ``beneficiaries_csv``, ``allocations_csv``)."""
    into = edit.path[0]
    who = cells.get("id", "this participant")
    if isinstance(edit, Amend):
        raise FormRefused(
            [
                f"{who}'s election is in the roster row's {into} columns, which have no room for "
                "a decision about it (status, reason, decided_by)"
            ],
            _name_csv(into, "the row's election is then moved there and the decision recorded"),
        )
    if not isinstance(edit, Append) or edit.path != ("elections",):
        fix = (
            _name_csv(into)
            if into in _CSV_FOR
            else "Record it in the facts file by hand (docs/fact-files.md)."
        )
        raise FormRefused([f"{who}'s roster row has no column for {into}"], fix)
    election = dict(edit.value)
    kind = election.get("kind")
    held = {"kind", "plan_year", "percent", "made_on", *_PROVENANCE}
    if kind not in _ELECTIONS or set(election) - held:
        raise FormRefused(
            [f"{who}'s roster row has no columns for a {str(kind).replace('_', '-')} election"],
            _name_csv("elections"),
        )
    percent, made_on = _ELECTIONS[kind]
    if cells.get(percent, "").strip() or cells.get(made_on, "").strip():
        raise FormRefused(
            [f"{who}'s roster row already holds a {kind} election, and a row has room for one"],
            _name_csv(
                "elections",
                "the election on the row and this one are then recorded there, one row per form",
            ),
        )
    row = {percent: cell_text(election["percent"]), made_on: cell_text(election["made_on"])}
    row |= {f"{kind}_{name}": cell_text(election[name]) for name in _PROVENANCE if name in election}
    return row, {**election}
