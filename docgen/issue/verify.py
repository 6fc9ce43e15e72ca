"""`docgen verify` of an issued folder: each file against the manifest, each document read back.

An issued folder holds exactly the files its manifest lists, and nothing else: a symbolic link,
a folder the manifest does not need (an empty one too), a FIFO, socket or device is a change, and
is never followed or opened. A manifest path must name a file inside the folder (no absolute
path, no ``..``); any other is refused and never read.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from docgen.core.documents import ReturnPart
from docgen.core.errors import DocgenError, VerifyFailed
from docgen.core.safe_open import open_regular
from docgen.issue.docrules import check_rendered
from docgen.issue.layout import is_os_file
from docgen.render.readback import docx_text, pdf_text

MANIFEST_NAME = "manifest.json"
# 2: one folder per stage, OUT/<cycle>/<stage>/, with per-packet inputs and the history of
# re-issues. 1: the first release, one folder per cycle, OUT/<cycle>/.
MANIFEST_FORMAT = 2
READABLE_FORMATS = (1, 2)


class NotAnIssuedFolder(DocgenError):
    """`docgen verify DIR` was pointed at something that is not an issued folder. Exit code 2."""


class FirstReleaseFolder(NotAnIssuedFolder):
    """A cycle folder written by docgen's first release, before stages had folders. Exit code 2."""


def first_release_message(folder: Path, manifest: dict[str, Any]) -> str:
    stage = manifest.get("stage") or "grant"
    parked = f"{folder}.{stage}"
    return (
        f"{folder}: issued by docgen's first release, which wrote a stage's files straight into "
        f"the cycle folder (manifest_format 1). Stages now sit side by side in "
        f"{folder}/<stage>/, so this folder must become {folder}/{stage}/. Move it, then run "
        f"docgen again (it verifies and re-issues it there, keeping its files as history):\n"
        f"  mv {folder} {parked} && mkdir {folder} && mv {parked} {folder}/{stage}"
    )


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open_regular(path, follow_links=False) as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def read_issued(path: Path) -> bytes:
    with open_regular(path, follow_links=False) as handle:
        return handle.read()


def inside(name: object) -> bool:
    """True when a manifest path names a file inside the folder: relative, POSIX, no ``..``,
    ``.`` or empty part, no backslash or NUL."""
    if not isinstance(name, str) or not name or "\\" in name or "\x00" in name:
        return False
    parts = name.split("/")
    return not PurePosixPath(name).is_absolute() and all(p not in ("", ".", "..") for p in parts)


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


_NOT_A_FILE = {
    "link": "a symbolic link (an issued folder holds only the files docgen wrote; not followed)",
    "folder": "a folder, not the file the manifest lists",
    "other": "not a regular file (a FIFO, socket or device; not opened)",
}


def read_manifest(folder: Path) -> dict[str, Any]:
    """The manifest of an issued folder; NotAnIssuedFolder when there is none that docgen wrote."""
    manifest_path = folder / MANIFEST_NAME
    if not folder.is_dir():
        raise NotAnIssuedFolder(
            f"{folder}: no such folder. Name a folder `docgen batch` wrote, like "
            "out/2026-annual/grant (a stage) or out/2026-annual (every stage of the cycle)."
        )
    try:
        mode = os.lstat(manifest_path).st_mode
    except OSError:
        mode = 0
    if not stat.S_ISREG(mode):  # missing, or a link, FIFO or folder: not a manifest docgen wrote
        raise NotAnIssuedFolder(
            f"{folder}: not an issued folder (it has no {MANIFEST_NAME}). "
            "Name a stage folder `docgen batch` wrote, like out/2026-annual/grant, or the "
            "cycle folder that holds them, like out/2026-annual."
        )
    try:
        manifest = json.loads(read_issued(manifest_path).decode("utf-8"))
    except OSError as error:
        raise NotAnIssuedFolder(f"{manifest_path}: cannot be read ({error}).") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise NotAnIssuedFolder(
            f"{manifest_path}: not a manifest docgen wrote ({error})."
        ) from None
    if (
        not isinstance(manifest, dict)
        or manifest.get("manifest_format") not in READABLE_FORMATS
        or not isinstance(manifest.get("files"), dict)
        or not isinstance(manifest.get("packets"), list)
    ):
        raise NotAnIssuedFolder(
            f"{manifest_path}: not a manifest docgen wrote (format {MANIFEST_FORMAT} expected)."
        )
    # A first-release folder is readable once it sits where its stage now goes: OUT/<cycle>/<stage>.
    if manifest["manifest_format"] == 1 and folder.name != manifest.get("stage"):
        raise FirstReleaseFolder(first_release_message(folder, manifest))
    return manifest


def _return_part(recorded: Any) -> ReturnPart | None:
    """The part to be filed the manifest recorded for a document (DOC-RETURN-PAGE); a folder
    issued before docgen recorded it is not held to it."""
    if not isinstance(recorded, dict):
        return None
    try:
        return ReturnPart(int(recorded["page"]), str(recorded["starts"]), str(recorded["ends"]))
    except (KeyError, TypeError, ValueError):
        return None


@dataclass
class FolderCheck:
    """What `docgen verify` found: each change as (relative file, what is wrong)."""

    folder: Path
    manifest: dict[str, Any]
    changes: list[tuple[str, str]] = field(default_factory=list)
    files_checked: int = 0
    documents_checked: int = 0

    @property
    def intact(self) -> bool:
        return not self.changes


def compare_hashes(folder: Path, manifest: dict[str, Any]) -> list[tuple[str, str]]:
    """Every file missing, altered or added since the manifest was written, and anything in the
    folder that is not one of its files (a link, an unlisted folder, a FIFO ...)."""
    changes: list[tuple[str, str]] = []
    listed: dict[str, Any] = manifest["files"]
    found = inventory(folder)
    needed_folders = set()
    for name in sorted(listed):
        if not inside(name):
            changes.append(
                (
                    str(name),
                    "refused: the manifest names a path outside the issued folder; not read",
                )
            )
            continue
        parts = name.split("/")
        needed_folders.update("/".join(parts[:end]) for end in range(1, len(parts)))
        expected = listed[name] if isinstance(listed[name], dict) else {}
        kind = found.get(name)
        if kind is None:
            changes.append((name, "missing: the manifest lists it but it is not in the folder"))
            continue
        if kind != "file":
            changes.append((name, f"changed: {_NOT_A_FILE[kind]}"))
            continue
        path = folder / name
        try:
            size = os.lstat(path).st_size
            digest = sha256_file(path)
        except OSError:
            changes.append((name, "changed: no longer a regular file"))
            continue
        if digest != expected.get("sha256"):
            changes.append(
                (
                    name,
                    f"changed: SHA-256 {digest[:12]}… differs from the manifest's "
                    f"{str(expected.get('sha256'))[:12]}… "
                    f"({expected.get('bytes')} bytes issued, {size} now)",
                )
            )
    for name, kind in sorted(found.items()):
        if name == MANIFEST_NAME or name in listed or name in needed_folders:
            continue
        if kind == "folder":
            if any(other.startswith(f"{name}/") for other in found):
                continue  # its unlisted contents are reported one by one
            what = "added: an empty folder not in the manifest"
        elif kind == "file":
            if is_os_file(name):
                continue  # .DS_Store and the like: an operating system's, carried along
            what = "added: not listed in the manifest"
        else:
            what = f"added: {_NOT_A_FILE[kind]}"
        changes.append((name, what))
    return changes


def verify_folder(folder: str | Path) -> FolderCheck:
    """`docgen verify DIR`: hashes against the manifest, then the DOC-* rules over every document.

    Raises NotAnIssuedFolder (exit 2) for a folder docgen did not issue and VerifyFailed (exit 1)
    carrying the FolderCheck when anything changed; returns the FolderCheck when intact.
    """
    folder = Path(folder)
    manifest = read_manifest(folder)
    check = FolderCheck(folder, manifest)
    check.changes.extend(compare_hashes(folder, manifest))
    check.files_checked = len(manifest["files"])
    broken = {name for name, _ in check.changes}
    # Read back only regular files the manifest lists inside the folder, never through a link.
    readable = {
        name
        for name, kind in inventory(folder).items()
        if kind == "file" and name in manifest["files"] and inside(name)
    }
    for packet in manifest["packets"]:
        documents = packet.get("documents", []) if isinstance(packet, dict) else None
        if not isinstance(documents, list) or not all(isinstance(d, dict) for d in documents):
            check.changes.append((MANIFEST_NAME, "changed: a packet entry docgen did not write"))
            continue
        for document in documents:
            files = document.get("files", {})
            if not isinstance(files, dict):
                files = {}
            contents: dict[str, bytes | None] = {"pdf": None, "docx": None}
            for fmt, reader in (("pdf", pdf_text), ("docx", docx_text)):
                name = files.get(fmt)
                if name not in readable:
                    continue
                try:
                    data = read_issued(folder / name)
                except OSError:
                    continue
                try:
                    reader(data)
                except Exception as error:  # a damaged file: report it, keep verifying the rest
                    if name not in broken:
                        check.changes.append((name, f"unreadable as {fmt.upper()}: {error}"))
                    continue
                contents[fmt] = data
            check.documents_checked += 1
            for problem in check_rendered(
                str(packet.get("subject")),
                str(document.get("name")),
                pdf=contents["pdf"],
                docx=contents["docx"],
                key_facts=[str(fact) for fact in document.get("key_facts") or []],
                return_part=_return_part(document.get("return_part")),
            ):
                where = (
                    files.get("pdf")
                    or files.get("docx")
                    or f"{packet.get('subject')}/{document.get('name')}"
                )
                check.changes.append((where, f"{problem.rule}: {problem.message}"))
    if check.changes:
        error = VerifyFailed(
            "\n".join(f"{name}: {what}" for name, what in check.changes)
            + f"\n{folder}: {len(check.changes)} change{'s' if len(check.changes) != 1 else ''} "
            "since it was issued; do not send these documents. "
            "Re-issue them with `docgen batch` (it renders again when a folder has changed)."
        )
        error.check = check  # type: ignore[attr-defined]
        raise error
    return check
