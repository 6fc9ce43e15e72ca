"""A termination in the roster (Plan 1.30, Termination of Employment) is a date and a reason: a
date without its reason is refused in the roster's own terms (the column the company's file
uses, the cell, the reasons docgen reads), and `docgen columns` proposes the reason's column when
the file has one and says FILL IN when a termination date has none."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from docgen.core.errors import LoadError
from docgen.load import load_facts

SAMPLES = Path(__file__).parent.parent / "samples"


def _workers(tmp_path: Path, reason: list[str] | None) -> Path:
    """The Workday sample with e1007 terminated on 09/30/2026, and a Termination Reason column
    holding ``reason`` (one cell per row) when given."""
    shutil.copytree(SAMPLES / "workday", tmp_path / "workday")
    workers = tmp_path / "workday" / "Workers.csv"
    with workers.open(encoding="utf-8", newline="") as file:
        header, *rows = list(csv.reader(file))
    rows[6][header.index("Termination Date")] = "09/30/2026"
    if reason is not None:
        header.append("Termination Reason")
        for row, cell in zip(rows, reason, strict=False):
            row.append(cell)
    with workers.open("w", encoding="utf-8", newline="") as file:
        csv.writer(file).writerows([header, *rows])
    shutil.copy(SAMPLES / "rrp-2026-workday.yaml", tmp_path / "facts.yaml")
    return tmp_path / "facts.yaml"


def _refusals(facts: Path) -> list[str]:
    with pytest.raises(LoadError) as refused:
        load_facts(facts)
    return [str(problem) for problem in refused.value.problems]


def test_a_termination_date_with_no_reason_column_is_refused_in_the_files_terms(tmp_path):
    facts = _workers(tmp_path, None)
    (said,) = _refusals(facts)
    where, said = said.split(": ", 1)
    assert where.endswith("workday/Workers.csv:8")
    assert said == (
        "terminated_on (column Termination Date): "
        "a termination date with no reason, and the file has no column of termination reasons "
        "(got 2026-09-30). Map the column that says why employment ended in the columns: block "
        "(termination_reason: {column: HEADER, values: {Retired: retirement, ...}}); the "
        "reasons docgen reads are retirement, death, disability and other (Plan 1.30)."
    )


def test_a_termination_date_with_its_reason_cell_empty_names_the_cell(tmp_path):
    facts = _workers(tmp_path, [""] * 20)
    text = facts.read_text(encoding="utf-8").replace(
        "    terminated_on: {column: Termination Date, read: date}\n",
        "    terminated_on: {column: Termination Date, read: date}\n"
        "    termination_reason: {column: Termination Reason, values: {Retired: retirement}}\n",
    )
    facts.write_text(text, encoding="utf-8")
    (said,) = _refusals(facts)
    where, said = said.split(": ", 1)
    assert where.endswith("workday/Workers.csv:8")
    assert said == (
        "terminated_on (column Termination Date): a termination date "
        "with no reason: the row's Termination Reason cell is empty (got 2026-09-30). Fill in "
        "the cell with why employment ended: retirement, death, disability or other, or a word "
        "the columns: block's values: maps to one of them (Plan 1.30)."
    )


def test_a_termination_date_in_docgens_own_columns_without_its_reason(tmp_path):
    shutil.copy(SAMPLES / "rrp-2026-roster.yaml", tmp_path / "facts.yaml")
    with (SAMPLES / "participants.csv").open(encoding="utf-8", newline="") as file:
        header, *rows = list(csv.reader(file))
    header += ["terminated_on", "termination_reason"]
    for row in rows:
        row += ["", ""]
    rows[1][-2] = "2026-09-30"
    with (tmp_path / "participants.csv").open("w", encoding="utf-8", newline="") as file:
        csv.writer(file).writerows([header, *rows])
    (said,) = _refusals(tmp_path / "facts.yaml")
    where, said = said.split(": ", 1)
    assert where.endswith("participants.csv:6")
    assert said == (
        "terminated_on (column terminated_on): a termination date with no reason: the row's "
        "termination_reason cell is empty (got 2026-09-30). Fill in the cell: retirement, death, "
        "disability or other (Plan 1.30)."
    )


def test_docgen_columns_says_fill_in_for_a_termination_date_with_no_reason(cli, tmp_path):
    _workers(tmp_path, None)
    result = cli("columns", tmp_path / "workday" / "Workers.csv", "--kind", "rrp-plan-year")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    at = lines.index("    termination_reason:")
    assert lines[at - 1] == (
        "    # FILL IN the file's column for termination_reason, which Termination Date needs "
        "(termination_reason is one of retirement, death, disability, other), or remove this line "
        "if the file has none: a row with a Termination Date is then refused"
    )


def test_docgen_columns_proposes_the_reason_column_with_its_words(cli, tmp_path):
    reasons = ["", "", "", "", "", "", "Retired", "Resigned", "Deceased"]
    _workers(tmp_path, reasons)
    result = cli("columns", tmp_path / "workday" / "Workers.csv", "--kind", "rrp-plan-year")
    assert result.exit_code == 0, result.stderr
    assert (
        "    termination_reason: {column: Termination Reason, values: {Deceased: death, "
        "Resigned: , Retired: retirement}}"
    ) in result.stdout.splitlines()
