"""A batch killed with SIGKILL at the worst moments leaves a complete stage folder, or the previous
one, never a mixture; the next run finishes the job and deletes nothing docgen did not write."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.test_batch import CYCLE, DOCGEN, GRANT_AS_OF, tree, write_cycle

# Every test here kills batches at the worst moments: slow (`make test-fast` leaves them out).
pytestmark = pytest.mark.slow


def batch_killed_at(facts: Path, out: Path, hook: str, *extra: str, while_paused=None) -> None:
    """Run a batch until the test hook ``hook`` pauses it (after N packets, or "swap": after the
    new stage folder is swapped in, before the old one is cleared), then SIGKILL it and its
    workers. ``while_paused`` runs first, as if someone used the folder meanwhile."""
    env = {**os.environ, "DOCGEN_TEST_PAUSE_AFTER": hook, "DOCGEN_TEST_PAUSE_SECONDS": "120"}
    process = subprocess.Popen(
        [str(DOCGEN), "batch", str(facts), "--out", str(out), "--workers", "1", *extra],
        env=env,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    expected = "paused after swap" if hook == "swap" else f"paused after packet {hook}"
    deadline = time.monotonic() + 240
    try:
        for line in process.stderr:
            if f"test hook: {expected}" in line:
                break
            assert time.monotonic() < deadline, "the batch never reached the hook"
        else:
            pytest.fail(f"batch ended before the hook (exit {process.wait()})")
        if while_paused:
            while_paused()
    finally:
        os.killpg(process.pid, signal.SIGKILL)  # the batch and its worker processes
        process.wait()


@pytest.fixture(scope="module")
def issued(tmp_path_factory):
    """A three-director grant stage issued once, and re-issued once (so it has history)."""
    from typer.testing import CliRunner

    from docgen.cli import app
    from tests.conftest import SAMPLES

    base = tmp_path_factory.mktemp("interrupted")
    out = base / "out"
    runner = CliRunner()
    first = write_cycle(base / "v1", SAMPLES)
    moved = write_cycle(base / "v2", SAMPLES, edit=moved_jsmith)
    for facts, as_of in ((first, GRANT_AS_OF), (moved, "2026-06-25")):
        result = runner.invoke(
            app, ["batch", str(facts), "--out", str(out), "--as-of", as_of], catch_exceptions=False
        )
        assert result.exit_code == 0, result.output
    return first, moved, out / CYCLE / "grant"


def moved_jsmith(data):
    data["directors"][0]["address"] = ["40 Cedar Road", "Richmond, VA 23226"]


def moved_rgarcia(data):
    moved_jsmith(data)
    data["directors"][1]["address"] = ["1 Capitol Square", "Richmond, VA 23219"]


def copy_of(stage: Path, tmp_path: Path) -> tuple[Path, Path]:
    out = tmp_path / "out"
    shutil.copytree(stage, out / CYCLE / "grant")
    (out / CYCLE / "returned").mkdir()
    return out, out / CYCLE / "grant"


def test_sigkill_mid_first_batch_leaves_no_stage_folder_and_a_rerun_completes(
    samples, tmp_path, cli
):
    facts = write_cycle(tmp_path, samples)
    out = tmp_path / "out"
    batch_killed_at(facts, out, "1", "--as-of", GRANT_AS_OF)
    names = [p.name for p in (out / CYCLE).iterdir()]
    assert "grant" not in names
    assert any(name.startswith(".grant.staging-") for name in names)  # it was killed mid-way
    result = cli("batch", facts, "--out", out, "--as-of", GRANT_AS_OF)
    assert result.exit_code == 0, result.output
    assert "left by an interrupted batch" in result.stderr
    assert sorted(p.name for p in (out / CYCLE).iterdir()) == ["grant", "returned"]
    assert cli("verify", out / CYCLE).exit_code == 0


def test_sigkill_during_a_forced_reissue_keeps_the_old_folder_whole(issued, tmp_path, cli):
    _, moved, stage = issued
    out, copy = copy_of(stage, tmp_path)
    batch_killed_at(moved, out, "1", "--as-of", "2026-06-25", "--force")
    assert tree(copy) == tree(stage)
    assert cli("verify", copy).exit_code == 0


def test_sigkill_during_a_reissue_with_history_keeps_the_previous_folder_and_its_history(
    issued, tmp_path, cli, samples
):
    _, _, stage = issued
    out, copy = copy_of(stage, tmp_path)
    changed = write_cycle(tmp_path / "v3", samples, edit=moved_rgarcia)
    # Only rgarcia's packet changed, so only it is rendered: killed once it is, before publishing.
    batch_killed_at(changed, out, "1", "--as-of", "2026-06-26")
    assert tree(copy) == tree(stage)  # superseded/1/ included: history survives a kill
    result = cli("batch", changed, "--out", out, "--as-of", "2026-06-26")
    assert result.exit_code == 0, result.output
    assert (
        "Re-issue 2 of" in result.stdout
        and "  rgarcia: notice, exhibit-i re-issued" in result.stdout
    )
    assert (
        tree(copy)["superseded/1/jsmith/notice.pdf"]
        == tree(stage)["superseded/1/jsmith/notice.pdf"]
    )
    assert sorted(p.name for p in (out / CYCLE).iterdir()) == ["grant", "returned"]
    assert cli("verify", copy).exit_code == 0


def test_sigkill_after_the_swap_leaves_the_new_folder_and_keeps_what_docgen_did_not_write(
    issued, tmp_path, cli, samples
):
    _, _, stage = issued
    out, copy = copy_of(stage, tmp_path)
    changed = write_cycle(tmp_path / "v3", samples, edit=moved_rgarcia)

    def someone_saves_a_file_into_the_old_folder():
        (replaced,) = (out / CYCLE).glob(".grant.replaced-*")
        (replaced / "jsmith" / "notice signed.pdf").write_bytes(b"signed")

    batch_killed_at(
        changed,
        out,
        "swap",
        "--as-of",
        "2026-06-26",
        while_paused=someone_saves_a_file_into_the_old_folder,
    )
    assert cli("verify", copy).exit_code == 0  # the new stage folder is complete
    assert (copy / "superseded" / "2" / "rgarcia" / "notice.pdf").is_file()
    result = cli("batch", changed, "--out", out, "--as-of", "2026-06-26")
    assert result.exit_code == 0, result.output
    assert "already current" in result.stdout
    (replaced,) = (out / CYCLE).glob(".grant.replaced-*")
    assert f"Kept {replaced}: it holds jsmith/notice signed.pdf" in result.stderr
    assert tree(replaced) == {"jsmith/notice signed.pdf": b"signed"}  # docgen's files cleared


def test_a_batch_killed_between_two_renames_is_put_back(issued, tmp_path, cli):
    """Where the filesystem cannot swap two folders in one step, the stage folder is set aside
    and the new one renamed in: killed in between, the next run puts the old one back."""
    first, moved, stage = issued
    out, copy = copy_of(stage, tmp_path)
    os.rename(copy, out / CYCLE / ".grant.replaced-0badf00d")
    result = cli("batch", moved, "--out", out, "--as-of", "2026-06-25")
    assert result.exit_code == 0, result.output
    assert f"Put back {copy}" in result.stderr and "already current" in result.stdout
    assert tree(copy) == tree(stage)


def test_a_reissue_where_folders_cannot_be_swapped_in_one_step(
    issued, tmp_path, cli, monkeypatch, samples
):
    """Off Linux (no renameat2) the two-rename path publishes the same folder, clears the old."""
    from docgen.issue import files

    _, _, stage = issued
    out, copy = copy_of(stage, tmp_path)
    monkeypatch.setattr(files, "_exchange", lambda a, b: False)
    changed = write_cycle(tmp_path / "v3", samples, edit=moved_rgarcia)
    result = cli("batch", changed, "--out", out, "--as-of", "2026-06-26", "--workers", "1")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (out / CYCLE).iterdir()) == ["grant", "returned"]
    assert (copy / "superseded" / "2" / "rgarcia" / "notice.pdf").is_file()
    assert cli("verify", copy).exit_code == 0
