"""How the command line ends (docgen.cli.entry, docgen.console.process.exit_flushed): every byte
of output reaches a pipe, the exit code is the command's, and a reader that goes away is an exit
code, not a traceback."""

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


def test_the_docgen_script_is_the_entry_point_and_exits_with_the_commands_code(tmp_path):
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["scripts"]["docgen"] == "docgen.__main__:entry"
    script = (
        "import sys\nsys.argv = ['docgen', '--version']\n"
        "from docgen.__main__ import entry\nentry()\n"
    )
    done = _run(script, tmp_path)
    assert done.returncode == 0 and done.stdout.strip() and not done.stderr


def test_a_reader_that_goes_away_ends_the_command_with_1_and_no_traceback(tmp_path):
    """`docgen check ... | head`: what the reader did not read is lost, so the exit says so."""
    script = (
        "import os, sys\n"
        f"sys.argv = ['docgen', 'check', {str(SAMPLE)!r}, '--as-of', '2026-06-23',"
        " '--format', 'json']\n"
        "reader, writer = os.pipe()\n"
        "os.close(reader)\n"
        "os.dup2(writer, 1)\n"
        "from docgen.__main__ import entry\n"
        "entry()\n"
    )
    done = _run(script, tmp_path)
    assert done.returncode == 1 and done.stderr == "", done.stderr
