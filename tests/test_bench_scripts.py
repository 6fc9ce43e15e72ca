"""`make bench` runs every bench script; one that drives docgen's code (the batch's raw-WeasyPrint
comparison reads the HTML and PDF options a batch uses) breaks when that code's shape changes, and
`make bench` with it. Each runs here on a small case, and its figures are printed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _bench(script: str, *arguments: str) -> str:
    """What the bench printed; it must exit 0 and print no traceback."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *arguments],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout


@pytest.mark.slow
def test_the_batch_bench_times_the_sample_raw_weasyprint_and_an_enrollment():
    said = _bench("bench_batch.py", "--packets", "2", "--runs", "1", "--enrollment", "3")
    assert "the sample grant batch" in said, said
    assert "1-worker batch / raw:" in said, said
    assert "RRP enrollment batch of 3 participants" in said and "2 workers: best" in said, said


@pytest.mark.slow
def test_the_check_bench_checks_an_hris_export():
    said = _bench("bench_check.py", "--participants", "40", "--runs", "1")
    assert "40 participants from an HRIS export" in said, said
    assert "--format text: best" in said and "--format json: best" in said, said


@pytest.mark.slow
def test_the_intake_bench_records_a_form_into_an_hris_export():
    said = _bench("bench_intake.py", "--participants", "40", "--runs", "1")
    assert "one paper form into 40 participants" in said and "best" in said, said


@pytest.mark.slow
def test_the_serve_bench_times_every_page_of_the_workspace():
    said = _bench("bench_serve.py", "--participants", "40", "--runs", "1")
    assert "docgen serve, 40 participants from an HRIS export" in said, said
    for page in ("cycle at a glance", "findings", "counsel's review", "returned forms", "RRP"):
        assert said.count(f"  {page} ") >= 2, said  # its first visit, then kept
    assert "the first visit to each screen" in said and "once its results are kept" in said
    assert "the glance (checks once)" in said, said  # the first page after an edit
    assert "slowest screen once kept: CPU" in said and "the first page after an edit" in said
    # the RRP screen's first visit apart, over the same participants paid biweekly too
    assert "the RRP screen of the same 40 participants paid biweekly:" in said, said


@pytest.mark.slow
def test_the_spreadsheet_bench_reads_a_workbook_plain_and_as_exported():
    said = _bench("bench_spreadsheets.py", "--participants", "40", "--runs", "1")
    assert "40 rows: the sheet read in" in said, said
    for label in ("CSV", "xlsx", "mapped xlsx"):
        assert f"the facts loaded with the roster as {label:11}:" in said, said
    assert "within the aim of 2 s" in said, said


@pytest.mark.slow
def test_the_payroll_bench_times_the_whole_year_and_one_pay_date():
    said = _bench("bench_payroll.py", "--participants", "40", "--runs", "1")
    assert "payroll, whole year, from the facts: best" in said, said
    assert "payroll, whole year, from the HRIS CSVs: best" in said, said
    assert "payroll --pay-date 2026-09-18 (40 paychecks), from the HRIS CSVs: best" in said, said
