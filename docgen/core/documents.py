"""What a document is, to the engine: a template, who gets it at which stage, what it is told,
what it says about itself, and the facts that must be read back from it. Each kind of facts
declares its documents with :class:`DocumentSpec`, typed by its facts model (a kind's documents
are ``DocumentSpec[ItsFacts]``); docgen.render makes them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, Generic, Protocol

from docgen.core.kind_facts import FactsT

# Every format a document is made in, in the order the command line offers them: an issued
# document is its PDF and its DOCX; the HTML both are made from is a preview, never issued.
ISSUED_FORMATS: tuple[str, ...] = ("pdf", "docx")
PREVIEW_FORMAT = "html"
FORMATS: tuple[str, ...] = (*ISSUED_FORMATS, PREVIEW_FORMAT)


@dataclass(frozen=True)
class DocumentMeta:
    """What a document says about itself: PDF Info / DOCX core properties, all from the facts."""

    title: str
    author: str
    subject: str
    keywords: tuple[str, ...]
    created: date
    modified: date
    fillable: bool = False  # the PDF carries form fields (a blank Election Form)
    language: str = "en-US"
    # A fillable form's identity (docgen.render.form_format.IDENTITY_KEYS), set when the copy
    # is resolved (docgen.render.copy).
    form_identity: tuple[tuple[str, str], ...] = ()
    type_size: float | None = None  # the document's body type size (DocumentSpec.type_size)


@dataclass(frozen=True)
class ReturnPart:
    """The part of a document the signer files with the Company, which must be one page of its
    own (Exhibit I: "Page 2 of this Election Form must be filed"): it is page ``page``, the
    document's last, its text begins with ``starts`` and it holds ``ends``."""

    page: int
    starts: str
    ends: str


@dataclass(frozen=True)
class DocumentSpec(Generic[FactsT]):
    """One kind of document: its template and how the facts feed it. Each function takes the
    kind's facts, one subject of them and the stage."""

    name: str
    title: str
    template: str
    stages: tuple[str, ...]
    applies_to: Callable[[FactsT, Any, str], bool]  # does the subject get it at the stage?
    context: Callable[[FactsT, Any, str], dict[str, Any]]  # the template's variables
    meta: Callable[[FactsT, Any, str], DocumentMeta]
    key_facts: Callable[[FactsT, Any, str], list[str]]
    # Body text in points, in the PDF and in Word alike; None: the house size (print.css, 11.5)
    type_size: float | None = None
    return_part: ReturnPart | None = None  # DOC-RETURN-PAGE
    # The stages at which the document is a blank form, printing no recorded election: a finding
    # about an election (Rule.remedied_by_blank_form) never holds it back (DESIGN.md A20).
    blank_at: tuple[str, ...] = ()


class CheckedCopy(Protocol):
    """What the DOC-* rules know of the copy they read back: whose it is, which document, the
    facts it must show and its part to be filed; and, for a copy rendered now (not one read
    from an issued folder, whose manifest records only the rest), its HTML and the drafted
    clauses it should carry."""

    @property
    def subject_id(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def key_facts(self) -> Sequence[str]: ...

    @property
    def return_part(self) -> ReturnPart | None: ...

    @property
    def html(self) -> str | None: ...

    @property
    def expected_clauses(self) -> tuple[frozenset[str], frozenset[str]] | None:
        """(the drafted clauses this copy should carry, every drafted clause of its kind)."""
        ...


@dataclass(frozen=True)
class IssuedCopy:
    """A copy as an issued folder's manifest describes it, for `docgen verify`: no facts, so no
    HTML and no drafted clauses to expect."""

    subject_id: str
    name: str
    key_facts: tuple[str, ...] = ()
    return_part: ReturnPart | None = None
    html: str | None = None
    expected_clauses: tuple[frozenset[str], frozenset[str]] | None = None
