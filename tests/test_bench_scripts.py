"""The benchmarks that drive docgen's own internals (a batch worker's code, the PDF writer's
options) break when that code's shape changes, and `make bench` with them: a worker's set-up took
two more arguments and bench_render stopped with a TypeError; the PDF finisher came to expect the
XMP packet that bench_trusted's plain PDF does not have. Each runs here on a small case."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _bench(script: str, *arguments: str, codes: tuple[int, ...] = (0,)) -> str:
    """What the bench printed; it must end with one of ``codes`` (1: an aim missed)."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *arguments],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert done.returncode in codes, done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout


@pytest.mark.slow
def test_the_render_bench_times_a_packet_phase_by_phase():
    said = _bench("bench_render.py", "--packets", "2", codes=(0, 1))
    for phase in ("layout (WeasyPrint)", "PDF write (WeasyPrint)", "DOCX", "read-back"):
        assert phase in said, said
    assert "warm packet: median" in said


@pytest.mark.slow
def test_the_trusted_bench_compares_an_issued_packet_with_a_plain_one():
    # One round is no measurement: on a busy machine its verdict may say the aim is missed.
    said = _bench("bench_trusted.py", "--rounds", "1", codes=(0, 1))
    assert "plain packet median" in said, said
    assert "tagged + PDF/A-3b + record packet median" in said, said
    assert "docgen verify FILE.pdf of a Notice" in said, said


@pytest.mark.slow
@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="a git checkout: it checks out a commit")
def test_the_floor_against_another_commit_runs_both_in_turn_and_leaves_no_worktree():
    said = _bench("floor_against.py", "HEAD", "--runs", "1", "--no-count")
    assert "HEAD: best" in said and "this checkout: best" in said, said
    assert "this checkout / HEAD:" in said, said
    listed = subprocess.run(
        ["git", "worktree", "list"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert "docgen-floor-" not in listed.stdout
