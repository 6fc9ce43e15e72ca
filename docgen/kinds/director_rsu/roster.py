"""The director roster: a CSV file named by ``directors_csv``, one row per director."""

from __future__ import annotations

import csv
import difflib
import io
from typing import Any

from docgen.core.errors import LoadError, Problem
from docgen.core.filings import Append, Edit, FormRefused
from docgen.core.model import PathKey

_ROSTER_BOOLEANS = {
    "true": True,
    "yes": True,
    "y": True,
    "1": True,
    "false": False,
    "no": False,
    "n": False,
    "0": False,
}
_ROSTER_ELECTION = {
    "election_grant_id": "grant_id",
    "election_filed_on": "filed_on",
    "election_percent": "percent",
    "election_pay_on": "pay_on",
    "election_pay_date": "pay_date",
    "election_status": "status",
    "election_reason": "reason",
    "election_decided_by": "decided_by",
}
ROSTER_COLUMNS = (
    "id", "name", "salutation", "address", "employee", "specified_employee",
    "first_eligible_on", "units", *_ROSTER_ELECTION,
)  # fmt: skip


def read_roster(
    text: str,
    shown: str,
    first_index: int,
    lines: dict[PathKey, tuple[str, int]],
    data: dict[str, Any],
) -> list[dict[str, Any]]:
    """Directors from a CSV roster: one row per director, columns named as in ROSTER_COLUMNS.

    ``address`` holds the address lines separated by `` | ``; an election is given by the
    ``election_*`` columns (leave them empty for a director with no election).
    """
    grant = data.get("grant")
    default_grant_id = grant.get("id") if isinstance(grant, dict) else None
    reader = csv.DictReader(io.StringIO(text, newline=""))
    header = reader.fieldnames or []
    problems = []
    for column in header:
        if column not in ROSTER_COLUMNS:
            guess = difflib.get_close_matches(column, ROSTER_COLUMNS, n=1)
            hint = f"Did you mean {guess[0]}? " if guess else ""
            problems.append(
                Problem(
                    shown,
                    1,
                    f"column {column}",
                    "unknown column",
                    None,
                    f"{hint}Columns: {', '.join(ROSTER_COLUMNS)}.",
                )
            )
    for required in ("id", "name", "units"):
        if required not in header:
            problems.append(
                Problem(
                    shown,
                    1,
                    f"column {required}",
                    "required column is missing",
                    None,
                    f"Add a {required} column to the header row.",
                )
            )
    if problems:
        raise LoadError(problems)
    directors = []
    for offset, row in enumerate(reader):
        index = first_index + offset
        line = reader.line_num
        if None in row:
            raise LoadError(
                [
                    Problem(
                        shown,
                        line,
                        f"directors[{index}]",
                        "more cells than columns",
                        fix="Quote any cell that contains a comma.",
                    )
                ]
            )
        director: dict[str, Any] = {}
        election: dict[str, Any] = {}
        base: PathKey = ("directors", index)
        lines[base] = (shown, line)
        for column, cell in row.items():
            cell = (cell or "").strip()
            if not cell:
                continue
            value: Any = cell
            if column in ("employee", "specified_employee"):
                value = _ROSTER_BOOLEANS.get(cell.lower(), cell)
            elif column == "units" and cell.replace(",", "").isdigit():
                value = int(cell.replace(",", ""))
            elif column == "address":
                value = [part.strip() for part in cell.split("|") if part.strip()]
            if column in _ROSTER_ELECTION:
                election[_ROSTER_ELECTION[column]] = value
                lines[base + ("elections", 0, _ROSTER_ELECTION[column])] = (shown, line)
            else:
                director[column] = value
                lines[base + (column,)] = (shown, line)
        if election:
            # A roster row's election is for the grant the facts file describes unless it names one.
            if default_grant_id is not None:
                election.setdefault("grant_id", default_grant_id)
            director["elections"] = [election]
            lines[base + ("elections",)] = (shown, line)
            lines[base + ("elections", 0)] = (shown, line)
        directors.append(director)
    return directors


def record_in_row(cells: dict[str, str], edit: Edit) -> tuple[dict[str, str], Any]:
    """`docgen intake` for a director kept in the roster: the election goes into the row's
    ``election_*`` cells. A row holds one election, and no form's SHA-256."""
    if not isinstance(edit, Append) or edit.path != ("elections",):
        raise FormRefused([f"a roster row cannot hold {'.'.join(edit.path)}"])
    if any(cells.get(column, "").strip() for column in _ROSTER_ELECTION):
        raise FormRefused(
            [
                f"{cells.get('id', 'this director')}'s roster row already holds an Exhibit I "
                "election, and a row has room for one"
            ],
            "Move the director's row into the facts file's directors list (with both "
            "elections), then take the form in again.",
        )
    held = {key: value for key, value in edit.value.items() if key != "form_sha256"}
    columns = {field: column for column, field in _ROSTER_ELECTION.items()}
    unheld = sorted(set(held) - set(columns))
    if unheld:
        raise FormRefused([f"a roster row has no column for {', '.join(unheld)}"])
    return {columns[key]: _cell(value) for key, value in held.items()}, held


def _cell(value: Any) -> str:
    return value.isoformat() if hasattr(value, "isoformat") else str(value)
