"""Findings and the report that holds them: citations, severities, a stable order, renderers."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from rich.console import RenderableType

Severity = Literal["error", "warning", "info"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")

# How each authority is written before its pinpoint. The Plan's own sections read
# "Plan Section 2.03(a)"; a provision cited by name ("Beneficiary designation") reads "Plan,
# Beneficiary designation"; the Exhibit I form cites its own sections after a comma.
AUTHORITIES = ("Plan", "Code", "Treas. Reg.", "Notice", "Exhibit I", "DESIGN.md")


@dataclass(frozen=True, order=True)
class Citation:
    """An authority and a place in it: ``Citation("Plan", "2.03(a)")`` is Plan Section 2.03(a)."""

    authority: str
    pinpoint: str = ""

    def __post_init__(self) -> None:
        if self.authority not in AUTHORITIES:
            raise ValueError(f"unknown authority {self.authority!r}; use one of {AUTHORITIES}")

    def __str__(self) -> str:
        if not self.pinpoint:
            return self.authority
        if self.authority == "Plan":
            if self.pinpoint[0].isdigit():
                return f"Plan Section {self.pinpoint}"
            return f"Plan, {self.pinpoint}"
        if self.authority in ("Exhibit I", "DESIGN.md"):
            return f"{self.authority}, {self.pinpoint}"
        return f"{self.authority} {self.pinpoint}"


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
    fact path, then by rule id; the same facts always give the same report.
    """

    facts: FactsInfo
    as_of: date
    stage: str
    findings: tuple[Finding, ...]
    subjects: tuple[str, ...] = ()
    names: dict[str, str] = field(default_factory=dict)

    @classmethod
    def build(
        cls,
        facts: FactsInfo,
        as_of: date,
        stage: str,
        findings: Iterable[Finding],
        subjects: Sequence[str],
        names: dict[str, str] | None = None,
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
        return cls(facts, as_of, stage, tuple(ordered), tuple(subjects), dict(names or {}))

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "warning"]

    @property
    def summary(self) -> dict[str, int]:
        counts = {severity: 0 for severity in SEVERITIES}
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
        }

    # ---------------------------------------------------------------------------- renderers

    def to_json(self) -> str:
        import json

        return json.dumps(self.to_json_dict(), indent=2, ensure_ascii=False) + "\n"

    def to_rich(self) -> RenderableType:
        """A table grouped by director or participant, severities in colour, a summary line."""
        from rich.console import Group
        from rich.table import Table
        from rich.text import Text

        colour = {"error": "bold red", "warning": "yellow", "info": "cyan"}
        summary = Text(self.summary_line(), style="bold red" if self.errors else "bold green")
        if not self.findings:
            return Group(Text("No findings."), summary)
        table = Table(show_lines=False, expand=True, title=f"Findings: {self.facts.file}")
        table.add_column("subject", ratio=1, min_width=10, overflow="fold")
        table.add_column("severity", no_wrap=True)
        table.add_column("finding", ratio=3, min_width=24)
        table.add_column("cites", ratio=1, min_width=16, overflow="fold")
        table.add_column("line", no_wrap=True, justify="right")
        for subject, findings in self.by_subject():
            for index, finding in enumerate(findings):
                cell = Text(finding.rule, style="bold")
                cell.append(f"\n{finding.message}")
                if finding.remedy:
                    cell.append(f" {finding.remedy}", style="dim")
                table.add_row(
                    Text(self.label(subject) if index == 0 else ""),
                    Text(finding.severity, style=colour[finding.severity]),
                    cell,
                    Text("; ".join(str(c) for c in finding.citations)),
                    Text(str(finding.line) if finding.line else ""),
                    end_section=index == len(findings) - 1,
                )
        return Group(table, summary)

    def label(self, subject: str) -> str:
        name = self.names.get(subject)
        return f"{subject} ({name})" if name and name != subject else subject

    def to_text(self, width: int = 140) -> str:
        """The text table without colour, for a file."""
        import io

        from rich.console import Console

        buffer = io.StringIO()
        Console(file=buffer, width=width, no_color=True, highlight=False).print(self.to_rich())
        return buffer.getvalue()

    def to_markdown(self) -> str:
        lines = [
            f"# Compliance review: {self.facts.file}",
            "",
            f"- Facts: `{self.facts.file}` ({self.facts.kind}), SHA-256 `{self.facts.sha256}`",
            f"- As of: {self.as_of.isoformat()}; stage: {self.stage}",
            f"- Summary: {self.summary['error']} errors, {self.summary['warning']} warnings, "
            f"{self.summary['info']} info",
            "",
        ]
        if not self.findings:
            lines.append("No findings.")
        for subject, findings in self.by_subject():
            lines += [
                f"## {_md(self.label(subject))}",
                "",
                "| severity | rule | finding | cites | where |",
                "| --- | --- | --- | --- | --- |",
            ]
            for f in findings:
                text = f.message + (f" {f.remedy}" if f.remedy else "")
                where = f"`{f.path}`" + (f" (line {f.line})" if f.line else "")
                lines.append(
                    f"| {f.severity} | {f.rule} | {_md(text)} | "
                    f"{_md('; '.join(str(c) for c in f.citations))} | {where} |"
                )
            lines.append("")
        return "\n".join(lines).rstrip() + "\n"

    def to_html(self) -> str:
        """One self-contained page for counsel: templates/check-report.html.j2."""
        from docgen.report_html import render_report_html

        return render_report_html(self)


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
