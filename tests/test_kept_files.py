"""docgen's kept files (docgen.core.kept_files): where they are kept, which are trusted, and a
write that is whole or nothing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from docgen.core import kept_files


def test_the_folder_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("DOCGEN_CACHE_DIR", str(tmp_path / "chosen"))
    assert kept_files.cache_folder() == tmp_path / "chosen"
    monkeypatch.setenv("DOCGEN_CACHE_DIR", kept_files.OFF)
    assert kept_files.cache_folder() is None
    monkeypatch.delenv("DOCGEN_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert kept_files.cache_folder() == tmp_path / "xdg" / "docgen"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert kept_files.cache_folder() == tmp_path / "home" / ".cache" / "docgen"


def test_a_write_is_whole_the_users_alone_and_leaves_no_partial_file(tmp_path):
    path = tmp_path / "deep" / "kept.bin"
    old = os.umask(0)
    try:
        assert kept_files.write_whole(path, b"kept bytes")
    finally:
        os.umask(old)
    assert path.read_bytes() == b"kept bytes"
    assert path.stat().st_mode & 0o777 == 0o644
    assert kept_files.read_own(path) == b"kept bytes"
    assert [p.name for p in path.parent.iterdir()] == ["kept.bin"]


def test_a_write_that_cannot_be_made_leaves_nothing_and_says_so(tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")
    assert not kept_files.write_whole(blocked / "kept.bin", b"x")
    assert blocked.read_text(encoding="utf-8") == "not a folder"
    assert [p.name for p in tmp_path.iterdir()] == ["a-file"]


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="owners and modes")
@pytest.mark.parametrize(
    "mode, trusted", [(0o644, True), (0o600, True), (0o664, False), (0o646, False)]
)
def test_only_a_file_no_one_else_may_write_is_read(tmp_path, mode, trusted):
    path = tmp_path / "kept.bin"
    path.write_bytes(b"kept")
    path.chmod(mode)
    assert kept_files.own_file(path) is trusted
    assert kept_files.read_own(path) == (b"kept" if trusted else None)


def test_a_missing_file_reads_as_none(tmp_path):
    assert kept_files.read_own(Path(tmp_path / "none")) is None
