"""A re-issue with ``--only`` judges the packets it issues, as of its own day; every other packet
of the stage folder keeps the verdict of its own issue (DESIGN.md, "Stages and issued folders";
A20). The stage's check report then holds one verdict per packet, each as of its own issue, and
``judged_as_of`` in its JSON names the day of each where they differ."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from docgen.core.citations import parse_citation
from docgen.core.findings import Finding, Report
from docgen.issue.changes import FolderChanges
from docgen.issue.layout import REPORT_JSON
from docgen.issue.manifest import Manifest
from docgen.issue.scope import Scope


def kept_verdicts(
    report: Report,
    scope: Scope,
    stage_dir: Path,
    previous: Manifest | None,
    changes: FolderChanges,
    notes: list[str],
) -> tuple[Report, dict[str, str]]:
    """``report`` with each packet ``--only`` leaves as issued judged as the issued report judged
    it, and the day each packet's verdict is as of ({} when every verdict is as of today's)."""
    if not scope.only or previous is None:
        return report, {}
    kept = [p.subject for p in previous.packets if p.subject not in scope.only]
    if not kept:
        return report, {}
    earlier = _issued_report(stage_dir, changes)
    if earlier is None:
        notes.append(
            f"the stage's check report as issued is altered or unreadable: every packet is "
            f"judged as of {report.as_of.isoformat()}"
        )
        return report, {}
    findings, earlier_judged, earlier_as_of = earlier
    kept_set = set(kept)
    merged = [f for f in report.findings if f.subject not in kept_set]
    merged += [f for f in findings if f.subject in kept_set]
    today = report.as_of.isoformat()
    judged = {subject: earlier_judged.get(subject, earlier_as_of) for subject in kept}
    judged.update({subject: today for subject, _ in scope.issue})
    rebuilt = Report.build(
        report.facts,
        report.as_of,
        report.stage,
        merged,
        report.subjects,
        report.names,
        clauses=report.clauses,
        defaulted=report.defaulted,
    )
    if set(judged.values()) == {today}:
        return rebuilt, {}
    order = {subject: index for index, subject in enumerate(scope.people)}
    return rebuilt, dict(sorted(judged.items(), key=lambda item: order.get(item[0], len(order))))


def _issued_report(
    stage_dir: Path, changes: FolderChanges
) -> tuple[list[Finding], dict[str, str], str] | None:
    """The findings of the check report as issued, the day each subject was judged as of where
    the report names it, and the report's own day (every other subject's)."""
    if changes.reports_altered:
        return None
    try:
        data = json.loads((stage_dir / REPORT_JSON).read_text(encoding="utf-8"))
        as_of = str(data["as_of"])
        judged = {str(k): str(v) for k, v in dict(data.get("judged_as_of", {})).items()}
        findings = [_finding(entry) for entry in data["findings"]]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return findings, judged, as_of


def _finding(entry: dict[str, Any]) -> Finding:
    return Finding(
        rule=str(entry["rule"]),
        severity=entry["severity"],
        subject=str(entry["subject"]),
        path=str(entry["path"]),
        line=entry["line"],
        message=str(entry["message"]),
        citations=tuple(parse_citation(str(text)) for text in entry["citations"]),
        remedy=str(entry.get("remedy", "")),
        file=str(entry.get("file", "")),
        title=str(entry.get("title", "")),
    )
