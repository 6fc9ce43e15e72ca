"""After a recording, `docgen elect` and `docgen intake` report (and exit by) the findings about
the people recorded and the cycle, as `docgen check` finds them after the write, and say whom the
report covers; the other people's findings are `docgen check`'s (DESIGN.md, "The election
loop"). Through the command line, on the problems sample (errors for most of its people)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROBLEMS = ROOT / "samples" / "problems" / "rrp-elections.yaml"
DAY = "2025-12-10"


@pytest.fixture
def facts(tmp_path: Path) -> Path:
    path = tmp_path / "rrp.yaml"
    shutil.copy(PROBLEMS, path)
    return path


def elect(cli, facts: Path, who: str):
    return cli(
        "elect", facts, "--for", who, "--salary-percent", "5", "--received-on", DAY, "--as-of", DAY
    )


def checked(cli, facts: Path) -> dict:
    done = cli("check", facts, "--as-of", DAY, "--stage", "enrollment", "--format", "json")
    return json.loads(done.stdout)


def test_a_clean_person_recorded_exits_by_their_findings_not_the_others(cli, facts) -> None:
    done = elect(cli, facts, "e2008")  # a warning of their own; the others have 24 errors
    assert done.exit_code == 0, done.stdout + done.stderr
    whole = checked(cli, facts)
    assert whole["summary"]["error"] >= 20  # the rest of the roster, left to `docgen check`
    assert "RRP-NO-PLAN-COMPENSATION" in done.stdout
    assert "e2001" not in done.stdout and "RRP-DEFERRAL-OVER-MAX" not in done.stdout
    last = done.stdout.strip().splitlines()[-1]
    assert last.endswith(
        "0 errors, 1 warning, 0 info (as of 2025-12-10, stage enrollment) for e2008, the one "
        "recorded; `docgen check` checks everyone"
    ), last


def test_a_person_with_errors_recorded_gets_what_check_finds_about_them(cli, facts) -> None:
    done = elect(cli, facts, "e2004")
    assert done.exit_code == 1
    whole = checked(cli, facts)
    theirs = [f for f in whole["findings"] if f["subject"] == "e2004"]
    assert {f["rule"] for f in theirs} == {"RRP-ELECTION-FUTURE", "RRP-FIRST-YEAR-PRIOR-SERVICES"}
    for finding in theirs:  # each, with the line `docgen check` gives it after the write
        assert finding["rule"] in done.stdout
        assert f"{finding['line']}" in done.stdout
    assert "1 error, 0 warnings, 1 info" in done.stdout
    assert "for e2004, the one recorded" in done.stdout


def test_the_summary_names_the_people_recorded_the_first_five_then_a_count() -> None:
    from datetime import date

    from docgen.core.findings import FactsInfo, Report

    info = FactsInfo("rrp.yaml", "rrp-plan-year", "0" * 64)
    people = [f"e{n}" for n in range(7)]
    many = Report.build(info, date(2026, 1, 2), "enrollment", [], ["2026", *people], checked=people)
    assert many.summary_line().endswith(
        "for the 7 recorded (e0, e1, e2, e3, e4 and 2 more); `docgen check` checks everyone"
    )
    two = Report.build(info, date(2026, 1, 2), "enrollment", [], people, checked=people[:2])
    assert "for the 2 recorded (e0, e1);" in two.summary_line()
    whole = Report.build(info, date(2026, 1, 2), "enrollment", [], people)
    assert "recorded" not in whole.summary_line()  # `docgen check`'s line is as it was
