"""Merging a kind's CSVs of filings (``elections_csv``, ``beneficiaries_csv``,
``allocations_csv``: docgen.core.record_rows) into its people, as the loader reads them.

Each row is read strictly (docgen.core.roster.read_rows), names its person by id, and becomes one
item of that person's list in file order (several forms per person, superseded and not-in-effect
ones included), with the file and line of every cell in the source map as a roster row's are. A
person whose list is also given elsewhere (the facts file, or a roster's single-election
columns) is a load error: which of the two is the record is never guessed.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from docgen.core.errors import LoadError, Problem
from docgen.core.model import Location, PathKey
from docgen.core.record_rows import RecordRows, item_alone, places_of
from docgen.core.roster import read_rows
from docgen.load.messages import show
from docgen.load.source import SourceMap
from docgen.load.tables import read_table
from docgen.load.text import OutsideFolder, contained_file, display


def merge_records(
    records: tuple[RecordRows, ...],
    subjects_field: str,
    data: dict[str, Any],
    folder: Path,
    source: SourceMap,
    data_of: Callable[[Path, str], bytes],
) -> tuple[dict[str, tuple[Path, bytes]], list[Problem]]:
    """Each named CSV's rows merged into ``data[subjects_field]``; returns {facts field: (its
    file, its bytes)} and the problems found (every one, in one pass)."""
    files: dict[str, tuple[Path, bytes]] = {}
    problems: list[Problem] = []
    people = data.get(subjects_field)
    index: dict[str, int] = {}  # each id's person (the first, if given twice), for every file
    for number, person in enumerate(people if isinstance(people, list) else []):
        if isinstance(person, dict) and isinstance(person.get("id"), str):
            index.setdefault(person["id"], number)
    for spec in records:
        named = data.get(spec.field)
        if not isinstance(named, str) or not isinstance(people, list):
            continue
        try:
            path = contained_file(folder, named)
            shown = display(path)
            raw = data_of(path, shown)
            table, mapped = read_table(spec.field, raw, shown, data, spec.columns, source)
            rows, found = read_rows(table, table.shown, spec.columns, spec.field, 0)
            found = [*mapped, *found]
            shown = table.shown
        except OutsideFolder as error:
            file, line = source.locate((spec.field,))
            problems.append(Problem(file, line, spec.field, error.what, show(named), error.fix))
            continue
        except LoadError as error:
            if not path.exists() and not path.is_symlink():  # named, not made yet: say how
                file, line = source.locate((spec.field,))
                problems.append(
                    Problem(
                        file,
                        line,
                        spec.field,
                        f"names {shown}, which does not exist",
                        None,
                        f"Create it with the first line {','.join(spec.column_names)} (one row "
                        f"per {spec.noun}, docs/fact-files.md), or correct the name.",
                    )
                )
                continue
            problems.extend(error.problems)
            continue
        files[spec.field] = (path, raw)
        problems.extend(found)
        problems.extend(_merge(spec, subjects_field, people, index, rows, shown, source))
    return files, problems


def _merge(
    spec: RecordRows,
    subjects_field: str,
    people: list[Any],
    index: dict[str, int],
    rows: list[Any],
    shown: str,
    source: SourceMap,
) -> list[Problem]:
    problems: list[Problem] = []
    elsewhere = {
        number
        for number, person in enumerate(people)
        if isinstance(person, dict) and person.get(spec.into)
    }
    refused: set[int] = set()
    # (the person's number, the row's place in their list: -1 a mapping, -2 its entry, the row)
    placed: list[tuple[int, int, Any]] = []
    paths = spec.paths

    def named_at(row: Any) -> int:
        """The line of the row's cell naming its person (the row's, when it is empty)."""
        subject_column = spec.subject_column
        return row.line_of(subject_column) if subject_column in row.values else row.line

    subject_column, into, key_column = spec.subject_column, spec.into, spec.key
    for row in rows:
        subject = row.values.get(subject_column)
        if subject is None:  # no id to look up: said as such, not as a person named None
            problems.append(
                Problem(
                    shown,
                    row.line,
                    f"{spec.field}[{row.index}].{spec.subject_column}",
                    f"the row's {spec.subject_column} is empty",
                    None,
                    f"Write the id of the {subjects_field[:-1]} the row is for.",
                )
            )
            continue
        if subject not in index:
            guess = difflib.get_close_matches(str(subject), list(index), n=1)
            problems.append(
                Problem(
                    shown,
                    named_at(row),
                    f"{spec.field}[{row.index}].{spec.subject_column}",
                    f"no {subjects_field[:-1]} {subject} in the facts",
                    None,
                    (f"Did you mean {guess[0]}? " if guess else "")
                    + f"Each row's {spec.subject_column} is the id of a {subjects_field[:-1]}.",
                )
            )
            continue
        number = index[subject]
        if number in elsewhere:
            if number not in refused:
                where, at = source.locate((subjects_field, number, spec.into))
                problems.append(
                    Problem(
                        shown,
                        named_at(row),
                        f"{subjects_field}[{number}].{spec.into}",
                        f"{subject}'s {spec.into} are in {spec.field} and also in {where}"
                        + (f" (line {at})" if at else ""),
                        None,
                        f"Keep them in one place: move them into {spec.field}, or remove "
                        f"{subject}'s rows from it.",
                    )
                )
                refused.add(number)
            continue
        person = people[number]
        if key_column is None:
            held = person.setdefault(into, [])
            placed.append((number, len(held), row))
            held.append(item_alone(paths, row))
            continue
        mapping = person.setdefault(into, {})
        if not mapping:
            placed.append((number, -1, row))
        key = row.values.get(key_column)
        if key is None:  # the entry has no name to be kept under: said at its row, not merged
            problems.append(
                Problem(
                    shown,
                    row.line,
                    f"{spec.field}[{row.index}].{spec.key}",
                    f"the {spec.key} of {subject}'s row is empty",
                    None,
                    f"Write the {spec.noun}'s name in the {spec.key} column.",
                )
            )
            continue
        if key in mapping:
            problems.append(
                Problem(
                    shown,
                    row.line_of(spec.key),
                    f"{spec.field}[{row.index}].{spec.key}",
                    f"{subject}'s {key} is given twice",
                    None,
                    f"Keep one row per {spec.key} for each {subjects_field[:-1]}.",
                )
            )
            continue
        mapping[key] = row.values.get("percent")
        placed.append((number, -2, row))

    def fill(extra: dict[PathKey, Location]) -> None:
        """Where each merged row's facts are: the list (or mapping) at its first row, each item
        at its row, each field at its cell (the percent of a mapping's entry at its cell)."""
        for number, position, row in placed:
            at: PathKey = (subjects_field, number, spec.into)
            if position == -2:  # a mapping's entry (keyed by the row's key): its percent's cell
                line, column = places_of(spec, row).get(("percent",), (row.line, 0))
                entry = (*at, row.values.get(spec.key))
                extra[entry] = (shown, line, column) if column else (shown, line)
                continue
            if position <= 0:  # the first of the person's list or mapping
                extra[at] = (shown, row.line)
            if position < 0:
                continue
            item_at: PathKey = (*at, position)
            extra[item_at] = (shown, row.line)
            for path, (cell_line, cell_column) in places_of(spec, row).items():
                extra[(*item_at, *path)] = (shown, cell_line, cell_column)

    source.defer(fill)
    return problems
