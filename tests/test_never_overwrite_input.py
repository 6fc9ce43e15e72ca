"""No output overwrites an input (issue 44): every `-o` and `--out` of every command refuses, exit 2
and naming the input, a path that is the facts file, a roster or CSV of filings the facts read, a
file of the templates folder they name, or a folder written whole that holds one; the input is
left byte for byte as it was."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import SAMPLES

TOUR_GRANT = SAMPLES / "tour" / "4-after-grant.yaml"


def _copy_samples(tmp_path: Path) -> Path:
    """A writable copy of the samples (the facts, their rosters and the HRIS CSVs)."""
    work = tmp_path / "work"
    shutil.copytree(SAMPLES, work, ignore=shutil.ignore_patterns("problems"))
    return work


# Each case: (the command's arguments, the input it must not write over), both relative to the
# copied samples folder `w`.
Case = Callable[[Path], tuple[list[object], Path]]

CASES: dict[str, Case] = {
    "payroll -o facts": lambda w: (
        ["payroll", w / "rrp-2026-roster.yaml", "-o", w / "rrp-2026-roster.yaml"],
        w / "rrp-2026-roster.yaml",
    ),
    "payroll -o roster": lambda w: (
        ["payroll", w / "rrp-2026-roster.yaml", "-o", w / "participants.csv"],
        w / "participants.csv",
    ),
    "compute -o facts": lambda w: (
        ["compute", w / "rrp-2026.yaml", "--format", "csv", "-o", w / "rrp-2026.yaml"],
        w / "rrp-2026.yaml",
    ),
    "status csv -o roster": lambda w: (
        ["status", w / "rrp-2026-hris.yaml", "--format", "csv", "-o", w / "hris/participants.csv"],
        w / "hris/participants.csv",
    ),
    "status -o elections csv": lambda w: (
        ["status", w / "rrp-2026-hris.yaml", "-o", w / "hris/elections.csv"],
        w / "hris/elections.csv",
    ),
    "export-ocf -o facts": lambda w: (
        ["export-ocf", w / "director-grant-2026.yaml", "-o", w / "director-grant-2026.yaml"],
        w / "director-grant-2026.yaml",
    ),
    "check -o facts": lambda w: (
        ["check", w / "director-grant-2026.yaml", "--format", "md", "-o", w / "facts-link.yaml"],
        w / "director-grant-2026.yaml",
    ),
    "check -o roster": lambda w: (
        [
            "check",
            w / "director-grant-2026-roster.yaml",
            "--format",
            "json",
            "-o",
            w / "roster.csv",
        ],
        w / "roster.csv",
    ),
    "proxy -o facts": lambda w: (
        [
            "proxy",
            w / "director-grant-2026.yaml",
            "--fiscal-year-end",
            "2027-02-28",
            "-o",
            w / "director-grant-2026.yaml",
        ],
        w / "director-grant-2026.yaml",
    ),
    "calendar -o facts": lambda w: (
        ["calendar", w / "rrp-2026.yaml", "--format", "ics", "-o", w / "rrp-2026.yaml"],
        w / "rrp-2026.yaml",
    ),
    "clauses -o facts": lambda w: (
        ["clauses", w / "director-grant-2026.yaml", "-o", w / "director-grant-2026.yaml"],
        w / "director-grant-2026.yaml",
    ),
    "render html -o facts": lambda w: (
        [
            "render",
            w / "director-grant-2026.yaml",
            "--doc",
            "notice",
            "--for",
            "jsmith",
            "--to",
            "html",
            "-o",
            w / "director-grant-2026.yaml",
        ],
        w / "director-grant-2026.yaml",
    ),
}


def _case_ids() -> list[str]:
    return list(CASES)


@pytest.mark.parametrize("name", _case_ids())
def test_no_command_writes_its_output_over_an_input(cli, tmp_path, name):
    work = _copy_samples(tmp_path)
    args, victim = CASES[name](work)
    if name == "check -o facts":  # the facts file itself, under a second name (a hard link)
        os.link(victim, work / "facts-link.yaml")
    before = victim.read_bytes()
    result = cli(*args)
    assert result.exit_code == 2, (result.stdout, result.stderr)
    message = " ".join(result.stderr.split())
    assert "which this command reads" in message and "nothing was written" in message
    assert victim.name in message
    assert "Wrote" not in result.stderr
    assert victim.read_bytes() == before
    assert "Traceback" not in result.stdout + result.stderr


def test_o_inside_the_templates_folder_the_facts_read_is_refused(cli, tmp_path, samples):
    work = _copy_samples(tmp_path)
    templates = work / "templates"
    assert cli("templates", "--export", templates).exit_code == 0
    facts = work / "director-grant-2026.yaml"
    facts.write_text(
        facts.read_text(encoding="utf-8") + "\ntemplates_dir: templates\n", encoding="utf-8"
    )
    target = next(path for path in sorted(templates.rglob("*")) if path.is_file())
    before = target.read_bytes()
    result = cli("check", facts, "--format", "md", "-o", target)
    assert result.exit_code == 2, result.stderr
    assert "the templates folder the facts read" in " ".join(result.stderr.split())
    assert target.read_bytes() == before


def test_batch_out_whose_stage_folder_holds_the_facts_is_refused(cli, tmp_path, samples):
    out = tmp_path / "out"
    stage = out / "2026-annual" / "grant"
    stage.mkdir(parents=True)
    facts = stage / "facts.yaml"
    shutil.copy(samples / "director-grant-2026.yaml", facts)
    before = facts.read_bytes()
    result = cli("batch", facts, "--out", out, "--stage", "grant", "--as-of", "2026-06-23")
    assert result.exit_code == 2, result.stdout + result.stderr
    message = " ".join(result.stderr.split())
    assert "--out" in message and "holds the facts file" in message
    assert facts.read_bytes() == before and sorted(os.listdir(stage)) == ["facts.yaml"]


def test_section16_out_whose_drafts_folder_holds_the_facts_is_refused(cli, tmp_path):
    out = tmp_path / "out"
    drafts = out / "2026-annual" / "section16"
    drafts.mkdir(parents=True)
    facts = drafts / "facts.yaml"
    shutil.copy(TOUR_GRANT, facts)
    result = cli("section16", facts, "--out", out, "--as-of", "2026-06-24")
    assert result.exit_code == 2, result.stdout + result.stderr
    assert "holds the facts file" in " ".join(result.stderr.split())
    assert facts.read_bytes() == TOUR_GRANT.read_bytes()


def test_an_output_beside_the_inputs_is_still_written(cli, tmp_path):
    """The refusal is for inputs only: a new file in the same folder is written as before."""
    work = _copy_samples(tmp_path)
    result = cli("payroll", work / "rrp-2026-roster.yaml", "-o", work / "payroll.csv")
    assert result.exit_code == 0, result.stderr
    assert (work / "payroll.csv").read_bytes().startswith(b"id,name,paid_on,")
