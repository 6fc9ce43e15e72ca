"""No process left behind (issue 13): a batch's worker processes die with it, however it dies,
and the output folder's lock dies with them, so the next batch runs at once.

Only the batch's own process is signalled here (never its process group): that is what
`kill -9 PID`, a closed terminal or a service manager's SIGTERM does, and what left workers
running with the lock before.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.test_batch import CYCLE, GRANT_AS_OF, write_cycle

# Every test here kills batches and their workers: slow (`make test-fast` leaves them out).
pytestmark = pytest.mark.slow

DOCGEN = Path(sys.executable).parent / "docgen"


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid:
            found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _batch_paused_with_workers(facts: Path, out: Path) -> tuple[subprocess.Popen, list[int]]:
    """A batch paused after its first packet (the test hook), with its worker processes."""
    env = {**os.environ, "DOCGEN_TEST_PAUSE_AFTER": "1", "DOCGEN_TEST_PAUSE_SECONDS": "120"}
    command = [
        str(DOCGEN),
        "batch",
        str(facts),
        "--out",
        str(out),
        "--as-of",
        GRANT_AS_OF,
        "--workers",
        "2",
    ]
    process = subprocess.Popen(
        command,
        env=env,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        start_new_session=True,  # so the test can clean up the whole group whatever happens
    )
    deadline = time.monotonic() + 240
    for line in process.stderr:
        if "test hook: paused after packet 1" in line:
            break
        assert time.monotonic() < deadline, "the batch never reached its first packet"
    else:
        pytest.fail(f"batch ended before the hook (exit {process.wait()})")
    workers = _children(process.pid)
    assert workers, "the batch renders in worker processes"
    return process, workers


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "kill-TERM"])
def test_workers_die_with_the_batch_and_the_next_batch_runs_at_once(samples, tmp_path, cli, how):
    facts = write_cycle(tmp_path, samples, directors=4)
    out = tmp_path / "out"
    process, workers = _batch_paused_with_workers(facts, out)
    try:
        os.kill(process.pid, how)  # the batch alone, as `kill PID` does
        process.wait(timeout=60)
        deadline = time.monotonic() + 20
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in workers if _alive(pid)], "a worker outlived its batch"
        result = cli("batch", facts, "--out", out, "--as-of", GRANT_AS_OF)
        assert result.exit_code == 0, result.output
        assert "another docgen batch" not in result.output
        assert [p.name for p in out.iterdir()] == [CYCLE]
        assert cli("verify", out / CYCLE).exit_code == 0
    finally:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_a_terminated_batch_cleans_up_after_itself(samples, tmp_path):
    """SIGTERM stops a batch as Ctrl-C does: workers stopped, its staging folder removed."""
    facts = write_cycle(tmp_path, samples, directors=4)
    out = tmp_path / "out"
    process, _ = _batch_paused_with_workers(facts, out)
    try:
        os.kill(process.pid, signal.SIGTERM)
        assert process.wait(timeout=60) == 128 + signal.SIGTERM
        assert "Stopped by SIGTERM; nothing was issued." in process.stderr.read()
        assert not out.exists(), "no staging folder left; OUT, which the batch made, removed"
    finally:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_the_lock_is_held_by_the_batch_alone_not_its_workers(samples, tmp_path):
    """A worker closes its copy of the lock: were it orphaned, it could not block a rerun."""
    facts = write_cycle(tmp_path, samples, directors=4)
    out = tmp_path / "out"
    process, workers = _batch_paused_with_workers(facts, out)
    try:
        inode = os.stat(out).st_ino
        for pid in workers:
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                try:
                    target = os.stat(fd)
                except OSError:
                    continue
                assert target.st_ino != inode, f"worker {pid} holds the OUT folder open"
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
