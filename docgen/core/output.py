"""Writing a command's output atomically: a report or a calendar where the user asked, and the
files `docgen intake` updates (all of them or none)."""

from __future__ import annotations

import fcntl
import os
import secrets
import stat
import tempfile
from pathlib import Path

from docgen.core.errors import DocgenError


class OutputError(DocgenError, OSError):
    """The report could not be written where asked. Exit code 2."""


def check_target(path: Path, example: str | None = None) -> None:
    """``-o PATH`` names a file in a folder that exists: said before any work is done.
    ``example``: a file name to suggest inside the folder a user named instead."""
    if path.is_dir():
        inside = f", such as {path / example}" if example else " in it, or elsewhere"
        raise OutputError(f"{path}: is a folder. Name the file to write{inside}.")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise OutputError(f"{path}: no folder {folder}. Create it first, or write elsewhere.")


def write_atomically(path: Path, data: bytes) -> None:
    """Write a file the user named (``-o PATH``) whole or not at all: a temporary file beside
    it, synced, then renamed over it. The file gets the permissions any new file gets (the
    umask's), or keeps those of the file it replaces; a failure leaves no temporary behind.

    A link to a file replaces the file it names and stays a link. What is not a file on disk (a
    terminal, a pipe, /dev/stdout) is written into as it stands: renamed over, it would be gone.
    """
    check_target(path)
    try:
        existing = os.stat(path)  # through a link
    except FileNotFoundError:
        existing = None
    except OSError as error:
        raise OutputError(f"{path}: cannot write ({error.strerror}).") from None
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        try:
            with open(path, "wb") as stream:
                stream.write(data)
        except OSError as error:
            raise OutputError(f"{path}: cannot write ({error.strerror}).") from None
        return
    if existing is not None and path.is_symlink():
        path = Path(os.path.realpath(path))
    folder = path.parent if str(path.parent) else Path(".")
    temporary = folder / f".{path.name}.{secrets.token_hex(4)}.tmp"
    made = False  # the temporary is ours to remove (an existing file of that name never is)
    try:
        with open(temporary, "xb") as stream:
            made = True
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        if path.exists():
            os.chmod(temporary, stat.S_IMODE(path.stat().st_mode))
        os.replace(temporary, path)
        made = False
        fsync_dir(folder)
    except OSError as error:
        raise OutputError(f"{path}: cannot write ({error.strerror}).") from None
    finally:
        if made:
            temporary.unlink(missing_ok=True)


def fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable (its directory entry on disk)."""
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def write_report(path: Path, text: str) -> None:
    """Write a report (or any text output) atomically, as given (an .ics keeps its CRLF)."""
    write_atomically(path, text.encode("utf-8"))


class ChangedMeanwhile(DocgenError, RuntimeError):
    """A file changed between docgen reading it and replacing it (another run, an editor).
    Exit code 2: nothing was written."""


def replace_files(contents: dict[Path, bytes], read: dict[Path, bytes]) -> None:
    """Replace several files with new contents, all or none: each new file is written and
    synced beside its target first, and only then are they renamed over the targets. A rename is
    atomic, so each file is always whole, old or new; only a crash in the instant between two
    renames (a facts file and its roster) could leave the first new and the second old.

    ``read`` holds each file's bytes as they were read; if any differs now (another docgen
    run, an editor saving), nothing is replaced. Each file keeps its permissions. A lock on the
    first file stops a second run at once rather than losing one of the two updates. A file
    reached through a link is replaced where it is, and the link stays.
    """
    paths = list(contents)
    where = {path: Path(os.path.realpath(path)) if path.is_symlink() else path for path in paths}
    temporaries: list[tuple[Path, Path]] = []
    lock = os.open(paths[0], os.O_RDONLY)
    try:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ChangedMeanwhile(
                f"{paths[0]}: another docgen run is recording into this file; nothing was "
                "written. Run again when it has finished."
            ) from None
        for path in paths:
            if path.read_bytes() != read[path]:
                raise ChangedMeanwhile(
                    f"{path}: changed while docgen was reading it; nothing was written. "
                    "Run the command again."
                )
        try:
            for path in paths:
                target = where[path]
                handle, name = tempfile.mkstemp(
                    dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
                )
                temporary = Path(name)
                temporaries.append((temporary, target))
                with os.fdopen(handle, "wb") as stream:
                    stream.write(contents[path])
                    stream.flush()
                    os.fsync(stream.fileno())
                os.chmod(temporary, stat.S_IMODE(path.stat().st_mode))
            for temporary, path in temporaries:
                os.replace(temporary, path)
            for folder in {target.parent for target in where.values()}:
                fsync_dir(folder)
        except OSError as error:
            raise OutputError(
                f"{error.filename or paths[0]}: cannot write ({error.strerror}); nothing was "
                "written."
            ) from None
        finally:
            for temporary, _ in temporaries:
                temporary.unlink(missing_ok=True)
    finally:
        fcntl.flock(lock, fcntl.LOCK_UN)
        os.close(lock)
