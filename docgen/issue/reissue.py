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

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docgen.issue.history import same_inputs, why_changed
from docgen.issue.layout import REPORTS, SUPERSEDED
from docgen.issue.pool import RenderedDocument
from docgen.issue.stages import carry
from docgen.issue.verify import MANIFEST_NAME, compare_hashes, sha256_file


@dataclass(frozen=True)
class PacketChange:
    """One packet the new stage folder holds differently from the last one."""

    subject: str
    what: str  # issued (new to the folder), re-issued, withdrawn, or record (inputs only)
    documents: tuple[str, ...]  # the documents issued anew or withdrawn
    reasons: tuple[str, ...]

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "subject": self.subject,
            "what": self.what,
            "documents": list(self.documents),
            "reasons": list(self.reasons),
        }


@dataclass
class Assembly:
    """The new stage folder's content (its files already in the staging folder) and its story."""

    packets: list[dict[str, Any]] = field(default_factory=list)
    files: dict[str, dict[str, Any]] = field(default_factory=dict)
    changes: list[PacketChange] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    replaced: list[dict[str, Any]] = field(default_factory=list)

    @property
    def documents_changed(self) -> bool:
        return any(change.what != "record" for change in self.changes)


def as_issued(
    before: dict[str, Any] | None,
    documents: list[str],
    record: dict[str, Any],
    damaged: dict[str, str],
) -> bool:
    """The stage folder holds this packet (``before``), made from these inputs, with these
    documents, every one of its files as issued: there is nothing to issue."""
    if before is None or not same_inputs(before, record):
        return False
    if [d["name"] for d in before.get("documents", [])] != documents:
        return False
    names = [name for d in before["documents"] for name in d.get("files", {}).values()]
    return not any(name in damaged for name in names)


class Assembler:
    """Fills a staging folder from freshly rendered packets and the previous stage folder."""

    def __init__(
        self,
        staging: Path,
        stage_dir: Path,
        previous: dict[str, Any] | None,
        as_of: str,
        facts_sha256: str,
    ):
        self.staging, self.stage_dir, self.previous = staging, stage_dir, previous
        self.as_of = as_of
        self.facts_sha256 = facts_sha256  # of the facts file this batch issues from
        self.n = len(previous.get("superseded", [])) + 1 if previous else 0
        self.before_files: dict[str, dict[str, Any]] = previous["files"] if previous else {}
        self.before_packets = {p["subject"]: p for p in previous["packets"]} if previous else {}
        self.damaged = dict(compare_hashes(stage_dir, previous)) if previous else {}
        self.result = Assembly()

    # ------------------------------------------------------------------ moving files

    def keep(self, name: str) -> None:
        """The previous folder's file stays, as the same file, at the same place."""
        if (self.stage_dir / name).is_file():
            carry(self.stage_dir / name, self.staging / name)
        if name in self.before_files:
            self.result.files[name] = self.before_files[name]

    def supersede(self, name: str) -> None:
        """The previous folder's file moves into ``superseded/<n>/``, with its SHA-256 as it is
        now (and whether that is still the SHA-256 it was issued with)."""
        source = self.stage_dir / name
        if not source.is_file():
            return  # missing since it was issued: nothing to keep
        kept = f"{SUPERSEDED}/{self.n}/{name}"
        carry(source, self.staging / kept)
        entry = {"sha256": sha256_file(source), "bytes": source.stat().st_size}
        self.result.files[kept] = entry
        issued = self.before_files.get(name, {}).get("sha256")
        self.result.replaced.append(
            {
                "file": kept,
                "was": name,
                **entry,
                "altered": issued is not None and issued != entry["sha256"],
            }
        )

    # ------------------------------------------------------------------ packets

    def carry_history(self) -> None:
        for name in self.before_files:
            if name.startswith(f"{SUPERSEDED}/"):
                self.keep(name)

    def _damage(self, names: list[str]) -> list[str]:
        return [
            f"{name} {self.damaged[name].split(':')[0]} since it was issued"
            for name in names
            if name in self.damaged
        ]

    def as_issued(self, subject: str, documents: list[str], record: dict[str, Any]) -> bool:
        return as_issued(self.before_packets.get(subject), documents, record, self.damaged)

    def rendered_packet(
        self,
        subject: str,
        documents: list[RenderedDocument],
        record: dict[str, Any],
        forced: bool = False,
    ) -> None:
        before = self.before_packets.get(subject)
        before_docs = {d["name"]: d for d in (before or {}).get("documents", [])}
        entries, anew, damage = [], [], []
        for document in documents:
            old = before_docs.get(document.name)
            old_files = list((old or {}).get("files", {}).values())
            damage += self._damage(old_files)
            if old is not None and self._identical(old, document):
                for name in document.files.values():
                    (self.staging / name).unlink()
                    self.keep(name)
                issued_on = old.get("issued_as_of") or self.previous["as_of"]
                issued_from = old.get("facts_sha256") or self.previous["facts"]["sha256"]
            else:
                for name in old_files:
                    self.supersede(name)
                self.result.files.update(document.entries)
                issued_on, issued_from = self.as_of, self.facts_sha256
                anew.append(document.name)
            # The day and the facts file the files were issued from, as the record a PDF
            # carries says; a copy kept as issued keeps its own.
            entries.append(
                {"name": document.name, "files": document.files, "key_facts": document.key_facts,
                 "issued_as_of": issued_on, "facts_sha256": issued_from}
                | ({"return_part": document.return_part} if document.return_part else {})
            )  # fmt: skip
        gone = [name for name in before_docs if name not in {d.name for d in documents}]
        for name in gone:
            for file in before_docs[name]["files"].values():
                self.supersede(file)
        reasons = tuple(why_changed(before, record) + damage)
        if forced and not reasons:
            reasons = ("rendered again with --force",)
        if anew or gone:
            what = "issued" if before is None else "re-issued"
            self.result.changes.append(PacketChange(subject, what, tuple(anew + gone), reasons))
        elif not same_inputs(before, record):
            self.result.changes.append(PacketChange(subject, "record", (), reasons))
        else:
            # Made from the same inputs as recorded: the record, as-of date included, stands.
            record = {key: before[key] for key in ("inputs", "inputs_sha256", "facts")}
            self.result.unchanged.append(subject)
        self.result.packets.append({"subject": subject, "documents": entries, **record})

    def _identical(self, old: dict[str, Any], document: RenderedDocument) -> bool:
        """The issued copy is intact and has exactly the bytes just rendered, in every format."""
        if old.get("files") != document.files:
            return False
        for name in document.files.values():
            issued = self.before_files.get(name, {}).get("sha256")
            if name in self.damaged or issued != document.entries[name]["sha256"]:
                return False
        return True

    def kept_packet(self, subject: str, unchanged: bool = False) -> None:
        """A packet this batch does not issue (held, not named by --only, or made from the same
        inputs: ``unchanged``) stays as it was, record and all."""
        before = self.before_packets[subject]
        for document in before.get("documents", []):
            for name in document.get("files", {}).values():
                self.keep(name)
        self.result.packets.append(before)
        if unchanged:
            self.result.unchanged.append(subject)

    def withdrawn_packet(self, subject: str) -> None:
        before = self.before_packets[subject]
        documents = tuple(d["name"] for d in before.get("documents", []))
        for document in before.get("documents", []):
            for name in document.get("files", {}).values():
                self.supersede(name)
        self.result.changes.append(
            PacketChange(subject, "withdrawn", documents, ("no longer issued at this stage",))
        )

    def previous_record(self) -> None:
        """The last issue's check report and manifest, kept with what this issue replaces."""
        for name in (*REPORTS, MANIFEST_NAME):
            self.supersede(name)

    def superseded_entry(self, held_changed: bool) -> dict[str, Any]:
        return {
            "n": self.n,
            "as_of": self.as_of,
            "replaces_issue_of": self.previous["as_of"],
            "held_changed": held_changed,
            "packets": [change.to_json_dict() for change in self.result.changes],
            "files": sorted(self.result.replaced, key=lambda entry: entry["file"]),
        }
