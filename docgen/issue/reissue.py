"""Building the next stage folder from the one before it: what stays, what is re-issued, and what
is kept as history in ``superseded/<n>/``.

Every document rendered now is compared with the copy the stage folder holds. The same bytes: the
issued copy stays (the very same file, linked into the new folder, its issue date unchanged). Other
bytes: the new copy is issued and the old one moves to ``superseded/<n>/<subject>/``, listed in the
manifest with its SHA-256 and the as-of date of the re-issue. A packet this batch does not issue
(held, or not named by ``--only``) stays exactly as it was; a packet no longer issued at this
stage (a director who left the Board) is superseded whole. The previous check report and manifest
are kept beside the superseded documents, so every issue's record survives.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from docgen.core.documents import ReturnPart
from docgen.issue.changes import NO_CHANGES, FolderChanges
from docgen.issue.folder import sha256_file
from docgen.issue.history import same_inputs, why_changed
from docgen.issue.layout import MANIFEST_NAME, REPORTS, is_superseded, superseded_name
from docgen.issue.manifest import (
    DocumentEntry,
    FileEntry,
    Manifest,
    Packet,
    PacketChange,
    PacketRecord,
    Reissue,
    ReplacedFile,
)
from docgen.issue.pool import RenderedDocument
from docgen.issue.stages import carry


@dataclass
class Assembly:
    """The new stage folder's content (its files already in the staging folder) and its story."""

    packets: list[Packet] = field(default_factory=list)
    files: dict[str, FileEntry] = field(default_factory=dict)
    changes: list[PacketChange] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    replaced: list[ReplacedFile] = field(default_factory=list)


def as_issued(
    before: Packet | None,
    documents: list[str],
    record: PacketRecord,
    changes: FolderChanges,
) -> bool:
    """The stage folder holds this packet (``before``), made from these inputs, with these
    documents, every one of its files as issued: there is nothing to issue."""
    if before is None or not same_inputs(before, record):
        return False
    if before.document_names != documents:
        return False
    return not changes.damaged(before.file_names)


def signed_otherwise(previous: Manifest | None, signed: bool) -> set[str]:
    """The packets of the stage folder whose PDFs are not signed as this batch signs (unsigned
    when it signs, or signed when it does not): they are issued again, whatever their inputs."""
    if previous is None:
        return set()
    files = previous.files
    return {
        packet.subject
        for packet in previous.packets
        for name in packet.file_names
        if name.endswith(".pdf") and name in files and (files[name].unsigned is not None) != signed
    }


class Assembler:
    """Fills a staging folder from freshly rendered packets and the previous stage folder
    (``previous``, as its manifest lists it, and ``changes``: how the folder differs from that,
    found once by the caller)."""

    def __init__(
        self,
        staging: Path,
        stage_dir: Path,
        previous: Manifest | None,
        as_of: str,
        facts_sha256: str,
        changes: FolderChanges = NO_CHANGES,
    ):
        self.staging, self.stage_dir, self.previous = staging, stage_dir, previous
        self.as_of = as_of
        self.facts_sha256 = facts_sha256  # of the facts file this batch issues from
        self.changes = changes
        self.n = previous.reissue + 1 if previous else 0
        self.before_files = previous.files if previous else {}
        self.before_packets = {p.subject: p for p in previous.packets} if previous else {}
        self.result = Assembly()
        self._made: set[str] = set()  # the folders made in staging so far

    # ------------------------------------------------------------------ moving files

    def keep(self, name: str) -> None:
        """The previous folder's file stays, as the same file, at the same place."""
        source = f"{self.stage_dir}/{name}"  # strings: every kept file of the folder passes here
        if os.path.isfile(source):
            carry(source, f"{self.staging}/{name}", self._made)
        if name in self.before_files:
            self.result.files[name] = self.before_files[name]

    def supersede(self, name: str) -> None:
        """The previous folder's file moves into ``superseded/<n>/``, with its SHA-256 as it is
        now (and whether that is still the SHA-256 it was issued with)."""
        source = self.stage_dir / name
        if not source.is_file():
            return  # missing since it was issued: nothing to keep
        kept = superseded_name(self.n, name)
        carry(source, self.staging / kept, self._made)
        sha256, size = sha256_file(source), source.stat().st_size
        self.result.files[kept] = FileEntry(sha256, size)
        issued = self.before_files[name].sha256 if name in self.before_files else None
        altered = issued is not None and issued != sha256
        self.result.replaced.append(ReplacedFile(kept, name, sha256, size, altered))

    @property
    def last_issue(self) -> Manifest:
        """The previous stage folder's manifest, for what it held (so there is one)."""
        if self.previous is None:
            raise ValueError(f"{self.stage_dir}: no previous issue to build on")
        return self.previous

    # ------------------------------------------------------------------ packets

    def carry_history(self) -> None:
        for name in self.before_files:
            if is_superseded(name):
                self.keep(name)

    def _damage(self, names: list[str]) -> list[str]:
        return [
            f"{change.name} {change.change.value} since it was issued"
            for change in self.changes.damaged(names)
        ]

    def rendered_packet(
        self,
        subject: str,
        documents: list[RenderedDocument],
        record: PacketRecord,
        forced: bool = False,
    ) -> None:
        before = self.before_packets.get(subject)
        before_docs = {d.name: d for d in before.documents} if before else {}
        entries, anew, damage = [], [], []
        for document in documents:
            old = before_docs.get(document.name)
            old_files = list(old.files.values()) if old else []
            damage += self._damage(old_files)
            if old is not None and self._identical(old, document):
                for name in document.files.values():
                    (self.staging / name).unlink()
                    self.keep(name)
                issued_on = old.issued_as_of or self.last_issue.as_of
                issued_from = old.facts_sha256 or self.last_issue.facts.sha256
            else:
                for name in old_files:
                    self.supersede(name)
                self.result.files.update(
                    (name, FileEntry.from_json(entry)) for name, entry in document.entries.items()
                )
                issued_on, issued_from = self.as_of, self.facts_sha256
                anew.append(document.name)
            # The day and the facts file the files were issued from, as the record a PDF
            # carries says; a copy kept as issued keeps its own.
            part = ReturnPart(**document.return_part) if document.return_part else None
            entries.append(
                DocumentEntry(
                    document.name,
                    dict(document.files),
                    tuple(document.key_facts),
                    issued_on,
                    issued_from,
                    part,
                )
            )
        gone = [name for name in before_docs if name not in {d.name for d in documents}]
        for name in gone:
            for file in before_docs[name].files.values():
                self.supersede(file)
        reasons = tuple(why_changed(before, record) + damage)
        kept = before.record if before is not None and same_inputs(before, record) else None
        if forced and not reasons:
            reasons = ("rendered again with --force",)
        if anew or gone:
            what = "issued" if before is None else "re-issued"
            self.result.changes.append(PacketChange(subject, what, tuple(anew + gone), reasons))
        elif kept is None:
            self.result.changes.append(PacketChange(subject, "record", (), reasons))
        else:
            # Made from the same inputs as recorded: the record, as-of date included, stands.
            record = kept
            self.result.unchanged.append(subject)
        self.result.packets.append(Packet(subject, tuple(entries), record))

    def _identical(self, old: DocumentEntry, document: RenderedDocument) -> bool:
        """The issued copy is intact and has exactly the bytes just rendered, in every format."""
        if dict(old.files) != document.files:
            return False
        damaged = self.changes.by_name
        for name in document.files.values():
            if name in damaged or name not in self.before_files:
                return False
            # A signed copy is the same document when it was made the same, and signed as this
            # batch signs (its signing time, and so its bytes, differ from a new signature's).
            issued, entry = self.before_files[name], FileEntry.from_json(document.entries[name])
            if issued.made_sha256 != entry.made_sha256:
                return False
            if (issued.unsigned is None) != (entry.unsigned is None):
                return False
        return True

    def kept_packet(self, subject: str, unchanged: bool = False) -> None:
        """A packet this batch does not issue (held, not named by --only, or made from the same
        inputs: ``unchanged``) stays as it was, record and all."""
        before = self.before_packets[subject]
        for name in before.file_names:
            self.keep(name)
        self.result.packets.append(before)
        if unchanged:
            self.result.unchanged.append(subject)

    def withdrawn_packet(self, subject: str) -> None:
        before = self.before_packets[subject]
        for name in before.file_names:
            self.supersede(name)
        self.result.changes.append(
            PacketChange(
                subject,
                "withdrawn",
                tuple(before.document_names),
                ("no longer issued at this stage",),
            )
        )

    def previous_record(self) -> None:
        """The last issue's check report and manifest, kept with what this issue replaces."""
        for name in (*REPORTS, MANIFEST_NAME):
            self.supersede(name)

    def superseded_entry(self, held_changed: bool) -> Reissue:
        return Reissue(
            n=self.n,
            as_of=self.as_of,
            replaces_issue_of=self.last_issue.as_of,
            held_changed=held_changed,
            packets=tuple(self.result.changes),
            files=tuple(sorted(self.result.replaced, key=lambda entry: entry.file)),
        )
