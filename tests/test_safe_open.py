"""Only regular files are read (docgen/core/safe_open.py): a FIFO named, or swapped in after the
path was looked at, is refused at once instead of hanging docgen; so are folders, devices and,
where links are refused, links. Each blocking case runs under a timeout, so a regression fails
instead of hanging the suite."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from docgen.core import safe_open
from docgen.core.safe_open import NotARegularFile, TooLarge, read_regular

ROOT = Path(__file__).resolve().parent.parent
DOCGEN = Path(sys.executable).parent / "docgen"


def _docgen(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    # Were the FIFO opened for reading, docgen would block until killed by the timeout.
    return subprocess.run(
        [str(DOCGEN), *args], cwd=cwd, capture_output=True, text=True, timeout=60, check=False
    )


def _within_seconds(call, seconds: float = 20):
    """What ``call()`` returns or raises, failing the test if it has not finished in time."""
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            outcome["value"] = call()
        except BaseException as error:  # noqa: BLE001 - handed to the test below
            outcome["error"] = error

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still blocked after {seconds} s"
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["value"]


def test_a_fifo_named_to_validate_is_refused_at_once(tmp_path):
    os.mkfifo(tmp_path / "grant.yaml")
    result = _docgen("validate", "grant.yaml", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith(
        "grant.yaml: is not a regular file (a device, pipe or socket). Name a file saved on disk"
    )


def test_a_fifo_named_to_intake_is_refused_at_once(tmp_path):
    shutil.copy(ROOT / "samples" / "rrp-2026.yaml", tmp_path / "rrp-2026.yaml")
    before = (tmp_path / "rrp-2026.yaml").read_bytes()
    os.mkfifo(tmp_path / "form.pdf")
    dates = ("--received-on", "2025-12-01", "--as-of", "2025-12-01")
    result = _docgen("intake", "rrp-2026.yaml", "form.pdf", *dates, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith(
        "form.pdf: is not a regular file (a device, pipe or socket). Name the filled PDF."
    )
    assert (tmp_path / "rrp-2026.yaml").read_bytes() == before


@pytest.fixture
def swapped_for_a_fifo(tmp_path, monkeypatch) -> Path:
    """A FIFO that looked like a regular file when its path was looked at: the race between a
    look and an open, made certain."""
    regular = tmp_path / "was-a-file"
    regular.write_bytes(b"facts")
    looked_at = os.stat(regular)
    fifo = tmp_path / "now-a-fifo"
    os.mkfifo(fifo)
    monkeypatch.setattr(safe_open.os, "stat", lambda path: looked_at)
    monkeypatch.setattr(safe_open.os, "lstat", lambda path: looked_at)
    return fifo


@pytest.mark.parametrize("follow_links", [True, False])
def test_a_fifo_swapped_in_after_the_look_is_refused_not_read(swapped_for_a_fifo, follow_links):
    with pytest.raises(NotARegularFile):
        _within_seconds(lambda: read_regular(swapped_for_a_fifo, follow_links=follow_links))


def test_a_folder_a_device_and_a_refused_link_are_not_regular_files(tmp_path):
    with pytest.raises(NotARegularFile) as folder:
        read_regular(tmp_path)
    assert folder.value.folder
    with pytest.raises(NotARegularFile) as device:
        read_regular("/dev/zero", limit=10)
    assert not device.value.folder
    (tmp_path / "target").write_bytes(b"x")
    (tmp_path / "link").symlink_to(tmp_path / "target")
    assert read_regular(tmp_path / "link") == b"x"
    with pytest.raises(NotARegularFile):
        read_regular(tmp_path / "link", follow_links=False)


def test_the_limit_is_checked_before_reading_and_while_reading(tmp_path, monkeypatch):
    path = tmp_path / "big"
    path.write_bytes(b"x" * 11)
    assert read_regular(path, limit=11) == b"x" * 11
    with pytest.raises(TooLarge) as before:
        read_regular(path, limit=10)
    assert before.value.size == 11
    (tmp_path / "small").write_bytes(b"x")
    looked_at = os.stat(tmp_path / "small")  # it grows after the look: found as it is read
    monkeypatch.setattr(safe_open.os, "stat", lambda p: looked_at)
    with pytest.raises(TooLarge) as grown:
        read_regular(path, limit=10)
    assert grown.value.size is None
