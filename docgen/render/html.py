"""Rendering one document in one call: facts -> semantic HTML (Jinja) -> PDF or DOCX.

Each function resolves the copy (docgen.render.copy) and asks it for one part; code that needs
several parts of one copy resolves it once with ``docgen.render.copy.resolve`` instead.

Which documents exist is each kind's business (docgen.kinds: ``Kind.documents``); every function
here serves any of them.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from docgen.core.documents import DocumentMeta
from docgen.render.copy import check_format, document_names, documents_for, resolve

__all__ = [
    "document_meta",
    "document_names",
    "documents_for",
    "key_facts",
    "render_clause",
    "render_document",
    "render_html",
]


def document_meta(
    loaded: Any, doc: str, subject_id: str, stage: str, as_of: date | None = None
) -> DocumentMeta:
    """What the document says about itself (``Copy.meta``)."""
    return resolve(loaded, doc, subject_id, stage, as_of).meta


def key_facts(loaded: Any, doc: str, subject_id: str, stage: str) -> list[str]:
    """Strings that must appear in the document's text (DOC-FACT-ABSENT)."""
    return list(resolve(loaded, doc, subject_id, stage).key_facts)


def render_html(
    loaded: Any, doc: str, subject_id: str, stage: str, as_of: date | None = None
) -> str:
    """The document as semantic HTML (the one source of both the PDF and the DOCX)."""
    return resolve(loaded, doc, subject_id, stage, as_of).html


def render_clause(loaded: Any, doc: str, subject_id: str, stage: str, fragment: str) -> str:
    """One drafted clause's fragment alone, as it reads in this subject's copy of ``doc``."""
    return resolve(loaded, doc, subject_id, stage).clause_html(fragment)


def render_document(
    loaded: Any, doc: str, subject_id: str, stage: str, fmt: str, as_of: date | None = None
) -> bytes:
    """One document in one format: ``pdf``, ``docx`` or ``html`` (a PDF without the record an
    issued document carries: docgen.issue adds that)."""
    check_format(fmt)
    return resolve(loaded, doc, subject_id, stage, as_of).in_format(fmt)
