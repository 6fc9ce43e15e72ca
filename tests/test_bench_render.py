"""bench/bench_render.py takes one packet through the batch worker's own code, so it breaks when
that code's shape changes (a worker's set-up took two more arguments and the bench, which
`make bench` runs, stopped with a TypeError): it runs here on one small cycle."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_the_render_bench_times_a_packet_phase_by_phase():
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench_render.py"), "--packets", "2"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    for phase in ("layout (WeasyPrint)", "PDF write (WeasyPrint)", "DOCX", "read-back"):
        assert phase in done.stdout, done.stdout
    assert "warm packet: median" in done.stdout
