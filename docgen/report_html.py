"""The check report as one self-contained HTML page for counsel (templates/check-report.html.j2).

Rendered in the documents' one sandboxed, autoescaping environment (docgen.templating): a name
such as "Murphy & Sons" or "<script>" prints as text. The page has no external references.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docgen.dates import long_date
from docgen.templating import environment

if TYPE_CHECKING:
    from docgen.findings import Report

TEMPLATE = "check-report.html.j2"
KIND_TITLES = {
    "director-rsu-grant": "Director restricted stock unit grant",
    "rrp-plan-year": "Retirement Restoration Plan, Plan Year enrollment",
}


def report_context(report: Report) -> dict[str, Any]:
    """Plain data for the template: the findings grouped by subject, each with its sources."""
    from docgen.checker import get_rule

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
        "kind_title": KIND_TITLES.get(report.facts.kind, report.facts.kind),
        "as_of_long": long_date(report.as_of),
        "summary": report.summary,
        "groups": groups,
        "rules_applied": rules_applied,
        "subject_count": max(0, len(report.subjects) - 1),
    }


def render_report_html(report: Report) -> str:
    return environment().get_template(TEMPLATE).render(**report_context(report))
