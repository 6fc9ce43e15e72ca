"""The check report as one self-contained HTML page for counsel (templates/check-report.html.j2).

Rendered in the documents' one sandboxed, autoescaping environment
(docgen.render.templating): a name such as "Murphy & Sons" or "<script>" prints as text. The page
has no external references.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docgen.check.rules import get_rule
from docgen.core.dates import long_date
from docgen.kinds import get_kind
from docgen.render.templating import environment

if TYPE_CHECKING:
    from docgen.core.findings import Report

TEMPLATE = "check-report.html.j2"


def report_context(report: Report) -> dict[str, Any]:
    """Plain data for the template: the findings grouped by subject, each with its sources."""
    groups = []
    for subject, findings in report.by_subject():
        items = []
        for finding in findings:
            entry = get_rule(finding.rule)
            items.append(
                {
                    "finding": finding,
                    "citations": [str(c) for c in finding.citations],
                    "sources": [
                        {"cite": str(s.citation), "text": s.text, "quoted": s.quoted}
                        for s in entry.sources
                    ],
                }
            )
        groups.append({"subject": subject, "label": report.label(subject), "items": items})
    rules_applied = sorted({f.rule for f in report.findings})
    return {
        "report": report,
        "kind_title": get_kind(report.facts.kind).title,
        "as_of_long": long_date(report.as_of),
        "summary": report.summary,
        "groups": groups,
        "rules_applied": rules_applied,
        "subject_count": max(0, len(report.subjects) - 1),
    }


def render_report_html(report: Report) -> str:
    return environment().get_template(TEMPLATE).render(**report_context(report))
