"""Whether one issued file is still the current copy (`docgen verify FILE.pdf`): a copy a later
re-issue replaced is consistent with the record it carries, and still not the document in force.
When the file's stage folder is reachable (the file sits in it, or in its ``superseded/<n>/``),
its manifest says: the file's SHA-256 among the current files, or in a re-issue's superseded
list (when, and which file replaced it). A file on its own cannot know; the note says so."""

from __future__ import annotations

import hashlib
from pathlib import Path

from docgen.issue import manifest as manifests
from docgen.issue.layout import MANIFEST_NAME, SUPERSEDED


def _stage_folder(path: Path) -> Path | None:
    """The nearest folder above ``path`` (at most four levels: stage/superseded/n/subject/)
    that holds a manifest."""
    for folder in list(path.resolve().parents)[:4]:
        if folder.parent.name == SUPERSEDED:
            continue  # superseded/<n>/ keeps the manifest of the issue it replaced
        if (folder / MANIFEST_NAME).is_file():
            return folder
    return None


def standing(path: Path, data: bytes) -> str:
    """One sentence: current, replaced (by which re-issue, when), or not knowable from here."""
    digest = hashlib.sha256(data).hexdigest()
    folder = _stage_folder(path)
    if folder is None:
        return (
            "Whether a later re-issue replaced it cannot be known from the file alone: its "
            f"stage folder (with its {MANIFEST_NAME}) is not beside it. Check that folder with "
            "`docgen verify DIR`, or ask for the copy in it."
        )
    try:
        manifest = manifests.read(folder)
    except Exception as error:  # the folder's own problem, reported by `docgen verify DIR`
        return f"Its stage folder {folder} could not be read ({error}); check it with verify DIR."
    for reissue in manifest.superseded:
        for replaced in reissue.files:
            if replaced.sha256 == digest:
                return (
                    f"SUPERSEDED: re-issue {reissue.n} of {folder} on {reissue.as_of} replaced "
                    f"this copy; the current copy is {folder / replaced.was}. Do not rely "
                    "on this one."
                )
    current = [name for name, entry in manifest.files.items() if entry.sha256 == digest]
    if current:
        return f"It is the current copy in {folder} ({current[0]}, as its {MANIFEST_NAME} lists)."
    return (
        f"Its stage folder {folder} does not list this file's SHA-256, current or superseded; "
        "check the folder with `docgen verify DIR`."
    )
