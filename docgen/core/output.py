"""Writing a command's output atomically: a report or a calendar where the user asked, and the
files `docgen intake` updates (all of them or none); never over a file the command read."""

from __future__ import annotations

import fcntl
import os
import re
import secrets
import stat
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from docgen.core.errors import DocgenError
from docgen.core.permissions import private_files, refuse_unsafe_link


class OutputError(DocgenError, OSError):
    """The report could not be written where asked. Exit code 2."""


# The inputs of the command running now (the facts files it loaded, their rosters, CSVs and
# templates folder), noted by the loader while a command runs (:func:`inputs_of_one_command`,
# entered by every command's decorator): no output of that command may be written over one. Scoped
# to one command, so nothing is kept from one run (or one in-process test) to the next.
_INPUTS: ContextVar[dict[Path, str] | None] = ContextVar("docgen_inputs", default=None)


@contextmanager
def inputs_of_one_command() -> Iterator[None]:
    """While this is entered, every facts file loaded notes its inputs (:func:`note_inputs`),
    and every output written (:func:`check_target`) is refused when it is one of them."""
    token = _INPUTS.set({})
    try:
        yield
    finally:
        _INPUTS.reset(token)


def note_inputs(inputs: Mapping[Path, str]) -> None:
    """Note files and folders the running command read (each with what it is, for a message)."""
    noted = _INPUTS.get()
    if noted is not None:
        noted.update(inputs)


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))


def refuse_overwriting(
    target: Path, option: str, inputs: Mapping[Path, str] | None = None, *, folder: bool = False
) -> None:
    """Refuse (exit 2, naming the input) to write ``target`` when it is an input the command read
    (``inputs``, else those noted while it runs): the facts file, a roster, a CSV or workbook of
    filings, a file of the templates folder, or, for a folder written whole (``folder``: a stage
    folder, a Form 4 drafts folder), one that holds any of them. A link or a second hard link to
    an input is the input."""
    noted = _INPUTS.get() if inputs is None else inputs
    if not noted:
        return
    real = _real(target)
    try:
        identity = os.stat(target)
    except OSError:
        identity = None
    for path, what in noted.items():
        source = _real(path)
        same = source == real
        if not same and identity is not None:
            try:
                same = os.path.samestat(identity, os.stat(source))
            except OSError:
                same = False
        inside_folder_read = source.is_dir() and real.is_relative_to(source)
        holds = folder and source.is_relative_to(real)
        if same or inside_folder_read or holds:
            relation = "is" if same else "holds" if holds else "is inside"
            raise OutputError(
                f"{option} {target}: {relation} {what} ({path}), which this command reads; "
                "docgen never writes over its own input, and nothing was written. "
                "Name another place to write."
            )


def check_target(path: Path, example: str | None = None, option: str = "-o") -> None:
    """``-o PATH`` names a file in a folder that exists, and not a file the command reads
    (:func:`refuse_overwriting`): said before any work is done, and again as it is written.
    ``example``: a file name to suggest inside the folder a user named instead."""
    refuse_overwriting(path, option)
    if path.is_dir():
        inside = f", such as {path / example}" if example else " in it, or elsewhere"
        raise OutputError(f"{path}: is a folder. Name the file to write{inside}.")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise OutputError(f"{path}: no folder {folder}. Create it first, or write elsewhere.")
    refuse_unsafe_link(path, option)  # another user's link, or one in or into a sticky folder


def write_atomically(path: Path, data: bytes) -> None:
    """Write a file the user named (``-o PATH``) whole or not at all: a temporary file beside
    it, synced, then renamed over it. A new file is made without world access (0640 under the
    usual umask: docgen.core.permissions), or keeps the mode of the file it replaces; a failure
    leaves no temporary behind.

    A link to a file replaces the file it names and stays a link, when it is the user's own and
    neither lies in nor leads into a sticky folder (else it is refused: check_target). What is
    not a file on disk (a terminal, a pipe, /dev/stdout) is written into as it stands: renamed
    over, it would be gone.
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
        with private_files(), open(temporary, "xb") as stream:
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


TEMPORARY_MARK = ".docgen-"  # in the name of every temporary a recording run writes
_LEGACY_TEMPORARY = re.compile(r"^\.(?P<name>.+)\.[a-z0-9_]{8}\.tmp$")  # tempfile's, before


def _temporary_name(target: Path) -> str:
    return f".{target.name}{TEMPORARY_MARK}{secrets.token_hex(6)}.tmp"


def remove_stale_temporaries(targets: list[Path]) -> None:
    """Remove what a recording run killed before its rename left beside ``targets`` (a full
    copy of the facts): safe only under the recording lock, which every run that writes them
    holds while they exist."""
    for target in targets:
        real = Path(os.path.realpath(target))
        try:
            names = os.listdir(real.parent)
        except OSError:
            continue
        for name in names:
            ours = name.startswith(f".{real.name}{TEMPORARY_MARK}") and name.endswith(".tmp")
            legacy = _LEGACY_TEMPORARY.match(name)
            if ours or (legacy is not None and legacy["name"] == real.name):
                (real.parent / name).unlink(missing_ok=True)


@contextmanager
def recording_lock(path: Path) -> Iterator[None]:
    """Hold the lock every run recording filings into the facts file ``path`` takes before it
    reads any file (the facts file and its rosters alike): a second run is refused at once
    rather than losing one of the two updates or reading a file half-way through another's
    change. The lock (flock) is on the file as it stands; a run that replaced it meanwhile
    leaves a new file, so the lock is taken again until it is on the file the name gives."""
    lock = _locked(path)
    try:
        yield
    finally:
        if lock is not None:
            fcntl.flock(lock, fcntl.LOCK_UN)
            os.close(lock)


def _locked(path: Path) -> int | None:
    """An open descriptor of ``path`` holding its flock; None when there is no file to lock
    (the load then says what is wrong, with its own message)."""
    for _ in range(20):
        try:  # non-blocking: opening a FIFO named as the facts file must not wait for a writer
            lock = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        except OSError:
            return None
        if not stat.S_ISREG(os.fstat(lock).st_mode):
            os.close(lock)
            return None  # not a regular file: the load refuses it, with its own message
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(lock)
            raise ChangedMeanwhile(
                f"{path}: another docgen run is recording into this file; nothing was "
                "written. Run again when it has finished."
            ) from None
        try:
            same = os.fstat(lock).st_ino == os.stat(path).st_ino
        except OSError:
            same = False  # removed since opened: look again
        if same:
            return lock
        os.close(lock)  # replaced since opened: lock the file the name gives now
    raise ChangedMeanwhile(f"{path}: keeps changing; nothing was written. Run again.")


class ReadOnly(DocgenError):
    """A file to record into is set read-only, or its owner could not be kept. Exit code 2:
    nothing was written."""


def refuse_read_only(paths: list[Path]) -> None:
    """A facts file (or roster) its owner set read-only (mode 444) is not rewritten, even by a
    user the permissions do not stop (root): read-only says the file is not to change."""
    for path in paths:
        mode = os.stat(path).st_mode
        if not mode & stat.S_IWUSR:
            raise ReadOnly(
                f"{path}: is read-only (mode {stat.S_IMODE(mode):04o}); docgen does not record "
                "into a file set read-only, and nothing was written. Make it writable "
                f"(chmod u+w {path}) if these filings are to be recorded in it."
            )


def _keep_mode_and_owner(temporary: Path, original: Path) -> None:
    """The new file gets the mode, owner and group of the file it replaces; where this user
    cannot give it that owner (another user's file), nothing is replaced."""
    info = os.stat(original)
    os.chmod(temporary, stat.S_IMODE(info.st_mode))
    mine = os.stat(temporary)
    if (mine.st_uid, mine.st_gid) == (info.st_uid, info.st_gid):
        return
    try:
        os.chown(temporary, info.st_uid, info.st_gid)
    except PermissionError:
        raise ReadOnly(
            f"{original}: belongs to another user (uid {info.st_uid}, gid {info.st_gid}), and "
            "replacing it would make it this user's; nothing was written. Record into it as "
            "its owner."
        ) from None


def replace_files(contents: dict[Path, bytes], read: dict[Path, bytes]) -> None:
    """Replace several files with new contents, all or none: each new file is written and
    synced beside its target first, and only then are they renamed over the targets. A rename is
    atomic, so each file is always whole, old or new; only a crash in the instant between two
    renames (a facts file and its roster) could leave the first new and the second old.

    The caller holds the recording lock (:func:`recording_lock`), taken before it read any of
    the files. ``read`` holds each file's bytes as they were read; if any differs now (an editor
    saving), nothing is replaced. Each file keeps its permissions. A file reached through a link
    is replaced where it is, and the link stays. The temporaries are named so that a later run
    removes any a killed run left (:func:`remove_stale_temporaries`).
    """
    paths = list(contents)
    where = {path: Path(os.path.realpath(path)) if path.is_symlink() else path for path in paths}
    temporaries: list[tuple[Path, Path]] = []
    refuse_read_only(paths)
    for path in paths:
        if path.read_bytes() != read[path]:
            raise ChangedMeanwhile(
                f"{path}: changed while docgen was reading it; nothing was written. "
                "Run the command again."
            )
    try:
        for path in paths:
            target = where[path]
            temporary = target.parent / _temporary_name(target)
            handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            temporaries.append((temporary, target))
            with os.fdopen(handle, "wb") as stream:
                stream.write(contents[path])
                stream.flush()
                os.fsync(stream.fileno())
            _keep_mode_and_owner(temporary, path)
        for temporary, path in temporaries:
            os.replace(temporary, path)
        for folder in {target.parent for target in where.values()}:
            fsync_dir(folder)
    except OSError as error:
        raise OutputError(
            f"{error.filename or paths[0]}: cannot write ({error.strerror}); nothing was written."
        ) from None
    finally:
        for temporary, _ in temporaries:
            temporary.unlink(missing_ok=True)
