"""The director roster: a CSV file named by ``directors_csv``, one row per director."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from docgen.core.errors import Problem
from docgen.core.filings import Amend, Append, Edit, FormRefused
from docgen.core.model import Location, PathKey
from docgen.core.roster import Column, Table, read_rows

_ROSTER_ELECTION = {
    "election_grant_id": "grant_id",
    "election_filed_on": "filed_on",
    "election_percent": "percent",
    "election_pay_on": "pay_on",
    "election_pay_date": "pay_date",
    "election_status": "status",
    "election_reason": "reason",
    "election_decided_by": "decided_by",
    # How the form arrived and what its Section IV says (the on-file copy states them).
    "election_received_as": "received_as",
    "election_printed_name": "printed_name",
    "election_signed_on": "signed_on",
    "election_recorded_by": "recorded_by",
    "election_recorded_on": "recorded_on",
    "election_signature_seen_by": "signature_seen_by",
    # The form's own SHA-256 (the same PDF taken in again is refused) and --accept-name's reason.
    "election_form_sha256": "form_sha256",
    "election_name_accepted": "name_accepted",
}
COLUMNS = (
    Column("id", "id", required=True),
    Column("name", required=True),
    Column("salutation"),
    Column("address", "lines"),
    Column("email"),
    Column("employee", "boolean"),
    Column("specified_employee", "boolean"),
    Column("first_eligible_on", "date"),
    Column("units", "whole", required=True),
    *(Column(name, "date" if name.endswith("_on") else "text") for name in _ROSTER_ELECTION),
    # For the grant's Form 4 (`docgen section16`, RSU-FORM4-DUE).
    Column("cik"),
    Column("edgar_name"),
    Column("form4_filed_on", "date"),
    Column("shares_owned_after", "whole"),
    # The day the director's service ends (a board end date: leaving the board is a separation
    # from service for a non-employee director, Exhibit I (i) and Treas. Reg. 1.409A-1(h)).
    Column("separation_on", "date"),
)
ROSTER_COLUMNS = tuple(column.name for column in COLUMNS)


def read_roster(
    text: Table | str,
    shown: str,
    first_index: int,
    place: Callable[[Callable[[dict[PathKey, Location]], None]], None],
    data: dict[str, Any],
) -> tuple[list[dict[str, Any]], list[Problem]]:
    """Directors from a CSV roster: one row per director, columns named as in ROSTER_COLUMNS.

    ``address`` holds the address lines, one per line of the cell (Alt+Enter in Excel) or
    separated by `` | ``; an election is given by the ``election_*`` columns (leave them empty
    for a director with no election); ``separation_on`` is the day service ends (a board end
    date), the ``settlement``'s ``separation_on``.
    """
    grant = data.get("grant")
    default_grant_id = grant.get("id") if isinstance(grant, dict) else None
    rows, problems = read_rows(text, shown, COLUMNS, "directors", first_index)
    lines: dict[PathKey, Location] = {}  # each fact's place, handed to ``place`` (a board is small)
    directors = []
    for row in rows:
        base: PathKey = ("directors", row.index)
        lines[base] = (shown, row.line)
        director: dict[str, Any] = {}
        election: dict[str, Any] = {}
        for column, value in row.values.items():
            if column in _ROSTER_ELECTION:
                election[_ROSTER_ELECTION[column]] = value
                lines[base + ("elections", 0, _ROSTER_ELECTION[column])] = row.cell(shown, column)
            elif column == "separation_on":
                director["settlement"] = {"separation_on": value}
                lines[base + ("settlement",)] = row.cell(shown, column)
                lines[base + ("settlement", "separation_on")] = row.cell(shown, column)
            else:
                director[column] = value
                lines[base + (column,)] = row.cell(shown, column)
        if election:
            # A roster row's election is for the grant the facts file describes unless it names one.
            if default_grant_id is not None:
                election.setdefault("grant_id", default_grant_id)
            director["elections"] = [election]
            lines[base + ("elections",)] = (shown, row.line)
            lines[base + ("elections", 0)] = (shown, row.line)
        directors.append(director)
    place(lambda extra: extra.update(lines))
    return directors, problems


def record_in_row(cells: dict[str, str], edit: Edit) -> tuple[dict[str, str], Any]:
    """`docgen intake` for a director kept in the roster, when the facts name no
    ``elections_csv``: the election goes into the row's ``election_*`` cells, all of it: how the
    form arrived, the printed name, the date signed and the form's SHA-256 too, a column the
    roster lacks added at the end of its header (docgen.intake.roster_text), so nothing the
    director wrote is dropped and the on-file copy states it (issue 44). A row holds one
    election. A decision about the row's election (`docgen decide`: status, reason, decided_by)
    goes into its ``election_*`` cells, a field taken out leaving its cell empty."""
    if isinstance(edit, Amend) and edit.path == ("elections", 0):
        return _amended(edit)
    if not isinstance(edit, Append) or edit.path != ("elections",):
        raise FormRefused([f"a roster row cannot hold {'.'.join(map(str, edit.path))}"])
    if any(cells.get(column, "").strip() for column in _ROSTER_ELECTION):
        raise FormRefused(
            [
                f"{cells.get('id', 'this director')}'s roster row already holds an Exhibit I "
                "election, and a row has room for one"
            ],
            "Name an elections_csv in the facts (docs/fact-files.md): the election on the row "
            "and this one are then recorded there, one row per form.",
        )
    columns = {field: column for column, field in _ROSTER_ELECTION.items()}
    held = dict(edit.value)
    unheld = sorted(set(held) - set(columns))
    if unheld:
        raise FormRefused([f"a roster row has no column for {', '.join(unheld)}"])
    return {columns[key]: _cell(value) for key, value in held.items()}, held


def _amended(edit: Amend) -> tuple[dict[str, str], Any]:
    """A decision about the row's election as the row's ``election_*`` cells."""
    columns = {field: column for column, field in _ROSTER_ELECTION.items()}
    unheld = sorted(set(edit.value) - set(columns))
    if unheld:
        raise FormRefused([f"a roster row has no column for {', '.join(unheld)}"])
    cells = {
        columns[key]: "" if value is None else _cell(value) for key, value in edit.value.items()
    }
    return cells, dict(edit.value)


def _cell(value: Any) -> str:
    return value.isoformat() if hasattr(value, "isoformat") else str(value)
