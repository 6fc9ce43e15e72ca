"""The README's Plan Year from the HRIS runs as written, from the Workday export as exported: the
proposed columns: block, the checks, forms out, a filled form back through `intake`, a paper form
through `elect`, `status` as a spreadsheet, the payroll feed and one pay date's extract, each
writing where the README says, the export never written and the CSVs of filings kept as they
were written."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import shlex
import shutil
from decimal import Decimal
from pathlib import Path

import pytest

from tests.fillers import pypdf_fill

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
SECTION = README.split("### A Plan Year from the HRIS", 1)[1].split("\n### ", 1)[0]
FILLED = {
    "salary_percent": "7",
    "allocation_1": "60",
    "allocation_3": "40",
    "beneficiary_1": "Dana Moreau",
    "relationship_1": "spouse",
    "share_1": "100",
    "date_signed": "2025-12-08",
}


def steps() -> list[list[str]]:
    block = SECTION.split("```sh", 1)[1].split("```", 1)[0]
    return [shlex.split(line.partition("  #")[0]) for line in block.strip().splitlines()]


def _rows(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8-sig"))))


def test_the_hris_plan_year_runs_as_the_readme_says(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    commands = steps()
    setup, *docgen = commands
    assert setup[:2] == ["mkdir", "plan-year"] and "cp" in setup
    Path("plan-year").mkdir()
    shutil.copytree(ROOT / "samples" / "workday", "plan-year/workday")
    shutil.copy(ROOT / "samples" / "rrp-2026-workday.yaml", "plan-year")
    before = {p.name: p.read_bytes() for p in Path("plan-year/workday").iterdir()}
    assert [args[1] for args in docgen] == [
        "columns",
        "check",
        "batch",
        "intake",
        "elect",
        "status",
        "payroll",
        "payroll",
    ]
    for args in docgen:
        if args[1] == "intake":
            # Finley Moreau fills in the form the batch sent and e-mails it back.
            blank = Path("out/rrp-2026/enrollment/e1016/rrp-election.pdf").read_bytes()
            Path("inbox").mkdir()
            Path("inbox/e1016.pdf").write_bytes(pypdf_fill(blank, FILLED))
        result = cli(args[1], *args[2:])
        assert result.exit_code == 0, (args, result.stdout + result.stderr)
        if args[1] == "columns":
            # The proposal, filled in, is the sample's block: its guesses are the sample's lines.
            proposed = result.stdout
            for line in (
                "    id: Worker ID",
                "    name: Legal Name",
                "    date_order: month_first",
            ):
                assert line in proposed.splitlines()
            assert "FILL IN paid_in_year or annual_rate" in proposed
        if args[1] == "batch":
            issued = sorted(p.name for p in Path("out/rrp-2026/enrollment").iterdir() if p.is_dir())
            assert len(issued) == 11 and "e1018" not in issued
    after = {p.name: p.read_bytes() for p in Path("plan-year/workday").iterdir()}
    assert after["Workers.csv"] == before["Workers.csv"]  # the export is never written
    assert after["portal-elections.csv"] == before["portal-elections.csv"]
    for name, data in after.items():
        if name in ("Workers.csv", "portal-elections.csv", "Board.csv", "board-elections.csv"):
            continue
        assert data.startswith(before[name][:3]) and data.startswith(b"\xef\xbb\xbf")
        kept = [
            line
            for line in before[name].splitlines(keepends=True)
            if not line.startswith((b"e1016,", b"e1006,"))
        ]
        assert [line for line in data.splitlines(keepends=True) if line in kept] == kept
        assert data.count(b"\r\n") == data.count(b"\n")
    elections = _rows(Path("plan-year/workday/elections.csv"))
    sha = hashlib.sha256(Path("inbox/e1016.pdf").read_bytes()).hexdigest()
    mine = [
        row for row in elections if row["participant_id"] == "e1016" and row["plan_year"] == "2026"
    ]
    assert [(row["percent"], row["form_sha256"]) for row in mine][-1] == ("7", sha)
    paper = [row for row in elections if row["participant_id"] == "e1006"]
    assert (paper[-1]["kind"], paper[-1]["percent"], paper[-1]["made_on"]) == (
        "salary",
        "8",
        "2025-12-11",
    )
    beneficiaries = {
        row["participant_id"]: row["name"]
        for row in _rows(Path("plan-year/workday/beneficiaries.csv"))
    }
    assert beneficiaries["e1016"] == "Dana Moreau" and beneficiaries["e1006"] == "Sam Whitfield"
    status = {row["subject"]: row for row in _rows(Path("status.csv"))}
    assert status["e1016"]["returned_on"] == "2025-12-10"
    assert status["e1006"]["election"] == "salary 8%"
    assert status["e1016"]["file"] == "plan-year/workday/Workers.csv"
    # The payroll feed: biweekly paychecks whose totals are compute's.
    computed = json.loads(
        cli("compute", "plan-year/rrp-2026-workday.yaml", "--format", "json").stdout
    )
    totals = {p["id"]: p for p in computed["participants"]}
    paychecks = _rows(Path("payroll.csv"))
    assert {row["paid_on"] for row in paychecks if row["id"] == "e1016"} >= {
        "2026-01-02",
        "2026-12-18",
    }
    for person, figures in totals.items():
        mine = [row for row in paychecks if row["id"] == person]
        for field in ("elective_deferral", "matching_restoration"):
            if figures[field] is None:
                continue
            assert sum(Decimal(row[field] or "0") for row in mine) == Decimal(figures[field])
    e1016 = [row for row in paychecks if row["id"] == "e1016"]
    assert {row["salary_percent"] for row in e1016} == {"7"}
    # One pay date in the payroll system's layout: the year's feed's deductions of that day.
    extract = _rows(Path("2026-09-11.csv"))
    assert list(extract[0]) == [
        "Co Code",
        "File #",
        "Pay Date",
        "Deduction Code",
        "Deduction Amount",
    ]
    day = {row["id"]: row for row in paychecks if row["paid_on"] == "2026-09-11"}
    for row in extract:
        which = {"NQDEF": "elective_deferral", "NQMATCH": "matching_restoration"}[
            row["Deduction Code"]
        ]
        assert row["Pay Date"] == "09/11/2026"
        assert Decimal(row["Deduction Amount"]) == Decimal(day[row["File #"]][which])
    assert {row["File #"] for row in extract} == {
        person for person, row in day.items() if Decimal(row["elective_deferral"] or "0") > 0
    }
