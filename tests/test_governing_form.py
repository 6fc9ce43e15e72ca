"""The form that governs decides (DESIGN.md, "Which Exhibit I governs", "Elections roll over"):
the content rules judge the governing Exhibit I and the RRP election in force; a timely form a
later timely form replaced draws only info naming the form that governs; RRP elections of
different kinds stand on their own in `check`, `compute` and `status`. Through the CLI."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

from tests.approvals import approve_all

ROOT = Path(__file__).resolve().parent.parent
GRANT = ROOT / "samples" / "director-grant-2026.yaml"

RGARCIA_FIRST = """      - grant_id: 2026-annual
        filed_on: 2026-05-04              # first, until Separation from Service: superseded
        percent: 100
        pay_on: separation"""


def _grant_with(tmp_path: Path, first_form: str) -> Path:
    text = GRANT.read_text(encoding="utf-8")
    assert RGARCIA_FIRST in text
    path = tmp_path / "grant.yaml"
    path.write_text(text.replace(RGARCIA_FIRST, first_form), encoding="utf-8")
    return path


def _check(cli, path: Path, *args: str) -> tuple[int, dict]:
    result = cli("check", path, *args, "--format", "json")
    return result.exit_code, json.loads(result.stdout)


def _about(report: dict, rule: str) -> list[dict]:
    return [f for f in report["findings"] if f["rule"] == rule]


def test_a_replaced_partial_form_does_not_block_the_grant(cli, tmp_path):
    # rgarcia files 50% on May 4, then a timely 100% form on May 20: the May 20 form governs.
    path = _grant_with(tmp_path, RGARCIA_FIRST.replace("percent: 100", "percent: 50"))
    code, report = _check(cli, path, "--as-of", "2026-06-23", "--stage", "grant")
    assert code == 0 and report["summary"]["error"] == 0, report["findings"]
    (partial,) = _about(report, "RSU-ELECTION-PARTIAL")
    assert partial["severity"] == "info" and partial["subject"] == "rgarcia"
    assert "defers 50%" in partial["message"]  # what it would have broken
    assert "the form filed 2026-05-20 governs instead" in partial["message"]


def test_a_replaced_form_with_an_early_pay_date_is_info(cli, tmp_path):
    first = RGARCIA_FIRST.replace(
        "pay_on: separation", "pay_on: date\n        pay_date: 2027-01-04"
    )
    code, report = _check(cli, _grant_with(tmp_path, first), "--as-of", "2026-06-23")
    assert code == 0, report["findings"]
    (early,) = _about(report, "RSU-PAY-DATE-BEFORE-VESTING")
    assert early["severity"] == "info" and "2026-05-20 governs instead" in early["message"]


RRP = """kind: rrp-plan-year
company: {name: Example Co.}
plan: {name: Example Co. Retirement Restoration Plan, investment_options: [Stable Value Fund]}
plan_year: 2026
participants:
  - id: p1
    name: Pat One
    eligible_employee: true
    compensation: "500000"
    bonus_compensation: "100000"
    hired_on: 2015-04-01
    beneficiaries: [{name: Sam One, relationship: spouse, percent: 100}]
    investments: {Stable Value Fund: 40, S&P 500 Index Fund: 60}
    elections:
"""


def _rrp(tmp_path: Path, elections: str) -> Path:
    path = tmp_path / "rrp.yaml"
    path.write_text(RRP + elections, encoding="utf-8")
    return approve_all(path)


def test_a_replaced_80_percent_deferral_election_is_info(cli, tmp_path):
    path = _rrp(
        tmp_path,
        "      - {kind: salary, plan_year: 2026, percent: 80, made_on: 2025-12-01}\n"
        '      - {kind: salary, plan_year: 2026, percent: "7.5", made_on: 2025-12-05}\n'
        "      - {kind: salary, plan_year: 2026, percent: 10, made_on: 2025-12-10}\n",
    )
    code, report = _check(cli, path, "--as-of", "2025-12-15", "--stage", "enrollment")
    assert code == 0 and report["summary"]["error"] == 0, report["findings"]
    found = _about(report, "RRP-DEFERRAL-OVER-MAX") + _about(report, "RRP-DEFERRAL-INCREMENT")
    assert sorted(f["rule"] for f in found) == ["RRP-DEFERRAL-INCREMENT", "RRP-DEFERRAL-OVER-MAX"]
    for finding in found:
        assert finding["severity"] == "info"
        assert "the salary election of 10% made 2025-12-10 for 2026" in finding["message"]


def test_a_bad_salary_election_never_voids_a_valid_bonus_election(cli, tmp_path):
    path = _rrp(
        tmp_path,
        "      - {kind: salary, plan_year: 2026, percent: 76, made_on: 2025-12-10}\n"
        "      - {kind: bonus, plan_year: 2026, percent: 25, made_on: 2025-12-10}\n",
    )
    code, report = _check(cli, path, "--as-of", "2025-12-15", "--stage", "enrollment")
    assert code == 1
    (over,) = _about(report, "RRP-DEFERRAL-OVER-MAX")
    assert over["severity"] == "error" and over["path"].endswith("elections[0].percent")
    # compute: the bonus part is used. Compensation 500,000, of which bonus 100,000: salary
    # 400,000 absorbs the 360,000 limit first (no pay periods), so the bonus's Plan Compensation
    # is all 100,000; 25% of it is 25,000; the match is 100% of it capped at 6% x 100,000 =
    # 6,000 (the bonus taken as paid in a pay period of its own, docs/rrp-arithmetic.md).
    result = cli("compute", path, "--format", "json")
    assert result.exit_code == 0, result.stderr
    (row,) = json.loads(result.stdout)["participants"]
    assert Decimal(row["elective_deferral"]) == Decimal("25000.00")
    assert Decimal(row["matching_restoration"]) == Decimal("6000.00")
    assert any("76%" in note and "no salary deferral" in note for note in row["notes"])
    # status: the bonus election is in effect; the salary one is not, for its finding.
    result = cli("status", path, "--as-of", "2025-12-15", "--format", "json")
    assert result.exit_code == 0, result.stderr
    (subject,) = json.loads(result.stdout)["subjects"]
    assert subject["election"] == "bonus 25%" and subject["in_effect"] is True
    assert "RRP-DEFERRAL-OVER-MAX" in subject["why_not"]


def test_of_two_untimely_forms_only_the_governing_one_is_an_error(cli, tmp_path):
    # An annual meeting on 2027-06-01 closes route (b): both of rgarcia's spring forms fail Code
    # 409A's timing; the May 20 form governs (an error), the May 4 form it replaced is info.
    text = GRANT.read_text(encoding="utf-8")
    path = tmp_path / "grant.yaml"
    path.write_text(
        text.replace("annual_meeting_date: null ", "annual_meeting_date: 2027-06-01"),
        encoding="utf-8",
    )
    _, report = _check(cli, path, "--as-of", "2026-06-23")
    timing = {
        f["path"]: f["severity"]
        for f in _about(report, "RSU-ELECTION-409A-TIMING")
        if f["subject"] == "rgarcia"
    }
    assert timing == {
        "directors[1].elections[0].filed_on": "info",
        "directors[1].elections[1].filed_on": "error",
    }
