"""`docgen verify DIR` of a stage folder, or of a cycle folder: every stage folder in it.

A cycle folder holds its stage folders side by side (docgen.issue.layout); each is checked
against its own manifest. ``returned/`` holds what people sent back and is never checked.
"""

from __future__ import annotations

from pathlib import Path

from docgen.core.errors import VerifyFailed
from docgen.issue.layout import MANIFEST_NAME, RETURNED
from docgen.issue.verify import FolderChanged, FolderCheck, verify_folder


class StagesChanged(VerifyFailed):
    """Stage folders of a cycle folder that no longer are what was issued (exit 1), with what
    `docgen verify` found in each stage folder (intact or not)."""

    def __init__(self, message: str, checks: list[FolderCheck]):
        super().__init__(message)
        self.checks = checks


def stage_folders(cycle_dir: Path) -> list[Path]:
    """The stage folders of a cycle folder, by name."""
    return sorted(
        path
        for path in cycle_dir.iterdir()
        if path.is_dir()
        and not path.name.startswith(".")
        and path.name != RETURNED
        and (path / MANIFEST_NAME).is_file()
    )


def verify_issued(path: str | Path) -> list[FolderCheck]:
    """Verify a stage folder, or every stage folder of a cycle folder.

    Raises NotAnIssuedFolder (exit 2) for a folder docgen did not issue (with how to move a
    first-release folder into place) and StagesChanged (a VerifyFailed, exit 1), carrying every
    FolderCheck in ``checks``, when anything changed; returns the FolderChecks when all are intact.
    """
    path = Path(path)
    if not path.is_dir() or (path / MANIFEST_NAME).exists():
        return [verify_folder(path)]
    stages = stage_folders(path)
    if not stages:
        return [verify_folder(path)]  # says it is not an issued folder
    checks: list[FolderCheck] = []
    failed: list[str] = []
    for stage in stages:
        try:
            checks.append(verify_folder(stage))
        except FolderChanged as changed:
            checks.append(changed.check)
            failed.append(str(changed))
    if failed:
        raise StagesChanged("\n".join(failed), checks)
    return checks
