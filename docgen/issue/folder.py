"""Reading an issued folder without trusting what is in it: regular files only, never through a
symbolic link and never blocking on a FIFO; an inventory that opens nothing; manifest paths
confined to the folder."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from docgen.core.safe_open import NotARegularFile, open_regular


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open_regular(path, follow_links=False) as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


_LISTED_FLAGS = (
    os.O_RDONLY
    | os.O_NONBLOCK
    | os.O_NOCTTY
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_NOFOLLOW", 0)
)


def size_and_sha256(path: str) -> tuple[int, str]:
    """The size and SHA-256 of a file an inventory found regular (``inventory``'s listing is the
    look before the open that docgen.core.safe_open takes): opened without following a link,
    blocking on a FIFO or taking a terminal, and looked at again before a byte is read. One
    descriptor and no file object a file, because a re-issue hashes every file its folder lists
    (issue 27). OSError (NotARegularFile among them) when it is no longer a regular file."""
    if not hasattr(os, "O_NOFOLLOW"):  # no such flag here: the careful open, then its size
        return os.lstat(path).st_size, sha256_file(Path(path))
    fd = os.open(path, _LISTED_FLAGS)
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise NotARegularFile(path, status.st_mode)
        digest = hashlib.sha256()
        while chunk := os.read(fd, 1 << 20):
            digest.update(chunk)
        return status.st_size, digest.hexdigest()
    finally:
        os.close(fd)


def read_issued(path: Path) -> bytes:
    with open_regular(path, follow_links=False) as handle:
        return handle.read()


def is_regular_file(path: Path) -> bool:
    """``path`` itself (not what a link there leads to) is a regular file."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def inside(name: object) -> bool:
    """True when a manifest path names a file inside the folder: relative, POSIX, no ``..``,
    ``.`` or empty part, no backslash or NUL."""
    if not isinstance(name, str) or not name or "\\" in name or "\x00" in name:
        return False
    parts = name.split("/")  # an absolute POSIX path starts with "/": its first part is empty
    return all(p not in ("", ".", "..") for p in parts)


def inventory(folder: Path) -> dict[str, str]:
    """Every entry under ``folder`` by relative path: ``file``, ``folder``, ``link`` or ``other``
    (a FIFO, socket or device). Links are listed, never followed; nothing is opened."""
    found: dict[str, str] = {}
    stack = [(folder, "")]
    while stack:
        here, prefix = stack.pop()
        with os.scandir(here) as entries:
            for entry in entries:
                name = f"{prefix}{entry.name}"
                if entry.is_symlink():
                    found[name] = "link"
                elif entry.is_dir(follow_symlinks=False):
                    found[name] = "folder"
                    stack.append((Path(entry.path), f"{name}/"))
                elif entry.is_file(follow_symlinks=False):
                    found[name] = "file"
                else:
                    found[name] = "other"
    return found
