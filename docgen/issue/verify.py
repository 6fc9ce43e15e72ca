"""`docgen verify` of an issued folder: each file against the manifest, each document read back.

An issued folder holds exactly the files its manifest lists, and nothing else: a symbolic link,
a folder the manifest does not need (an empty one too), a FIFO, socket or device is a change, and
is never followed or opened. A manifest path must name a file inside the folder (no absolute
path, no ``..``); any other is refused and never read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from docgen.core.documents import IssuedCopy
from docgen.core.errors import VerifyFailed
from docgen.issue.changes import folder_changes
from docgen.issue.docrules import check_rendered
from docgen.issue.folder import read_issued
from docgen.issue.layout import MANIFEST_NAME
from docgen.issue.manifest import Manifest, read
from docgen.render.readback import docx_text, pdf_text


@dataclass
class FolderCheck:
    """What `docgen verify` found: each change as (relative file, what is wrong)."""

    folder: Path
    manifest: Manifest
    changes: list[tuple[str, str]] = field(default_factory=list)
    files_checked: int = 0
    documents_checked: int = 0


class FolderChanged(VerifyFailed):
    """A stage folder that no longer is what was issued (exit 1), with what `docgen verify`
    found in it."""

    def __init__(self, message: str, check: FolderCheck):
        super().__init__(message)
        self.check = check


def verify_folder(folder: str | Path) -> FolderCheck:
    """`docgen verify DIR`: hashes against the manifest, then the DOC-* rules over every document.

    Raises NotAnIssuedFolder (exit 2) for a folder docgen did not issue and VerifyFailed (exit 1)
    carrying the FolderCheck when anything changed; returns the FolderCheck when intact.
    """
    folder = Path(folder)
    manifest = read(folder)
    check = FolderCheck(folder, manifest)
    found = folder_changes(folder, manifest)
    check.changes.extend((change.name, change.message) for change in found.changes)
    check.files_checked = len(manifest.files)
    broken = {name for name, _ in check.changes}
    for packet in manifest.packets:
        if packet.unreadable:
            check.changes.append((MANIFEST_NAME, "changed: a packet entry docgen did not write"))
            continue
        for document in packet.documents:
            contents: dict[str, bytes | None] = {"pdf": None, "docx": None}
            for fmt, reader in (("pdf", pdf_text), ("docx", docx_text)):
                name = document.files.get(fmt)
                # Read back only regular files the manifest lists inside the folder, never
                # through a link.
                if name not in found.readable:
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
            issued = IssuedCopy(
                packet.subject, document.name, tuple(document.key_facts), document.return_part
            )
            for problem in check_rendered(issued, pdf=contents["pdf"], docx=contents["docx"]):
                where = (
                    document.files.get("pdf")
                    or document.files.get("docx")
                    or f"{packet.subject}/{document.name}"
                )
                check.changes.append((where, f"{problem.rule}: {problem.message}"))
    if check.changes:
        raise FolderChanged(
            "\n".join(f"{name}: {what}" for name, what in check.changes)
            + f"\n{folder}: {len(check.changes)} change{'s' if len(check.changes) != 1 else ''} "
            "since it was issued; do not send these documents. "
            "Re-issue them with `docgen batch` (it renders again when a folder has changed).",
            check,
        )
    return check
