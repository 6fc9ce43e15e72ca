"""A company whose participants are in ``participants_csv`` hears every problem once, with what
to do (issue 24's spreadsheets, as a second company met them): a Plan Year the file cannot read
is one message, not one more per election in the roster; a form a roster row cannot hold names
every CSV it needs in one run, each with the first line to create it with; a CSV of filings the
facts name but that does not exist yet is located at its field and says how to make it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from docgen.core.errors import LoadError
from docgen.kinds.rrp.records import ALLOCATIONS, BENEFICIARIES
from docgen.load import load_facts

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
ELECT = ("--received-on", "2025-12-15", "--as-of", "2025-12-15", "--salary-percent", "8")
MORE = ("--allocation", "Stable Value Fund=100", "--beneficiary", "Jo Brooks;spouse;100")


@pytest.fixture
def roster(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    shutil.copy(SAMPLES / "rrp-2026-roster.yaml", tmp_path / "facts.yaml")
    shutil.copy(SAMPLES / "participants.csv", tmp_path)
    return tmp_path / "facts.yaml"


def _problems(path: Path) -> list[str]:
    with pytest.raises(LoadError) as refused:
        load_facts(path)
    return [str(problem) for problem in refused.value.problems]


@pytest.mark.parametrize(
    ("written", "refusal"),
    [("twenty26", "expected a whole number"), ("20266", "expected a year from 1900 to 2199")],
)
def test_a_plan_year_the_file_refuses_is_one_problem(roster, written, refusal):
    text = roster.read_text(encoding="utf-8")
    roster.write_text(text.replace("plan_year: 2026", f"plan_year: {written}"), encoding="utf-8")
    (problem,) = _problems(roster)
    assert problem.startswith("facts.yaml:") and f"plan_year: {refusal}" in problem


def test_a_row_problem_beside_it_is_still_said(roster):
    text = roster.read_text(encoding="utf-8")
    roster.write_text(text.replace("plan_year: 2026", "plan_year: twenty26"), encoding="utf-8")
    csv = Path("participants.csv")
    rows = csv.read_text(encoding="utf-8").replace(",10,2025-11-14,", ",ten,2025-11-14,", 1)
    csv.write_text(rows, encoding="utf-8")
    problems = _problems(roster)
    assert len(problems) == 2, problems
    assert "plan_year: expected a whole number" in problems[0]
    assert problems[1].startswith("participants.csv:") and "percent" in problems[1]


def test_a_missing_election_plan_year_is_still_said_when_the_plan_year_is_read(tmp_path):
    # The filter is for the consequence only: with the file's Plan Year read, an elections_csv
    # row that leaves its plan_year empty is refused as before.
    shutil.copy(SAMPLES / "rrp-2026-roster.yaml", tmp_path / "facts.yaml")
    shutil.copy(SAMPLES / "participants.csv", tmp_path)
    (tmp_path / "elections.csv").write_text(
        "participant_id,plan_year,kind,percent,made_on\nBW1002,,salary,5,2025-12-01\n",
        encoding="utf-8",
    )
    with (tmp_path / "facts.yaml").open("a", encoding="utf-8") as facts:
        facts.write("elections_csv: elections.csv\n")
    problems = _problems(tmp_path / "facts.yaml")
    assert any("elections.csv:2" in p and "plan_year" in p for p in problems), problems


def test_a_form_the_row_cannot_hold_names_every_csv_in_one_run(cli, roster):
    before = {name: Path(name).read_bytes() for name in ("facts.yaml", "participants.csv")}
    result = cli("elect", roster, "--for", "BW1002", *ELECT, *MORE)
    assert result.exit_code == 2
    said = result.output + (result.stderr if result.stderr_bytes is not None else "")
    for spec, noun in ((BENEFICIARIES, "beneficiaries"), (ALLOCATIONS, "investments")):
        assert f"BW1002's roster row has no column for {noun}" in said
        assert f"{spec.field} field, created with the first line {','.join(spec.column_names)}" in (
            " ".join(said.split())
        )
    assert "2 problems found" in said
    assert {name: Path(name).read_bytes() for name in before} == before  # nothing written


def test_a_named_csv_not_made_yet_says_how_to_make_it_and_then_takes_the_form(cli, roster):
    with roster.open("a", encoding="utf-8") as facts:
        facts.write("beneficiaries_csv: beneficiaries.csv\nallocations_csv: allocations.csv\n")
    lines = roster.read_text(encoding="utf-8").splitlines()
    problems = _problems(roster)
    assert problems == [
        f"facts.yaml:{lines.index('beneficiaries_csv: beneficiaries.csv') + 1}: beneficiaries_csv: "
        "names beneficiaries.csv, which does not exist. Create it with the first line "
        "participant_id,name,relationship,percent,contingent (one row per Beneficiary, "
        "docs/fact-files.md), or correct the name.",
        f"facts.yaml:{lines.index('allocations_csv: allocations.csv') + 1}: allocations_csv: "
        "names allocations.csv, which does not exist. Create it with the first line "
        "participant_id,fund,percent (one row per fund, docs/fact-files.md), or correct the name.",
    ]
    for spec in (BENEFICIARIES, ALLOCATIONS):  # as the messages say
        Path(spec.field.replace("_csv", ".csv")).write_text(
            ",".join(spec.column_names) + "\n", encoding="utf-8"
        )
    result = cli("elect", roster, "--for", "BW1002", *ELECT, *MORE)
    assert result.exit_code == 0, result.output
    assert Path("beneficiaries.csv").read_text(encoding="utf-8").splitlines()[1] == (
        "BW1002,Jo Brooks,spouse,100,"
    )
    assert Path("allocations.csv").read_text(encoding="utf-8").splitlines()[1] == (
        "BW1002,Stable Value Fund,100"
    )
