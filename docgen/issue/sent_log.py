"""A stage folder's send log, ``sent.json`` beside its manifest (DESIGN.md A26): each message
`docgen send` wrote or sent, to whom, at which address, when, its Message-ID and the SHA-256 of
each file attached, and what became of it (sent, drafted, or refused by the server).

Why a log of its own, not an entry of ``manifest.json``: the manifest is what a batch issued,
written once per issue and replaced whole by a re-issue; the log grows by one message at a time
while the folder stays as issued, and a re-issue carries it into the new folder unchanged
(docgen.issue.changes). It is hashed in itself instead: ``messages_sha256`` is the SHA-256 of its
messages as written, and `docgen verify` checks that, and that every attachment's SHA-256 is one
the manifest lists for that file (as issued now, or as a re-issue replaced it). It is written
whole after each message (docgen.core.output.write_atomically), so an interruption loses at most
the message in flight, never one already recorded.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docgen.core.output import write_atomically
from docgen.issue.folder import is_regular_file, read_issued
from docgen.issue.layout import SENT_LOG
from docgen.issue.manifest import Manifest
from docgen.issue.reports import dumps

SENT_LOG_FORMAT = 1

# What became of a message: "sent" (the server took it), "drafted" (an .eml written for the
# secretary to send), "refused" (the server refused the recipient or the message).
DELIVERED = ("sent", "drafted")


@dataclass(frozen=True)
class Attachment:
    file: str  # the stage folder's file, as the manifest names it
    sha256: str

    def to_json(self) -> dict[str, str]:
        return {"file": self.file, "sha256": self.sha256}


@dataclass(frozen=True)
class SentMessage:
    """One message, as the log records it."""

    subject: str
    name: str
    address: str
    letter: str  # the wording's id, letter.forms-out or letter.reminder
    letter_sha256: str  # of the wording counsel approved
    when: str  # ISO 8601, UTC, to the second
    message_id: str
    via: str  # eml or smtp
    outcome: str  # sent, drafted or refused
    attachments: tuple[Attachment, ...]
    detail: str = ""  # the server's reply to a refusal; the .eml written for a draft

    @property
    def delivered(self) -> bool:
        return self.outcome in DELIVERED

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SentMessage:
        return cls(
            subject=str(data.get("subject")),
            name=str(data.get("name")),
            address=str(data.get("address")),
            letter=str(data.get("letter")),
            letter_sha256=str(data.get("letter_sha256")),
            when=str(data.get("when")),
            message_id=str(data.get("message_id")),
            via=str(data.get("via")),
            outcome=str(data.get("outcome")),
            attachments=tuple(
                Attachment(str(a.get("file")), str(a.get("sha256")))
                for a in data.get("attachments") or []
                if isinstance(a, dict)
            ),
            detail=str(data.get("detail") or ""),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "subject": self.subject,
            "name": self.name,
            "address": self.address,
            "letter": self.letter,
            "letter_sha256": self.letter_sha256,
            "when": self.when,
            "message_id": self.message_id,
            "via": self.via,
            "outcome": self.outcome,
            "attachments": [a.to_json() for a in self.attachments],
            "detail": self.detail,
        }


class SentLogUnreadable(Exception):
    """``sent.json`` is not a send log docgen wrote, or not as it wrote it."""


def _digest(messages: list[dict[str, Any]]) -> str:
    return hashlib.sha256(dumps(messages)).hexdigest()


def read_log(folder: Path) -> list[SentMessage]:
    """The messages of a stage folder's send log (none when it has none); SentLogUnreadable
    when the file is there but not a log docgen wrote, or changed since."""
    path = folder / SENT_LOG
    if not path.exists() and not path.is_symlink():
        return []
    if not is_regular_file(path):
        raise SentLogUnreadable("not a regular file (a link, folder or device)")
    try:
        data = json.loads(read_issued(path).decode("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise SentLogUnreadable(f"cannot be read as JSON ({error})") from None
    if (
        not isinstance(data, dict)
        or data.get("sent_log_format") != SENT_LOG_FORMAT
        or not isinstance(data.get("messages"), list)
        or not all(isinstance(m, dict) for m in data["messages"])
    ):
        raise SentLogUnreadable(f"not a send log docgen wrote (format {SENT_LOG_FORMAT})")
    if _digest(data["messages"]) != data.get("messages_sha256"):
        raise SentLogUnreadable(
            "its messages are not as docgen recorded them (messages_sha256 differs)"
        )
    return [SentMessage.from_json(m) for m in data["messages"]]


def write_log(folder: Path, manifest: Manifest, messages: list[SentMessage]) -> None:
    """The whole log, written atomically: the old one or the new one, never a mixture."""
    entries = [m.to_json() for m in messages]
    data = {
        "sent_log_format": SENT_LOG_FORMAT,
        "cycle": manifest.cycle,
        "stage": manifest.stage,
        "messages": entries,
        "messages_sha256": _digest(entries),
    }
    write_atomically(folder / SENT_LOG, dumps(data))


def known_sha256(manifest: Manifest) -> dict[str, set[str]]:
    """Every SHA-256 a file of the stage folder has had: as issued now, and as each re-issue
    replaced it (a message sent before a re-issue attached the file as it was then)."""
    known: dict[str, set[str]] = {}
    for name, entry in manifest.files.items():
        if entry.sha256:
            known.setdefault(name, set()).add(entry.sha256)
    for reissue in manifest.superseded:
        for replaced in reissue.files:
            known.setdefault(str(replaced.was), set()).add(str(replaced.sha256))
    return known


def log_changes(folder: Path, manifest: Manifest) -> list[str]:
    """What `docgen verify` finds wrong with the send log: unreadable, altered, or naming an
    attachment the stage folder never issued as it says."""
    try:
        messages = read_log(folder)
    except SentLogUnreadable as error:
        return [f"changed: {error}"]
    known = known_sha256(manifest)
    problems = []
    for number, message in enumerate(messages, 1):
        for attachment in message.attachments:
            if attachment.sha256 not in known.get(attachment.file, set()):
                problems.append(
                    f"changed: message {number} ({message.subject}, {message.when}) attached "
                    f"{attachment.file} with SHA-256 {attachment.sha256[:12]}…, which the "
                    "manifest never listed for it"
                )
    return problems
