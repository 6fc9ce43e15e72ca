"""Rendering documents: facts -> semantic HTML (Jinja) -> PDF (WeasyPrint) or DOCX (python-docx).

One template per document produces semantic HTML; the PDF (docgen.render.pdf) and the DOCX
(docgen.render.docx) are both made from that same HTML, so they carry the same text (DESIGN.md,
"One template, two formats"). Everything that varies between companies or directors comes from
the facts. Output is reproducible: the same facts give byte-identical HTML, PDF and DOCX.

Which documents exist is each kind's business (docgen.kinds: ``Kind.documents``); every function
here serves any of them.
"""

from __future__ import annotations

import dataclasses
from datetime import date
from pathlib import Path
from typing import Any

from docgen.core.documents import DocumentMeta, DocumentSpec
from docgen.core.errors import RenderError
from docgen.kinds import all_kinds, kind_of
from docgen.render.templating import render_template

FORMATS: tuple[str, ...] = ("html", "pdf", "docx")


# ----------------------------------------------------------------------------- public API


def documents_for(facts: Any, stage: str) -> list[tuple[str, str]]:
    """Every (subject id, document name) the stage issues, subject by subject in file order."""
    kind = kind_of(facts)
    if stage not in kind.stages:
        raise RenderError(f"unknown stage {stage!r}: expected one of {', '.join(kind.stages)}")
    return [(subject.id, spec.name) for subject, spec in kind.issued(facts, stage)]


def document_names() -> list[str]:
    """Every document any kind issues."""
    return sorted({doc.name for kind in all_kinds() for doc in kind.documents})


def _resolve(loaded: Any, doc: str, subject_id: str, stage: str) -> tuple[DocumentSpec, Any, Any]:
    facts = getattr(loaded, "facts", loaded)
    kind = kind_of(facts)
    info = kind.document(doc)
    if info is None:
        owner = next((k for k in all_kinds() if k.document(doc) is not None), None)
        if owner is not None:
            raise RenderError(f"document {doc!r} is made from {owner.name} facts, not {kind.name}")
        raise RenderError(
            f"unknown document {doc!r}: expected one of {', '.join(document_names())}"
        )
    if stage not in info.stages:
        only = ", ".join(info.stages)
        raise RenderError(f"document {doc!r} is not issued at stage {stage!r} (only {only})")
    subject = kind.subject(facts, subject_id)
    if subject is None:
        raise RenderError(
            f"no {subject_id!r} in the facts file: check --for against the ids listed there"
        )
    if not info.applies_to(facts, subject, stage):
        raise RenderError(f"{subject_id!r} does not receive {doc!r} at stage {stage!r}")
    return info, facts, subject


def document_meta(
    loaded: Any, doc: str, subject_id: str, stage: str, as_of: date | None = None
) -> DocumentMeta:
    """What the document says about itself. Its creation and modification dates are ``as_of``,
    the day it is issued (a batch's --as-of); without one, the date the kind takes from the facts
    (a Notice's date line, December 31 before a Plan Year), never the clock."""
    info, facts, subject = _resolve(loaded, doc, subject_id, stage)
    meta = dataclasses.replace(
        _dated(info.meta(facts, subject, stage), as_of), type_size=info.type_size
    )
    digest = getattr(loaded, "sha256", None)  # a facts file's; bare facts have none
    if meta.fillable and digest:
        cycle = kind_of(facts).cycle_name(facts)
        identity = {"document": info.name, "cycle": cycle, "subject": subject.id}
        meta = dataclasses.replace(
            meta, form_identity=(*identity.items(), ("facts_sha256", digest))
        )
    return meta


def _dated(meta: DocumentMeta, as_of: date | None) -> DocumentMeta:
    return meta if as_of is None else dataclasses.replace(meta, created=as_of, modified=as_of)


def key_facts(loaded: Any, doc: str, subject_id: str, stage: str) -> list[str]:
    """Strings that must appear in the document's text (DOC-FACT-ABSENT)."""
    info, facts, subject = _resolve(loaded, doc, subject_id, stage)
    return info.key_facts(facts, subject, stage)


def render_html(
    loaded: Any, doc: str, subject_id: str, stage: str, as_of: date | None = None
) -> str:
    """The document as semantic HTML (the one source of both the PDF and the DOCX)."""
    info, facts, subject = _resolve(loaded, doc, subject_id, stage)
    meta = _dated(info.meta(facts, subject, stage), as_of)
    context = info.context(facts, subject, stage)
    context["meta"] = {
        "title": meta.title,
        "author": meta.author,
        "subject": meta.subject,
        "keywords": list(meta.keywords),
        "created": meta.created.isoformat(),
        "modified": meta.modified.isoformat(),
    }
    context["document_class"] = info.name
    context["type_size"] = info.type_size
    return render_template(info.template, context, templates_override(loaded))


def templates_override(loaded: Any) -> Path | None:
    """The company's templates folder the facts name (``templates_dir``), or None."""
    return getattr(loaded, "templates_override", None)


def render_clause(loaded: Any, doc: str, subject_id: str, stage: str, fragment: str) -> str:
    """One drafted clause's fragment alone, as it reads in this subject's copy of ``doc``."""
    info, facts, subject = _resolve(loaded, doc, subject_id, stage)
    return render_template(
        fragment, info.context(facts, subject, stage), templates_override(loaded)
    )


def render_document(
    loaded: Any, doc: str, subject_id: str, stage: str, fmt: str, as_of: date | None = None
) -> bytes:
    """One document in one format: ``html``, ``pdf`` or ``docx`` (a PDF without the record an
    issued document carries: docgen.issue adds that)."""
    if fmt not in FORMATS:
        raise RenderError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")
    html = render_html(loaded, doc, subject_id, stage, as_of)
    if fmt == "html":
        return html.encode("utf-8")
    meta = document_meta(loaded, doc, subject_id, stage, as_of)
    if fmt == "pdf":
        from docgen.render.pdf import html_to_pdf

        return html_to_pdf(html, meta, override=templates_override(loaded))
    from docgen.render.docx import html_to_docx

    return html_to_docx(html, meta)
