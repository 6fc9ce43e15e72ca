"""`docgen render`: one document, after the same checks as a batch, written atomically."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path

from docgen.check.runner import resolve_stage, run_checks, subjects_of
from docgen.core.findings import Finding
from docgen.issue.files import BadRequest, write_file_atomically
from docgen.issue.pool import FORMATS, render_and_read_back
from docgen.issue.reports import IssueRefusedByFindings, doc_findings, portable_report
from docgen.load import load_facts
from docgen.render.html import document_names, documents_for


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
) -> RenderResult:
    """`docgen render`: one document, after the same checks as a batch, written atomically.

    Refuses (exit 1, nothing written) on any error finding in the facts file, as `batch` does:
    a single document must not escape the review its packet would get. A PDF or DOCX is
    cross-checked against the other format (DOC-FORMAT-MISMATCH), so both are rendered.
    """
    if fmt not in ("pdf", "docx", "html"):
        raise BadRequest(f"--to {fmt}: expected pdf, docx or html.")
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
