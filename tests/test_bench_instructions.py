"""The benchmarks' instruction counts (bench/machine.py): callgrind's total for a command,
children included, or a sentence saying why there is none; never a made-up figure."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import machine  # noqa: E402

# Under callgrind a Python start takes seconds: slow, and only where valgrind is installed.
needs_valgrind = pytest.mark.skipif(shutil.which("valgrind") is None, reason="no valgrind")


def _billions(said: str) -> float:
    found = re.fullmatch(r"(\d+\.\d\d) billion instructions \(callgrind\)", said)
    assert found, said
    return float(found.group(1))


@pytest.mark.slow
@needs_valgrind
def test_a_count_grows_with_the_work_and_covers_children():
    little = _billions(machine.instructions([sys.executable, "-c", "pass"]))
    more = _billions(machine.instructions([sys.executable, "-c", "sum(range(3_000_000))"]))
    child = (
        "import subprocess, sys; subprocess.run([sys.executable, '-c', 'sum(range(3_000_000))'])"
    )
    parent = _billions(machine.instructions([sys.executable, "-c", child]))
    assert 0 < little < more
    assert parent > more  # the child's instructions are counted with the parent's


@pytest.mark.slow
@needs_valgrind
def test_a_failed_command_has_no_count():
    said = machine.instructions([sys.executable, "-c", "raise SystemExit(3)"])
    assert said == "no instruction count (valgrind exited 3)"


def test_without_valgrind_it_says_so(monkeypatch):
    monkeypatch.setattr(machine.shutil, "which", lambda name: None)
    said = machine.instructions([sys.executable, "-c", "pass"])
    assert said == "no instruction count (valgrind is not installed)"
