"""Reading facts files (YAML, JSON, and the roster CSV a kind names) into the fact model, with a
line for every fact.

Every problem found in one pass is reported as
``FILE:LINE: field.path: what is wrong (got VALUE). How to fix it.``; nothing is half-loaded.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from docgen.core.collector import paused_for_a_population
from docgen.core.errors import LoadError, Problem
from docgen.core.model import PathKey
from docgen.core.output import note_inputs
from docgen.kinds import all_kinds, get_kind
from docgen.kinds.registry import Roster, UnknownKind
from docgen.load.json_reader import load_json
from docgen.load.messages import duplicate_ids, problems_from, show
from docgen.load.records import merge_records
from docgen.load.references import templates_override, unknown_clauses
from docgen.load.source import LoadedFacts, SourceMap, format_path
from docgen.load.tables import is_mapped, read_table
from docgen.load.text import MAX_BYTES, OutsideFolder, contained_file, decode, display, read_bytes
from docgen.load.yaml_facts import read_yaml

__all__ = ["MAX_BYTES", "LoadedFacts", "SourceMap", "format_path", "load_facts"]


def load_facts(
    path: str | Path, *, migrating: bool = False, contents: Mapping[Path, bytes] | None = None
) -> LoadedFacts:
    """Read and validate a facts file; raise :class:`LoadError` listing every problem found.

    A field of an earlier release (``Kind.retired_fields``) is a load error that says how to
    move on; ``migrating`` (for `docgen clauses`, which prints the replacement) sets it aside in
    ``LoadedFacts.retired`` instead. ``contents`` gives the bytes of the facts file or its roster
    (keyed by resolved path) in place of what is on disk: `docgen intake` checks an edited file
    before it replaces it.
    """
    with paused_for_a_population():  # a roster's million objects (docgen.core.collector)
        loaded = _load(Path(path), migrating, contents)
    note_inputs(loaded.inputs)  # no output of this command may be written over one
    return loaded


def _load(path: Path, migrating: bool, contents: Mapping[Path, bytes] | None) -> LoadedFacts:
    given = {Path(p).resolve(): data for p, data in (contents or {}).items()}

    def data_of(file: Path, shown: str) -> bytes:
        """The bytes given for ``file``, else those on disk (a regular file only, read once)."""
        found = given.get(file.resolve())
        return found if found is not None else read_bytes(file, shown, facts_file=file == path)

    shown = display(path)
    raw = data_of(path, shown)
    text = decode(raw, shown)
    # The facts' identity covers the roster too: a changed roster is changed facts.
    hasher = hashlib.sha256(raw)
    if path.suffix.lower() == ".json":
        data, source = load_json(text, shown)
    else:
        data, lines = read_yaml(text, shown)
        source = SourceMap(shown, lines)
    if not isinstance(data, dict):
        raise LoadError(
            [
                Problem(
                    shown,
                    1,
                    "",
                    "expected a mapping of fields at the top level",
                    show(data),
                    "Start from a sample in samples/.",
                )
            ]
        )
    kind_name = data.get("kind")
    try:
        kind = get_kind(kind_name) if isinstance(kind_name, str) else None
    except UnknownKind:
        kind = None
    if kind is None:
        names = [k.name for k in all_kinds()]
        file, line = source.locate(("kind",))
        raise LoadError(
            [
                Problem(
                    file,
                    line or 1,
                    "kind",
                    f"expected {' or '.join(names)}",
                    show(kind_name) if "kind" in data else None,
                    f"Add {' or '.join(f'kind: {n}' for n in names)} at the top.",
                )
            ]
        )
    problems: list[Problem] = []
    retired: dict[str, Any] = {}
    for name, fix in kind.retired_fields.items():
        if name in data:
            file, line = source.locate((name,))
            retired[name] = data.pop(name)
            if not migrating:
                problems.append(
                    Problem(
                        file,
                        line,
                        name,
                        "is a field of docgen's first release and is no longer read",
                        show(retired[name]),
                        fix[:1].upper() + fix[1:] + ".",
                    )
                )
    roster_paths: list[Path] = []
    roster = kind.roster
    roster_first = 0  # the index of the roster's first subject in the merged list
    if roster is not None and isinstance(data.get(roster.field), str):
        existing = data.get(roster.into) or []
        if isinstance(existing, list):
            try:
                roster_path = contained_file(path.parent, data[roster.field])
                roster_shown = display(roster_path)
                roster_bytes = data_of(roster_path, roster_shown)
                # A workbook, or a file read through its columns: mapping (A24), as a table.
                table, cell_problems = read_table(
                    roster.field, roster_bytes, roster_shown, data, roster.cells, source
                )
                rows, row_problems = roster.read(
                    table, table.shown, len(existing), source.defer, data
                )
                # Rows with problems are still validated, so one pass reports everything.
                data[roster.into] = existing + rows
                roster_first = len(existing)
                problems.extend(cell_problems)
                problems.extend(row_problems)
                roster_paths.append(roster_path)
                hasher.update(roster_bytes)
            except OutsideFolder as error:
                file, line = source.locate((roster.field,))
                problems.append(
                    Problem(
                        file, line, roster.field, error.what, show(data[roster.field]), error.fix
                    )
                )
            except LoadError as error:
                problems.extend(error.problems)
    problems.extend(_mapped_files(kind, data, source))
    record_files, found = merge_records(
        kind.records, kind.subjects_field, data, path.parent, source, data_of
    )
    problems.extend(found)
    for _, record_bytes in record_files.values():
        hasher.update(record_bytes)
    problems.extend(duplicate_ids(data, kind.subjects_field, source))
    facts = None
    try:
        facts = kind.model.model_validate(data)
    except ValidationError as error:
        follows = (
            _roster_inherits(error, roster, roster_first)
            if roster is not None and roster_paths
            else None
        )
        # the columns of the CSVs of filings that hold a nested field, for an empty cell's fix
        nested = {
            row_field.path: row_field.column
            for spec in kind.records
            for row_field in spec.fields
            if len(row_field.path) > 1
        }
        problems.extend(problems_from(error, kind.model, source, follows, nested))
    override = None
    if facts is not None:
        problems.extend(kind.load_problems(facts, source))
        override, found = templates_override(facts, kind, path, source)
        problems.extend(found)
        problems.extend(unknown_clauses(facts, kind, source))
    if problems:
        raise LoadError(_once(problems))
    return LoadedFacts(
        facts=facts,
        source=source,
        path=path,
        sha256=hasher.hexdigest(),
        templates_override=override,
        retired=retired,
        roster=roster_paths[0] if roster_paths else None,
        records={name: file for name, (file, _) in record_files.items()},
        read_only=frozenset(
            name
            for name in (*([roster.field] if roster else []), *(s.field for s in kind.records))
            if is_mapped(name, data)
        ),
    )


def _row_of(problem: Problem) -> tuple[str, int | None]:
    """The file and row a problem is on: a CSV's line, or a workbook cell's row (``!D14``)."""
    file, bang, cell = problem.file.rpartition("!")
    if bang:
        digits = cell.split(":")[0].lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        return file, int(digits) if digits.isdigit() else None
    return problem.file, problem.line


def _once(problems: list[Problem]) -> list[Problem]:
    """One message per problem: a cell a columns: reader refused (docgen.core.column_map, whose
    message names the field and its column) leaves its field empty, and the model's "required
    field is missing" for that field on that row would say the same thing again."""
    refused = {
        (*_row_of(problem), problem.path.split(" ")[0])
        for problem in problems
        if " (column " in problem.path
    }
    # and a message that a row's cell is empty (a termination date's reason) follows from the
    # reader refusing what the cell held
    refused_cells = {
        (*_row_of(problem), f"the row's {problem.path.split(' (column ', 1)[1][:-1]} cell is empty")
        for problem in problems
        if " (column " in problem.path and problem.path.endswith(")")
    }

    def said(problem: Problem) -> bool:
        if any(
            (file, row) == _row_of(problem) and problem.what.endswith(empty)
            for file, row, empty in refused_cells
        ):
            return True
        if problem.what != "required field is missing":
            return False
        file, row = _row_of(problem)
        # the column's field, as the fact's path ends (termination_reason: termination.reason)
        joined = problem.path.replace(".", "_")
        return any(
            (file, row) == (where, at) and (joined.endswith("_" + field) or joined == field)
            for where, at, field in refused
        )

    return [problem for problem in problems if not said(problem)]


def _mapped_files(kind: Any, data: dict[str, Any], source: SourceMap) -> list[Problem]:
    """A ``columns:`` block for a file the facts do not name (a misspelt field, or a mapping
    left behind) is refused, as an unknown field is."""
    blocks = data.get("columns")
    if not isinstance(blocks, dict):
        return []
    fields = [
        *([kind.roster.field] if kind.roster is not None else []),
        *(spec.field for spec in kind.records),
    ]
    problems = []
    for name in blocks:
        if name in fields and isinstance(data.get(name), str):
            continue
        file, line = source.locate(("columns", name))
        problems.append(
            Problem(
                file,
                line,
                f"columns.{name}",
                "a mapping for a file the facts do not name",
                None,
                f"Key each mapping by the field naming its file: {', '.join(fields)}"
                + (f" (and name the file in {name})" if name in fields else "")
                + ".",
            )
        )
    return problems


def _roster_inherits(
    error: ValidationError, roster: Roster, first: int
) -> Callable[[PathKey], bool] | None:
    """Which errors follow from a facts field the roster's rows take their value from
    (``Roster.inherits``, the RRP's ``plan_year``): when the file's own field is refused, each
    row's item is missing it, or refused for the same value, and saying so once per row points
    at a CSV with no such column. The refusal of the field itself is the one message."""
    refused = {
        detail["loc"][0]
        for detail in error.errors(include_url=False)
        if len(detail["loc"]) == 1 and detail["loc"][0] in roster.inherits
    }
    if not refused:
        return None

    def follows(loc: PathKey) -> bool:
        return (  # missing (a value it could not read) or the same refusal (one it could)
            len(loc) > 2
            and loc[0] == roster.into
            and isinstance(loc[1], int)
            and loc[1] >= first
            and loc[-1] in refused
        )

    return follows
