"""Findings and the report that holds them: severities and a stable order. Data only: the report's
views (text, Markdown, HTML, JSON text) live in docgen.checker.views."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal

from docgen.core.cells import cell_name
from docgen.core.citations import Citation
from docgen.core.clauses import ClauseReview
from docgen.core.finding_groups import finding_groups
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
    column: int | None = None  # a CSV cell's column, counted from 1; None in the facts file

    @property
    def where(self) -> str:
        """``file:line``, or ``file:line:column`` for a cell of a CSV."""
        if self.file and self.line:
            return cell_name(self.file, self.line, self.column)
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
            "column": self.column,
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

    Order: by severity (every error, then every warning, then info), then by the subject's
    position in the file (grant- or plan-level subjects first), then by fact path, then by rule
    id; the same facts always give the same report. Beside the findings:
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
    # `check --min-severity`: the least severity shown, and the findings below it, by severity
    # (left out of ``findings``; the summary still counts them, and the exit code follows them).
    min_severity: Severity | None = None
    left_out: tuple[tuple[Severity, int], ...] = ()
    # After a recording (`docgen intake` / `docgen elect`): the subjects whose findings the
    # report holds, beside the cycle's and those of the rules across subjects; None: every one.
    checked: tuple[str, ...] | None = None

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
        checked: Iterable[str] | None = None,
    ) -> Report:
        order = {subject: index for index, subject in enumerate(subjects)}
        # Every error first, then every warning, then info, across the whole report and in every
        # format: what stops an issue is read before any matter for judgment (counsel in the
        # trial, issue 44: a warning listed above an error). Within a severity, by subject in
        # file order (the cycle's own first), so a person with both is named once under each.
        ordered = sorted(
            findings,
            key=lambda f: (
                SEVERITIES.index(f.severity) if f.severity in SEVERITIES else len(SEVERITIES),
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
            checked=None if checked is None else tuple(checked),
        )

    def at_least(self, severity: Severity | None) -> Report:
        """The report showing only findings of ``severity`` or graver (None: all of them)."""
        if severity is None:
            return self
        shown = SEVERITIES[: SEVERITIES.index(severity) + 1]
        kept = tuple(f for f in self.findings if f.severity in shown)
        left = [(s, self.summary[s]) for s in SEVERITIES if s not in shown and self.summary[s]]
        return dataclasses.replace(
            self, findings=kept, min_severity=severity, left_out=(*self.left_out, *left)
        )

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "warning"]

    @property
    def summary(self) -> dict[str, int]:
        """How many findings of each severity, those left out by --min-severity included."""
        counts: dict[str, int] = {severity: 0 for severity in SEVERITIES}
        for finding in self.findings:
            counts[finding.severity] += 1
        for severity, count in self.left_out:
            counts[severity] += count
        return counts

    def rule_ids(self) -> set[str]:
        return {f.rule for f in self.findings}

    def exit_code(self, strict: bool = False) -> int:
        """0 no errors (and, when strict, no warnings); 1 otherwise."""
        counts = self.summary  # findings left out of the view count too
        if counts["error"] or (strict and counts["warning"]):
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
        line = f"{self.facts.file}: {', '.join(parts)} ({when})"
        left = sum(count for _, count in self.left_out)
        if left:
            line += (
                f"; {left} finding{'' if left == 1 else 's'} below {self.min_severity} left out "
                "(--min-severity)"
            )
        if self.checked is not None:
            line += f" for {self._checked_words()}; `docgen check` checks everyone"
        return line

    def _checked_words(self) -> str:
        """Whom a report after a recording covers: ``e1003, the one recorded``, ``the 3 recorded
        (e1, e2, e3)``, the first five and a count beyond them."""
        checked = self.checked or ()
        if len(checked) == 1:
            return f"{checked[0]}, the one recorded"
        shown = ", ".join(checked[:5])
        more = f" and {len(checked) - 5} more" if len(checked) > 5 else ""
        return f"the {len(checked)} recorded ({shown}{more})"

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
            "groups": [group.to_json_dict() for group in finding_groups(self.findings)],
            "min_severity": self.min_severity,
            "left_out": dict(self.left_out),
            "clauses": [c.to_json_dict() for c in self.clauses],
            "defaulted_terms": [t.to_json_dict() for t in self.defaulted],
        }

    def label(self, subject: str) -> str:
        name = self.names.get(subject)
        return f"{subject} ({name})" if name and name != subject else subject
