"""One rendered copy: a document for one subject at one stage, as issued on one day, resolved
once and asked for its parts: its HTML, what it says about itself, its key facts, the drafted
clauses it should carry, its part to be filed and each format.

One template per document produces semantic HTML; the PDF (docgen.render.pdf) and the DOCX
(docgen.render.docx) are both made from that same HTML, so they carry the same text (DESIGN.md,
"One template, two formats"). Everything that varies between companies or directors comes from
the facts. Output is reproducible: the same facts give byte-identical HTML, PDF and DOCX.

A copy computes each part at most once and keeps it only as long as the copy lives: nothing is
shared between copies.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docgen.core.documents import FORMATS, DocumentMeta, DocumentSpec, ReturnPart
from docgen.core.errors import RenderError
from docgen.core.kind_facts import KindFacts
from docgen.core.resources import read_template
from docgen.kinds import Kind, all_kinds, document_names, kind_of
from docgen.render.templating import render_template

if TYPE_CHECKING:
    from docgen.render.pdf import EmbeddedFile


def documents_for(facts: KindFacts[Any], stage: str) -> list[tuple[str, str]]:
    """Every (subject id, document name) the stage issues, subject by subject in file order, as
    the kind says (``Kind.packets``); a stage the kind does not have is refused. (The engine asks
    the kind itself; this is the one-call form docgen.render.html offers.)"""
    kind = kind_of(facts)
    if stage not in kind.stages:
        raise RenderError(f"unknown stage {stage!r}: expected one of {', '.join(kind.stages)}")
    return [(subject, doc) for subject, docs in kind.packets(facts, stage) for doc in docs]


def check_format(fmt: str) -> None:
    """Refuse a format docgen does not make."""
    if fmt not in FORMATS:
        raise RenderError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")


def resolve(loaded: Any, doc: str, subject_id: str, stage: str, as_of: date | None = None) -> Copy:
    """The copy of ``doc`` that ``subject_id`` gets at ``stage``, issued on ``as_of``; a
    RenderError says why there is none. ``loaded`` is a loaded facts file (docgen.load) or bare
    facts (a model of a kind: no templates folder, no facts digest)."""
    facts = getattr(loaded, "facts", loaded)
    kind = kind_of(facts)
    spec = kind.document(doc)
    if spec is None:
        owner = next((k for k in all_kinds() if k.document(doc) is not None), None)
        if owner is not None:
            raise RenderError(f"document {doc!r} is made from {owner.name} facts, not {kind.name}")
        raise RenderError(
            f"unknown document {doc!r}: expected one of {', '.join(document_names())}"
        )
    if stage not in spec.stages:
        only = ", ".join(spec.stages)
        raise RenderError(f"document {doc!r} is not issued at stage {stage!r} (only {only})")
    subject = kind.subject(facts, subject_id)
    if subject is None:
        raise RenderError(
            f"no {subject_id!r} in the facts file: check --for against the ids listed there"
        )
    if not spec.applies_to(facts, subject, stage):
        raise RenderError(f"{subject_id!r} does not receive {doc!r} at stage {stage!r}")
    return Copy(loaded, kind, spec, facts, subject, stage, as_of)


@dataclass(frozen=True, eq=False)
class Copy:
    """One document for one subject at one stage, as issued on ``as_of`` (None: dated as the
    kind dates it from the facts). Made by :func:`resolve`; each part is computed on first use."""

    loaded: Any  # a loaded facts file, or bare facts
    kind: Kind[Any]
    spec: DocumentSpec[Any]
    facts: KindFacts[Any]
    subject: Any
    stage: str
    as_of: date | None = None

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def subject_id(self) -> str:
        return str(self.subject.id)

    @property
    def override(self) -> Path | None:
        """The company's templates folder the facts name (``templates_dir``), or None."""
        return getattr(self.loaded, "templates_override", None)

    @property
    def return_part(self) -> ReturnPart | None:
        """The part the signer files with the Company (DOC-RETURN-PAGE), if the document has one."""
        return self.spec.return_part

    @cached_property
    def meta(self) -> DocumentMeta:
        """What the document says about itself. Its creation and modification dates are
        ``as_of``, the day it is issued (a batch's --as-of); without one, the date the kind takes
        from the facts (a Notice's date line, December 31 before a Plan Year), never the clock.
        A fillable form read from a facts file also carries its identity (the document, cycle,
        subject and the facts file's digest)."""
        meta = self.spec.meta(self.facts, self.subject, self.stage)
        if self.as_of is not None:
            meta = dataclasses.replace(meta, created=self.as_of, modified=self.as_of)
        meta = dataclasses.replace(meta, type_size=self.spec.type_size)
        digest = getattr(self.loaded, "sha256", None)  # a facts file's; bare facts have none
        if meta.fillable and digest:
            cycle = self.kind.cycle_name(self.facts)
            identity = {"document": self.spec.name, "cycle": cycle, "subject": self.subject.id}
            meta = dataclasses.replace(
                meta, form_identity=(*identity.items(), ("facts_sha256", digest))
            )
        return meta

    @cached_property
    def key_facts(self) -> tuple[str, ...]:
        """Strings that must appear in the document's text (DOC-FACT-ABSENT)."""
        return tuple(str(f) for f in self.spec.key_facts(self.facts, self.subject, self.stage))

    def _context(self) -> dict[str, Any]:
        return self.spec.context(self.facts, self.subject, self.stage)

    @cached_property
    def html(self) -> str:
        """The document as semantic HTML (the one source of both the PDF and the DOCX)."""
        meta = self.meta
        context = self._context()
        context["meta"] = {
            "title": meta.title,
            "author": meta.author,
            "subject": meta.subject,
            "keywords": list(meta.keywords),
            "created": meta.created.isoformat(),
            "modified": meta.modified.isoformat(),
        }
        context["document_class"] = self.spec.name
        context["type_size"] = self.spec.type_size
        return render_template(self.spec.template, context, self.override)

    def clause_html(self, fragment: str) -> str:
        """One drafted clause's fragment alone, as it reads in this copy."""
        return render_template(fragment, self._context(), self.override)

    @cached_property
    def expected_clauses(self) -> tuple[frozenset[str], frozenset[str]]:
        """(the drafted clauses this copy should carry, every drafted clause of its kind): what
        DOC-DRAFTED-CLAUSE compares the copy's drafted marks with. A copy carries the clauses
        its template includes by name that its kind says this subject's copy carries, as the
        check of counsel's approvals counts them (docgen.checker.clauses)."""
        template_text = read_template(self.spec.template, self.override)[0]
        carried = (
            clause.id
            for clause in self.kind.clauses
            if clause.included_in(self.spec.name, template_text)
            and clause.used(self.facts, self.subject, self.stage)
        )
        return frozenset(carried), frozenset(clause.id for clause in self.kind.clauses)

    @cached_property
    def docx(self) -> bytes:
        from docgen.render.docx import html_to_docx

        return html_to_docx(self.html, self.meta)

    def pdf(self, embedded: Sequence[EmbeddedFile] = ()) -> bytes:
        """The PDF, carrying ``embedded`` (an issued copy's record: docgen.issue adds it)."""
        from docgen.render.pdf import html_to_pdf

        return html_to_pdf(self.html, self.meta, embedded, self.override)

    def in_format(self, fmt: str, embedded: Sequence[EmbeddedFile] = ()) -> bytes:
        """The copy in one format: ``pdf`` (with ``embedded``), ``docx`` or ``html``."""
        check_format(fmt)
        if fmt == "pdf":
            return self.pdf(embedded)
        if fmt == "docx":
            return self.docx
        return self.html.encode("utf-8")
