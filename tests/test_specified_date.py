"""DESIGN.md, "The Specified Date": the Specified Date is the vesting anniversary; the units vest on
the earlier annual meeting when there is one; an elected date on the scheduled Vesting Date pays
vested units and passes, the day before fails. Through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.approvals import approve_all

ROOT = Path(__file__).resolve().parent.parent
GRANT = ROOT / "samples" / "director-grant-2026.yaml"
LCHEN_DATE = "        pay_date: 2029-06-23"


def _grant(tmp_path: Path, pay_date: str, meeting: str | None = None) -> Path:
    text = GRANT.read_text(encoding="utf-8")
    assert LCHEN_DATE in text
    text = text.replace(LCHEN_DATE, f"        pay_date: {pay_date}")
    path = tmp_path / "grant.yaml"
    if meeting is not None:
        text = text.replace("annual_meeting_date: null ", f"annual_meeting_date: {meeting}")
        text = text[: text.index("clause_approvals:")] + text[text.index("directors_csv:") :]
        path.write_text(text, encoding="utf-8")
        return approve_all(path)
    path.write_text(text, encoding="utf-8")
    return path


def _early(cli, path: Path) -> list[dict]:
    result = cli("check", path, "--as-of", "2026-06-23", "--format", "json")
    report = json.loads(result.stdout)
    return [f for f in report["findings"] if f["rule"] == "RSU-PAY-DATE-BEFORE-VESTING"]


@pytest.mark.parametrize(
    "pay_date, meeting, refused",
    [
        ("2027-06-23", None, False),  # on the Specified Date: vested that day
        ("2027-06-22", None, True),  # the day before
        ("2027-06-01", "2027-06-01", False),  # on the annual meeting, the Vesting Date
        ("2027-06-10", "2027-06-01", False),  # between the meeting and the anniversary
        ("2027-05-31", "2027-06-01", True),  # the day before the meeting
    ],
)
def test_a_pay_date_on_the_vesting_date_passes_and_the_day_before_fails(
    cli, tmp_path, pay_date, meeting, refused
):
    found = _early(cli, _grant(tmp_path, pay_date, meeting))
    assert bool(found) is refused, found
    if refused:
        vests = meeting or "2027-06-23"
        assert f"before the Vesting Date {vests}" in found[0]["message"]


def test_the_notice_keeps_the_anniversary_as_the_specified_date(cli, tmp_path):
    path = _grant(tmp_path, "2029-06-23", "2027-06-01")
    target = tmp_path / "notice.html"
    result = cli(
        "render",
        path,
        "--doc",
        "notice",
        "--for",
        "lchen",
        "--to",
        "html",
        "-o",
        target,
        "--as-of",
        "2026-06-23",
    )
    assert result.exit_code == 0, result.stdout + result.stderr
    html = target.read_text(encoding="utf-8")
    text = " ".join(html.split())
    assert "on the first anniversary of the Grant Date (the “Specified Date”)" in text
    assert "or, if earlier, on the date of the Company’s annual meeting of shareholders" in text
    assert "<td>June 23, 2027</td>" in text  # the grant summary's Specified Date
