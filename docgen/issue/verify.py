"""`docgen verify` of an issued folder: each file against the manifest, each document read back."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docgen.core.documents import ReturnPart
from docgen.core.errors import DocgenError, VerifyFailed
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
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def read_manifest(folder: Path) -> dict[str, Any]:
    """The manifest of an issued folder; NotAnIssuedFolder when there is none that docgen wrote."""
    manifest_path = folder / MANIFEST_NAME
    if not folder.is_dir():
        raise NotAnIssuedFolder(
            f"{folder}: no such folder. Name a folder `docgen batch` wrote, like "
            "out/2026-annual/grant (a stage) or out/2026-annual (every stage of the cycle)."
        )
    if not manifest_path.is_file():
        raise NotAnIssuedFolder(
            f"{folder}: not an issued folder (it has no {MANIFEST_NAME}). "
            "Name a stage folder `docgen batch` wrote, like out/2026-annual/grant, or the "
            "cycle folder that holds them, like out/2026-annual."
        )
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
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
    """Every file missing, altered or added since the manifest was written."""
    changes: list[tuple[str, str]] = []
    listed: dict[str, dict[str, Any]] = manifest["files"]
    for name in sorted(listed):
        expected = listed[name]
        path = folder / name
        if not path.is_file():
            changes.append((name, "missing: the manifest lists it but it is not in the folder"))
            continue
        size = path.stat().st_size
        digest = sha256_file(path)
        if digest != expected.get("sha256"):
            changes.append(
                (
                    name,
                    f"changed: SHA-256 {digest[:12]}… differs from the manifest's "
                    f"{str(expected.get('sha256'))[:12]}… "
                    f"({expected.get('bytes')} bytes issued, {size} now)",
                )
            )
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if path.is_file() and name != MANIFEST_NAME and name not in listed and not is_os_file(name):
            changes.append((name, "added: not listed in the manifest"))
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
    for packet in manifest["packets"]:
        for document in packet.get("documents", []):
            files = document.get("files", {})
            contents: dict[str, bytes | None] = {"pdf": None, "docx": None}
            for fmt, reader in (("pdf", pdf_text), ("docx", docx_text)):
                name = files.get(fmt)
                if name is None or not (folder / name).is_file():
                    continue
                data = (folder / name).read_bytes()
                try:
                    reader(data)
                except Exception as error:  # a damaged file: report it, keep verifying the rest
                    if name not in broken:
                        check.changes.append((name, f"unreadable as {fmt.upper()}: {error}"))
                    continue
                contents[fmt] = data
            check.documents_checked += 1
            for problem in check_rendered(
                packet["subject"],
                document["name"],
                pdf=contents["pdf"],
                docx=contents["docx"],
                key_facts=list(document.get("key_facts", [])),
                return_part=_return_part(document.get("return_part")),
            ):
                where = (
                    files.get("pdf")
                    or files.get("docx")
                    or f"{packet['subject']}/{document['name']}"
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
