"""Writing issued files safely: fsync, an atomic swap of a whole folder, stale staging folders
found, and an exclusive lock on the output folder."""

from __future__ import annotations

import ctypes
import errno
import fcntl
import hashlib
import os
import shutil
import sys
from pathlib import Path
from typing import Any

from docgen.core.errors import DocgenError
from docgen.core.output import fsync_dir
from docgen.issue.layout import REPLACED, STAGING, beside, beside_pattern


class BadRequest(DocgenError):
    """A request docgen cannot carry out as asked (an unknown document or subject). Exit code 2."""


def write_file(path: Path, data: bytes, *, sync: bool = True) -> dict[str, Any]:
    """Write ``data`` to a new file (fsynced unless the caller syncs the whole tree later);
    return its manifest entry."""
    with open(path, "wb") as handle:
        handle.write(data)
        if sync:
            handle.flush()
            os.fsync(handle.fileno())
    return {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}


def sync_tree(root: Path) -> None:
    """Flush a staging folder to disk before it is published.

    One syncfs(2) of the folder's filesystem replaces an fsync per file (hundreds of them in a
    batch); where syncfs is unavailable, every file and folder is fsynced.
    """
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        if sys.platform.startswith("linux"):
            try:
                if ctypes.CDLL(None, use_errno=True).syncfs(fd) == 0:
                    return
            except (OSError, AttributeError):
                pass
    finally:
        os.close(fd)
    for path in sorted(root.rglob("*")):
        if path.is_file():
            with open(path, "rb") as handle:
                os.fsync(handle.fileno())
        else:
            fsync_dir(path)
    fsync_dir(root)


_RENAME_EXCHANGE = 2


def _exchange(a: Path, b: Path) -> bool:
    """Swap two folders in one step (Linux renameat2 RENAME_EXCHANGE); False where unsupported."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd = -100
    result = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), _RENAME_EXCHANGE)
    if result == 0:
        return True
    if ctypes.get_errno() in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False
    raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()), str(a))


def swap_in(staging: Path, target: Path) -> Path | None:
    """Make the complete ``staging`` folder ``target`` in one step. Returns where the folder it
    replaced now is (beside ``target``, named as replaced, for the caller to clear), or None
    when there was none. Killed at any point, this leaves ``target`` whole (old or new) or, between
    the two renames of the fallback, no ``target`` and complete replaced folders to put back."""
    if not target.exists():
        os.rename(staging, target)
        fsync_dir(target.parent)
        return None
    # Named as replaced before the swap, so that whichever folder it holds when a kill comes,
    # the next run clears it file by file rather than removing it as a staging folder.
    replaced = beside(target.parent, target.name, REPLACED)
    os.rename(staging, replaced)
    if not _exchange(replaced, target):
        # Two renames: between them there is no folder at all, never a partial one.
        incoming, replaced = replaced, beside(target.parent, target.name, REPLACED)
        os.rename(target, replaced)
        os.rename(incoming, target)
    fsync_dir(target.parent)
    return replaced


def _ours(folder: Path, name: str, prefix: str) -> list[Path]:
    """The folders beside ``folder/name`` that docgen itself made as ``prefix`` (STAGING or
    REPLACED): the exact name docgen.issue.layout.beside gives, a real folder (never a link to
    one), owned by this user. A user's look-alike (``.grant.staging-notes``) is not one."""
    pattern = beside_pattern(name, prefix)
    found = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if not pattern.fullmatch(entry.name) or entry.is_symlink():
                continue
            if entry.is_dir(follow_symlinks=False) and (
                entry.stat(follow_symlinks=False).st_uid == os.getuid()
            ):
                found.append(Path(entry.path))
    return sorted(found)


def replaced_folders(folder: Path, name: str) -> list[Path]:
    """The folders a swap left beside ``folder/name``, replaced (see swap_in), docgen's own only."""
    return _ours(folder, name, REPLACED)


def remove_stale(folder: Path, name: str) -> list[Path]:
    """Staging folders an interrupted run left beside ``folder/name``, removed. Everything in one
    is a file docgen wrote, or a second link to a file that stays where it was; replaced folders
    (which may hold the only copy of an issue) are the caller's to put back or clear. Only
    docgen's own (_ours), and nothing is reported removed that is still there."""
    removed = []
    for path in _ours(folder, name, STAGING):
        shutil.rmtree(path, ignore_errors=True)  # rmtree never follows a link inside it
        if not os.path.lexists(path):
            removed.append(path)
    return removed


_HELD_LOCKS: set[int] = set()  # lock fds this process holds; a forked worker closes its copies


def close_inherited_locks() -> None:
    """In a forked worker: close the copies of the batch's lock fds it inherited.

    An flock belongs to the open file, shared by every process holding a copy of the fd, and the
    kernel frees it only when the last copy closes. A worker that kept its copy and outlived the
    batch (kill -9 of the batch alone) would hold the folder locked for ever.
    """
    for fd in list(_HELD_LOCKS):
        try:
            os.close(fd)
        except OSError:
            pass
    _HELD_LOCKS.clear()


def lock_holder(folder: Path) -> int | None:
    """The pid holding an flock on ``folder``, from Linux /proc/locks; None when unknown."""
    try:
        info = os.stat(folder)
        lines = Path("/proc/locks").read_text().splitlines()
    except OSError:
        return None
    device = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    for line in lines:
        fields = line.split()
        if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5] == device:
            return int(fields[4]) if fields[4].isdigit() else None
    return None


class OutLock:
    """An exclusive lock on OUT, so two batches never publish into the same folder at once.

    The lock is the kernel's (flock) on the folder itself: it is released when the process
    holding it dies, however it dies, so a lock can never be left behind by a dead batch (its
    workers do not hold it: docgen.issue.pool closes their copies).
    """

    def __init__(self, out: Path):
        self.out = out
        self.fd: int | None = None

    def __enter__(self) -> OutLock:
        self.fd = os.open(self.out, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self.fd)
            holder = lock_holder(self.out)
            who = f" (process {holder})" if holder else ""
            raise BadRequest(
                f"{self.out}: another docgen batch{who} is writing into this folder; "
                "wait for it to finish, or choose another --out."
            ) from None
        _HELD_LOCKS.add(self.fd)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            _HELD_LOCKS.discard(self.fd)
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
