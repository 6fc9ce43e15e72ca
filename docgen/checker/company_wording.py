"""A company's own document templates as wordings counsel approves (DESIGN.md, "Drafted clauses
and counsel's approval"). A template in ``templates_dir`` that replaces a built-in document
template (``notice.html.j2``, or the shared layout ``base.html.j2``) prints words counsel has not
read unless its wording (docgen.core.wording) is the built-in's, word for word: seed text taken
verbatim needs no approval. Otherwise the whole template's wording is one unit of approval, under
the id ``template.<name>``, reviewed with the drafted clauses and approved the same way. Its
included clauses read as ``[Clause <id>]`` in it and are approved on their own."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from docgen.core.clauses import ApprovalSeen, ClauseReview, template_wording_id
from docgen.core.errors import RenderError
from docgen.core.resources import read_template
from docgen.core.wording import wording_of, wording_sha256
from docgen.kinds import kind_of

BASE = "base.html.j2"


def _templates_of(template_text: str, name: str) -> list[str]:
    """A document's template and the layout it extends."""
    return [name, BASE] if f'extends "{BASE}"' in template_text or name == BASE else [name]


def wording_source(loaded: Any, name: str) -> tuple[str, str, str | None]:
    """Template ``name``'s wording as it will print, where it comes from ("built-in" or the
    company's file, e.g. "templates/notice.html.j2"), and the built-in's wording when the
    company's file replaces it (else None)."""
    override = getattr(loaded, "templates_override", None)
    text, path = read_template(name, override)
    named = getattr(loaded.facts, "templates_dir", None)
    if override is None or path is None or not path.is_relative_to(override) or named is None:
        return wording_of(text), "built-in", None
    shown = f"{named.rstrip('/')}/{name}"
    from jinja2 import TemplateSyntaxError

    try:
        wording = wording_of(text)
    except TemplateSyntaxError as error:
        raise RenderError(
            f"template {shown}:{error.lineno} (reading its wording): {error.message}. Fix the "
            "template's syntax."
        ) from None
    return wording, shown, wording_of(read_template(name)[0])


def approvals_of(loaded: Any, wording_id: str) -> list[ApprovalSeen]:
    """The approvals on file for one wording, in the file's order."""
    return [
        ApprovalSeen(a.by, a.on, a.sha256, index, a.wording)
        for index, a in enumerate(getattr(loaded.facts, "clause_approvals", ()))
        if a.clause == wording_id
    ]


def company_reviews(loaded: Any, stages: Iterable[str]) -> list[ClauseReview]:
    """One review per company template the stages' documents use, in the order the documents
    come; one whose words are the built-in's is marked verbatim and needs no approval."""
    if getattr(loaded, "templates_override", None) is None:
        return []
    kind = kind_of(loaded.facts)
    uses: dict[str, dict[str, Any]] = {}
    for stage in stages:
        for _subject, spec in kind.issued(loaded.facts, stage):
            text = read_template(spec.template)[0]
            for name in _templates_of(text, spec.template):
                use = uses.setdefault(name, {"documents": [], "stages": [], "copies": 0})
                if spec.name not in use["documents"]:
                    use["documents"].append(spec.name)
                if stage not in use["stages"]:
                    use["stages"].append(stage)
                use["copies"] += 1
    reviews = []
    for name, use in uses.items():
        wording, source, builtin = wording_source(loaded, name)
        if builtin is None:
            continue  # the built-in itself
        digest = wording_sha256(wording)
        wording_id = template_wording_id(name)
        seen = approvals_of(loaded, wording_id)
        current = [a for a in seen if a.sha256 == digest]
        titles = ", ".join(spec.title for spec in kind.documents if spec.name in use["documents"])
        reviews.append(
            ClauseReview(
                id=wording_id,
                title=f"The company's own template for the {titles}",
                section=f"{titles}, the whole template ({source})",
                documents=tuple(use["documents"]),
                stages=tuple(use["stages"]),
                copies=use["copies"],
                text=wording,
                sha256=digest,
                source=source,
                rationale=f"{source} replaces docgen's built-in {name}, and its words are not "
                "the built-in's: every word it prints is the company's, which counsel approves "
                "as a whole (its drafted clauses, shown as [Clause ...], are approved on their "
                "own).",
                citations=(),
                approval=current[-1] if current else None,
                stale=tuple(a for a in seen if a.sha256 != digest),
                unit="company template",
                builtin=builtin,
                # The seed's words verbatim in the company's file (its markup may differ).
                verbatim=wording == builtin,
            )
        )
    return reviews
