"""The names in an issued cycle folder, in one place (DESIGN.md, Amendment A8):

OUT/<cycle>/                  the grant id, or rrp-<plan year>
  returned/                   for signed and returned forms: docgen creates it and never
                              touches what is in it; verify ignores it
  <stage>/                    one folder per stage (elections, grant, enrollment), issued whole
    manifest.json
    check-report.json, check-report.html
    <subject>/<document>.pdf, .docx
    superseded/<n>/...        what re-issue n replaced, kept with its SHA-256 in the manifest
  .<stage>.staging-<random>   while a batch builds the next stage folder
  .<stage>.replaced-<random>  the folder it replaced, until it is cleared
"""

from __future__ import annotations

from docgen.core.model import STAGE_FOLDER_NAMES

RETURNED = "returned"
SUPERSEDED = STAGE_FOLDER_NAMES[0]
REPORTS = ("check-report.json", "check-report.html")
# What an operating system leaves in a folder someone opened (Finder, Explorer): not a document,
# never a reason to refuse, carried along as it is and never deleted.
OS_FILES = frozenset({".DS_Store", "Thumbs.db", "desktop.ini", "Icon\r"})


def is_os_file(name: str) -> bool:
    """``name`` is a file an operating system made, not a person (``._x`` is a macOS resource
    fork on a non-Mac disk)."""
    base = name.rsplit("/", 1)[-1]
    return base in OS_FILES or base.startswith("._")
