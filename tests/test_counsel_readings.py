"""DESIGN.md, "Readings left to counsel": a fixed date within six months after a specified
employee's separation, a Key Employee paid inside Treas. Reg. 1.409A-3(d)'s 30 days before the
Plan's date, and a non-employee director recorded as a specified employee are warnings that quote
the words and name the reading taken, never a silent pass. Through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"


def _findings(cli, path: Path, *args: str) -> tuple[int, list[dict]]:
    result = cli("check", path, *args, "--format", "json")
    return result.exit_code, json.loads(result.stdout)["findings"]


def _with_dwhite_specified(tmp_path: Path, elections_after=None) -> Path:
    text = (SAMPLES / "director-grant-2026.yaml").read_text(encoding="utf-8")
    line = "    specified_employee: false "
    assert line in text
    text = text.replace(line, "    specified_employee: true  ")
    if elections_after is not None:
        text = elections_after(text)
    path = tmp_path / "grant.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_non_employee_director_recorded_as_a_specified_employee_is_a_warning(cli, tmp_path):
    path = _with_dwhite_specified(tmp_path)
    code, findings = _findings(cli, path, "--as-of", "2026-06-23")
    assert code == 0
    (found,) = [f for f in findings if f["rule"] == "RSU-SPECIFIED-EMPLOYEE-NOT-EMPLOYEE"]
    assert (found["subject"], found["severity"]) == ("dwhite", "warning")
    assert "Code 416(i)" in found["citations"]
    assert "(as defined in Code Section 409A(a)(2)(B)(i))" in found["message"]  # the words
    assert "Reading taken" in found["message"]


def test_a_fixed_date_soon_after_a_specified_employees_separation_is_a_warning(cli, tmp_path):
    dwhite = """    units: 2450
    elections:
      - grant_id: 2026-annual
        filed_on: 2026-04-30
        percent: 100
        pay_on: separation"""

    def fixed_date(text: str) -> str:
        assert dwhite in text
        fixed = dwhite.replace("pay_on: separation", "pay_on: date\n        pay_date: 2028-09-01")
        return text.replace(dwhite, fixed + "\n    settlement: {separation_on: 2028-08-01}")

    path = _with_dwhite_specified(tmp_path, fixed_date)
    code, findings = _findings(cli, path, "--as-of", "2028-08-15")
    delay = [f for f in findings if f["rule"] == "RSU-SPECIFIED-EMPLOYEE-DELAY"]
    assert [f["severity"] for f in delay] == ["warning"], findings
    assert "the date you elected in Section III" in delay[0]["message"]
    assert "Reading taken" in delay[0]["message"] and "2029-02-01" in delay[0]["message"]
    assert code == 0


def test_a_key_employee_paid_a_day_before_the_plans_date_is_a_warning(cli, tmp_path):
    # Left April 30, 2026; six-month date October 30; Plan 4.01(b)'s date November 1. Paid
    # October 31: Code 409A(a)(2)(B)(i) is met; one day early under the Plan.
    text = (SAMPLES / "problems" / "rrp-payments.yaml").read_text(encoding="utf-8")
    before = (
        "    termination: { on: 2026-05-15, reason: other }\n"
        "    payments:                           # RRP-KEY-EMPLOYEE-PAYMENT: not before December "
        '1, 2026\n      - { on: 2026-06-01, amount: "250000" }'
    )
    assert before in text
    after = (
        "    termination: { on: 2026-04-30, reason: other }\n"
        '    payments:\n      - { on: 2026-10-31, amount: "250000" }'
    )
    path = tmp_path / "rrp.yaml"
    path.write_text(text.replace(before, after), encoding="utf-8")
    _, findings = _findings(cli, path, "--as-of", "2026-12-31", "--stage", "year")
    key = [
        f for f in findings if f["rule"] == "RRP-KEY-EMPLOYEE-PAYMENT" and f["subject"] == "e3001"
    ]
    assert [f["severity"] for f in key] == ["warning"], key
    assert "Treas. Reg. 1.409A-3(d)" in key[0]["message"]
    assert "first day of the month following the six-month anniversary" in key[0]["message"]
    assert "Treas. Reg. 1.409A-3(d)" in key[0]["citations"]


def test_drafted_clause_findings_cite_only_their_own_kinds_documents(cli, tmp_path):
    """Counsel's point: no "Plan Section 2.03(b)" (the RRP) nor "DESIGN.md" on a director grant."""
    for sample, as_of, own, other in (
        ("director-grant-2026.yaml", "2026-06-23", ("Notice", "Exhibit I"), "Plan"),
        ("rrp-2026.yaml", "2025-12-01", ("Plan",), "Notice"),
    ):
        lines = (SAMPLES / sample).read_text(encoding="utf-8").splitlines(keepends=True)
        path = tmp_path / sample  # counsel has approved nothing yet
        kept = "".join(x for x in lines if not x.startswith("  - {clause:"))
        path.write_text(kept.replace("\nclause_approvals:\n", "\nclause_approvals: []\n"))
        _, findings = _findings(cli, path, "--as-of", as_of)
        drafted = [f for f in findings if f["rule"] == "DOC-DRAFTED-CLAUSE"]
        assert len(drafted) > 5, sample
        for finding in drafted:
            cited = finding["citations"]
            assert cited and all(not c.startswith(("DESIGN.md", other)) for c in cited), cited
            assert any(c.startswith(own) for c in cited), cited


def test_a_route_b_election_when_the_units_vest_early_on_death_is_a_warning(cli, tmp_path):
    # Jane Smith's form of 2026-05-15 is timely under route (b) alone; she dies 2027-03-01, and
    # Section B vests her units then, within 12 months of the 2026-06-23 grant.
    text = (SAMPLES / "director-grant-2026.yaml").read_text(encoding="utf-8")
    jsmith = "        pay_on: separation\n\n  - id: rgarcia"
    assert jsmith in text
    path = tmp_path / "grant.yaml"
    path.write_text(
        text.replace(
            jsmith,
            "        pay_on: separation\n    settlement: {death_on: 2027-03-01}\n\n  - id: rgarcia",
        ),
        encoding="utf-8",
    )
    code, findings = _findings(cli, path, "--as-of", "2027-04-01")
    timing = [
        f for f in findings if f["rule"] == "RSU-ELECTION-409A-TIMING" and f["subject"] == "jsmith"
    ]
    assert [f["severity"] for f in timing] == ["warning"], findings
    assert "route (b)" in timing[0]["message"] and "Reading taken" in timing[0]["message"]
    assert code == 0
