"""Which drafted clauses a cycle's documents carry, and whether counsel approved each one's exact
wording (DESIGN.md, "Drafted clauses and counsel's approval"). Known from the facts and the
templates' text alone, without rendering: a clause is carried by a copy when its kind says so for
that subject and stage (``Clause.used``) and the document's template, the company's own or the
built-in, includes its fragment. A company's own document template whose wording is not the
built-in's is reviewed the same way (docgen.checker.company_wording). DOC-DRAFTED-CLAUSE is one
error per wording without an approval of its present words; a stale one shows the change as a
redline when the approval recorded the words it approved.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from docgen.checker.company_wording import approvals_of, company_reviews, wording_source
from docgen.checker.rules import get_rule
from docgen.core.citations import Citation, cited_for
from docgen.core.clauses import Clause, ClauseReview
from docgen.core.documents import DocumentSpec
from docgen.core.findings import Finding
from docgen.core.redline import changes_only, redline
from docgen.core.resources import read_template
from docgen.core.wording import wording_sha256
from docgen.kinds import kind_of

RULE = "DOC-DRAFTED-CLAUSE"
PLACEHOLDER_BY = "<counsel>"
PLACEHOLDER_ON = "<YYYY-MM-DD>"


@dataclass
class _Use:
    documents: set[str] = field(default_factory=set)
    stages: list[str] = field(default_factory=list)
    copies: int = 0


def included_clauses(loaded: Any, spec: DocumentSpec) -> list[Clause]:
    """The drafted clauses of ``spec`` whose fragment its template (the company's own, or the
    built-in) includes by name."""
    override = getattr(loaded, "templates_override", None)
    template_text = read_template(spec.template, override)[0]
    return [
        clause
        for clause in kind_of(loaded.facts).clauses
        if clause.included_in(spec.name, template_text)
    ]


def clauses_in_copy(
    loaded: Any, spec: DocumentSpec, subject: Any, stage: str, included: list[Clause] | None = None
) -> list[Clause]:
    """The drafted clauses one copy of a document carries: those its template includes by name
    (``included``, when already known) that its kind says this subject's copy carries."""
    if included is None:
        included = included_clauses(loaded, spec)
    return [clause for clause in included if clause.used(loaded.facts, subject, stage)]


def clause_uses(loaded: Any, stages: Iterable[str]) -> dict[str, _Use]:
    """Clause id -> the documents, stages and copies that carry it, in the kind's clause order."""
    kind = kind_of(loaded.facts)
    included: dict[str, list[Clause]] = {}
    uses: dict[str, _Use] = {}
    for stage in stages:
        for subject, spec in kind.issued(loaded.facts, stage):
            if spec.name not in included:
                included[spec.name] = included_clauses(loaded, spec)
            for clause in clauses_in_copy(loaded, spec, subject, stage, included[spec.name]):
                use = uses.setdefault(clause.id, _Use())
                use.documents.add(spec.name)
                if stage not in use.stages:
                    use.stages.append(stage)
                use.copies += 1
    order = {clause.id: index for index, clause in enumerate(kind.clauses)}
    return dict(sorted(uses.items(), key=lambda item: order[item[0]]))


def _review(loaded: Any, clause: Clause, use: _Use) -> ClauseReview:
    wording, source, builtin = wording_source(loaded, clause.fragment)
    digest = wording_sha256(wording)
    seen = approvals_of(loaded, clause.id)
    current = [a for a in seen if a.sha256 == digest]
    return ClauseReview(
        id=clause.id,
        title=clause.title,
        section=clause.section,
        documents=tuple(d for d in clause.documents if d in use.documents),
        stages=tuple(use.stages),
        copies=use.copies,
        text=wording,
        sha256=digest,
        source=source,
        rationale=clause.rationale,
        citations=clause.citations,
        approval=current[-1] if current else None,
        stale=tuple(a for a in seen if a.sha256 != digest),
        builtin=builtin,
    )


def review_clauses(loaded: Any, stage: str | None = None) -> list[ClauseReview]:
    """Every drafted clause the stage's documents carry (every stage's, when None), in order."""
    kind = kind_of(loaded.facts)
    stages = (stage,) if stage is not None else kind.stages
    clauses = {clause.id: clause for clause in kind.clauses}
    return company_reviews(loaded, stages) + [
        _review(loaded, clauses[clause_id], use)
        for clause_id, use in clause_uses(loaded, stages).items()
    ]


def _copies(review: ClauseReview) -> str:
    return f"{review.copies} cop{'y' if review.copies == 1 else 'ies'}"


def clause_findings(loaded: Any, reviews: Iterable[ClauseReview], head: str) -> list[Finding]:
    """DOC-DRAFTED-CLAUSE, one error per clause without an approval of its present wording."""
    rule = get_rule(RULE)
    authorities = kind_of(loaded.facts).authorities
    source = loaded.source
    shown = source.file
    findings = []
    for review in reviews:
        if review.approved:
            continue
        entry = (
            f"{{clause: {review.id}, sha256: {review.sha256}, by: ..., on: YYYY-MM-DD, "
            "wording: ...}"
        )
        where = f"{review.section}; {_copies(review)} of {', '.join(review.documents)}"
        what = "clause" if review.unit == "clause" else "template"
        baseline = review.baseline
        change = ""
        if baseline is not None:
            shown_change = changes_only(redline(baseline[0], review.text))
            change = f"; changed from {baseline[1]}: {shown_change}" if shown_change else ""
        if review.stale:
            last = review.stale[-1]
            path = f"clause_approvals[{last.index}]"
            message = (
                f"{review.id} ({where}): the approval by {last.by} on {last.on.isoformat()} is "
                f"of other wording (SHA-256 {last.sha256[:12]}…); the {what} now reads SHA-256 "
                f"{review.sha256[:12]}…, which counsel has not approved"
                + (
                    change
                    or "; that approval does not record the wording it approved, so no redline "
                    "can be shown"
                )
                + "."
            )
            remedy = (
                f"Have counsel read the {what} as it now reads (`docgen clauses {shown} -o "
                f"REVIEW`), then record the new approval: `docgen approve {shown} --wording "
                f"{review.id} --shown REVIEW --by NAME` (in clause_approvals: {entry})."
            )
        else:
            path = "clause_approvals"
            message = f"{review.id} ({where}) is not approved by counsel{change}"
            message += "" if message.endswith("…") else "."
            remedy = (
                f"Have counsel read the {what} (`docgen clauses {shown} -o REVIEW`, or the check "
                f"report's drafted clauses), then record the approval: `docgen approve {shown} "
                f"--wording {review.id} --shown REVIEW --by NAME` (in clause_approvals: {entry})."
            )
        file, line = source.locate(path)
        if "clause_approvals" not in loaded.facts.model_fields_set:
            line = None  # nowhere to point: the file has no clause_approvals yet
        # The clause's own citations (the gap it fills); a company template's edit, the sections
        # it touched (never every clause the rule may concern); else the rule's for this kind.
        touched = _touched_sections(review, authorities) if baseline is not None else ()
        cites = tuple(review.citations) or touched or cited_for(rule.citations, authorities)
        findings.append(
            rule.finding(head, path, message, line=line, file=file, remedy=remedy, citations=cites)
        )
    return findings


# A document's section heading as its wording reads: "B. Accelerated Vesting" (the Notice), or a
# drafted heading clause "[Clause exhibit-i.heading-ii]" (Exhibit I's Section II).
_HEADING = re.compile(r"^(?:([A-Z]|[IVX]+)\. \S|\[Clause [\w-]+\.heading-([a-z]+)\]$)")
# The authority each document's sections are cited under, and how a section is pinpointed.
_SECTION_CITES = {"notice": ("Notice", "{}"), "exhibit-i": ("Exhibit I", "Section {}")}


def _touched_sections(review: ClauseReview, authorities: Iterable[Any]) -> tuple[Citation, ...]:
    """The sections of a company template's document that its edit touched: for each changed
    run of the redline, the heading above it in the wording as it now reads."""
    if review.baseline is None or len(review.documents) != 1:
        return ()
    authority, pinpoint = _SECTION_CITES.get(review.documents[0], (None, ""))
    if authority is None or authority not in {a.name for a in authorities}:
        return ()
    sections: list[str] = []
    current = ""
    for run in redline(review.baseline[0], review.text):
        if run.op != "delete":
            for line in run.text.split("\n"):
                found = _HEADING.match(line.strip())
                if found:
                    current = (found.group(1) or found.group(2)).upper()
        if run.op != "equal" and run.text.strip() and current and current not in sections:
            sections.append(current)
    return tuple(Citation(authority, pinpoint.format(section)) for section in sections)


def approval_block(
    loaded: Any, reviews: Iterable[ClauseReview], by: str | None = None, on: str | None = None
) -> str:
    """The ``clause_approvals`` block to paste into the facts file: each clause's present
    SHA-256, with its approval kept where it is current and ``by``/``on`` (or placeholders,
    which do not load) where it is not. Approvals of clauses this cycle does not use stay."""
    lines = ["clause_approvals:"]
    listed = set()
    for review in reviews:
        if review.verbatim:
            continue  # the built-in words: nothing to approve
        listed.add(review.id)
        if review.approval is not None:
            who, when = review.approval.by, review.approval.on.isoformat()
        else:
            who, when = by or PLACEHOLDER_BY, on or PLACEHOLDER_ON
        lines += _entry(review.id, review.sha256, who, when, review.text)
    kept = [a for a in getattr(loaded.facts, "clause_approvals", ()) if a.clause not in listed]
    if kept:
        lines.append("  # approved earlier; no document of this cycle carries these clauses")
        for a in kept:
            lines += _entry(a.clause, a.sha256, a.by, a.on.isoformat(), a.wording)
    return "\n".join(lines) + "\n"


def _entry(clause_id: str, sha256: str, by: str, on: str, wording: str | None) -> list[str]:
    """One approval as YAML: the wording approved as a literal block, so counsel reads it in the
    facts file and a later change can be redlined against it."""
    name = json.dumps(by, ensure_ascii=False)
    lines = [
        f"  - clause: {clause_id}",
        f"    sha256: {sha256}",
        f"    by: {name}",
        f"    on: {on}",
    ]
    if wording:
        lines.append("    wording: |")
        lines += [f"      {line}" if line else "" for line in wording.rstrip("\n").split("\n")]
    return lines
