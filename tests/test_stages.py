"""Stages belong to a kind of facts file: grant/elections for a grant cycle, enrollment for RRP."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from docgen.checker.runner import StageError, resolve_stage

GRANT = SimpleNamespace(kind="director-rsu-grant")
RRP = SimpleNamespace(kind="rrp-plan-year")


def test_each_kind_has_its_default_stage():
    assert resolve_stage(GRANT, None) == "grant"
    assert resolve_stage(RRP, None) == "enrollment"
    assert resolve_stage(GRANT, "elections") == "elections"


def test_a_stage_of_the_other_kind_is_refused_with_the_fix():
    with pytest.raises(
        StageError, match="use --stage enrollment or --stage year, or leave --stage out"
    ):
        resolve_stage(RRP, "grant")


@pytest.mark.parametrize(
    ("sample", "stage"),
    [("rrp-2026.yaml", "elections"), ("director-grant-2026.yaml", "enrollment")],
)
def test_check_with_a_foreign_stage_exits_2(cli, samples, sample, stage):
    result = cli("check", samples / sample, "--stage", stage, "--as-of", "2025-12-01")
    assert result.exit_code == 2
    assert f"--stage {stage} does not apply" in result.stderr


def test_rrp_check_defaults_to_enrollment(cli, samples):
    result = cli("check", samples / "rrp-2026.yaml", "--as-of", "2025-12-01", "--format", "json")
    assert result.exit_code == 0
    assert '"stage": "enrollment"' in result.stdout


@pytest.mark.parametrize(
    ("as_of", "stage"),
    [
        # DESIGN.md, "Stages and issued folders": enrollment up to December 31 before the Plan Year,
        # the year after.
        ("2025-12-31", "enrollment"),
        ("2026-01-01", "year"),
        ("2026-12-31", "year"),
    ],
)
def test_rrp_check_takes_its_stage_from_the_as_of_date(cli, samples, as_of, stage):
    result = cli("check", samples / "rrp-2026-year.yaml", "--as-of", as_of, "--format", "json")
    assert f'"stage": "{stage}"' in result.stdout


def test_rrp_batch_at_stage_year_issues_nothing_and_says_so(cli, samples, tmp_path):
    result = cli(
        "batch",
        samples / "rrp-2026-year.yaml",
        "--out",
        tmp_path / "out",
        "--stage",
        "year",
        "--as-of",
        "2026-12-31",
    )
    assert result.exit_code == 0, result.output
    assert "at stage year" in result.stdout and "issues no documents" in result.stdout
    written = {p.name for p in (tmp_path / "out").rglob("*") if p.is_file()}
    assert {"check-report.json", "manifest.json"} <= written
    assert not [name for name in written if name.endswith((".pdf", ".docx"))]
