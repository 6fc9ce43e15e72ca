"""`make lint` stays green: ruff over the code, and mypy over docgen/ and checks/, as part of
the suite CI runs."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ["docgen", "checks", "tests", "bench", "tools"]


@pytest.mark.parametrize("args", [["check"], ["format", "--check"]], ids=["check", "format"])
def test_ruff(args):
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    result = subprocess.run([ruff, *args, *FOLDERS], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy():
    """mypy as `make lint` runs it: no arguments, so [tool.mypy] in pyproject.toml says what it
    checks (docgen/ and checks/) and how strictly."""
    mypy = shutil.which("mypy", path=str(Path(sys.executable).parent)) or "mypy"
    result = subprocess.run([mypy], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
