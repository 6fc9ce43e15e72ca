"""`make test` on a fresh machine: what the suite drives documents with is installed (as root) or
named with the tests that skip without it and the command that installs it (issue 41: Chromium
"installed by `make` and `.ci/run`")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(path: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "tools" / "check_system.py"), "--for-tests"],
        env={"PATH": path},
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_machine_without_the_readers_is_told_which_tests_skip_and_how_to_install(tmp_path):
    # An empty PATH: no apt-get either, so nothing is installed and the programs are named.
    result = _run(str(tmp_path))
    assert result.returncode == 0  # the suite still runs; those tests skip and say so
    assert "chromium (chromium): the workspace and the check report in a real browser" in (
        result.stderr
    )
    assert "soffice (libreoffice-writer-nogui)" in result.stderr
    assert (
        "sudo apt-get install chromium libreoffice-writer-nogui nodejs npm poppler-utils qpdf"
        in (result.stderr)
    )


def test_a_machine_with_every_reader_hears_nothing(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("pdftotext", "qpdf", "soffice", "chromium", "node", "npm"):
        program = bin_dir / name
        program.write_text("#!/bin/sh\n")
        program.chmod(0o755)
    result = _run(str(bin_dir))
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
