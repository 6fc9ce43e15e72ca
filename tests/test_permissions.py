"""Files and permissions (issue 25): issued folders and files without world access (0750/0640,
DOCGEN_UMASK to choose otherwise); `-o` and `templates --export` never write through another
user's link or into a sticky folder through a link, and export never through a dangling link;
intake refuses a read-only facts file and keeps the owner of a file it rewrites; a user who
cannot replace a stage folder another issued is refused before anything is staged. Through the
CLI: exit code, message, nothing written, changed or left behind."""

from __future__ import annotations

import os
import shutil
import stat
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
GRANT = SAMPLES / "director-grant-2026.yaml"
DOCGEN = Path(sys.executable).parent / "docgen"
NOBODY = 65534
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="needs root to act as another user")


def _modes(root: Path) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {"folders": set(), "files": set()}
    for path in [root, *root.rglob("*")]:
        kind = "folders" if path.is_dir() else "files"
        found[kind].add(oct(stat.S_IMODE(path.lstat().st_mode)))
    return found


def _batch(cli, facts: Path, out: Path, *more: str):
    return cli("batch", facts, "--out", out, "--as-of", "2026-06-23", "--workers", "1", *more)


@pytest.fixture
def umask_022():
    previous = os.umask(0o022)
    yield
    os.umask(previous)


@pytest.mark.slow  # renders documents or runs many cases: make test, not test-fast
def test_issued_folders_and_files_have_no_world_access(cli, tmp_path, umask_022, monkeypatch):
    monkeypatch.delenv("DOCGEN_UMASK", raising=False)
    out = tmp_path / "out"
    assert _batch(cli, GRANT, out).exit_code == 0
    assert _modes(out) == {"folders": {"0o750"}, "files": {"0o640"}}
    copy = tmp_path / "copy.pdf"
    result = cli(
        "render",
        GRANT,
        "--doc",
        "notice",
        "--for",
        "jsmith",
        "--to",
        "pdf",
        "--out",
        out,
        "-o",
        copy,
        "--as-of",
        "2026-06-23",
    )
    assert result.exit_code == 0, result.output
    assert oct(stat.S_IMODE(copy.stat().st_mode)) == "0o640"
    report = tmp_path / "report.html"
    assert cli("check", GRANT, "--format", "html", "-o", report).exit_code in (0, 1)
    assert oct(stat.S_IMODE(report.stat().st_mode)) == "0o640"
    assert cli("templates", "--export", tmp_path / "tpl").exit_code == 0
    assert _modes(tmp_path / "tpl") == {"folders": {"0o750"}, "files": {"0o640"}}
    assert os.umask(0o022) == 0o022  # the process's umask is given back


@pytest.mark.slow  # renders documents or runs many cases: make test, not test-fast
def test_docgen_umask_chooses_other_modes_and_a_bad_one_is_refused(
    cli, tmp_path, umask_022, monkeypatch
):
    monkeypatch.setenv("DOCGEN_UMASK", "077")
    out = tmp_path / "out"
    assert _batch(cli, GRANT, out).exit_code == 0
    assert _modes(out) == {"folders": {"0o700"}, "files": {"0o600"}}
    monkeypatch.setenv("DOCGEN_UMASK", "022")
    assert _batch(cli, GRANT, tmp_path / "open").exit_code == 0
    assert _modes(tmp_path / "open") == {"folders": {"0o755"}, "files": {"0o644"}}
    monkeypatch.setenv("DOCGEN_UMASK", "world")
    result = _batch(cli, GRANT, tmp_path / "bad")
    assert result.exit_code == 2
    assert "DOCGEN_UMASK='world': expected an octal umask such as 027" in result.stderr
    assert not (tmp_path / "bad").exists()


CHECK_REPORT = ("check", GRANT, "--format", "html", "-o")


def _sticky_folder(tmp_path: Path) -> Path:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    return shared


@as_root
def test_o_never_writes_through_another_users_link(cli, tmp_path):
    shared = _sticky_folder(tmp_path)
    precious = tmp_path / "precious.txt"
    precious.write_text("root's own file\n")
    link = shared / "report.txt"
    link.symlink_to(precious)
    os.lchown(link, NOBODY, NOBODY)  # planted by another user
    result = cli(*CHECK_REPORT, link)
    assert result.exit_code == 2, result.output
    assert f"-o {link}: is a link owned by another user (uid {NOBODY})" in result.stderr
    assert precious.read_text() == "root's own file\n"
    assert sorted(os.listdir(shared)) == ["report.txt"] and link.is_symlink()


def test_o_never_writes_into_a_sticky_folder_through_a_link(cli, tmp_path):
    shared = _sticky_folder(tmp_path)
    target = shared / "report.html"
    target.write_text("someone's file\n")
    link = tmp_path / "report.html"
    link.symlink_to(target)  # our own link, leading into a shared folder
    result = cli(*CHECK_REPORT, link)
    assert result.exit_code == 2, result.output
    assert "is a link into a shared folder (sticky, like /tmp)" in result.stderr
    assert target.read_text() == "someone's file\n" and sorted(os.listdir(shared)) == [
        "report.html"
    ]
    # Written to the name itself, in a sticky folder, there is no link to follow: written.
    assert cli(*CHECK_REPORT, shared / "own.html").exit_code in (0, 1)


@pytest.mark.parametrize("link", ["notice.html.j2", "clauses", "README.txt"])
def test_export_never_writes_through_a_link_dangling_or_not(cli, tmp_path, link):
    folder = tmp_path / "tpl"
    folder.mkdir()
    outside = tmp_path / "outside"
    (folder / link).symlink_to(outside)  # dangling: export would create its target
    result = cli("templates", "--export", folder)
    assert result.exit_code == 2, result.output
    assert f"{folder / link} is a link" in " ".join(result.stderr.split())
    assert not outside.exists() and os.listdir(folder) == [link]


@as_root
def test_export_never_writes_into_another_users_linked_folder(cli, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    link = tmp_path / "tpl"
    link.symlink_to(elsewhere, target_is_directory=True)
    os.lchown(link, NOBODY, NOBODY)
    result = cli("templates", "--export", link)
    assert result.exit_code == 2 and "is a link owned by another user" in result.stderr
    assert os.listdir(elsewhere) == []


def _elect(cli, facts: Path):
    return cli(
        "elect",
        facts,
        "--for",
        "tnguyen",
        "--pay-on",
        "separation",
        "--received-on",
        "2026-06-22",
        "--as-of",
        "2026-06-22",
    )


def test_intake_refuses_a_read_only_facts_file(cli, tmp_path):
    facts = tmp_path / "grant.yaml"
    shutil.copy(GRANT, facts)
    facts.chmod(0o444)
    before = facts.read_bytes()
    result = _elect(cli, facts)
    assert result.exit_code == 2, result.output
    assert f"{facts}: is read-only (mode 0444); docgen does not record" in " ".join(
        result.stderr.split()
    )
    assert facts.read_bytes() == before and stat.S_IMODE(facts.stat().st_mode) == 0o444
    assert sorted(os.listdir(tmp_path)) == ["grant.yaml"]


@as_root
def test_intake_keeps_the_owner_of_the_file_it_rewrites(cli, tmp_path):
    facts = tmp_path / "grant.yaml"
    shutil.copy(GRANT, facts)
    os.chown(facts, NOBODY, NOBODY)
    facts.chmod(0o640)
    assert _elect(cli, facts).exit_code == 0
    info = facts.stat()
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (NOBODY, NOBODY, 0o640)


def _shared(tmp_path: Path) -> Path:
    """A folder another user can reach (pytest's own are root's alone)."""
    base = Path(tempfile.mkdtemp(prefix="docgen-shared-"))
    base.chmod(0o777)
    return base


def _as_nobody(cli, *args: str, cwd: Path) -> tuple[int, str]:
    """Run `docgen ARGS` in a forked copy of this process as the user nobody: the exit code and
    stderr. (A fresh interpreter could not start as nobody: this one lives in root's home. The
    modules the command needs are loaded already, by the same command run as root first.)"""
    import json

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code, stderr = 70, ""
        try:
            os.chdir(cwd)
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            result = cli(*args)
            code, stderr = result.exit_code, result.stderr
        except BaseException as error:  # noqa: BLE001 - reported to the parent
            stderr = f"{type(error).__name__}: {error}"
        finally:
            os.write(write, json.dumps([code, stderr]).encode())
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as stream:
        data = stream.read()
    os.waitpid(pid, 0)
    code, stderr = json.loads(data)
    return code, stderr


@as_root
def test_intake_refuses_when_it_cannot_keep_the_owner(cli, tmp_path):
    base = _shared(tmp_path)
    try:
        warm = tmp_path / "grant.yaml"
        shutil.copy(GRANT, warm)
        assert _elect(cli, warm).exit_code == 0  # the modules loaded, as root
        facts = base / "grant.yaml"
        shutil.copy(GRANT, facts)
        facts.chmod(0o666)  # root's, writable by anyone: rewritten, it would become nobody's
        before = facts.read_bytes()
        code, stderr = _as_nobody(
            cli,
            "elect",
            "grant.yaml",
            "--for",
            "tnguyen",
            "--pay-on",
            "separation",
            "--received-on",
            "2026-06-22",
            "--as-of",
            "2026-06-22",
            cwd=base,
        )
        assert code == 2, stderr
        assert "belongs to another user (uid 0, gid 0)" in " ".join(stderr.split())
        assert facts.read_bytes() == before and facts.stat().st_uid == 0
        assert sorted(os.listdir(base)) == ["grant.yaml"]
    finally:
        shutil.rmtree(base)


@as_root
@pytest.mark.slow
def test_another_users_force_over_a_stage_folder_root_issued_is_refused_whole(
    cli, tmp_path, monkeypatch
):
    base = _shared(tmp_path)
    try:
        facts = base / "grant.yaml"
        shutil.copy(GRANT, facts)
        facts.chmod(0o644)
        monkeypatch.setenv("DOCGEN_UMASK", "022")  # readable by all, as the red team's was
        out = base / "out"
        assert _batch(cli, facts, out).exit_code == 0
        assert _batch(cli, facts, out, "--force").exit_code == 0  # the modules loaded, as root
        for folder in (out, out / "2026-annual"):
            folder.chmod(0o777)  # a shared output folder
        before = {p: p.stat().st_ino for p in out.rglob("*")}
        code, stderr = _as_nobody(
            cli,
            "batch",
            "grant.yaml",
            "--out",
            "out",
            "--as-of",
            "2026-06-23",
            "--force",
            "--workers",
            "1",
            cwd=base,
        )
        assert code == 2, stderr
        message = " ".join(stderr.split())
        assert "out/2026-annual/grant: issued by another user (root, uid 0), and this user may" in (
            message
        )
        assert "nothing was issued" in message
        assert {p: p.stat().st_ino for p in out.rglob("*")} == before
        assert sorted(os.listdir(out / "2026-annual")) == ["grant", "returned"]
    finally:
        shutil.rmtree(base)
