"""`docgen verify` accepts exactly the files in the manifest and nothing else (issue 13): no link,
no unlisted or empty folder, no FIFO, socket or device; manifest paths confined to the folder;
key facts matched as whole tokens. Every case exits 1 (or 2), names the entry, and verify itself
changes nothing in the folder.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_verify import issued_folder  # noqa: F401  (a fixture: one issue per module)

# Every test here issues a folder, then verifies it: slow (`make test-fast` leaves them out).
pytestmark = pytest.mark.slow

DOCGEN = Path(sys.executable).parent / "docgen"


@pytest.fixture
def issued(issued_folder, tmp_path):  # noqa: F811
    """A fresh copy of the issued folder, to tamper with."""
    copy = tmp_path / issued_folder.name
    shutil.copytree(issued_folder, copy)
    return copy


def _snapshot(root: Path) -> dict[str, tuple[str, bytes | str | None]]:
    """Every entry under ``root``, links and FIFOs included, without following or opening any."""
    found: dict[str, tuple[str, bytes | str | None]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath, name)
            relative = path.relative_to(root).as_posix()
            if path.is_symlink():
                found[relative] = ("link", os.readlink(path))
            elif path.is_dir():
                found[relative] = ("folder", None)
            elif path.is_file():
                found[relative] = ("file", path.read_bytes())
            else:
                found[relative] = ("other", None)
    return found


def _verify(folder: Path, *expected: str, code: int = 1) -> str:
    """`docgen verify` in its own process (a FIFO opened by mistake would hang only that), with
    the folder unchanged by it."""
    before = _snapshot(folder)
    result = subprocess.run(
        [str(DOCGEN), "verify", str(folder)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == code, result.stdout + result.stderr
    for text in expected:
        assert text in result.stderr, result.stderr
    assert _snapshot(folder) == before, "verify changed the folder"
    return result.stderr


def _rewrite_manifest(folder: Path, edit) -> None:
    path = folder / "manifest.json"
    manifest = json.loads(path.read_text())
    edit(manifest)
    path.write_text(json.dumps(manifest))


def _entry(path: Path) -> dict[str, object]:
    data = path.read_bytes()
    return {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}


def test_a_planted_symlink_is_a_change_and_is_not_followed(issued):
    (issued / "jsmith" / "notice-copy.pdf").symlink_to(issued / "jsmith" / "notice.pdf")
    (issued / "everything").symlink_to("/")
    _verify(
        issued,
        "jsmith/notice-copy.pdf: added: a symbolic link",
        "everything: added: a symbolic link",
    )


def test_a_listed_file_replaced_by_a_link_to_an_identical_copy_is_a_change(issued, tmp_path):
    outside = tmp_path / "elsewhere.pdf"
    shutil.copy(issued / "jsmith" / "notice.pdf", outside)
    (issued / "jsmith" / "notice.pdf").unlink()
    (issued / "jsmith" / "notice.pdf").symlink_to(outside)
    _verify(issued, "jsmith/notice.pdf: changed: a symbolic link")


def test_an_empty_folder_is_a_change(issued):
    (issued / "jsmith" / "drafts").mkdir()
    (issued / "nobody").mkdir()
    _verify(
        issued,
        "jsmith/drafts: added: an empty folder not in the manifest",
        "nobody: added: an empty folder not in the manifest",
    )


def test_a_fifo_is_a_change_and_is_never_opened(issued):
    os.mkfifo(issued / "jsmith" / "notice.pdf.part")
    _verify(issued, "jsmith/notice.pdf.part: added: not a regular file (a FIFO")


def test_a_listed_file_replaced_by_a_fifo_is_never_opened(issued):
    (issued / "rgarcia" / "exhibit-i.docx").unlink()
    os.mkfifo(issued / "rgarcia" / "exhibit-i.docx")
    _verify(issued, "rgarcia/exhibit-i.docx: changed: not a regular file (a FIFO")


def test_manifest_paths_outside_the_folder_are_refused_and_never_read(issued, tmp_path):
    os.mkfifo(tmp_path / "pipe")  # were it opened, verify would hang (and time out)

    def add(manifest):
        manifest["files"]["/etc/passwd"] = _entry(Path("/etc/passwd"))
        manifest["files"]["../pipe"] = {"sha256": "0" * 64, "bytes": 0}
        manifest["files"]["jsmith/../../pipe"] = {"sha256": "0" * 64, "bytes": 0}
        manifest["packets"][0]["documents"][0]["files"]["pdf"] = "../pipe"

    _rewrite_manifest(issued, add)
    stderr = _verify(
        issued,
        "/etc/passwd: refused: the manifest names a path outside the issued folder",
        "../pipe: refused: the manifest names a path outside the issued folder",
        "jsmith/../../pipe: refused",
    )
    assert "root:" not in stderr


def test_a_symlinked_manifest_is_not_a_manifest(issued, tmp_path):
    moved = tmp_path / "manifest.json"
    shutil.move(issued / "manifest.json", moved)
    (issued / "manifest.json").symlink_to(moved)
    _verify(issued, "not an issued folder (it has no manifest.json)", code=2)


def test_key_facts_are_whole_tokens_12450_is_not_2450(issued):
    """A Notice edited to 12,450 units, its manifest re-hashed: 2,450 is no longer in it."""
    from docx import Document

    target = issued / "jsmith" / "notice.docx"
    document = Document(target)
    edited = False
    for paragraph in [
        *document.paragraphs,
        *(
            p
            for table in document.tables
            for row in table.rows
            for cell in row.cells
            for p in cell.paragraphs
        ),
    ]:
        for run in paragraph.runs:
            if "2,450" in run.text:
                run.text = run.text.replace("2,450", "12,450")
                edited = True
    assert edited
    document.save(target)
    _rewrite_manifest(issued, lambda m: m["files"].update({"jsmith/notice.docx": _entry(target)}))
    _verify(issued, 'jsmith/notice.pdf: DOC-FACT-ABSENT: DOCX: key fact "2,450" is missing')


def test_a_fresh_folder_still_verifies(issued):
    _verify(issued, code=0)
