"""A roster or a file of filings read into docgen's columns: a CSV's text or a workbook's sheet
(docgen.load.workbook), through the file's ``columns:`` mapping when the facts give one
(docgen.core.column_map, A24)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from docgen.core.column_map import ColumnMap, apply, parse_block
from docgen.core.errors import LoadError, Problem
from docgen.core.roster import Column, Table, csv_table
from docgen.load.source import SourceMap
from docgen.load.text import decode
from docgen.load.workbook import is_workbook, workbook_table


def mapping_of(
    facts_field: str, data: dict[str, Any], columns: Sequence[Column], source: SourceMap
) -> tuple[ColumnMap | None, list[Problem]]:
    """The ``columns:`` block the facts give the file named by ``facts_field``, if any."""
    blocks = data.get("columns")
    if not isinstance(blocks, dict) or facts_field not in blocks:
        return None, []
    return parse_block(facts_field, blocks[facts_field], columns, source.locate)


def read_table(
    facts_field: str,
    raw: bytes,
    shown: str,
    data: dict[str, Any],
    columns: Sequence[Column],
    source: SourceMap,
) -> tuple[Table, list[Problem]]:
    """The file as docgen's columns; raises LoadError when its mapping or header cannot be read
    (nothing in the file can be read without them)."""
    mapping, problems = mapping_of(facts_field, data, columns, source)
    if problems:
        raise LoadError(problems)
    if is_workbook(shown):
        table = workbook_table(raw, shown, mapping.sheet if mapping else None)
    else:
        if mapping is not None and mapping.sheet is not None:
            file, line = source.locate(("columns", facts_field, "sheet"))
            raise LoadError(
                [
                    Problem(
                        file,
                        line,
                        f"columns.{facts_field}.sheet",
                        f"{shown} is a CSV, which has no sheets",
                        None,
                        "Remove sheet:, or name the workbook (.xlsx) the sheet is in.",
                    )
                ]
            )
        table = csv_table(decode(raw, shown), shown)
    if mapping is None:
        return table, []
    mapped, problems = apply(mapping, table, columns, source.locate)
    source.headers[mapped.shown] = dict(mapped.written)
    header_problems = [p for p in problems if p.path.startswith("column ")]
    if header_problems:
        raise LoadError(header_problems)
    return mapped, problems


def is_mapped(facts_field: str, data: dict[str, Any]) -> bool:
    """Whether docgen reads the file through a mapping or as a workbook: it never writes it."""
    named = data.get(facts_field)
    blocks = data.get("columns")
    return (isinstance(named, str) and is_workbook(named)) or (
        isinstance(blocks, dict) and facts_field in blocks
    )
