"""The styled DOCX template kept on this machine (docgen.render.docx_kept): kept by the first
build, read by the next instead of building, the same parts as a fresh build, and never used
when it is not exactly the template for these inputs or not the user's own."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from docgen.core import kept_files
from docgen.render import docx_kept, docx_styles
from docgen.render.docx_style_sheet import HOUSE_TYPE_SIZE

SOURCES = (Path(docx_styles.__file__), Path(docx_styles.sheet.__file__))


def _parts(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


class Builds:
    """A build that counts its calls (and can be told to refuse)."""

    def __init__(self, refuse: bool = False) -> None:
        self.calls = 0
        self.refuse = refuse

    def __call__(self, type_size: float) -> bytes:
        self.calls += 1
        if self.refuse:
            raise AssertionError("built, though a kept template was there")
        return docx_styles.build_template(type_size)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("DOCGEN_CACHE_DIR", str(folder))
    return folder


def _kept(folder: Path, type_size: float = HOUSE_TYPE_SIZE) -> Path:
    return docx_kept.template_file(folder, docx_kept.template_key(type_size, SOURCES))


def test_the_first_build_is_kept_and_the_next_reads_it_without_building(cache):
    first = Builds()
    data, package = docx_kept.kept_template(HOUSE_TYPE_SIZE, SOURCES, first)
    assert first.calls == 1
    path = _kept(cache)
    assert path.read_bytes() == data
    assert kept_files.own_file(path)
    again, _ = docx_kept.kept_template(HOUSE_TYPE_SIZE, SOURCES, Builds(refuse=True))
    assert again == data
    assert "/word/styles.xml" in {partname for partname, *_ in package.iter_sparts()}


def test_a_kept_template_has_the_parts_of_a_fresh_build(cache):
    docx_kept.kept_template(HOUSE_TYPE_SIZE, SOURCES, Builds())
    kept, _ = docx_kept.kept_template(HOUSE_TYPE_SIZE, SOURCES, Builds(refuse=True))
    assert _parts(kept) == _parts(docx_styles.build_template(HOUSE_TYPE_SIZE))


def test_the_key_follows_the_type_size_and_the_source_that_builds_it(tmp_path):
    house = docx_kept.template_key(HOUSE_TYPE_SIZE, SOURCES)
    assert docx_kept.template_key(HOUSE_TYPE_SIZE, SOURCES) == house
    assert docx_kept.template_key(9.0, SOURCES) != house
    edited = tmp_path / "docx_style_sheet.py"
    edited.write_bytes(SOURCES[1].read_bytes() + b"\n# one more line\n")
    assert docx_kept.template_key(HOUSE_TYPE_SIZE, (SOURCES[0], edited)) != house


def test_each_type_size_has_its_own_file(cache):
    docx_kept.kept_template(HOUSE_TYPE_SIZE, SOURCES, Builds())
    docx_kept.kept_template(9.0, SOURCES, Builds())
    assert _kept(cache) != _kept(cache, 9.0)
    assert _kept(cache).exists() and _kept(cache, 9.0).exists()
    house = _parts(_kept(cache).read_bytes())["word/styles.xml"]
    assert house != _parts(_kept(cache, 9.0).read_bytes())["word/styles.xml"]


@pytest.mark.parametrize(
    "damage",
    ["cut-short", "not-a-zip", "another-key", "no-comment"],
)
def test_a_damaged_or_mislabelled_file_is_not_used_and_is_replaced(cache, damage):
    data, _ = docx_kept.kept_template(HOUSE_TYPE_SIZE, SOURCES, Builds())
    path = _kept(cache)
    comment = zipfile.ZipFile(io.BytesIO(data)).comment
    planted = {
        "cut-short": data[: len(data) // 2] + comment,  # the right comment, half a zip
        "not-a-zip": b"PK not a zip at all " + comment,
        "another-key": docx_kept.kept_template(9.0, SOURCES, Builds())[0],
        "no-comment": docx_styles.build_template(HOUSE_TYPE_SIZE),
    }[damage]
    path.write_bytes(planted)
    build = Builds()
    rebuilt, package = docx_kept.kept_template(HOUSE_TYPE_SIZE, SOURCES, build)
    assert build.calls == 1
    assert _parts(rebuilt) == _parts(data)
    assert path.read_bytes() == rebuilt
    assert package is not None


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="owners and modes")
def test_a_file_others_may_write_is_not_used(cache):
    docx_kept.kept_template(HOUSE_TYPE_SIZE, SOURCES, Builds())
    path = _kept(cache)
    path.chmod(0o664)
    build = Builds()
    docx_kept.kept_template(HOUSE_TYPE_SIZE, SOURCES, build)
    assert build.calls == 1
    assert path.stat().st_mode & 0o777 == 0o644  # written again, the user's alone


def test_off_keeps_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("DOCGEN_CACHE_DIR", kept_files.OFF)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    build = Builds()
    docx_kept.kept_template(HOUSE_TYPE_SIZE, SOURCES, build)
    docx_kept.kept_template(HOUSE_TYPE_SIZE, SOURCES, build)
    assert build.calls == 2
    assert list(tmp_path.iterdir()) == []


def test_a_folder_that_cannot_be_written_builds_and_fails_nothing(tmp_path, monkeypatch):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("DOCGEN_CACHE_DIR", str(blocked / "cache"))
    build = Builds()
    data, _ = docx_kept.kept_template(HOUSE_TYPE_SIZE, SOURCES, build)
    assert build.calls == 1
    assert _parts(data) == _parts(docx_styles.build_template(HOUSE_TYPE_SIZE))
    assert blocked.read_text(encoding="utf-8") == "not a folder"


PROCESS = """
import sys
from docgen.render import docx_styles
from docgen.render.docx import html_to_docx, prepare
if sys.argv[1] == "refuse":
    def refuse(type_size):
        raise SystemExit("built the template again")
    docx_styles.build_template = refuse
prepare()
print(len(docx_styles.styled_template()))
"""


def test_a_second_process_reads_the_kept_template_and_builds_nothing(tmp_path):
    env = {**os.environ, "DOCGEN_CACHE_DIR": str(tmp_path / "cache")}
    for mode in ("build", "refuse"):
        done = subprocess.run(
            [sys.executable, "-c", PROCESS, mode], capture_output=True, text=True, env=env
        )
        assert done.returncode == 0, done.stderr
    assert len(list((tmp_path / "cache").glob("docx-template-*.docx"))) == 1


def test_a_docx_from_the_kept_template_is_byte_for_byte_a_fresh_builds(tmp_path, monkeypatch):
    """What is issued does not depend on whether the template was kept: the same bytes."""
    from datetime import date

    from docgen.core.documents import DocumentMeta
    from docgen.render.docx import html_to_docx

    html = (
        "<html><body><h1>Notice of Restricted Stock Unit Grant</h1>"
        "<p>Dear Ms. Smith: <b>2,450</b> units, <i>vesting</i> on June 23, 2027.</p>"
        "<table><tr><td>Grant Date</td><td>June 23, 2026</td></tr></table></body></html>"
    )
    meta = DocumentMeta("Notice", "CarMax, Inc.", "RSU", (), date(2026, 6, 23), date(2026, 6, 23))
    made = {}
    try:
        for label, cache in (("built", kept_files.OFF), ("kept", str(tmp_path / "cache"))):
            monkeypatch.setenv("DOCGEN_CACHE_DIR", cache)
            docx_styles._template.cache_clear()
            made[label] = html_to_docx(html, meta)
            if label == "kept":  # the first call kept it; now one that reads it
                docx_styles._template.cache_clear()
                made["read"] = html_to_docx(html, meta)
    finally:
        docx_styles._template.cache_clear()
    assert len(list((tmp_path / "cache").glob("docx-template-*.docx"))) == 1
    assert made["read"] == made["kept"] == made["built"]
