"""The large report's findings table (docgen.checker.findings_table) prints what rich's Table
prints, character for character and escape for escape, at every width and on every console."""

from __future__ import annotations

import dataclasses
import io
from datetime import date
from pathlib import Path

import pytest
from rich.console import Console

from docgen.checker import views
from docgen.checker.runner import run_checks
from docgen.load import load_facts

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = [
    ("samples/problems/rrp-elections.yaml", date(2026, 8, 1)),
    ("samples/problems/rrp-payments.yaml", date(2026, 12, 31)),
    ("samples/problems/director-late-and-partial.yaml", date(2026, 6, 23)),
    ("samples/problems/director-settlement.yaml", date(2031, 6, 23)),
    ("samples/rrp-2026-year.yaml", date(2026, 12, 31)),
]
CONSOLES = {
    "file": {"no_color": True, "highlight": False, "markup": False, "emoji": False},
    "pipe": {"soft_wrap": True, "highlight": False, "markup": False, "emoji": False},
    "terminal": {"force_terminal": True, "color_system": "truecolor", "highlight": False},
}
# Words longer than a column (folded), names beyond ASCII and wide characters (two cells each),
# runs of spaces, an empty remedy, a line break inside a message.
AWKWARD = [
    ("RRP-ELECTION-LATE", "x" * 90 + " then short words after a very long one", ""),
    ("RRP-DEFERRAL-OVER-MAX", "Roberto García's election, O'Brien's too: 80% > 75%", "Fix it."),
    ("RSU-ELECTION-LATE", "東京の取締役の選択は期限後に提出されました", "期限内に提出。"),
    ("RRP-NO-PLAN-COMPENSATION", "two  spaces   and trailing   ", "   spaced remedy"),
    ("RRP-ELECTION-LATE", "first line\nsecond line after a break", "a remedy"),
]


def _report(name: str, as_of: date):
    loaded = load_facts(ROOT / name)
    return run_checks(loaded, as_of, None)


def _printed(report, width: int, console: str, large: int, monkeypatch) -> str:
    monkeypatch.setattr(views, "LARGE_REPORT", large)
    buffer = io.StringIO()
    Console(file=buffer, width=width, **CONSOLES[console]).print(views.as_rich(report))
    return buffer.getvalue()


@pytest.mark.parametrize("console", sorted(CONSOLES))
@pytest.mark.parametrize("width", [40, 60, 80, 120, 140, 200])
@pytest.mark.parametrize(("name", "as_of"), SAMPLES)
def test_the_same_as_richs_table(name, as_of, width, console, monkeypatch):
    report = _report(name, as_of)
    assert report.findings
    rich_table = _printed(report, width, console, 10**9, monkeypatch)
    assert _printed(report, width, console, 0, monkeypatch) == rich_table


@pytest.mark.parametrize("console", sorted(CONSOLES))
@pytest.mark.parametrize("width", [30, 50, 80, 120])
def test_the_same_on_awkward_text(width, console, monkeypatch):
    report = _report(*SAMPLES[0])
    findings = [
        dataclasses.replace(finding, rule=rule, message=message, remedy=remedy)
        for finding, (rule, message, remedy) in zip(report.findings, AWKWARD * 5, strict=False)
    ]
    report = dataclasses.replace(report, findings=findings)
    rich_table = _printed(report, width, console, 10**9, monkeypatch)
    assert _printed(report, width, console, 0, monkeypatch) == rich_table


def test_large_reports_use_it():
    """From LARGE_REPORT findings the view is the cell-by-cell table, not rich's."""
    from docgen.checker.findings_table import FindingsTable

    report = _report(*SAMPLES[0])
    many = dataclasses.replace(report, findings=list(report.findings) * (views.LARGE_REPORT // 2))
    assert any(isinstance(part, FindingsTable) for part in views.as_rich(many).renderables)
    assert not any(isinstance(part, FindingsTable) for part in views.as_rich(report).renderables)
