"""What a batch is to issue, decided before a file is written: the cycle folder made ready,
the stage folder as issued read and compared with its manifest once, each packet's record of what
makes it, which packets to render, and who is held. docgen.issue.batch then renders, assembles
and publishes from it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from functools import cached_property
from pathlib import Path

from docgen.core.findings import Report
from docgen.issue.changes import NO_CHANGES, FolderChanges, folder_changes
from docgen.issue.files import BadRequest
from docgen.issue.history import packet_records
from docgen.issue.manifest import HeldSubject, Manifest, Packet, PacketRecord
from docgen.issue.reissue import as_issued
from docgen.issue.reports import templates_sha256
from docgen.issue.scope import Scope, held_record
from docgen.issue.stages import (
    previous_issue,
    recover,
    refuse_first_release,
    refuse_foreign,
    refuse_others_folder,
)
from docgen.issue.verdicts import kept_verdicts
from docgen.kinds import kind_of
from docgen.load import LoadedFacts


@dataclass(frozen=True)
class Plan:
    """What a batch is to issue, decided before a file is written: the cycle and stage folders,
    the stage folder as issued (``previous``: its manifest, ``changes``: how the folder differs
    from it, found once), what each packet is made from, and who is held."""

    loaded: LoadedFacts
    report: Report
    scope: Scope
    as_of: date
    force: bool
    cycle: str
    head: str  # the cycle-level subject (the grant, the Plan Year), as findings name it
    cycle_dir: Path
    stage_dir: Path
    previous: Manifest | None
    changes: FolderChanges
    templates: str  # the templates' digest, taken once: the manifest's and every record's
    records: dict[str, PacketRecord]  # what each packet to issue is made from
    held: tuple[HeldSubject, ...]
    notes: list[str]  # interrupted runs dealt with
    # --only: the day each packet's verdict in the report is as of, where they differ
    judged_as_of: dict[str, str] = field(default_factory=dict)

    @property
    def held_changed(self) -> bool:
        return self.previous is not None and self.held != self.previous.held

    @cached_property
    def issued_packets(self) -> dict[str, Packet]:
        """The stage folder's packets as issued, by subject (none before its first issue)."""
        return {packet.subject: packet for packet in self.previous.packets} if self.previous else {}

    def _as_issued(self, subject: str, documents: list[str]) -> bool:
        before = self.issued_packets.get(subject)
        return as_issued(before, documents, self.records[subject], self.changes)

    def nothing_to_do(self) -> bool:
        """The stage folder already holds what this batch would issue: every packet as issued
        (the same inputs and documents, its files intact), nothing to withdraw, the same
        packets held, and the check report as written."""
        if self.previous is None:
            return False
        before = self.issued_packets
        if not all(self._as_issued(subject, documents) for subject, documents in self.scope.issue):
            return False
        if any(s not in self.records and not self.scope.keeps(s) for s in before):
            return False
        return not self.held_changed and not self.changes.reports_altered

    def to_render(self, resign: set[str]) -> list[tuple[str, list[str]]]:
        """The packets to render: each one forced, signed otherwise (``resign``), or not in the
        stage folder as issued from the same inputs. A packet made from the same inputs as its
        issued copy, intact, stays as issued without rendering: rendered as of another day it
        would differ by its date alone."""
        return [
            (subject, documents)
            for subject, documents in self.scope.issue
            if self.force or subject in resign or not self._as_issued(subject, documents)
        ]


def plan_batch(
    loaded: LoadedFacts,
    report: Report,
    out: Path,
    scope: Scope,
    as_of: date,
    force: bool,
    only_into_new_folder: bool,
    *,
    cycle: str,
    head: str,
) -> Plan:
    """The cycle folder made ready (an interrupted batch's folders dealt with), the stage folder
    read and compared with its manifest (refused when it holds files docgen did not write), and
    each packet's record of what makes it. ``cycle`` and ``head`` are as the kind names them."""
    stage = scope.stage
    cycle_dir = out / cycle
    refuse_first_release(cycle_dir)
    cycle_dir.mkdir(exist_ok=True)
    notes = recover(cycle_dir, stage)
    stage_dir = cycle_dir / stage
    previous = previous_issue(stage_dir, stage)
    changes = NO_CHANGES
    if previous is not None:
        refuse_others_folder(stage_dir)
        changes = folder_changes(stage_dir, previous)
        refuse_foreign(stage_dir, changes)
    elif scope.only and not only_into_new_folder:
        raise BadRequest(
            f"--only re-issues packets into an issued stage folder, and {stage_dir} has not been "
            "issued yet. Run the batch without --only first."
        )
    report, judged_as_of = kept_verdicts(report, scope, stage_dir, previous, changes, notes)
    templates = templates_sha256(loaded.templates_override)
    slices = kind_of(loaded.facts).slices(loaded.facts, [subject for subject, _ in scope.issue])
    records = packet_records(loaded.facts, stage, as_of.isoformat(), templates, slices)
    return Plan(
        loaded=loaded,
        report=report,
        scope=scope,
        as_of=as_of,
        force=force,
        cycle=cycle,
        head=head,
        cycle_dir=cycle_dir,
        stage_dir=stage_dir,
        previous=previous,
        changes=changes,
        templates=templates,
        records=records,
        held=held_record(report, scope, previous),
        notes=notes,
        judged_as_of=judged_as_of,
    )
