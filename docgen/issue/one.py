"""`docgen render`: one document, after the same checks as a batch, written atomically."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from docgen.check.runner import resolve_stage, run_checks, subjects_of
from docgen.core.clauses import ClauseReview
from docgen.core.findings import Finding, Report
from docgen.issue.files import BadRequest, write_file_atomically
from docgen.issue.pool import FORMATS, render_and_read_back
from docgen.issue.reports import IssueRefusedByFindings, doc_findings, portable_report
from docgen.load import LoadedFacts, load_facts
from docgen.render.docx import html_to_docx
from docgen.render.html import document_meta, document_names, documents_for, render_html
from docgen.render.overrides import compile_templates

CLAUSE_RULE = "DOC-DRAFTED-CLAUSE"


@dataclass
class RenderResult:
    path: Path
    document: str
    subject: str
    fmt: str
    bytes: int
    warnings: list[Finding]


def render_one(
    facts_path: str | Path,
    doc: str,
    subject: str,
    fmt: str,
    output: str | Path,
    *,
    stage: str | None = None,
    as_of: date,
    review: bool = False,
) -> RenderResult:
    """`docgen render`: one document, after the same checks as a batch, written atomically.

    Refuses (exit 1, nothing written) on any error finding in the facts file, as `batch` does:
    a single document must not escape the review its packet would get. A PDF or DOCX is
    cross-checked against the other format (DOC-FORMAT-MISMATCH), so both are rendered.

    ``review`` makes counsel's review copy instead: a DOCX with one comment per drafted clause
    (its rationale and approval status). It is made while clauses await approval, which is
    what it is for, but not past any other error; it is not an issued document.
    """
    if fmt not in ("pdf", "docx", "html"):
        raise BadRequest(f"--to {fmt}: expected pdf, docx or html.")
    if review and fmt != "docx":
        raise BadRequest(
            f"--review makes a Word copy for counsel to comment on: use --to docx, not --to {fmt}."
        )
    loaded = load_facts(facts_path)
    stage = resolve_stage(loaded.facts, stage)
    if doc not in document_names():
        raise BadRequest(
            f"--doc {doc}: no such document. Documents: {', '.join(document_names())}."
        )
    subjects, _ = subjects_of(loaded.facts)
    if subject not in subjects[1:]:
        raise BadRequest(
            f"--for {subject}: no director or participant with that id in {loaded.source.file}. "
            f"Ids: {', '.join(subjects[1:]) or '(none)'}."
        )
    issued_to_subject = [d for s, d in documents_for(loaded.facts, stage) if s == subject]
    if doc not in issued_to_subject:
        raise BadRequest(
            f"--doc {doc} --for {subject}: docgen does not issue this document to {subject} "
            f"at stage {stage}; at that stage {subject} gets: "
            f"{', '.join(issued_to_subject) or 'no documents'}."
        )
    report = run_checks(loaded, as_of, stage)
    compile_templates(loaded.templates_override)
    if review:
        return _review_copy(loaded, doc, subject, stage, report, Path(output))
    if report.errors:
        raise IssueRefusedByFindings(portable_report(report))
    formats = ("html",) if fmt == "html" else FORMATS
    _, outputs, _, problems = render_and_read_back(
        loaded, doc, subject, stage, formats, as_of=as_of
    )
    head = subjects[0]
    issued = portable_report(report, doc_findings(loaded, problems, head))
    if issued.errors:
        raise IssueRefusedByFindings(issued, stage_of_refusal="documents")
    data = outputs[fmt]
    output = Path(output)
    write_file_atomically(output, data)
    return RenderResult(output, doc, subject, fmt, len(data), list(issued.warnings))


def _review_copy(
    loaded: LoadedFacts, doc: str, subject: str, stage: str, report: Report, output: Path
) -> RenderResult:
    """Counsel's review copy of one document: a DOCX with one comment per drafted clause."""
    blocking = [f for f in report.errors if f.rule != CLAUSE_RULE]
    if blocking:
        kept = dataclasses.replace(report, findings=tuple(blocking))
        raise IssueRefusedByFindings(portable_report(kept))
    html = render_html(loaded, doc, subject, stage)
    meta = document_meta(loaded, doc, subject, stage)
    meta = dataclasses.replace(meta, title=f"Review copy - {meta.title}")
    comments = {review.id: review_comment(review) for review in report.clauses}
    data = html_to_docx(html, meta, review=comments)
    write_file_atomically(output, data)
    pending = [f for f in report.findings if f.rule == CLAUSE_RULE]
    return RenderResult(output, doc, subject, "docx", len(data), pending)


def review_comment(review: ClauseReview) -> str:
    """One drafted clause's comment in counsel's review copy: what it is, why, and its status."""
    if review.approval is not None:
        status = f"Approved by {review.approval.by} on {review.approval.on.isoformat()}."
    elif review.stale:
        last = review.stale[-1]
        status = (
            f"NOT APPROVED: {last.by} approved other wording on {last.on.isoformat()}; the "
            "clause has changed since."
        )
    else:
        status = "NOT APPROVED by counsel."
    cites = "; ".join(str(c) for c in review.citations)
    return (
        f"Drafted clause {review.id} ({review.section}). {review.rationale} Authority: {cites}. "
        f"Status: {status} SHA-256 of its text: {review.sha256}."
    )
