"""A stage folder's ``manifest.json`` as typed records: what it holds, what each packet was made
from, who was held, and what each re-issue replaced (DESIGN.md, "Issued folders").

:func:`read` reads one from an issued folder (or says why it is not one docgen wrote);
:meth:`Manifest.to_json` writes it, with sorted keys, byte for byte as docgen always has. A field
an older docgen did not write (the first release recorded no packet inputs, no held packets and
no re-issues) is None here and absent from the JSON, so a packet carried over from such a folder
is written again as it was.

Reading is lenient where `docgen verify` reports rather than refuses: a file entry that is not
an object, a document whose files are not a mapping, a packet entry docgen did not write
(:attr:`Packet.unreadable`). Only a file that is not a manifest at all is refused.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docgen.core.documents import ReturnPart
from docgen.core.errors import DocgenError
from docgen.issue.folder import is_regular_file, read_issued
from docgen.issue.layout import MANIFEST_NAME
from docgen.issue.reports import dumps

# 2: one folder per stage, OUT/<cycle>/<stage>/, with per-packet inputs and the history of
# re-issues. 1: the first release, one folder per cycle, OUT/<cycle>/.
MANIFEST_FORMAT = 2
READABLE_FORMATS = (1, 2)
FIRST_RELEASE = 1

Json = dict[str, Any]


class NotAnIssuedFolder(DocgenError):
    """`docgen verify DIR` was pointed at something that is not an issued folder. Exit code 2."""


class FirstReleaseFolder(NotAnIssuedFolder):
    """A cycle folder written by docgen's first release, before stages had folders. Exit code 2."""


def _object(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def _field(data: Mapping[str, Any], key: str) -> Any:
    """An entry's field as the JSON holds it (None when absent), taken as docgen wrote it: reading
    is lenient, `docgen verify` reports what differs from what was issued."""
    return data.get(key)


def _objects(value: Any) -> list[Mapping[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


# ---------------------------------------------------------------------------------- files


@dataclass(frozen=True)
class FileEntry:
    """One file the stage folder holds, as issued."""

    sha256: str | None
    bytes: int | None
    # A signed PDF (`batch --sign`): the document as made, before the company's certification
    # was added to it as an incremental update (DESIGN.md, "Signed documents"). Absent unsigned.
    unsigned: FileEntry | None = None

    @property
    def made_sha256(self) -> str | None:
        """The SHA-256 of the document as docgen made it: signed or not, the same facts give it."""
        return self.unsigned.sha256 if self.unsigned is not None else self.sha256

    @classmethod
    def from_json(cls, data: Any) -> FileEntry:
        data = _object(data)
        unsigned = data.get("unsigned")
        made = cls.from_json(unsigned) if isinstance(unsigned, dict) else None
        return cls(data.get("sha256"), data.get("bytes"), made)

    def to_json(self) -> Json:
        entry: Json = {"sha256": self.sha256, "bytes": self.bytes}
        if self.unsigned is not None:
            entry["unsigned"] = self.unsigned.to_json()
        return entry


# ------------------------------------------------------------------------------- packets


@dataclass(frozen=True)
class PacketInputs:
    """What made a packet's documents: the facts slice, templates, docgen and stage (and the
    as-of date, recorded but no reason to re-issue: no document prints it)."""

    facts_sha256: str
    templates_sha256: str
    docgen_version: str
    stage: str
    as_of: str

    @classmethod
    def from_json(cls, data: Any) -> PacketInputs:
        data = _object(data)
        keys = ("facts_sha256", "templates_sha256", "docgen_version", "stage", "as_of")
        return cls(*(data.get(key) for key in keys))

    def to_json(self) -> Json:
        return {
            "facts_sha256": self.facts_sha256,
            "templates_sha256": self.templates_sha256,
            "docgen_version": self.docgen_version,
            "stage": self.stage,
            "as_of": self.as_of,
        }


@dataclass(frozen=True)
class PacketRecord:
    """A packet's inputs, their digest, and a short digest of each fact of its slice by part
    (``cycle``, ``subject``), so the next batch can name the facts that changed
    (docgen.issue.history)."""

    inputs: PacketInputs
    inputs_sha256: str
    facts: Mapping[str, Mapping[str, str]]

    def to_json(self) -> Json:
        return {
            "inputs": self.inputs.to_json(),
            "inputs_sha256": self.inputs_sha256,
            "facts": {part: dict(digests) for part, digests in self.facts.items()},
        }


@dataclass(frozen=True)
class DocumentEntry:
    """One document of a packet: its file in each format (format -> path), the facts its text
    must hold, and the day and facts file its files were issued from (a copy kept as issued keeps
    its own; None where an older docgen did not record them)."""

    name: str
    files: Mapping[str, str]
    key_facts: tuple[str, ...]
    issued_as_of: str | None = None
    facts_sha256: str | None = None
    return_part: ReturnPart | None = None  # DOC-RETURN-PAGE's part, for `docgen verify`

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DocumentEntry:
        return cls(
            name=str(data.get("name")),
            files=dict(_object(data.get("files"))),
            key_facts=tuple(str(fact) for fact in data.get("key_facts") or []),
            issued_as_of=data.get("issued_as_of"),
            facts_sha256=data.get("facts_sha256"),
            return_part=_return_part(data.get("return_part")),
        )

    def to_json(self) -> Json:
        entry: Json = {"name": self.name, "files": dict(self.files), "key_facts": [*self.key_facts]}
        if self.issued_as_of is not None:
            entry["issued_as_of"] = self.issued_as_of
        if self.facts_sha256 is not None:
            entry["facts_sha256"] = self.facts_sha256
        if self.return_part is not None:
            part = self.return_part
            entry["return_part"] = {"page": part.page, "starts": part.starts, "ends": part.ends}
        return entry


def _return_part(recorded: Any) -> ReturnPart | None:
    """The part to be filed the manifest recorded for a document; a folder issued before docgen
    recorded it is not held to it."""
    if not isinstance(recorded, dict):
        return None
    try:
        return ReturnPart(int(recorded["page"]), str(recorded["starts"]), str(recorded["ends"]))
    except (KeyError, TypeError, ValueError):
        return None


@dataclass(frozen=True)
class Packet:
    """One subject's documents in the stage folder, and what made them (``record``: None for a
    packet the first release issued, which recorded no inputs)."""

    subject: str
    documents: tuple[DocumentEntry, ...]
    record: PacketRecord | None = None
    # An entry docgen did not write (not an object, or its documents not a list of objects):
    # `docgen verify` reports it; it has no documents here.
    unreadable: bool = field(default=False, compare=False)

    @property
    def document_names(self) -> list[str]:
        return [document.name for document in self.documents]

    @property
    def file_names(self) -> list[str]:
        return [name for document in self.documents for name in document.files.values()]

    @classmethod
    def from_json(cls, data: Any) -> Packet:
        raw = data.get("documents", []) if isinstance(data, dict) else None
        if not isinstance(raw, list) or not all(isinstance(d, dict) for d in raw):
            subject = data.get("subject") if isinstance(data, dict) else None
            return cls(str(subject), (), unreadable=True)
        record = None
        if "inputs" in data:
            record = PacketRecord(
                PacketInputs.from_json(data["inputs"]),
                data.get("inputs_sha256"),
                {part: dict(_object(d)) for part, d in _object(data.get("facts")).items()},
            )
        documents = tuple(DocumentEntry.from_json(document) for document in raw)
        return cls(str(data.get("subject")), documents, record)

    def to_json(self) -> Json:
        packet: Json = {
            "subject": self.subject,
            "documents": [document.to_json() for document in self.documents],
        }
        return packet | (self.record.to_json() if self.record is not None else {})


@dataclass(frozen=True)
class HeldSubject:
    """A packet the stage folder does not hold, and why: its findings, as the check report
    writes them."""

    subject: str
    name: str
    reason: str
    findings: tuple[Mapping[str, Any], ...]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HeldSubject:
        return cls(
            _field(data, "subject"),
            _field(data, "name"),
            _field(data, "reason"),
            tuple(data.get("findings", [])),
        )

    def to_json(self) -> Json:
        return {
            "subject": self.subject,
            "name": self.name,
            "reason": self.reason,
            "findings": [dict(finding) for finding in self.findings],
        }


# ------------------------------------------------------------------------------ re-issues


@dataclass(frozen=True)
class PacketChange:
    """One packet the new stage folder holds differently from the last one."""

    subject: str
    what: str  # issued (new to the folder), re-issued, withdrawn, or record (inputs only)
    documents: tuple[str, ...]  # the documents issued anew or withdrawn
    reasons: tuple[str, ...]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PacketChange:
        documents, reasons = data.get("documents", []), data.get("reasons", [])
        return cls(_field(data, "subject"), _field(data, "what"), tuple(documents), tuple(reasons))

    def to_json(self) -> Json:
        return {
            "subject": self.subject,
            "what": self.what,
            "documents": list(self.documents),
            "reasons": list(self.reasons),
        }


@dataclass(frozen=True)
class ReplacedFile:
    """A file a re-issue replaced, kept in ``superseded/<n>/`` (``file``) with its SHA-256 as it
    was then, and whether that was still the SHA-256 it was issued with (``altered``: not)."""

    file: str
    was: str
    sha256: str
    bytes: int
    altered: bool

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ReplacedFile:
        keys = ("file", "was", "sha256", "bytes", "altered")
        return cls(*(_field(data, key) for key in keys))

    def to_json(self) -> Json:
        return {
            "file": self.file,
            "was": self.was,
            "sha256": self.sha256,
            "bytes": self.bytes,
            "altered": self.altered,
        }


@dataclass(frozen=True)
class Reissue:
    """Re-issue ``n`` of the stage folder: when, what it replaced and why."""

    n: int
    as_of: str
    replaces_issue_of: str
    held_changed: bool
    packets: tuple[PacketChange, ...]
    files: tuple[ReplacedFile, ...]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Reissue:
        return cls(
            n=_field(data, "n"),
            as_of=_field(data, "as_of"),
            replaces_issue_of=_field(data, "replaces_issue_of"),
            held_changed=_field(data, "held_changed"),
            packets=tuple(PacketChange.from_json(p) for p in _objects(data.get("packets"))),
            files=tuple(ReplacedFile.from_json(f) for f in _objects(data.get("files"))),
        )

    def to_json(self) -> Json:
        return {
            "n": self.n,
            "as_of": self.as_of,
            "replaces_issue_of": self.replaces_issue_of,
            "held_changed": self.held_changed,
            "packets": [change.to_json() for change in self.packets],
            "files": [replaced.to_json() for replaced in self.files],
        }


# ------------------------------------------------------------------------------ manifest


@dataclass(frozen=True)
class FactsFile:
    """The facts file a stage folder was issued from: its name (no folder) and SHA-256."""

    file: str
    sha256: str

    def to_json(self) -> Json:
        return {"file": self.file, "sha256": self.sha256}


@dataclass(frozen=True)
class Manifest:
    """A stage folder's manifest. ``summary``, ``warnings``, ``clause_approvals`` and
    ``templates_dir`` are reports, kept as the JSON docgen wrote (docgen.issue.reports)."""

    manifest_format: int
    docgen_version: str
    templates_sha256: str
    templates_dir: Mapping[str, Any] | None
    kind: str
    cycle: str
    stage: str | None  # None: a first-release folder that did not say
    as_of: str
    facts: FactsFile
    clause_approvals: tuple[Mapping[str, Any], ...]
    summary: Mapping[str, Any]
    warnings: tuple[Mapping[str, Any], ...]
    packets: tuple[Packet, ...]
    files: Mapping[str, FileEntry]
    held: tuple[HeldSubject, ...] = ()
    superseded: tuple[Reissue, ...] = ()

    @property
    def reissue(self) -> int:
        """How many times the stage folder has been re-issued (0: issued once)."""
        return len(self.superseded)

    @property
    def documents(self) -> int:
        return sum(len(packet.documents) for packet in self.packets)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Manifest:
        """A manifest from its JSON (``read`` has checked it is one docgen wrote)."""
        facts = _object(data.get("facts"))
        return cls(
            manifest_format=_field(data, "manifest_format"),
            docgen_version=_field(data, "docgen_version"),
            templates_sha256=_field(data, "templates_sha256"),
            templates_dir=data.get("templates_dir"),
            kind=_field(data, "kind"),
            cycle=_field(data, "cycle"),
            stage=data.get("stage"),
            as_of=_field(data, "as_of"),
            facts=FactsFile(_field(facts, "file"), _field(facts, "sha256")),
            clause_approvals=tuple(data.get("clause_approvals", [])),
            summary=dict(_object(data.get("summary"))),
            warnings=tuple(data.get("warnings", [])),
            packets=tuple(Packet.from_json(packet) for packet in data.get("packets", [])),
            files={name: FileEntry.from_json(entry) for name, entry in data["files"].items()},
            held=tuple(HeldSubject.from_json(entry) for entry in _objects(data.get("held"))),
            superseded=tuple(Reissue.from_json(e) for e in _objects(data.get("superseded"))),
        )

    def to_json_dict(self) -> Json:
        return {
            "manifest_format": self.manifest_format,
            "docgen_version": self.docgen_version,
            "templates_sha256": self.templates_sha256,
            "templates_dir": self.templates_dir,
            "kind": self.kind,
            "cycle": self.cycle,
            "stage": self.stage,
            "as_of": self.as_of,
            "reissue": self.reissue,
            "facts": self.facts.to_json(),
            "clause_approvals": [dict(approval) for approval in self.clause_approvals],
            "summary": dict(self.summary),
            "warnings": [dict(warning) for warning in self.warnings],
            "held": [entry.to_json() for entry in self.held],
            "packets": [packet.to_json() for packet in self.packets],
            "superseded": [entry.to_json() for entry in self.superseded],
            "files": {name: entry.to_json() for name, entry in self.files.items()},
        }

    def to_json(self) -> bytes:
        """``manifest.json`` as docgen writes it: sorted keys, no raw unsafe character."""
        return dumps(self.to_json_dict())


# ------------------------------------------------------------------------------- reading


def first_release_message(folder: Path, stage: str | None) -> str:
    stage = stage or "grant"
    parked = f"{folder}.{stage}"
    return (
        f"{folder}: issued by docgen's first release, which wrote a stage's files straight into "
        f"the cycle folder (manifest_format 1). Stages now sit side by side in "
        f"{folder}/<stage>/, so this folder must become {folder}/{stage}/. Move it, then run "
        f"docgen again (it verifies and re-issues it there, keeping its files as history):\n"
        f"  mv {folder} {parked} && mkdir {folder} && mv {parked} {folder}/{stage}"
    )


def _loose(folder: Path) -> Mapping[str, Any]:
    """A folder's manifest as plain JSON, or nothing when it cannot be read as an object."""
    try:
        data = json.loads((folder / MANIFEST_NAME).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return {}
    return _object(data)


def first_release(folder: Path) -> FirstReleaseFolder | None:
    """The error to raise for a folder whose manifest docgen's first release wrote, saying how
    to move it into place; None for any other folder (a manifest of another format or none)."""
    data = _loose(folder)
    if data.get("manifest_format") != FIRST_RELEASE:
        return None
    return FirstReleaseFolder(first_release_message(folder, data.get("stage")))


def listed_names(folder: Path) -> frozenset[str]:
    """The files a folder's manifest lists, and the manifest itself; nothing when it cannot be
    read (for clearing a folder docgen replaced: only what docgen wrote is removed)."""
    files = _loose(folder).get("files")
    if not isinstance(files, dict):
        return frozenset()
    return frozenset(files) | {MANIFEST_NAME}


def read(folder: Path) -> Manifest:
    """The manifest of an issued folder; NotAnIssuedFolder when there is none that docgen wrote."""
    manifest_path = folder / MANIFEST_NAME
    if not folder.is_dir():
        raise NotAnIssuedFolder(
            f"{folder}: no such folder. Name a folder `docgen batch` wrote, like "
            "out/2026-annual/grant (a stage) or out/2026-annual (every stage of the cycle)."
        )
    if not is_regular_file(manifest_path):  # missing, or a link, FIFO or folder
        raise NotAnIssuedFolder(
            f"{folder}: not an issued folder (it has no {MANIFEST_NAME}). "
            "Name a stage folder `docgen batch` wrote, like out/2026-annual/grant, or the "
            "cycle folder that holds them, like out/2026-annual."
        )
    try:
        data = json.loads(read_issued(manifest_path).decode("utf-8"))
    except OSError as error:
        raise NotAnIssuedFolder(f"{manifest_path}: cannot be read ({error}).") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise NotAnIssuedFolder(
            f"{manifest_path}: not a manifest docgen wrote ({error})."
        ) from None
    if (
        not isinstance(data, dict)
        or data.get("manifest_format") not in READABLE_FORMATS
        or not isinstance(data.get("files"), dict)
        or not isinstance(data.get("packets"), list)
    ):
        raise NotAnIssuedFolder(
            f"{manifest_path}: not a manifest docgen wrote (format {MANIFEST_FORMAT} expected)."
        )
    # A first-release folder is readable once it sits where its stage now goes: OUT/<cycle>/<stage>.
    if data["manifest_format"] == FIRST_RELEASE and folder.name != data.get("stage"):
        raise FirstReleaseFolder(first_release_message(folder, data.get("stage")))
    return Manifest.from_json(data)
