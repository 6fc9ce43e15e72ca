"""The command line's quick exit (docgen.console.process.exit_quickly): it skips freeing the
heap, and nothing else a normal exit does: every byte of output, the exit code, the atexit
handlers and a running thread's work all survive it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "director-grant-2026.yaml"


def _run(script: str, tmp_path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )


def test_the_whole_report_reaches_a_pipe_and_the_exit_code_is_the_commands(tmp_path):
    facts = tmp_path / "grant.yaml"
    facts.write_text(
        SAMPLE.read_text(encoding="utf-8").replace("fair_market_value:", "fair_market_valu:", 1),
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "docgen", "check", str(SAMPLE), "--as-of", "2026-06-23"]
        + ["--format", "json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    # (the one info: the seed Notice's arbitration words, DOC-SEED-UNDEFINED)
    assert json.loads(done.stdout)["summary"] == {"error": 0, "warning": 0, "info": 1}
    refused = subprocess.run(
        [sys.executable, "-m", "docgen", "check", str(facts), "--as-of", "2026-06-23"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert refused.returncode == 2 and "fair_market_valu" in refused.stderr


def _check_the_sample_after(prelude: str, tmp_path: Path) -> subprocess.CompletedProcess:
    """`docgen check` on the sample through the console entry point, after ``prelude``."""
    argv = ["docgen", "check", str(SAMPLE), "--as-of", "2026-06-23"]
    script = (
        f"{prelude}import sys\nsys.argv = {argv!r}\nfrom docgen.__main__ import entry\nentry()\n"
    )
    done = _run(script, tmp_path)
    assert done.returncode == 0, done.stderr
    return done


def test_atexit_handlers_run_before_the_quick_exit(tmp_path):
    done = _check_the_sample_after(
        "import atexit\natexit.register(lambda: open('ran', 'w').write('yes'))\n", tmp_path
    )
    assert (tmp_path / "ran").read_text() == "yes"
    assert "0 errors" in done.stdout


def test_a_running_thread_is_waited_for(tmp_path):
    prelude = (
        "import threading, time\n"
        "def work():\n"
        "    time.sleep(0.5)\n"
        "    open('finished', 'w').write('yes')\n"
        "threading.Thread(target=work).start()\n"
    )
    _check_the_sample_after(prelude, tmp_path)
    assert (tmp_path / "finished").read_text() == "yes"


def test_a_text_exit_prints_and_exits_1(tmp_path):
    script = "from docgen.console.process import exit_quickly\nexit_quickly('stopped: no facts')\n"
    done = _run(script, tmp_path)
    assert done.returncode == 1 and done.stderr == "stopped: no facts\n"
