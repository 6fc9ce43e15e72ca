"""Filings kept as rows (A20): a CSV of one row per item of a person's list (``elections_csv``:
one row per form received; ``beneficiaries_csv``, ``allocations_csv``), named by a facts field.

A kind declares each such file once (:class:`RecordRows`: its facts field, the column naming the
person, the person's field its rows fill, and which column holds which field of an item); the
loader reads it strictly, like a roster (docgen.core.roster: unknown columns with a did-you-mean,
the file, line and column of every problem), and `docgen intake` writes a filing back as rows
(:func:`cells_of`), so every field a facts file's item holds round-trips through the CSV.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from docgen.core.roster import CellKind, Column, RosterRow


@dataclass(frozen=True)
class RowField:
    """One column: the field of the item it holds (a path: ``("performance_period", "end")``)."""

    column: str
    path: tuple[str, ...]
    kind: CellKind = "text"


@dataclass(frozen=True)
class RecordRows:
    """A CSV of filings named by the facts field ``field``: each row is one item of the person's
    ``into`` (a list of mappings), or, when ``key`` names a column, one entry of a mapping (a
    fund and its percentage: ``investments``)."""

    field: str  # elections_csv
    subject_column: str  # participant_id
    into: str  # elections
    fields: tuple[RowField, ...]
    key: str | None = None  # the column whose cell is the mapping's key (``fund``)
    noun: str = "row"  # what one row is, in messages: "election form"

    @property
    def columns(self) -> tuple[Column, ...]:
        return (
            Column(self.subject_column, "id", required=True),
            *((Column(self.key, required=True),) if self.key else ()),
            *(Column(f.column, f.kind) for f in self.fields),
        )

    @property
    def paths(self) -> dict[str, tuple[str, ...]]:
        """Each field's column and the field of the item it holds."""
        return {field.column: field.path for field in self.fields}

    @property
    def column_names(self) -> tuple[str, ...]:
        return tuple(column.name for column in self.columns)


def item_of(
    spec: RecordRows, row: RosterRow
) -> tuple[dict[str, Any], dict[tuple[str, ...], tuple[int, int]]]:
    """A row's item (nested as the model has it) and the line and column of each of its
    fields' cells."""
    return item_alone(spec.paths, row), places_of(spec, row)


def item_alone(paths: Mapping[str, tuple[str, ...]], row: RosterRow) -> dict[str, Any]:
    """A row's item, nested as the model has it, from its file's ``RecordRows.paths`` (worked
    out once for the file, not for each row)."""
    item: dict[str, Any] = {}
    for column, value in row.values.items():
        path = paths.get(column)
        if path is None:  # the person's id, or a mapping's key: not a field of the item
            continue
        if len(path) == 1:
            item[path[0]] = value
            continue
        target = item
        for part in path[:-1]:
            target = target.setdefault(part, {})
        target[path[-1]] = value
    return item


def places_of(spec: RecordRows, row: RosterRow) -> dict[tuple[str, ...], tuple[int, int]]:
    """The line and column of the cell of each field of a row's item (a nested field's
    parents take its first cell's)."""
    lines: dict[tuple[str, ...], tuple[int, int]] = {}
    for field in spec.fields:
        if field.column not in row.values:
            continue
        cell = (row.line_of(field.column), row.column_of(field.column))
        for depth in range(1, len(field.path)):
            lines.setdefault(field.path[:depth], cell)
        lines[field.path] = cell
    return lines


def cell_text(value: Any) -> str:
    """A value as a spreadsheet cell holds it: dates as YYYY-MM-DD, true/false, numbers plain."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return format(value, "f")
    return str(value)


class NoColumn(ValueError):
    """A value the rows of this file have no column for."""


def cells_of(spec: RecordRows, subject: str, item: Mapping[str, Any]) -> dict[str, str]:
    """The cells of the row that holds ``item`` (a mapping's entry: ``{key: value}``) for the
    person ``subject``; raises NoColumn naming any field the file cannot hold."""
    cells = {spec.subject_column: subject}
    placed: set[tuple[str, ...]] = set()
    if spec.key is not None and item.get(spec.key) is not None:
        cells[spec.key] = cell_text(item[spec.key])
        placed.add((spec.key,))
    for field in spec.fields:
        value: Any = item
        for part in field.path:
            value = value.get(part) if isinstance(value, Mapping) else None
        if value is not None:
            cells[field.column] = cell_text(value)
            placed.add(field.path)
    unplaced = sorted(_leaves(item) - {path for path in placed} - _parents(placed))
    if unplaced:
        raise NoColumn(", ".join(".".join(path) for path in unplaced))
    return cells


def _leaves(item: Mapping[str, Any], prefix: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
    found: set[tuple[str, ...]] = set()
    for key, value in item.items():
        if value is None:
            continue
        if isinstance(value, Mapping):
            found |= _leaves(value, (*prefix, key))
        else:
            found.add((*prefix, key))
    return found


def _parents(paths: set[tuple[str, ...]]) -> set[tuple[str, ...]]:
    return {path[:depth] for path in paths for depth in range(1, len(path))}
