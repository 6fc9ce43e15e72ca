"""How a stage folder differs from what its manifest lists, found once: each file missing,
changed or added since it was issued, each manifest path refused, what in it docgen did not
write, and the operating system's files it holds.

`docgen verify` reports the changes; a re-issue reads the same object to tell a packet issued
intact from one to issue again, to refuse a folder holding files docgen did not write, and to
carry the operating system's files along. The folder is listed and hashed once for all of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from docgen.issue.folder import inside, inventory, size_and_sha256
from docgen.issue.layout import MANIFEST_NAME, REPORTS, SENT_LOG, is_os_file
from docgen.issue.manifest import FileEntry, Manifest


class Change(Enum):
    """What became of a file since its folder was issued."""

    MISSING = "missing"  # the manifest lists it, the folder does not hold it
    CHANGED = "changed"  # other bytes, or no longer a regular file
    ADDED = "added"  # in the folder, not in the manifest
    REFUSED = "refused"  # the manifest names a path outside the folder: never read


@dataclass(frozen=True)
class FileChange:
    """One file (or folder, link ...) of a stage folder that is not as its manifest lists it."""

    name: str
    change: Change
    detail: str  # what is wrong, in words

    @property
    def message(self) -> str:
        return f"{self.change.value}: {self.detail}"


_NOT_A_FILE = {
    "link": "a symbolic link (an issued folder holds only the files docgen wrote; not followed)",
    "folder": "a folder, not the file the manifest lists",
    "other": "not a regular file (a FIFO, socket or device; not opened)",
}


@dataclass(frozen=True)
class FolderChanges:
    """A stage folder against its manifest (see the module's docstring)."""

    changes: tuple[FileChange, ...]
    foreign: tuple[str, ...]  # what docgen did not write, a folder once (``name/``), not its files
    os_files: tuple[str, ...]  # .DS_Store and the like: carried along, never a reason to refuse
    readable: frozenset[str]  # the regular files the manifest lists inside the folder
    carried: tuple[str, ...] = ()  # what a re-issue takes along as it is: the send log

    @property
    def by_name(self) -> dict[str, FileChange]:
        return {change.name: change for change in self.changes}

    def damaged(self, names: list[str]) -> list[FileChange]:
        """The changes to these files, in their order."""
        found = self.by_name
        return [found[name] for name in names if name in found]

    @property
    def reports_altered(self) -> bool:
        """The check report is not as it was written (a re-issue puts that right too)."""
        return any(change.name in REPORTS for change in self.changes)


NO_CHANGES = FolderChanges((), (), (), frozenset())


def folder_changes(folder: Path, manifest: Manifest) -> FolderChanges:
    """Every file missing, altered or added since ``manifest`` was written, and anything in the
    folder that is not one of its files (a link, an unlisted folder, a FIFO ...)."""
    found = inventory(folder)
    listed = manifest.files
    changes: list[FileChange] = []
    needed_folders: set[str] = set()
    for name in sorted(listed):
        if not inside(name):
            detail = "the manifest names a path outside the issued folder; not read"
            changes.append(FileChange(str(name), Change.REFUSED, detail))
            continue
        needed_folders.update(_holding(name))
        changed = _listed_change(folder, name, found.get(name), listed[name])
        if changed is not None:
            changes.append(changed)
    for name, kind in sorted(found.items()):
        if name in (MANIFEST_NAME, SENT_LOG) or name in listed or name in needed_folders:
            continue  # the send log is checked on its own (docgen.issue.sent_log)
        if kind == "folder":
            if any(other.startswith(f"{name}/") for other in found):
                continue  # its unlisted contents are reported one by one
            detail = "an empty folder not in the manifest"
        elif kind == "file":
            if is_os_file(name):
                continue  # .DS_Store and the like: an operating system's, carried along
            detail = "not listed in the manifest"
        else:
            detail = _NOT_A_FILE[kind]
        changes.append(FileChange(name, Change.ADDED, detail))
    return FolderChanges(
        tuple(changes),
        _foreign(found, manifest),
        tuple(name for name, kind in sorted(found.items()) if kind == "file" and is_os_file(name)),
        frozenset(n for n, kind in found.items() if kind == "file" and n in listed and inside(n)),
        # The send log goes with the folder into its re-issue, as it is (verify checks it).
        carried=tuple(n for n, kind in found.items() if n == SENT_LOG and kind == "file"),
    )


def _listed_change(
    folder: Path, name: str, kind: str | None, expected: FileEntry
) -> FileChange | None:
    """How a file the manifest lists differs from its entry, or None when it is as issued."""
    if kind is None:
        return FileChange(name, Change.MISSING, "the manifest lists it but it is not in the folder")
    if kind != "file":
        return FileChange(name, Change.CHANGED, _NOT_A_FILE[kind])
    try:
        size, digest = size_and_sha256(f"{folder}/{name}")
    except OSError:
        return FileChange(name, Change.CHANGED, "no longer a regular file")
    if digest == expected.sha256:
        return None
    return FileChange(
        name,
        Change.CHANGED,
        f"SHA-256 {digest[:12]}… differs from the manifest's {str(expected.sha256)[:12]}… "
        f"({expected.bytes} bytes issued, {size} now)",
    )


def _holding(name: str) -> list[str]:
    """The folders that hold a manifest path inside the folder (:func:`inside`), outermost
    first: ``a``, ``a/b`` for ``a/b/c``, as pathlib's ``parents`` names them (but for ``.``,
    which no entry of a folder is called), without making a path of each (a re-issue asks this
    of every file its folder lists: issue 27)."""
    parts = name.split("/")
    return ["/".join(parts[:end]) for end in range(1, len(parts))]


def _foreign(found: dict[str, str], manifest: Manifest) -> tuple[str, ...]:
    """What in a stage folder docgen did not write: neither listed in its manifest, nor a folder
    holding what is, nor an operating system's file. A foreign folder is named once, not file by
    file."""
    listed = set(manifest.files) | {MANIFEST_NAME, SENT_LOG}
    parents: set[str] = set()
    for name in listed:
        if inside(name):
            parents.update(_holding(name))
        else:  # a path the manifest should not name: pathlib's reading of it, "." and all
            parents.update(p.as_posix() for p in Path(name).parents)
    foreign: list[str] = []
    for name, kind in sorted(found.items()):
        is_folder = kind == "folder"
        if any(name.startswith(f"{outer.rstrip('/')}/") for outer in foreign):
            continue  # inside a foreign folder already named
        if name in listed or is_os_file(name) or (is_folder and name in parents):
            continue
        foreign.append(f"{name}/" if is_folder else name)
    return tuple(foreign)
