"""The kept-file and code-store findings are gone with the pruning (issue 39, checked by issue 44):
docgen reads and writes no cache folder, so a planted link or FIFO there, or a world-writable
cache, cannot reach it. A run with HOME and XDG_CACHE_HOME pointed at an empty folder leaves it
empty, and a FIFO at the old cache path (``$XDG_CACHE_HOME/docgen``, ``DOCGEN_CACHE_DIR``) does
not hang a command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCGEN = [sys.executable, "-m", "docgen"]
GRANT = ROOT / "samples" / "director-grant-2026.yaml"


def _run(args: list[object], home: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "PYTHONPATH": str(ROOT),
        **extra,
    }
    return subprocess.run(
        [*DOCGEN, *map(str, args)], capture_output=True, text=True, env=env, timeout=300
    )


def _everything(folder: Path) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))


def test_a_fifo_at_the_old_cache_path_does_not_hang_a_command(tmp_path):
    home = tmp_path / "home"
    (home / ".cache").mkdir(parents=True)
    os.mkfifo(home / ".cache" / "docgen")
    os.mkfifo(tmp_path / "cache-dir")
    result = _run(
        ["check", GRANT, "--as-of", "2026-06-23"],
        home,
        DOCGEN_CACHE_DIR=str(tmp_path / "cache-dir"),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert _everything(home) == [".cache", ".cache/docgen"]  # the FIFO, untouched


@pytest.mark.slow
def test_a_batch_reads_and_writes_no_cache_folder(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    result = _run(
        ["batch", GRANT, "--out", tmp_path / "out", "--stage", "grant", "--as-of", "2026-06-23"],
        home,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / "out" / "2026-annual" / "grant").is_dir()
    assert _everything(home) == []
