"""Opening only a regular file: every file docgen reads that a user or a folder names (a facts
file, its roster, a template override, a returned form, an issued file) is read through here.

What could be there instead, and what happens to it:

- a FIFO would block the open (and the read) until someone writes to it, so docgen would hang;
- a device such as /dev/zero would read until memory runs out, and opening some devices acts
  (a tape rewinds, a terminal becomes the process's controlling terminal);
- a socket cannot be opened at all, and a folder is not a file to read.

So the path is looked at first (`stat`, or `lstat` where a link is refused) and anything but a
regular file is refused without being opened. Because the path can be swapped between that look
and the open, the open itself never blocks (``O_NONBLOCK``: a FIFO opens at once), never makes a
terminal the controlling one (``O_NOCTTY``), never follows a link where links are refused
(``O_NOFOLLOW``), and the opened descriptor is looked at again (`fstat`) before a byte is read.
Only then is ``O_NONBLOCK`` cleared, for an ordinary read.

Each caller words its own refusals; the exceptions here say which case it is.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO


class NotARegularFile(OSError):
    """The path is a folder, a device, a FIFO or a socket (or a link, where links are refused)."""

    def __init__(self, path: Path | str, mode: int):
        super().__init__(f"{path}: not a regular file")
        self.path = path
        self.mode = mode

    @property
    def folder(self) -> bool:
        return stat.S_ISDIR(self.mode)


class TooLarge(OSError):
    """The file holds more than the caller's limit. ``size`` is its size on disk when that showed
    it, None when the file grew past the limit as it was read."""

    def __init__(self, path: Path | str, size: int | None, limit: int):
        super().__init__(f"{path}: larger than {limit:,} bytes")
        self.path = path
        self.size = size
        self.limit = limit


class OpenFailed(OSError):
    """The path is a regular file, but opening it failed (its permissions, most often); the
    ``errno`` and ``strerror`` are the open's. An error in looking at the path itself (no such
    file, a folder on the way that cannot be searched) is raised as the plain OSError instead."""


def unreadable(error: OSError) -> str:
    """Why a file could not be read, in a message's words: the system's reason, or what the
    path is instead of a regular file."""
    if isinstance(error, NotARegularFile):
        if error.folder:
            return "a folder, not a file"
        return "a FIFO, device or socket, not a regular file"
    return error.strerror or str(error)


_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)


def open_regular(path: Path | str, *, follow_links: bool = True) -> BinaryIO:
    """``path`` opened for reading in binary, if it is a regular file (see the module's
    docstring); with ``follow_links=False`` a symbolic link is refused too, never followed.

    Raises FileNotFoundError or another OSError when the path cannot be looked at,
    NotARegularFile, or OpenFailed."""
    return _open(path, follow_links, None)


def read_regular(path: Path | str, *, limit: int | None = None, follow_links: bool = True) -> bytes:
    """The bytes of ``path`` if it is a regular file, as `open_regular` opens it; with a
    ``limit``, TooLarge when the file holds more than that many bytes (found before it is opened,
    or as it is read: never more than one byte past the limit is read, however it grows)."""
    with _open(path, follow_links, limit) as handle:
        data = handle.read() if limit is None else handle.read(limit + 1)
    if limit is not None and len(data) > limit:
        raise TooLarge(path, None, limit)
    return data


def _open(path: Path | str, follow_links: bool, limit: int | None) -> BinaryIO:
    info = os.stat(path) if follow_links else os.lstat(path)
    if not stat.S_ISREG(info.st_mode):
        raise NotARegularFile(path, info.st_mode)
    if limit is not None and info.st_size > limit:
        raise TooLarge(path, info.st_size, limit)
    try:
        fd = os.open(path, _FLAGS if follow_links else _FLAGS | os.O_NOFOLLOW)
    except OSError as error:
        raise OpenFailed(error.errno, error.strerror, str(path)) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):  # swapped since the look above
            raise NotARegularFile(path, mode)
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")
