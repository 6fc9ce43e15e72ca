"""Which packets a batch issues: every packet of the stage, all but the held ones (``--hold``),
or only the named ones (``--only``). A finding about a packet held back (held, or not named by
``--only``) does not stop the rest; a finding about the cycle itself (the grant, the Plan Year)
or about a packet being issued does."""

from __future__ import annotations

from dataclasses import dataclass

from docgen.checker.rules import UnknownRule, get_rule
from docgen.core.errors import unknown_id_hint
from docgen.core.findings import Finding, Report
from docgen.issue.files import BadRequest
from docgen.issue.manifest import HeldSubject, Manifest, Packet
from docgen.issue.reports import IssueRefusedByFindings, portable_report
from docgen.kinds import kind_of
from docgen.load import LoadedFacts


def _ids(given: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """The ids an option names: each repeat, and each comma-separated id in one (``--hold A,B``
    as ``--hold A --hold B``), once each, in order."""
    split = (part.strip() for value in given for part in value.split(","))
    return tuple(dict.fromkeys(part for part in split if part))


def _named(option: str, ids: list[str], people: list[str], with_packets: set[str], stage: str):
    for ident in ids:
        if ident in people:
            if ident not in with_packets:
                raise BadRequest(
                    f"{option} {ident}: {ident} gets no documents at stage {stage}, so there is "
                    "no packet to " + ("hold." if option == "--hold" else "re-issue.")
                )
            continue
        raise BadRequest(
            f"{option} {ident}: no director or participant with that id. "
            + unknown_id_hint(ident, people)
        )


@dataclass(frozen=True)
class Scope:
    stage: str
    issue: list[tuple[str, list[str]]]  # the packets rendered now: (subject, documents)
    held: tuple[str, ...]
    only: tuple[str, ...]
    people: tuple[str, ...]  # every director or participant, in file order
    names: dict[str, str]
    # the people whose packet is blank forms only (DocumentSpec.blank_at): an election finding
    # about them never holds it, since the form is how they correct it (DESIGN.md A20)
    blank_only: frozenset[str] = frozenset()
    # the people who get documents at this stage: only their packets can be held
    with_packets: frozenset[str] = frozenset()

    @classmethod
    def of(
        cls,
        loaded: LoadedFacts,
        packets: list[tuple[str, list[str]]],
        stage: str,
        hold: tuple[str, ...] | list[str],
        only: tuple[str, ...] | list[str],
    ) -> Scope:
        if _ids(hold) and _ids(only):
            raise BadRequest(
                "--hold and --only together: --only already leaves every packet it does not "
                "name as it is. Drop --hold."
            )
        kind = kind_of(loaded.facts)
        subjects = kind.subjects(loaded.facts)
        people = [s.id for s in subjects]
        with_packets = {subject for subject, _ in packets}
        hold, only = _ids(hold), _ids(only)
        _named("--hold", list(hold), people, with_packets, stage)
        _named("--only", list(only), people, with_packets, stage)
        issue = [
            (subject, documents)
            for subject, documents in packets
            if subject not in hold and (not only or subject in only)
        ]
        blank = {spec.name for spec in kind.documents if stage in spec.blank_at}
        blank_only = frozenset(
            subject for subject, documents in packets if documents and set(documents) <= blank
        )
        names = {s.id: s.name for s in subjects}
        return cls(
            stage, issue, hold, only, tuple(people), names, blank_only, frozenset(with_packets)
        )

    def spares(self, finding: Finding) -> bool:
        """An error about a recorded election whose packet is the blank form that corrects it:
        reported, never holding the packet back."""
        if finding.severity != "error" or finding.subject not in self.blank_only:
            return False
        try:
            return get_rule(finding.rule).remedied_by_blank_form
        except UnknownRule:
            return False

    def is_held_back(self, subject: str) -> bool:
        """A person this batch does not issue to (held, or not named by --only): their findings
        do not stop it."""
        if subject in self.held:
            return True
        return bool(self.only) and subject in self.people and subject not in self.only

    def keeps(self, subject: str) -> bool:
        """A packet in the stage folder that this batch leaves exactly as it is."""
        return subject in self.held or bool(self.only)

    def refuse_on(self, report: Report, stage_of_refusal: str = "check") -> None:
        blocking = [
            f for f in report.errors if not self.is_held_back(f.subject) and not self.spares(f)
        ]
        if not blocking:
            return
        people = list(dict.fromkeys(f.subject for f in blocking if f.subject in self.people))
        # Someone who gets no documents at this stage has no packet to hold: their errors stop
        # the batch until resolved in the facts, and --hold is never offered for them.
        packetless = [p for p in people if p not in self.with_packets]
        cycle_level = any(f.subject not in self.people for f in blocking)
        spared = list(
            dict.fromkeys(
                f.subject
                for f in report.errors
                if self.spares(f) and not self.is_held_back(f.subject) and f.subject not in people
            )
        )
        raise IssueRefusedByFindings(
            portable_report(report),
            stage_of_refusal=stage_of_refusal,
            holdable=[] if cycle_level or self.only else [p for p in people if p not in packetless],
            held=self.held,
            spared=spared,
            packetless=packetless,
            stage=self.stage,
        )

    def held_back_with_errors(self, report: Report) -> list[str]:
        """The people held back with error findings: the check report names them not issued."""
        with_errors = {f.subject for f in report.errors if not self.spares(f)}
        return [p for p in self.people if p in with_errors and self.is_held_back(p)]

    def order(self, packet: Packet) -> tuple[int, int]:
        subject = packet.subject
        return (0, self.people.index(subject)) if subject in self.people else (1, 0)


def held_record(report: Report, scope: Scope, previous: Manifest | None) -> tuple[HeldSubject, ...]:
    """Who the stage folder's manifest names as held, and why: their findings. ``--only`` keeps
    the record of the last batch, less the packets it now issues."""
    if scope.only:
        earlier = previous.held if previous else ()
        return tuple(entry for entry in earlier if entry.subject not in scope.only)
    portable = portable_report(report)
    return tuple(
        HeldSubject(
            subject,
            scope.names.get(subject, subject),
            "held (--hold)",
            tuple(f.to_json_dict() for f in portable.findings if f.subject == subject),
        )
        for subject in scope.held
    )
