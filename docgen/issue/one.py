"""`docgen render`: one document. A PDF or DOCX is issued; an HTML page is a preview, and a
review copy (`--review`) is a DOCX for counsel to comment on, never issued.

A PDF or DOCX that leaves docgen is issued like any other: its subject's packet goes through the
batch path into OUT/<cycle>/<stage>/ (as `batch --only ID`, creating the stage folder if there is
none), so the document is in that folder's manifest, and a changed one keeps its predecessor in
``superseded/<n>/``. ``-o PATH`` then gets a byte-for-byte copy of the issued file. ``--to html``
is a preview of the template for the eye, never issued: it needs no ``--out``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from docgen.checker.rules import get_rule
from docgen.checker.runner import resolve_stage, run_checks, subjects_of
from docgen.core.clauses import ClauseReview
from docgen.core.documents import FORMATS, PREVIEW_FORMAT
from docgen.core.errors import unknown_id_hint
from docgen.core.findings import Finding, Report
from docgen.core.output import OutputError, check_target, write_atomically
from docgen.core.redline import changed, redline
from docgen.issue.batch import BatchResult, issue_loaded
from docgen.issue.files import BadRequest
from docgen.issue.pool import render_copy
from docgen.issue.reports import IssueRefusedByFindings, doc_findings, portable_report
from docgen.issue.scope import Scope
from docgen.issue.signing import Signing
from docgen.kinds import document_names, kind_of
from docgen.load import LoadedFacts, load_facts
from docgen.render.copy import resolve
from docgen.render.docx import html_to_docx
from docgen.render.docx_redline import Change
from docgen.render.overrides import compile_templates

CLAUSE_RULE = "DOC-DRAFTED-CLAUSE"


@dataclass
class RenderResult:
    path: Path  # where the document was written: the -o copy, or the issued file itself
    document: str
    subject: str
    fmt: str
    bytes: int
    warnings: list[Finding]
    issued: Path | None = None  # the issued file in its stage folder (None for a preview)
    batch: BatchResult | None = None


def _requested(loaded: LoadedFacts, doc: str, subject: str, stage: str) -> None:
    if doc not in document_names():
        raise BadRequest(
            f"--doc {doc}: no such document. Documents: {', '.join(document_names())}."
        )
    subjects, _ = subjects_of(loaded.facts)
    if subject not in subjects[1:]:
        raise BadRequest(
            f"--for {subject}: no director or participant with that id in {loaded.source.file}. "
            + unknown_id_hint(subject, subjects[1:])
        )
    packets = dict(kind_of(loaded.facts).packets(loaded.facts, stage))
    issued_to_subject = packets.get(subject, [])
    if doc not in issued_to_subject:
        raise BadRequest(
            f"--doc {doc} --for {subject}: docgen does not issue this document to {subject} "
            f"at stage {stage}; at that stage {subject} gets: "
            f"{', '.join(issued_to_subject) or 'no documents'}."
        )


def render_one(
    facts_path: str | Path,
    doc: str,
    subject: str,
    fmt: str,
    output: str | Path | None = None,
    *,
    out: str | Path | None = None,
    stage: str | None = None,
    as_of: date,
    review: bool = False,
    signing: Signing | None = None,
) -> RenderResult:
    """`docgen render`: one document, after the same checks as its packet gets in a batch.

    An error finding about the subject or the cycle refuses (exit 1, nothing written), as
    `batch --only` does: a single document must not escape the review its packet would get.

    ``review`` makes counsel's review copy instead: a DOCX with one comment per drafted clause
    (its rationale and approval status). It is made while clauses await approval, which is
    what it is for, but not past any other error; it is not an issued document.
    """
    if fmt not in FORMATS:
        raise BadRequest(f"--to {fmt}: expected {', '.join(FORMATS[:-1])} or {FORMATS[-1]}.")
    if review and fmt != "docx":
        raise BadRequest(
            f"--review makes a Word copy for counsel to comment on: use --to docx, not --to {fmt}."
        )
    if output is not None:
        # a folder, or a missing one: said before anything is issued
        check_target(Path(output), example=f"{subject}-{doc}.{fmt}")
    loaded = load_facts(facts_path)
    stage = resolve_stage(loaded.facts, stage)
    _requested(loaded, doc, subject, stage)
    if review or fmt == PREVIEW_FORMAT:
        if output is None:
            what = "the review copy" if review else "the preview"
            raise BadRequest(f"--to {fmt}: name the file to write {what} to with -o PATH.")
        if out is not None:
            raise BadRequest(
                "--out: a review copy or an HTML preview is not issued, so it goes only to -o PATH."
            )
        if review:
            report = run_checks(loaded, as_of, stage)
            compile_templates(loaded.templates_override)
            return _review_copy(loaded, doc, subject, stage, report, Path(output))
        return _preview(loaded, doc, subject, stage, as_of, Path(output))
    if out is None:
        raise BadRequest(
            f"--to {fmt}: an issued document is recorded in its stage folder's manifest, so "
            "render issues it into the folder batch uses: add --out OUT (as given to batch). "
            "-o PATH then also writes a copy; --to html previews without issuing."
        )
    result = issue_loaded(
        loaded,
        out,
        stage=stage,
        as_of=as_of,
        only=[subject],
        workers=1,
        only_into_new_folder=True,
        signing=signing,
    )
    issued = result.folder / subject / f"{doc}.{fmt}"
    data = issued.read_bytes()
    target = issued
    if output is not None:
        target = Path(output)
        try:
            write_atomically(target, data)
        except OutputError as error:
            raise OutputError(f"{error} The document was issued: {issued}.") from None
    return RenderResult(target, doc, subject, fmt, len(data), result.warnings, issued, result)


def _preview(
    loaded: LoadedFacts, doc: str, subject: str, stage: str, as_of: date, output: Path
) -> RenderResult:
    """The HTML a document is made from, checked as its packet would be, for the eye only."""
    packets = kind_of(loaded.facts).packets(loaded.facts, stage)
    scope = Scope.of(loaded, packets, stage, (), [subject])
    report = run_checks(loaded, as_of, stage)
    compile_templates(loaded.templates_override)
    scope.refuse_on(report)  # as for the issued copy: the subject's own and the cycle's errors
    copy = resolve(loaded, doc, subject, stage, as_of)
    _, problems = render_copy(copy, (PREVIEW_FORMAT,))
    head = subjects_of(loaded.facts)[0][0]
    checked = portable_report(report, doc_findings(loaded, problems, head))
    scope.refuse_on(checked, stage_of_refusal="documents")
    data = copy.in_format(PREVIEW_FORMAT)
    write_atomically(output, data)
    return RenderResult(output, doc, subject, PREVIEW_FORMAT, len(data), list(checked.warnings))


def _review_copy(
    loaded: LoadedFacts, doc: str, subject: str, stage: str, report: Report, output: Path
) -> RenderResult:
    """Counsel's review copy of one document: a DOCX with one comment per drafted clause.

    Made at any date: counsel reviews before the filing deadline, when a grant packet may not
    yet be issued. A finding about the day a stage is issued (``Rule.judges_issue_date``) does
    not stop it, and is returned with the copy, which says on its first line that it is a
    review copy, not for issue; every other error does."""
    timing = {f.rule for f in report.findings if get_rule(f.rule).judges_issue_date}
    blocking = [f for f in report.errors if f.rule != CLAUSE_RULE and f.rule not in timing]
    if blocking:
        kept = dataclasses.replace(report, findings=tuple(blocking))
        raise IssueRefusedByFindings(portable_report(kept))
    copy = resolve(loaded, doc, subject, stage)
    meta = dataclasses.replace(copy.meta, title=f"Review copy - {copy.meta.title}")
    comments = {review.id: review_comment(review) for review in report.clauses}
    early = [f for f in report.findings if f.rule in timing]
    note = (
        "Made as of a day it could not be issued: "
        + " ".join(f"{f.message[:1].upper()}{f.message[1:]}" for f in early)
        if early
        else None
    )
    data = html_to_docx(
        copy.html, meta, review=comments, changes=review_changes(report, doc), review_note=note
    )
    write_atomically(output, data)
    pending = [f for f in report.findings if f.rule == CLAUSE_RULE or f.rule in timing]
    return RenderResult(output, doc, subject, "docx", len(data), pending)


def review_changes(report: Report, doc: str) -> list[Change]:
    """The wordings of ``doc`` awaiting counsel whose change can be shown: each as a redline
    against the approved wording or, for a company template never approved, the built-in."""
    changes = []
    for review in report.clauses:
        baseline = review.baseline
        if baseline is None or doc not in review.documents:
            continue
        runs = redline(baseline[0], review.text)
        if changed(runs):
            title = f"{review.id}: {review.title}"
            changes.append(Change(title, baseline[1], tuple(runs), review_comment(review)))
    return changes


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
    elif review.verbatim:
        status = "The built-in words verbatim: no approval needed."
    else:
        status = "NOT APPROVED by counsel."
    cites = "; ".join(str(c) for c in review.citations)
    what = "Drafted clause" if review.unit == "clause" else "The company's own template"
    authority = f" Authority: {cites}." if cites else ""
    return (
        f"{what} {review.id} ({review.section}). {review.rationale}{authority} "
        f"Status: {status} SHA-256 of its wording: {review.sha256}."
    )
