"""A report too long for the terminal (docgen.checker.views.MOST_ROWS): the findings counted by
rule, and the formats that list each one; a report of fewer rows keeps its table."""

from __future__ import annotations

import dataclasses
import io
from datetime import date
from pathlib import Path

from rich.console import Console

from docgen.checker import views
from docgen.checker.runner import run_checks
from docgen.load import load_facts

ROOT = Path(__file__).resolve().parent.parent


def _report(copies: int):
    """The problem sample's findings, each made ``copies`` times about another participant in
    other words (so that no copies group into one row)."""
    report = run_checks(load_facts(ROOT / "samples/problems/rrp-elections.yaml"), date(2026, 8, 1))
    findings = [
        dataclasses.replace(f, subject=f"{f.subject}-{n}", message=f"{f.message} ({n})")
        for n in range(copies)
        for f in report.findings
    ]
    return dataclasses.replace(report, findings=findings)


def _printed(report) -> str:
    buffer = io.StringIO()
    Console(file=buffer, width=120, no_color=True).print(views.as_rich(report))
    return buffer.getvalue()


def test_past_the_most_rows_the_findings_are_counted_by_rule():
    report = _report(20)
    assert len(report.findings) > views.MOST_ROWS
    printed = _printed(report)
    assert "Findings by rule: " in printed
    late = next(line for line in printed.splitlines() if " RRP-ELECTION-LATE " in line)
    assert late.split("│")[3:5] == ["      120 ", "          120 "]  # 6 a copy, 20 copies
    assert f"{len(report.findings)} findings are too many to list here" in printed
    assert "--format html -o FILE" in " ".join(printed.split())
    assert printed.rstrip().endswith(")")  # the summary line still closes the report


def test_a_report_of_fewer_rows_is_the_table():
    report = _report(1)
    printed = _printed(report)
    assert "Findings by rule" not in printed and "subject" in printed.splitlines()[2]
    assert "RRP-ELECTION-LATE" in printed
