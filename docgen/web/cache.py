"""The results a page shows, kept in memory for the server's lifetime by the SHA-256 of every
file they were made from: a page after an edit checks again once, every other page is quick."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_DIGESTS: dict[tuple[str, int, int, int], bytes] = {}  # a file's SHA-256 by its stat


def _digest(file: Path) -> bytes:
    """A file's SHA-256, read again only when its size, time or inode has changed (as git's
    index does): a page asks for it several times and a 10,000-row roster is megabytes."""
    try:
        stat = file.stat()
    except OSError:
        return b"missing"
    key = (str(file), stat.st_size, stat.st_mtime_ns, stat.st_ino)
    digest = _DIGESTS.get(key)
    if digest is None:
        try:
            digest = hashlib.sha256(file.read_bytes()).digest()
        except OSError:
            return b"missing"
        _DIGESTS[key] = digest
    return digest


def fingerprint(files: Sequence[Path]) -> str:
    """The SHA-256 of the files' names and bytes (a missing file counts as such)."""
    digest = hashlib.sha256()
    for file in files:
        digest.update(str(file).encode() + b"\0")
        digest.update(_digest(file))
    return digest.hexdigest()


KEPT = 64  # results kept at most (each filter of a page is one): memory stays bounded


@dataclass
class _Entry:
    files: list[Path]
    sha256: str
    value: Any


class Results:
    """One result per key, made again when any file it was made from has changed."""

    def __init__(self) -> None:
        self._entries: dict[Hashable, _Entry] = {}
        self._lock = threading.RLock()  # a result may be made from another (the check's)
        self.made = 0  # how many times a result was made (the tests count the re-checks)

    def get(
        self, key: Hashable, make: Callable[[], tuple[Any, Sequence[Path]]], extra: str = ""
    ) -> Any:
        """The result for ``key``; ``make`` returns it and the files it read. ``extra``: what
        else the result depends on (the issued folders' manifests)."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and fingerprint(entry.files) + extra == entry.sha256:
                # the least recently used goes first: the check, used by every page, stays
                self._entries[key] = self._entries.pop(key)
                return entry.value
            value, files = make()
            self.made += 1
            self._entries.pop(key, None)
            self._entries[key] = _Entry(list(files), fingerprint(list(files)) + extra, value)
            while len(self._entries) > KEPT:
                self._entries.pop(next(iter(self._entries)))
            return value

    def forget(self) -> None:
        with self._lock:
            self._entries.clear()
