"""The typed manifest (docgen.issue.manifest) writes back the very bytes docgen wrote, and the
folder's difference with it (docgen.issue.changes) is typed and found once per batch."""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path

import pytest

from docgen.issue import plan
from docgen.issue.batch import issue_batch
from docgen.issue.changes import Change, FileChange, folder_changes
from docgen.issue.layout import MANIFEST_NAME, SUPERSEDED
from docgen.issue.manifest import Manifest, NotAnIssuedFolder, read
from tests.test_batch import CYCLE, write_cycle

GRANT_AS_OF, LATER = date(2026, 6, 23), date(2026, 6, 25)


def moved_jsmith(data):
    data["directors"][0]["address"] = ["40 Cedar Road", "Richmond, VA 23226"]


@pytest.fixture(scope="module")
def reissued(tmp_path_factory):
    """A grant stage issued with rgarcia held, then re-issued once: (OUT, stage folder)."""
    from tests.conftest import SAMPLES

    root = tmp_path_factory.mktemp("manifest")
    out = root / "out"
    first = write_cycle(root / "v1", SAMPLES, directors=2)
    issue_batch(first, out, as_of=GRANT_AS_OF, workers=1, hold=["rgarcia"])
    second = write_cycle(root / "v2", SAMPLES, directors=2, edit=moved_jsmith)
    result = issue_batch(second, out, as_of=LATER, workers=1, hold=["rgarcia"])
    assert result.reissue == 1
    return out, result.folder


@pytest.fixture
def stage(reissued, tmp_path):
    copy = tmp_path / reissued[1].name
    shutil.copytree(reissued[1], copy)
    return copy


def test_a_manifest_read_and_written_again_is_the_same_bytes(reissued):
    """The current manifest (held packet, a re-issue, superseded files) and the one it replaced,
    kept in superseded/1/, each come back byte for byte."""
    _, stage = reissued
    manifest = read(stage)
    assert manifest.to_json() == (stage / MANIFEST_NAME).read_bytes()
    assert [h.subject for h in manifest.held] == ["rgarcia"]
    (reissue,) = manifest.superseded
    assert (reissue.n, [c.subject for c in reissue.packets]) == (1, ["jsmith"])
    assert {f.was for f in reissue.files} >= {"jsmith/notice.pdf", MANIFEST_NAME}
    kept = stage / SUPERSEDED / "1"
    before = Manifest.from_json(json.loads((kept / MANIFEST_NAME).read_text()))
    assert before.to_json() == (kept / MANIFEST_NAME).read_bytes()


def test_a_packet_the_first_release_issued_is_written_back_without_inputs(reissued):
    """No inputs recorded, no issue date per copy: the packet is carried as it was."""
    _, stage = reissued
    data = json.loads((stage / MANIFEST_NAME).read_text())
    (packet,) = data["packets"]
    for key in ("inputs", "inputs_sha256", "facts"):
        packet.pop(key)
    for document in packet["documents"]:
        document.pop("issued_as_of")
        document.pop("facts_sha256")
    (parsed,) = Manifest.from_json(data).packets
    assert parsed.record is None and parsed.to_json() == packet


def test_the_difference_is_typed_a_changed_a_missing_and_a_foreign_file(stage):
    notice = stage / "jsmith" / "notice.pdf"
    notice.write_bytes(notice.read_bytes() + b"\n")
    (stage / "jsmith" / "notice.docx").unlink()
    (stage / "jsmith" / "signed.pdf").write_bytes(b"%PDF- a signed copy")
    (stage / "drafts").mkdir()
    (stage / "drafts" / "note.txt").write_text("mine")
    (stage / ".DS_Store").write_bytes(b"finder")
    found = folder_changes(stage, read(stage))
    kinds = {change.name: change.change for change in found.changes}
    assert kinds == {
        "jsmith/notice.pdf": Change.CHANGED,
        "jsmith/notice.docx": Change.MISSING,
        "jsmith/signed.pdf": Change.ADDED,
        "drafts/note.txt": Change.ADDED,
    }
    missing = found.by_name["jsmith/notice.docx"]
    assert missing == FileChange(
        "jsmith/notice.docx", Change.MISSING, "the manifest lists it but it is not in the folder"
    )
    assert missing.message == "missing: the manifest lists it but it is not in the folder"
    assert found.by_name["jsmith/notice.pdf"].message.startswith("changed: SHA-256 ")
    assert found.foreign == ("drafts/", "jsmith/signed.pdf")  # a folder named once
    assert found.os_files == (".DS_Store",)
    assert not found.reports_altered
    assert [c.name for c in found.damaged(["jsmith/notice.docx", "jsmith/x.pdf"])] == [
        "jsmith/notice.docx"
    ]


def test_a_reissue_compares_the_folder_with_its_manifest_once(reissued, tmp_path, monkeypatch):
    """Deciding that nothing is to issue, and then re-issuing an altered copy, each look at the
    stage folder once (the plan's FolderChanges are handed to the assembler)."""
    from tests.conftest import SAMPLES

    out = tmp_path / "out"
    shutil.copytree(reissued[0], out)
    calls: list[Path] = []

    def counted(folder, manifest):
        calls.append(folder)
        return folder_changes(folder, manifest)

    monkeypatch.setattr(plan, "folder_changes", counted)
    facts = write_cycle(tmp_path / "v2", SAMPLES, directors=2, edit=moved_jsmith)
    stage = out / CYCLE / "grant"
    assert issue_batch(facts, out, as_of=LATER, workers=1, hold=["rgarcia"]).current
    assert len(calls) == 1
    notice = stage / "jsmith" / "notice.pdf"
    notice.write_bytes(notice.read_bytes() + b"\n")
    result = issue_batch(facts, out, as_of=LATER, workers=1, hold=["rgarcia"])
    assert len(calls) == 2
    (change,) = result.changes
    assert change.reasons == ("jsmith/notice.pdf changed since it was issued",)


def test_an_unreadable_manifest_is_refused_in_the_same_words(tmp_path):
    (tmp_path / MANIFEST_NAME).write_text('{"files": []}')
    with pytest.raises(NotAnIssuedFolder, match="not a manifest docgen wrote"):
        read(tmp_path)
