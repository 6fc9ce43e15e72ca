"""The check report as one self-contained HTML page for counsel (templates/check-report.html.j2).

Rendered in the documents' one sandboxed, autoescaping environment
(docgen.render.templating): a name such as "Murphy & Sons" or "<script>" prints as text. The page
has no external references. Beside the findings it sets out, for counsel to read, every drafted
clause the stage's documents carry, in full and highlighted, with its approval.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from docgen.checker.rules import get_rule
from docgen.checker.views import PART_HEADINGS, beside
from docgen.core.dates import long_date
from docgen.core.finding_groups import sections
from docgen.kinds import get_kind
from docgen.render.templating import environment

if TYPE_CHECKING:
    from docgen.checker.clause_wording import Wording
    from docgen.core.findings import Finding, Report

TEMPLATE = "check-report.html.j2"


def report_context(
    report: Report,
    wording: dict[str, Wording] | None = None,
    held: Sequence[str] = (),
    issued: bool = False,
) -> dict[str, Any]:
    """Plain data for the template: the findings grouped by subject, each with its sources; the
    drafted clauses with their words and approval; the terms taken by default. ``held``:
    the subjects whose packets an issue held back (or did not re-issue), whose error findings
    therefore did not stop it (the template's ``set_aside``, a name it keeps: the templates are
    part of every issued document's provenance)."""
    from markupsafe import Markup

    noun = get_kind(report.facts.kind).subject_noun
    groups: list[dict[str, Any]] = []
    for section in sections(report.findings):
        items = []
        for finding in section.findings[:1] if section.group else section.findings:
            entry = get_rule(finding.rule)
            items.append(
                {
                    "finding": finding,
                    "citations": [str(c) for c in finding.citations],
                    "sources": [
                        {"cite": str(s.citation), "text": s.text, "quoted": s.quoted}
                        for s in entry.sources
                    ],
                    # A group's one entry names everyone it is about, each where the fact is.
                    "at": _at(report, finding),
                    "members": [
                        {
                            "label": report.label(member.subject),
                            "finding": member,
                            "at": _at(report, member),
                        }
                        for member in (section.group.findings if section.group else ())
                    ],
                }
            )
        if section.group is not None:
            label = f"{len(section.group.subjects)} {noun}s: {section.group.first.rule}"
            subject = section.group.first.subject
        else:
            subject = section.subject or ""
            label = report.label(subject)
        # The report is in parts, every error before any warning (Report.build): the first
        # section of each part carries the part's heading.
        severity = section.findings[0].severity
        part = None if groups and groups[-1]["severity"] == severity else PART_HEADINGS[severity]
        groups.append(
            {"subject": subject, "label": label, "items": items, "severity": severity, "part": part}
        )
    wording = wording or {}
    clauses = [
        {
            "review": review,
            "citations": "; ".join(str(c) for c in review.citations),
            # Rendered by the same sandboxed, autoescaping environment as the documents.
            "reads": Markup(wording[review.id].html) if review.id in wording else None,
            "reads_in": wording[review.id].copy if review.id in wording else None,
            **_redline(review),
        }
        # Those awaiting counsel first, each group in the documents' order.
        for review in sorted(report.clauses, key=lambda review: review.approved)
    ]
    kind = get_kind(report.facts.kind)
    count = max(0, len(report.subjects) - 1)
    return {
        "report": report,
        "kind_title": kind.title,
        "as_of_long": long_date(report.as_of),
        "summary": report.summary,
        "groups": groups,
        "rules_applied": sorted({f.rule for f in report.findings}),
        "subject_count": count,
        "subject_noun": kind.subject_noun + ("" if count == 1 else "s"),
        "clauses": clauses,
        "unapproved": sum(1 for review in report.clauses if not review.approved),
        "defaulted": report.defaulted,
        "set_aside": [report.label(subject) for subject in held],
        # An issue's report: its errors did not stop it (held back, or corrected by the blank
        # form it sends), so it never says "Nothing may be issued" of what it issued.
        "issued": issued,
        "held_errors": sum(1 for f in report.errors if f.subject in held),
    }


def _at(report: Report, finding: Finding) -> str:
    """``roster.csv line 2, column 10``: the file (named as beside the facts file), line and
    column of the finding's fact; empty when it has no line."""
    if not finding.line:
        return ""
    column = f", column {finding.column}" if finding.column else ""
    return f"{beside(report, finding.file)} line {finding.line}{column}"


def _redline(review: Any) -> dict[str, Any]:
    """A wording awaiting counsel, redlined against what it is measured by: the approved
    wording, or the built-in text for a company's own template (``<del>``/``<ins>``)."""
    from markupsafe import Markup, escape

    from docgen.core.redline import redline

    baseline = review.baseline
    if baseline is None:
        return {"redline": None, "redline_against": None}
    parts = []
    for run in redline(baseline[0], review.text):
        text = escape(run.text)
        if run.op == "delete":
            parts.append(Markup('<del class="redline">{}</del>').format(text))
        elif run.op == "insert":
            parts.append(Markup('<ins class="redline">{}</ins>').format(text))
        else:
            parts.append(text)
    return {"redline": Markup("").join(parts), "redline_against": baseline[1]}


def render_report_html(
    report: Report,
    wording: dict[str, Wording] | None = None,
    held: Sequence[str] = (),
    issued: bool = False,
) -> str:
    """The check report as HTML; ``issued``: the report an issue writes beside what it issued."""
    context = report_context(report, wording, held, issued)
    return environment().get_template(TEMPLATE).render(**context)
