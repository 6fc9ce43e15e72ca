"""The names in an issued cycle folder, in one place (DESIGN.md, "Issued folders"):

OUT/<cycle>/                  the grant id, or rrp-<plan year>
  returned/                   for signed and returned forms: docgen creates it and never
                              touches what is in it; verify ignores it
  <stage>/                    one folder per stage (elections, grant, enrollment), issued whole
    manifest.json
    check-report.json, check-report.html
    sent.json                 the send log (`docgen send`), once anything was sent: carried
                              along by a re-issue, checked by verify (docgen.issue.sent_log)
    <subject>/<document>.pdf, .docx
    superseded/<n>/...        what re-issue n replaced, kept with its SHA-256 in the manifest
  .<stage>.staging-<random>   while a batch builds the next stage folder
  .<stage>.replaced-<random>  the folder it replaced, until it is cleared

No lock file: a batch locks OUT itself (docgen.issue.files.OutLock).
"""

from __future__ import annotations

import re
import secrets
from pathlib import Path

from docgen.core.model import STAGE_FOLDER_NAMES

RETURNED = "returned"
# A subject's folder may be named none of these (docgen.core.model refuses such an id).
SUPERSEDED, MANIFEST_NAME, REPORT_JSON, REPORT_HTML = STAGE_FOLDER_NAMES
REPORTS = (REPORT_JSON, REPORT_HTML)
SENT_LOG = "sent.json"  # beside the manifest, once `docgen send` has sent anything
# The folders a batch keeps beside a stage folder while it replaces it: ``.<stage><prefix><8 hex>``.
STAGING = ".staging-"
REPLACED = ".replaced-"
# What an operating system leaves in a folder someone opened (Finder, Explorer): not a document,
# never a reason to refuse, carried along as it is and never deleted.
OS_FILES = frozenset({".DS_Store", "Thumbs.db", "desktop.ini", "Icon\r"})


def is_os_file(name: str) -> bool:
    """``name`` is a file an operating system made, not a person (``._x`` is a macOS resource
    fork on a non-Mac disk)."""
    base = name.rsplit("/", 1)[-1]
    return base in OS_FILES or base.startswith("._")


def superseded_name(n: int, name: str) -> str:
    """Where re-issue ``n`` keeps the file it replaced at ``name``."""
    return f"{SUPERSEDED}/{n}/{name}"


def is_superseded(name: str) -> bool:
    return name.startswith(f"{SUPERSEDED}/")


def beside(folder: Path, name: str, prefix: str) -> Path:
    """A new name for a folder docgen keeps beside ``folder/name`` (``prefix``: STAGING or
    REPLACED)."""
    return folder / f".{name}{prefix}{secrets.token_hex(4)}"


def beside_pattern(name: str, prefix: str) -> re.Pattern[str]:
    """The exact names ``beside`` gives (secrets.token_hex(4): 8 hex digits); a user's look-alike
    (``.grant.staging-notes``) does not match."""
    return re.compile(rf"\.{re.escape(name)}{re.escape(prefix)}[0-9a-f]{{8}}")
