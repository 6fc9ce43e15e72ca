"""samples/problems/: each file loads and gives exactly the rule ids its `# expect:` line names."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from docgen.checker.runner import run_checks
from docgen.load import load_facts

PROBLEMS = Path(__file__).resolve().parent.parent / "samples" / "problems"
FILES = sorted(PROBLEMS.glob("*.yaml"))


def header(path: Path, key: str) -> str | None:
    match = re.search(rf"^# {key}:\s*(.+)$", path.read_text(encoding="utf-8"), re.M)
    return match.group(1).strip() if match else None


def test_there_are_several_problem_files():
    assert len(FILES) >= 4


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_problem_file_gives_exactly_the_promised_findings(path):
    promised = header(path, "expect")
    assert promised, f"{path.name} has no '# expect:' line"
    expected = {rule.strip() for rule in promised.split(",")}
    as_of = date.fromisoformat(header(path, "as-of") or "2026-06-01")
    report = run_checks(load_facts(path), as_of, header(path, "stage"))
    assert report.rule_ids() == expected
    assert report.errors or report.warnings
