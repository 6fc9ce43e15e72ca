"""The participant roster: a CSV file named by ``participants_csv``, one row per participant, as
an HRIS or payroll export gives them (ids in their payroll form, money with commas)."""

from __future__ import annotations

from typing import Any

from docgen.core.errors import Problem
from docgen.core.model import PathKey, fact_path
from docgen.core.numbers import SourceNumber
from docgen.core.roster import Column, read_rows

# A Deferral Election for the Plan Year in two columns per kind of pay (Plan 2.03(a)).
_ELECTIONS = {
    "salary": ("salary_percent", "salary_made_on"),
    "bonus": ("bonus_percent", "bonus_made_on"),
}
COLUMNS = (
    Column("id", "id", required=True),
    Column("name", required=True),
    Column("address", "lines"),
    Column("eligible_employee", "boolean", required=True),
    Column("compensation", required=True),
    Column("bonus_compensation"),
    Column("bonus_paid_on"),
    Column("hired_on"),
    Column("first_eligible_on"),
    Column("previously_eligible_until"),
    Column("key_employee_on", "list"),
    Column("years_of_vesting_service", "whole"),
    *(Column(name) for pair in _ELECTIONS.values() for name in pair),
)
ROSTER_COLUMNS = tuple(column.name for column in COLUMNS)


def read_roster(
    text: str,
    shown: str,
    first_index: int,
    lines: dict[PathKey, tuple[str, int]],
    data: dict[str, Any],
) -> tuple[list[dict[str, Any]], list[Problem]]:
    """Participants from a CSV roster, columns named as in ROSTER_COLUMNS.

    ``address`` holds the mailing address, one line per line of the cell (Alt+Enter in Excel) or
    separated by `` | ``; ``key_employee_on`` lists December 31 determinations separated by
    ``;`` or line breaks; ``salary_percent``/``salary_made_on`` and ``bonus_percent``/
    ``bonus_made_on`` give a Deferral Election for the facts' Plan Year. Beneficiaries,
    investments, performance-based elections, terminations and payments are not roster columns:
    list such a participant in the facts file itself.
    """
    plan_year = data.get("plan_year")
    rows, problems = read_rows(text, shown, COLUMNS, "participants", first_index)
    election_columns = {name: kind for kind, pair in _ELECTIONS.items() for name in pair}
    participants = []
    for row in rows:
        base: PathKey = ("participants", row.index)
        lines[base] = (shown, row.line)
        participant: dict[str, Any] = {}
        elections: list[dict[str, Any]] = []
        for column, value in row.values.items():
            if column not in election_columns:
                participant[column] = value
                lines[base + (column,)] = (shown, row.lines[column])
        for kind, (percent, made_on) in _ELECTIONS.items():
            given = {c: row.values[c] for c in (percent, made_on) if c in row.values}
            if not given:
                continue
            if len(given) == 1:
                (present,) = given
                absent = made_on if present == percent else percent
                problems.append(
                    Problem(
                        shown,
                        row.lines[present],
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
            at = base + ("elections", len(elections))
            lines[at] = (shown, row.lines[next(iter(given))])
            for column, value in given.items():
                field = "percent" if column == percent else "made_on"
                election[field] = value
                lines[at + (field,)] = (shown, row.lines[column])
            elections.append(election)
        if elections:
            participant["elections"] = elections
            lines[base + ("elections",)] = (shown, row.line)
        participants.append(participant)
    return participants, problems
