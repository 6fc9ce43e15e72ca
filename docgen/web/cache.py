"""The workspace's results, in memory for the server's lifetime only (nothing is kept on disk):
per facts file, one version by the SHA-256 of the facts and every file they read, loaded once,
checked once per day asked, and every result a screen shows made from it the first time a screen
asks and shared by all of them, so a page after an edit loads and checks once."""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from pathlib import Path
from typing import Any

VERSIONS = 4  # facts files kept at once: a 10,000-person cycle's results are hundreds of MB
VIEWS = 64  # results kept per version (each filter of a page is one), least recently used first
# The versions one request has used, by facts file: a page is made from one version throughout
# (a file written while it renders shows on the next page), and its files are hashed once.
_REQUEST: contextvars.ContextVar[dict[Path, Version] | None] = contextvars.ContextVar(
    "docgen_web_request", default=None
)


def _file_digest(file: Path) -> bytes:
    try:
        return hashlib.sha256(file.read_bytes()).digest()
    except OSError:  # missing or unreadable: counts as such, and the load will say why
        return b"missing"


def fingerprint(files: Sequence[Path]) -> str:
    """The SHA-256 of the files' names and bytes, a folder (the company's templates) by the name
    and bytes of every file in it. Read afresh on every request, never trusted to a file's size
    and time (an edit within the same clock tick keeps both): 10,000 participants' four CSVs
    hash in a few milliseconds."""
    sha = hashlib.sha256()
    for file in files:
        sha.update(str(file).encode() + b"\0")
        if file.is_dir():
            for inner in sorted(p for p in file.rglob("*") if p.is_file()):
                sha.update(str(inner.relative_to(file)).encode() + b"\0" + _file_digest(inner))
        else:
            sha.update(_file_digest(file))
    return sha.hexdigest()


class Version:
    """One version of a facts file (and every file it reads): the facts as loaded, and each
    result made from them (the check of a day, status, calendar, compute, payroll and the views
    of them), each made the first time it is asked for."""

    def __init__(self, files: Sequence[Path], sha256: str, loaded: Any, lock: threading.RLock):
        self.files = tuple(files)
        self.sha256 = sha256  # "" when a file changed while it was read: loaded again next time
        self.loaded = loaded
        self._lock = lock
        self._made: OrderedDict[Hashable, Any] = OrderedDict()
        self._working: set[Hashable] = set()  # results being made in a thread of their own

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """The result ``key`` of this version, made by ``make`` if it is not kept."""
        with self._lock:
            if key in self._made:
                self._made.move_to_end(key)
                return self._made[key]
            value = make()
            self._made[key] = value
            while len(self._made) > VIEWS:
                self._made.popitem(last=False)
            return value

    def started(self, key: Hashable, make: Callable[[], Any]) -> tuple[bool, Any]:
        """``(True, result)`` when the result ``key`` is kept; else ``(False, None)``, with
        ``make`` set to work in a thread of its own (once per version), its result kept when done:
        a page that must not wait for it says so and asks again. What ``make`` raised is raised
        to every page that asks for it afterwards, as a result made at once would have been."""
        with self._lock:
            if key in self._made:
                self._made.move_to_end(key)
                kept = self._made[key]
                if isinstance(kept, _Failed):
                    raise kept.error
                return True, kept
            if key in self._working:
                return False, None
            self._working.add(key)

        def work() -> None:
            # What ends the thread without a result (SystemExit from a library, say) is kept as
            # a failure too: the page that waits for it must stop asking, not refresh for ever.
            value: Any = _Failed(RuntimeError("the work stopped before it gave a result"))
            try:
                value = make()  # outside the lock: every other page is answered meanwhile
            except Exception as error:  # kept, and raised to the page that asks next
                value = _Failed(error)
            finally:
                with self._lock:
                    self._working.discard(key)
                    self._made[key] = value
                    while len(self._made) > VIEWS:
                        self._made.popitem(last=False)

        threading.Thread(target=work, name=f"docgen-serve {key!r}", daemon=True).start()
        return False, None


class _Failed:
    """What a result made in a thread raised."""

    def __init__(self, error: Exception):
        self.error = error


class Results:
    """Every facts file's current version. ``load`` reads a facts file (`docgen check`'s load);
    ``files`` names every file and folder a load read."""

    def __init__(self, load: Callable[[Path], Any], files: Callable[[Any], Sequence[Path]]):
        self._load = load
        self._files = files
        self._versions: OrderedDict[Path, Version] = OrderedDict()
        # One lock for all: a result may be made from another (status from the check), and the
        # workspace's pages are answered one at a time anyway (synchronous work in async routes).
        self._lock = threading.RLock()
        self.loads = 0  # how many times a facts file was loaded (the tests count them)
        # results made from no facts file (the issued folders' manifests), by what they were
        # made from; bounded as a version's results are
        self._outside = Version((), "", None, self._lock)

    def version(self, path: Path) -> Version:
        """``path``'s version as its files stand now: the one kept, or loaded again when the
        SHA-256 of the facts or of any file they read has changed."""
        pinned = _REQUEST.get()
        if pinned is not None and path in pinned:
            return pinned[path]
        version = self._current(path)
        if pinned is not None:
            pinned[path] = version
        return version

    def _current(self, path: Path) -> Version:
        """The version kept if its files' SHA-256 stands, else ``path`` loaded again."""
        with self._lock:
            kept = self._versions.get(path)
            read = kept.files if kept is not None else (path,)
            before = fingerprint(read)
            if kept is not None and kept.sha256 == before:
                self._versions.move_to_end(path)
                return kept
            loaded = self._load(path)
            self.loads += 1
            files = tuple(self._files(loaded))
            # A file written while the load read it: the load may hold the old bytes or the new,
            # so this version is not trusted beyond this request (the next one loads again).
            unchanged = fingerprint(read) == before
            version = Version(files, fingerprint(files) if unchanged else "", loaded, self._lock)
            self._versions.pop(path, None)
            self._versions[path] = version
            while len(self._versions) > VERSIONS:
                self._versions.popitem(last=False)
            return version

    @contextlib.contextmanager
    def request(self) -> Iterator[None]:
        """One request: each facts file's version is looked up once, and the page is made from
        it throughout."""
        token = _REQUEST.set({})
        try:
            yield
        finally:
            _REQUEST.reset(token)

    def current(self, path: Path) -> str:
        """The SHA-256 ``path``'s files have now (what a page that shows them says it showed):
        of the files its kept version read, without loading it again to learn it."""
        with self._lock:
            kept = self._versions.get(path)
            return fingerprint(kept.files) if kept is not None else self.version(path).sha256

    def outside(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """A result made from no facts file, kept by ``key``, which says what it was made from
        (the issued folders' manifests, by their names, sizes and times)."""
        return self._outside.get(key, make)

    def forget(self) -> None:
        with self._lock:
            self._versions.clear()
            self._outside = Version((), "", None, self._lock)
