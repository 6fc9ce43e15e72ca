"""`docgen status`: per director or participant, the form sent (from the issued folder), returned,
on which day, in effect or not, and the days left to the deadline (DESIGN.md, "Command line")."""

from __future__ import annotations

import csv
import io
import json
import shutil
from datetime import date
from pathlib import Path

import pytest

from docgen.intake.status import as_rows, status

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
GRANT = SAMPLES / "director-grant-2026.yaml"


def rows(cli, *args) -> dict[str, dict]:
    result = cli("status", *args, "--format", "json")
    assert result.exit_code == 0, result.stdout + result.stderr
    return {row["subject"]: row for row in json.loads(result.stdout)["subjects"]}


@pytest.fixture(scope="module")
def elections_folder(tmp_path_factory) -> Path:
    """The sample's blank forms, issued June 22 (the folder `status --out` reads)."""
    from typer.testing import CliRunner

    from docgen.cli import app

    out = tmp_path_factory.mktemp("forms")
    result = CliRunner().invoke(
        app,
        ["batch", str(GRANT), "--out", str(out), "--stage", "elections", "--as-of", "2026-06-22"],
    )
    assert result.exit_code == 0, result.stdout
    return out


def test_days_left_count_to_the_last_day_to_file(cli):
    before = rows(cli, GRANT, "--as-of", "2026-06-21")
    assert {row["deadline"] for row in before.values()} == {"2026-06-22"}  # prior to June 23
    assert before["tnguyen"]["days_left"] == 1
    assert rows(cli, GRANT, "--as-of", "2026-06-22")["tnguyen"]["days_left"] == 0  # last day
    assert rows(cli, GRANT, "--as-of", "2026-06-23")["tnguyen"]["days_left"] == -1
    after = as_rows(status(GRANT, as_of=date(2026, 6, 24)))
    assert {row["days_left"] for row in after} == {"closed 2 days ago"}


def test_who_has_returned_a_form_and_what_is_in_effect(cli):
    found = rows(cli, GRANT, "--as-of", "2026-06-22")
    assert (found["jsmith"]["returned"], found["jsmith"]["returned_on"]) == (1, "2026-05-15")
    assert (found["jsmith"]["election"], found["jsmith"]["in_effect"]) == ("(a) separation", True)
    assert found["rgarcia"]["election"] == "(b) 2030-07-01"
    assert (found["tnguyen"]["returned"], found["tnguyen"]["in_effect"]) == (0, False)
    assert found["tnguyen"]["sent_on"] is None  # no issued folder given


def test_a_form_that_breaks_a_rule_is_returned_but_not_in_effect(cli):
    found = rows(
        cli, SAMPLES / "problems" / "director-late-and-partial.yaml", "--as-of", "2026-06-23"
    )
    not_in_effect = {
        sid: row["why_not"]
        for sid, row in found.items()
        if row["returned"] and not row["in_effect"]
    }
    assert not_in_effect, found
    assert all("RSU-" in why for why in not_in_effect.values())


def test_the_table_never_folds_a_rule_id_in_two(cli):
    result = cli("status", GRANT, "--as-of", "2026-06-20")
    assert result.exit_code == 0
    line = next(line for line in result.stdout.splitlines() if "pmurphy" in line)
    below = result.stdout.splitlines()[result.stdout.splitlines().index(line) + 1]
    assert "RSU-ELECTION-FUTURE" in line + below  # whole, on one line of its cell


@pytest.mark.slow
def test_the_day_each_form_was_sent_comes_from_the_issued_folder(cli, elections_folder):
    found = rows(cli, GRANT, "--as-of", "2026-06-22", "--out", elections_folder)
    assert {row["sent_on"] for row in found.values()} == {"2026-06-22"}
    table = cli("status", GRANT, "--as-of", "2026-06-22", "--out", elections_folder)
    assert "Sent: from " in table.stdout and "manifest.json" in table.stdout


@pytest.mark.slow
def test_the_stage_folder_layout_of_a8_is_read_and_a_first_release_folder_told_to_move(
    cli, elections_folder, tmp_path
):
    """DESIGN.md, "Stages and issued folders" puts each stage in OUT/<cycle>/<stage>/, which status
    reads; a folder the first release wrote (OUT/<cycle>/ itself, manifest_format 1) is named, with
    how to move it."""
    cycle = tmp_path / "out" / "2026-annual"
    shutil.copytree(elections_folder / "2026-annual" / "elections", cycle / "elections")
    found = rows(cli, GRANT, "--as-of", "2026-06-22", "--out", tmp_path / "out")
    assert found["ebrooks"]["sent_on"] == "2026-06-22"
    old = tmp_path / "old" / "2026-annual"
    shutil.copytree(elections_folder / "2026-annual" / "elections", old)
    manifest = old / "manifest.json"
    manifest.write_text(json.dumps({**json.loads(manifest.read_text()), "manifest_format": 1}))
    moved = cli("status", GRANT, "--out", tmp_path / "old", "--as-of", "2026-06-22")
    assert moved.exit_code == 2 and "issued by docgen's first release" in moved.stderr
    assert f"mv {old} {old}.elections" in moved.stderr


@pytest.mark.slow
def test_an_out_with_no_elections_folder_is_bad_input(cli, tmp_path, elections_folder):
    empty = cli("status", GRANT, "--out", tmp_path, "--as-of", "2026-06-10")
    assert empty.exit_code == 2
    assert "no folder issued at stage elections for 2026-annual" in empty.stderr
    wrong = tmp_path / "grant"
    shutil.copytree(elections_folder / "2026-annual" / "elections", wrong / "2026-annual")
    manifest = wrong / "2026-annual" / "manifest.json"
    data = json.loads(manifest.read_text())
    manifest.write_text(json.dumps({**data, "stage": "grant"}))
    result = cli("status", GRANT, "--out", wrong, "--as-of", "2026-06-10")
    assert result.exit_code == 2 and "stage grant" in result.stderr


def test_csv_has_one_row_per_director_who_gets_a_form(cli):
    result = cli("status", GRANT, "--as-of", "2026-06-10", "--format", "csv")
    assert result.exit_code == 0
    table = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [r["subject"] for r in table][:3] == ["jsmith", "rgarcia", "mobrien"]
    assert set(table[0]) == {
        "subject",
        "name",
        "sent_on",
        "returned",
        "returned_on",
        "election",
        "in_effect",
        "why_not",
        "deadline",
        "days_left",
        "file",  # issue 24: where each person's record is
        "line",
        "emailed_on",  # issue 42: the day `docgen send` e-mailed the form
    }
    assert (table[3]["subject"], table[3]["returned"], table[3]["in_effect"]) == (
        "tnguyen",
        "0",
        "no",
    )


def test_rrp_deadlines_are_each_participants_own(cli):
    found = rows(cli, SAMPLES / "rrp-2026.yaml", "--as-of", "2025-12-01")
    assert found["e1001"]["deadline"] == "2025-12-31"
    assert found["e1001"]["days_left"] == 30
    # No form returned for 2026, but the 2025 election rolls over and is in force (Plan 2.03(b)).
    assert (found["e1001"]["returned"], found["e1001"]["in_effect"]) == (0, True)
    assert found["e1001"]["election"] == "salary 10% (for 2025, rolled over)"
    assert (found["e1006"]["returned"], found["e1006"]["in_effect"]) == (0, False)  # revoked
    year = rows(cli, SAMPLES / "rrp-2026-year.yaml", "--as-of", "2026-03-20")
    assert year["e1006"]["deadline"] == "2026-04-01"  # first year: 30 days after March 2
    assert "e1018" not in found  # not an Eligible Employee: no form is sent
    assert found["e1016"]["returned"] == 0
    assert found["e1003"]["election"] == "salary 15%, bonus 25%"


def test_a_missing_facts_file_is_bad_input(cli, tmp_path):
    missing = cli("status", tmp_path / "nope.yaml")
    assert missing.exit_code == 2


def test_an_election_made_before_the_form_was_sent_is_not_a_return_of_it(cli, elections_folder):
    """Issue 44: an election on record from before the form was sent (made on a portal, say)
    is never shown as that form returned before it was sent."""
    found = rows(cli, GRANT, "--as-of", "2026-06-22", "--out", elections_folder)
    earlier = [row for row in found.values() if "before the form was sent" in row["election"]]
    assert earlier
    for row in earlier:
        assert row["returned"] == 0
        assert row["returned_on"] in (None, "-", "")
        assert row["in_effect"] is True
    plain = rows(cli, GRANT, "--as-of", "2026-06-22")  # no folder: nothing known of sending
    assert all("before the form was sent" not in row["election"] for row in plain.values())
