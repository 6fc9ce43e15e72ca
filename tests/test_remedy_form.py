"""An election finding never holds the blank form that would remedy it (DESIGN.md A20): a
participant whose recorded election is over 75% or fractional still gets the blank Deferral
Election Form at enrollment, and a director whose recorded Exhibit I is partial still gets the
blank Exhibit I at stage elections; the finding is still reported, and still holds a document that
prints the election (the Exhibit I on file at stage grant). Through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.readers import normalise, pdf_text

ROOT = Path(__file__).resolve().parents[1]

PARTICIPANT = """\
  - id: x76
    name: Dana Whitlock
    eligible_employee: true
    compensation: "500000"
    hired_on: 2015-01-05
    beneficiaries: [{{ name: Sam Whitlock, relationship: spouse, percent: 100 }}]
    investments: {{ "Stable Value Fund": 100 }}
    elections:
      - {{ kind: salary, plan_year: 2026, percent: {percent}, made_on: 2025-11-20 }}
      - {{ kind: bonus, plan_year: 2026, percent: 10, made_on: 2025-11-20 }}
"""


def _rrp(folder: Path, percent: str) -> Path:
    text = (ROOT / "samples" / "rrp-2026.yaml").read_text(encoding="utf-8")
    text = text.replace("participants:\n", "participants:\n" + PARTICIPANT.format(percent=percent))
    path = folder / "rrp-2026.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("percent", "rule"), [("76", "RRP-DEFERRAL-OVER-MAX"), ("5.5", "RRP-DEFERRAL-INCREMENT")]
)
def test_an_election_the_plan_does_not_allow_still_gets_the_blank_form(
    cli, tmp_path, percent, rule
):
    facts, out = _rrp(tmp_path, percent), tmp_path / "out"
    copy = tmp_path / "x76.pdf"
    result = cli(
        "render",
        facts,
        "--doc",
        "rrp-election",
        "--for",
        "x76",
        "--to",
        "pdf",
        "--out",
        out,
        "--as-of",
        "2025-12-01",
        "-o",
        copy,
    )
    assert result.exit_code == 0, result.output
    assert rule in result.output  # reported all the same
    stage = out / "rrp-2026" / "enrollment"
    report = json.loads((stage / "check-report.json").read_text(encoding="utf-8"))
    assert [f["rule"] for f in report["findings"] if f["severity"] == "error"] == [rule]
    assert "not_issued" not in report
    manifest = json.loads((stage / "manifest.json").read_text(encoding="utf-8"))
    assert [p["subject"] for p in manifest["packets"]] == ["x76"] and not manifest["held"]
    # The blank form never prints the election it corrects as the one that applies; the bonus
    # election, which the Plan allows, is still shown as on file.
    text = normalise(pdf_text(copy.read_bytes()))
    assert "Dana Whitlock" in text
    assert f"{percent}% of Plan Compensation" not in text
    assert "10% of Plan Compensation paid as bonus" in text


@pytest.mark.slow
def test_a_76_percent_election_gets_its_blank_form_in_a_batch(cli, tmp_path):
    facts, out = _rrp(tmp_path, "76"), tmp_path / "out"
    result = cli("batch", facts, "--out", out, "--as-of", "2025-12-01")
    assert result.exit_code == 0, result.output
    assert "error RRP-DEFERRAL-OVER-MAX (x76)" in result.output
    assert "The blank form was issued all the same" in result.output
    assert (out / "rrp-2026" / "enrollment" / "x76" / "rrp-election.pdf").is_file()
    assert cli("verify", out / "rrp-2026" / "enrollment").exit_code == 0


def test_a_check_still_reports_the_election(cli, tmp_path):
    result = cli("check", _rrp(tmp_path, "76"), "--as-of", "2025-12-01")
    assert result.exit_code == 1
    assert "RRP-DEFERRAL-OVER-MAX" in result.output


def _director(folder: Path) -> Path:
    lines = (ROOT / "samples" / "director-grant-2026.yaml").read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("  - id: jsmith"))
    percent = next(i for i in range(at, len(lines)) if "percent: 100" in lines[i])
    lines[percent] = lines[percent].replace("percent: 100", "percent: 50")
    path = folder / "director-grant-2026.yaml"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


@pytest.mark.slow
def test_a_partial_exhibit_i_gets_the_blank_exhibit_i_but_holds_the_grant(cli, tmp_path):
    facts, out = _director(tmp_path), tmp_path / "out"
    elections = cli("batch", facts, "--out", out, "--stage", "elections", "--as-of", "2026-06-22")
    assert elections.exit_code == 0, elections.output
    assert "error RSU-ELECTION-PARTIAL (jsmith)" in elections.output
    assert (out / "2026-annual" / "elections" / "jsmith" / "exhibit-i.pdf").is_file()
    # At stage grant the Exhibit I is the copy on file, printing the election: still held.
    grant = cli("batch", facts, "--out", out, "--stage", "grant", "--as-of", "2026-06-30")
    assert grant.exit_code == 1, grant.output
    assert "--hold jsmith" in grant.output
    assert not (out / "2026-annual" / "grant").exists()
