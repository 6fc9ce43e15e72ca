"""A file the user names with ``-o PATH``: refused before any work when PATH is a folder or its
folder is missing, written whole with the permissions any new file gets (or those of the file it
replaces), and never a temporary file left behind."""

from __future__ import annotations

import errno
import os
import stat

import pytest

import docgen.core.output

GRANT = ("samples/director-grant-2026.yaml", "--as-of", "2026-06-23")
WRITERS = {
    "check report": ("check", *GRANT, "--format", "html"),
    "calendar": ("calendar", "samples/rrp-2026.yaml", "--as-of", "2025-12-01", "--format", "ics"),
    "preview": ("render", GRANT[0], "--doc", "notice", "--for", "jsmith", "--to", "html"),
    "review copy": (
        "render",
        GRANT[0],
        "--doc",
        "notice",
        "--for",
        "jsmith",
        "--to",
        "docx",
        "--review",
    ),
}


@pytest.fixture
def here(tmp_path, monkeypatch, samples):
    """A working folder with the samples in it, as a user would run docgen."""
    (tmp_path / "samples").symlink_to(samples)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _left_behind(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


@pytest.mark.parametrize("writer", WRITERS)
def test_a_folder_named_as_the_file_is_refused_and_nothing_is_left(cli, here, writer):
    (here / "out").mkdir()
    result = cli(*WRITERS[writer], "-o", "out")
    assert result.exit_code == 2
    assert "out: is a folder. Name the file to write" in result.stderr
    assert list((here / "out").iterdir()) == [] and _left_behind(here) == []


@pytest.mark.parametrize("writer", WRITERS)
def test_a_new_file_gets_no_world_access_and_a_replaced_one_keeps_its_own(cli, here, writer):
    target = here / "written"
    assert cli(*WRITERS[writer], "-o", target).exit_code == 0
    umask = os.umask(0)
    os.umask(umask)
    # The umask's, with world access taken away (issue 25: docgen.core.permissions).
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~(umask | 0o027)
    target.chmod(0o644)
    assert cli(*WRITERS[writer], "-o", target).exit_code == 0
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert _left_behind(here) == []


def test_render_refuses_a_bad_copy_path_before_issuing_anything(cli, here):
    (here / "copies").mkdir()
    issue = (
        "render",
        GRANT[0],
        "--doc",
        "notice",
        "--for",
        "jsmith",
        "--to",
        "pdf",
        "--out",
        "out",
        "--as-of",
        GRANT[2],
    )
    result = cli(*issue, "-o", "copies")
    assert result.exit_code == 2
    assert "copies: is a folder. Name the file to write, such as copies/jsmith-notice.pdf." in (
        result.stderr
    )
    missing = cli(*issue, "-o", here / "no-such-folder" / "notice.pdf")
    assert missing.exit_code == 2 and "no folder" in missing.stderr
    assert not (here / "out").exists() and not (here / "no-such-folder").exists()


def test_a_copy_that_cannot_be_written_says_the_document_was_issued(cli, here, monkeypatch):
    real_replace = os.replace

    def disk_full(source, target):
        if str(target).endswith("copy.pdf"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(target))
        return real_replace(source, target)

    monkeypatch.setattr(docgen.core.output.os, "replace", disk_full)
    result = cli(
        "render",
        GRANT[0],
        "--doc",
        "notice",
        "--for",
        "jsmith",
        "--to",
        "pdf",
        "--out",
        "out",
        "--as-of",
        GRANT[2],
        "-o",
        "copy.pdf",
    )
    assert result.exit_code == 2
    issued = os.path.join("out", "2026-annual", "grant", "jsmith", "notice.pdf")
    assert (
        f"copy.pdf: cannot write (No space left on device). The document was issued: {issued}."
        in result.stderr
    )
    assert (here / issued).is_file()
    assert not (here / "copy.pdf").exists() and _left_behind(here) == []


def test_a_link_to_a_file_replaces_that_file_and_stays_a_link(cli, here):
    real = here / "kept" / "calendar.ics"
    real.parent.mkdir()
    real.write_text("old")
    real.chmod(0o640)
    link = here / "calendar.ics"
    link.symlink_to(real)
    assert cli(*WRITERS["calendar"], "-o", link).exit_code == 0
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text().startswith("BEGIN:VCALENDAR")
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert _left_behind(here) == [] and _left_behind(real.parent) == []


def test_a_pipe_or_a_device_is_written_into_never_renamed_over(cli, here):
    import threading

    fifo = here / "to-another-program"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    result = cli(*WRITERS["calendar"], "-o", fifo)
    reader.join(timeout=30)
    assert result.exit_code == 0
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # still the pipe, not a file put in its place
    assert received and received[0].startswith(b"BEGIN:VCALENDAR")
    null = here / "nowhere"
    null.symlink_to("/dev/null")
    assert cli(*WRITERS["check report"], "-o", null).exit_code == 0
    assert null.is_symlink() and stat.S_ISCHR(os.stat(null).st_mode)
    assert _left_behind(here) == []
