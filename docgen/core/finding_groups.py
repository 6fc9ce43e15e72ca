"""The same finding about many people, as one entry: the report's sections in reading order.

A finding is "the same" as another when its rule, severity, message and remedy are the same
words: only then is one row true of every person it names (a message that differs by a date or
an amount is a different finding, and stays on its own row). From GROUP_AT people on, the
findings are one group, shown where its first person's findings are; each person's other
findings stay under their own name. JSON keeps one object per finding and adds the groups beside
them (``groups``: each group's rule, words, count, subjects and the findings' indexes).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar


class _Finding(Protocol):
    """What grouping reads of a finding (docgen.core.findings.Finding, which uses this module)."""

    @property
    def rule(self) -> str: ...
    @property
    def severity(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def remedy(self) -> str: ...
    @property
    def subject(self) -> str: ...
    @property
    def file(self) -> str: ...


Finding = TypeVar("Finding", bound=_Finding)

# From this many people with the same finding, a report names them on one row (with a count).
GROUP_AT = 3


@dataclass(frozen=True)
class FindingGroup(Generic[Finding]):
    """One finding's words, and every finding (one per person or fact) that has them."""

    findings: tuple[Finding, ...]
    indexes: tuple[int, ...]  # each finding's place in the report's findings

    @property
    def first(self) -> Finding:
        return self.findings[0]

    @property
    def count(self) -> int:
        return len(self.findings)

    @property
    def subjects(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(f.subject for f in self.findings))

    @property
    def files(self) -> tuple[str, ...]:
        """The files that hold the findings' facts, each once, in the findings' order."""
        return tuple(dict.fromkeys(f.file for f in self.findings if f.file))

    def to_json_dict(self) -> dict[str, Any]:
        first = self.first
        return {
            "rule": first.rule,
            "severity": first.severity,
            "message": first.message,
            "remedy": first.remedy,
            "count": self.count,
            "subjects": list(self.subjects),
            "findings": list(self.indexes),
        }


@dataclass(frozen=True)
class Section(Generic[Finding]):
    """A run of the report: one subject's own findings, or one group (``subject`` is None)."""

    subject: str | None
    findings: tuple[Finding, ...]
    group: FindingGroup[Finding] | None = None


def _key(finding: _Finding) -> tuple[str, str, str, str]:
    return (finding.rule, finding.severity, finding.message, finding.remedy)


def finding_groups(findings: Sequence[Finding]) -> list[FindingGroup[Finding]]:
    """The groups of the same finding about GROUP_AT or more subjects, in report order."""
    members: dict[tuple[str, str, str, str], list[int]] = {}
    for index, finding in enumerate(findings):
        members.setdefault(_key(finding), []).append(index)
    groups = []
    for indexes in members.values():
        if len({findings[i].subject for i in indexes}) >= GROUP_AT:
            groups.append(FindingGroup(tuple(findings[i] for i in indexes), tuple(indexes)))
    return groups


def sections(findings: Sequence[Finding]) -> list[Section[Finding]]:
    """A report's findings (in its order: every error, then every warning, then info) in reading
    order: each subject's own findings of one severity, and each group where its first member
    is. A subject with errors and warnings has a section in each part: a run ends where the
    subject or the severity changes, so no section holds a warning above another's error."""
    groups = finding_groups(findings)
    group_of = {index: group for group in groups for index in group.indexes}
    result: list[Section[Finding]] = []
    own: list[Finding] = []
    subject: str | None = None
    severity: str | None = None
    for index, finding in enumerate(findings):
        if finding.subject != subject or finding.severity != severity:
            if own:
                result.append(Section(subject, tuple(own)))
            own, subject, severity = [], finding.subject, finding.severity
        group = group_of.get(index)
        if group is None:
            own.append(finding)
        elif group.indexes[0] == index:
            if own:
                result.append(Section(subject, tuple(own)))
                own = []
            result.append(Section(None, group.findings, group))
    if own:
        result.append(Section(subject, tuple(own)))
    return result
