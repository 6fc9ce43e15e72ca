"""Findings and the report that holds them: severities and a stable order. Data only: the report's
views (text, Markdown, HTML, JSON text) live in docgen.checker.views."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal

from docgen.core.citations import Citation
from docgen.core.clauses import ClauseReview
from docgen.core.model import DefaultedTerm

Severity = Literal["error", "warning", "info"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")


@dataclass(frozen=True)
class Finding:
    """One rule broken (or one doubt raised) about one subject, at one fact path."""

    rule: str
    severity: Severity
    subject: str
    path: str
    line: int | None
    message: str
    citations: tuple[Citation, ...]
    remedy: str = ""
    file: str = ""
    title: str = ""

    @property
    def where(self) -> str:
        if self.file and self.line:
            return f"{self.file}:{self.line}"
        return self.file or ""

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "severity": self.severity,
            "subject": self.subject,
            "path": self.path,
            "line": self.line,
            "message": self.message,
            "citations": [str(c) for c in self.citations],
            "title": self.title,
            "remedy": self.remedy,
            "file": self.file,
        }


_PATH_PART = re.compile(r"(\d+)")


def _path_key(path: str) -> tuple[Any, ...]:
    """Natural order for fact paths: directors[2] before directors[10]."""
    return tuple(int(p) if p.isdigit() else p for p in _PATH_PART.split(path))


@dataclass(frozen=True)
class FactsInfo:
    """Which facts file a report is about."""

    file: str
    kind: str
    sha256: str


@dataclass(frozen=True)
class Report:
    """The findings for one facts file at one date and stage, in a stable order.

    Order: by the subject's position in the file (grant- or plan-level subjects first), then by
    fact path, then by rule id; the same facts always give the same report. Beside the findings:
    the drafted clauses the stage's documents carry, with counsel's approval of each, and the
    terms the file left out and took by default.
    """

    facts: FactsInfo
    as_of: date
    stage: str
    findings: tuple[Finding, ...]
    subjects: tuple[str, ...] = ()
    names: dict[str, str] = field(default_factory=dict)
    clauses: tuple[ClauseReview, ...] = ()
    defaulted: tuple[DefaultedTerm, ...] = ()

    @classmethod
    def build(
        cls,
        facts: FactsInfo,
        as_of: date,
        stage: str,
        findings: Iterable[Finding],
        subjects: Sequence[str],
        names: dict[str, str] | None = None,
        *,
        clauses: Iterable[ClauseReview] = (),
        defaulted: Iterable[DefaultedTerm] = (),
    ) -> Report:
        order = {subject: index for index, subject in enumerate(subjects)}
        ordered = sorted(
            findings,
            key=lambda f: (
                order.get(f.subject, len(order)),
                f.subject,
                _path_key(f.path),
                f.rule,
                f.message,
            ),
        )
        return cls(
            facts,
            as_of,
            stage,
            tuple(ordered),
            tuple(subjects),
            dict(names or {}),
            tuple(clauses),
            tuple(defaulted),
        )

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "warning"]

    @property
    def summary(self) -> dict[str, int]:
        counts: dict[str, int] = {severity: 0 for severity in SEVERITIES}
        for finding in self.findings:
            counts[finding.severity] += 1
        return counts

    def rule_ids(self) -> set[str]:
        return {f.rule for f in self.findings}

    def exit_code(self, strict: bool = False) -> int:
        """0 no errors (and, when strict, no warnings); 1 otherwise."""
        if self.errors or (strict and self.warnings):
            return 1
        return 0

    def by_subject(self) -> list[tuple[str, list[Finding]]]:
        groups: dict[str, list[Finding]] = {}
        for finding in self.findings:
            groups.setdefault(finding.subject, []).append(finding)
        return list(groups.items())

    def summary_line(self) -> str:
        counts = self.summary
        parts = [
            f"{counts[s]} {s}{'' if counts[s] == 1 or s == 'info' else 's'}" for s in SEVERITIES
        ]
        when = f"as of {self.as_of.isoformat()}, stage {self.stage}"
        return f"{self.facts.file}: {', '.join(parts)} ({when})"

    def to_json_dict(self) -> dict[str, Any]:
        """The `docgen check --format json` contract (DESIGN.md, "Command line")."""
        return {
            "facts": {
                "file": self.facts.file,
                "kind": self.facts.kind,
                "sha256": self.facts.sha256,
            },
            "as_of": self.as_of.isoformat(),
            "stage": self.stage,
            "summary": self.summary,
            "findings": [f.to_json_dict() for f in self.findings],
            "clauses": [c.to_json_dict() for c in self.clauses],
            "defaulted_terms": [t.to_json_dict() for t in self.defaulted],
        }

    def label(self, subject: str) -> str:
        name = self.names.get(subject)
        return f"{subject} ({name})" if name and name != subject else subject
