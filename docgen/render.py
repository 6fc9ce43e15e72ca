"""Rendering documents: facts -> semantic HTML (Jinja) -> PDF (WeasyPrint) or DOCX (python-docx).

One template per document produces semantic HTML; the PDF and the DOCX are both made from that
same HTML, so they carry the same text (DESIGN.md, "One template, two formats"). Everything that
varies between companies or directors comes from the facts: no company's name, plan, telephone
or governing law is written into a template. Output is reproducible: the same facts give
byte-identical HTML, PDF and DOCX (metadata dates come from the facts, never the clock).

Documents are registered in :data:`DOCUMENTS`; a new kind of document adds one
:class:`DocumentInfo` (its template, which subjects get it at which stage, its context, its
metadata and its key facts) and every function here serves it.
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import logging
import re
import shutil
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any, Literal
from urllib.parse import unquote, urlparse

from docgen import dates, rrp_election
from docgen.checker import STAGES  # one list of stages, owned by the checker
from docgen.errors import RenderError
from docgen.resources import templates_dir
from docgen.templating import environment

Format = Literal["html", "pdf", "docx"]
FORMATS: tuple[str, ...] = ("html", "pdf", "docx")


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


@dataclass(frozen=True)
class DocumentInfo:
    """One kind of document: its template and how the facts feed it."""

    name: str
    title: str
    template: str
    facts_kind: str
    stages: tuple[str, ...]
    applies_to: Callable[[Any, Any, str], bool]  # (facts, subject, stage) -> does it get this doc?
    subjects: Callable[[Any], list[Any]]  # facts -> subjects in file order (each has .id)
    context: Callable[[Any, Any, str], dict[str, Any]]  # (facts, subject, stage) -> template vars
    meta: Callable[[Any, Any, str], DocumentMeta]
    key_facts: Callable[[Any, Any, str], list[str]]
    description: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


# ----------------------------------------------------------------------------- formatting


def units_text(units: int) -> str:
    """2450 -> "2,450"."""
    return f"{units:,}"


def dollars(amount: Decimal) -> str:
    """Decimal("45.1") -> "$45.10"; more than two decimals are shown, never rounded away."""
    exponent = amount.as_tuple().exponent
    places = max(2, -exponent) if isinstance(exponent, int) else 2
    return f"${amount:,.{places}f}"


# ------------------------------------------------------------------- director RSU documents

# Section B events, in the order the Notice lists them (DESIGN.md, "Gaps in the source forms").
_ACCELERATION_EVENTS = {
    "death": "your death",
    "disability": (
        "the date your service as a Director terminates as a result of your Disability, provided "
        "that such Disability is also a “disability” within the meaning of Code section "
        "409A(a)(2)(C)"
    ),
    "change_of_control": "the occurrence of a Change of Control",
}

# Exhibit I, Section III: the three choices (drafted), as the form field titles name them.
_CHOICE_TITLES = {
    "separation": "Separation from Service",
    "date": "a specified date",
    "earlier_of_separation_or_date": "the earlier of Separation from Service or a specified date",
}


def _directors(facts: Any) -> list[Any]:
    return list(facts.directors)


def specified_date(facts: Any) -> date:
    """The Specified Date: the vesting anniversary, or an earlier annual meeting if one is set."""
    vesting = facts.grant.vesting
    on = dates.anniversary(facts.grant.grant_date, vesting.anniversary)
    if vesting.annual_meeting_date is not None and vesting.annual_meeting_date < on:
        return vesting.annual_meeting_date
    return on


def election_on_file(facts: Any, director: Any) -> Any | None:
    """The Exhibit I on file for this grant (the first one filed; later ones cannot change it)."""
    for election in director.elections:
        if election.grant_id == facts.grant.id:
            return election
    return None


def _election_summary(pay_on: str, pay_date: str | None) -> str:
    """The marked Section III choice in words, e.g. "(b) July 1, 2030"."""
    if pay_on == "separation":
        return "(a) Separation from Service"
    if pay_on == "date":
        return f"(b) {pay_date}"
    return f"(c) the earlier of Separation from Service or {pay_date}"


def _director_context(facts: Any, director: Any, stage: str) -> dict[str, Any]:
    grant = facts.grant
    vesting = grant.vesting
    election = election_on_file(facts, director) if stage == "grant" else None
    election_view = None
    if election is not None:
        pay_date = dates.long_date(election.pay_date) if election.pay_date else None
        election_view = {
            "summary": _election_summary(election.pay_on, pay_date),
            "pay_on": election.pay_on,
            "pay_date": pay_date,
            "filed_on": dates.long_date(election.filed_on),
        }
    order = [event for event in _ACCELERATION_EVENTS if event in vesting.accelerate_on]
    return {
        "company": facts.company.name,
        "stock_plan": facts.stock_plan,
        "secretary_phone": facts.company.secretary_phone,
        "governing_law": facts.company.governing_law,
        "form_10k_fiscal_year": str(facts.form_10k_fiscal_year),
        "notice_date": dates.long_date(grant.notice_date),
        "grant_date": dates.long_date(grant.grant_date),
        "grant_year": str(grant.grant_date.year),
        "election_deadline": dates.long_date(grant.election_deadline),
        "deadline_is_grant_date": grant.election_deadline == grant.grant_date,
        "vesting_anniversary": dates.ordinal_word(vesting.anniversary),
        "annual_meeting_date": (
            dates.long_date(vesting.annual_meeting_date) if vesting.annual_meeting_date else None
        ),
        "specified_date": dates.long_date(specified_date(facts)),
        "default_payment_anniversary": dates.ordinal_word(grant.default_payment_anniversary),
        "acceleration_events": [_ACCELERATION_EVENTS[event] for event in order],
        "units": units_text(director.units),
        "fair_market_value": dollars(grant.fair_market_value),
        "director": {
            "name": director.name,
            "greeting": director.greeting,
            "address": list(director.address),
        },
        "fillable": stage == "elections",
        "election": election_view,
        "choice_titles": dict(_CHOICE_TITLES),
    }


def _director_meta(title: str) -> Callable[[Any, Any, str], DocumentMeta]:
    def meta(facts: Any, director: Any, stage: str) -> DocumentMeta:
        grant = facts.grant
        fillable = stage == "elections"
        subject = (
            f"{facts.stock_plan}: restricted stock units granted "
            f"{dates.long_date(grant.grant_date)} to {director.name}"
        )
        kind = "blank election form" if fillable else "grant"
        return DocumentMeta(
            title=f"{title} - {director.name}",
            author=facts.company.name,
            subject=subject,
            keywords=("Restricted Stock Units", title, grant.id, director.id, kind),
            # The cycle's own date (the Notice's date line), so a re-render never changes bytes.
            created=grant.notice_date,
            modified=grant.notice_date,
            fillable=fillable,
        )

    return meta


def _notice_key_facts(facts: Any, director: Any, stage: str) -> list[str]:
    grant = facts.grant
    return [
        director.name,
        dates.long_date(grant.grant_date),
        units_text(director.units),
        dollars(grant.fair_market_value),
        dates.long_date(grant.election_deadline),
        facts.company.secretary_phone,
    ]


def _exhibit_key_facts(facts: Any, director: Any, stage: str) -> list[str]:
    grant = facts.grant
    found = [
        director.name,
        dates.long_date(grant.grant_date),
        dates.long_date(grant.election_deadline),
    ]
    election = election_on_file(facts, director) if stage == "grant" else None
    if election is not None:
        found.append(dates.long_date(election.filed_on))
        if election.pay_date is not None:
            found.append(dates.long_date(election.pay_date))
    return found


DOCUMENTS: dict[str, DocumentInfo] = {
    "notice": DocumentInfo(
        name="notice",
        title="Notice of Restricted Stock Unit Grant",
        template="notice.html.j2",
        facts_kind="director-rsu-grant",
        stages=("grant",),
        applies_to=lambda facts, director, stage: stage == "grant",
        subjects=_directors,
        context=_director_context,
        meta=_director_meta("Notice of Restricted Stock Unit Grant"),
        key_facts=_notice_key_facts,
        description="The grant notice, one per director (stage grant).",
    ),
    "exhibit-i": DocumentInfo(
        name="exhibit-i",
        title="Exhibit I Deferral Election Form",
        template="exhibit-i.html.j2",
        facts_kind="director-rsu-grant",
        stages=("elections", "grant"),
        applies_to=lambda facts, director, stage: not director.employee,
        subjects=_directors,
        context=_director_context,
        meta=_director_meta("Exhibit I Deferral Election Form"),
        key_facts=_exhibit_key_facts,
        description="The deferral Election Form, non-employee directors only: blank and fillable "
        "at stage elections, the election on file at stage grant.",
    ),
    "rrp-election": DocumentInfo(
        name="rrp-election",
        title=rrp_election.TITLE,
        template="rrp-election.html.j2",
        facts_kind="rrp-plan-year",
        stages=("enrollment",),
        applies_to=lambda facts, participant, stage: participant.eligible_employee,
        subjects=lambda facts: list(facts.participants),
        context=rrp_election.context,
        meta=rrp_election.meta,
        key_facts=rrp_election.key_facts,
        description="The RRP Deferral Election Form, one per Eligible Employee, blank and "
        "fillable (stage enrollment); drafted from Plan 2.03, 3.04, 3.05(b) and 1.02.",
    ),
}


# ----------------------------------------------------------------------------- public API


def documents_for(facts: Any, stage: str) -> list[tuple[str, str]]:
    """Every (subject id, document name) the stage issues, subject by subject in file order."""
    if stage not in STAGES:
        raise RenderError(f"unknown stage {stage!r}: expected one of {', '.join(STAGES)}")
    kind = facts.kind
    infos = [info for info in DOCUMENTS.values() if info.facts_kind == kind]
    if not infos:
        return []
    found: list[tuple[str, str]] = []
    for subject in infos[0].subjects(facts):
        for info in infos:
            if stage in info.stages and info.applies_to(facts, subject, stage):
                found.append((subject.id, info.name))
    return found


def _resolve(loaded: Any, doc: str, subject_id: str, stage: str) -> tuple[DocumentInfo, Any, Any]:
    facts = getattr(loaded, "facts", loaded)
    info = DOCUMENTS.get(doc)
    if info is None:
        known = ", ".join(sorted(DOCUMENTS))
        raise RenderError(f"unknown document {doc!r}: expected one of {known}")
    if info.facts_kind != facts.kind:
        raise RenderError(
            f"document {doc!r} is made from {info.facts_kind} facts, not {facts.kind}"
        )
    if stage not in info.stages:
        only = ", ".join(info.stages)
        raise RenderError(f"document {doc!r} is not issued at stage {stage!r} (only {only})")
    subject = next((s for s in info.subjects(facts) if s.id == subject_id), None)
    if subject is None:
        raise RenderError(
            f"no {subject_id!r} in the facts file: check --for against the ids listed there"
        )
    if not info.applies_to(facts, subject, stage):
        raise RenderError(f"{subject_id!r} does not receive {doc!r} at stage {stage!r}")
    return info, facts, subject


def document_meta(loaded: Any, doc: str, subject_id: str, stage: str) -> DocumentMeta:
    info, facts, subject = _resolve(loaded, doc, subject_id, stage)
    return info.meta(facts, subject, stage)


def key_facts(loaded: Any, doc: str, subject_id: str, stage: str) -> list[str]:
    """Strings that must appear in the document's text (DOC-FACT-ABSENT)."""
    info, facts, subject = _resolve(loaded, doc, subject_id, stage)
    return info.key_facts(facts, subject, stage)


def render_template(template: str, context: dict[str, Any]) -> str:
    """Render one template; any template problem becomes a RenderError naming the template."""
    from jinja2 import TemplateError

    try:
        return environment().get_template(template).render(**context)
    except TemplateError as error:
        raise RenderError(f"template {template}: {error}") from error


def render_html(loaded: Any, doc: str, subject_id: str, stage: str) -> str:
    """The document as semantic HTML (the one source of both the PDF and the DOCX)."""
    info, facts, subject = _resolve(loaded, doc, subject_id, stage)
    meta = info.meta(facts, subject, stage)
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
    return render_template(info.template, context)


def render_document(loaded: Any, doc: str, subject_id: str, stage: str, fmt: str) -> bytes:
    """One document in one format: ``html``, ``pdf`` or ``docx``."""
    if fmt not in FORMATS:
        raise RenderError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")
    html = render_html(loaded, doc, subject_id, stage)
    if fmt == "html":
        return html.encode("utf-8")
    meta = document_meta(loaded, doc, subject_id, stage)
    if fmt == "pdf":
        return html_to_pdf(html, meta)
    from docgen.docx_writer import html_to_docx

    return html_to_docx(html, meta)


# ---------------------------------------------------------------------------------- PDF


def _templates_root() -> Path:
    return templates_dir().resolve()


def fetch_template_file(url: str) -> tuple[bytes, str]:
    """Serve a file for WeasyPrint, only from inside the templates folder: no network, no files
    elsewhere. Returns (body, mime type); anything else raises RenderError."""
    parsed = urlparse(url)
    if parsed.scheme != "file":
        raise RenderError(
            f"refused to fetch {url}: documents may only use files in the templates folder"
        )
    root = _templates_root()
    path = Path(unquote(parsed.path)).resolve()
    if not path.is_relative_to(root) or not path.is_file():
        raise RenderError(f"refused to fetch {url}: not a file inside {root}")
    mime = {
        ".ttf": "font/ttf",
        ".otf": "font/otf",
        ".css": "text/css",
        ".png": "image/png",
        ".svg": "image/svg+xml",
    }.get(path.suffix.lower(), "application/octet-stream")
    return path.read_bytes(), mime


@functools.cache
def _fetcher_class() -> type:
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class TemplateFetcher(URLFetcher):
        """WeasyPrint's fetcher cut down to the templates folder; a refusal stops the render."""

        def __init__(self) -> None:
            super().__init__(fail_on_errors=True)

        def fetch(self, url: str, headers: Any = None) -> Any:
            body, mime = _cached_fetch(url)
            return URLFetcherResponse(url, body, {"Content-Type": mime})

    return TemplateFetcher


@functools.lru_cache(maxsize=64)
def _cached_fetch(url: str) -> tuple[bytes, str]:
    return fetch_template_file(url)


def url_fetcher() -> Any:
    """A WeasyPrint URL fetcher that serves only the templates folder."""
    return _fetcher_class()()


class _WarningCollector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if not any(note in message for note in _INSTALLATION_NOTES):
            self.messages.append(message)


# Warnings about the machine, not the document: WeasyPrint subsets fonts with fontTools when the
# system lacks libharfbuzz-subset0 (the PDF is correct, only larger and slower to make).
_INSTALLATION_NOTES = ("instead of HarfBuzz-Subset",)


_RENDER_LOCK = threading.Lock()  # WeasyPrint and its font configuration are not thread-safe


@contextmanager
def _weasyprint_warnings_are_errors() -> Iterator[_WarningCollector]:
    logger = logging.getLogger("weasyprint")
    collector = _WarningCollector()
    logger.addHandler(collector)
    try:
        yield collector
    finally:
        logger.removeHandler(collector)


@functools.cache
def _font_config() -> Any:
    from weasyprint.text.fonts import FontConfiguration

    config = FontConfiguration()
    atexit.register(_release_font_config, config)
    return config


def _release_font_config(config: Any) -> None:
    """Remove the folder where WeasyPrint keeps the @font-face files, while the interpreter is
    still whole (left to FontConfiguration.__del__ at exit, it fails noisily and leaks it)."""
    folder = getattr(config, "_folder", None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
        config._folder = None
    _print_stylesheet.cache_clear()
    _font_config.cache_clear()


_CITATION_JOINT = re.compile(r"\)\(")


def _keep_citations_together(html: str) -> str:
    """A citation such as 409A(a)(2)(B)(i) is never split across lines: a word joiner (no glyph,
    no text) between ")(" removes the line-break opportunity Unicode allows there."""
    return _CITATION_JOINT.sub(")\u2060(", html)


@functools.cache
def _print_css_text() -> str:
    return render_template("print.css", {})


@functools.cache
def _print_stylesheet() -> Any:
    from weasyprint import CSS

    return CSS(
        string=_print_css_text(),
        base_url=_templates_root().as_uri() + "/",
        url_fetcher=url_fetcher(),
        font_config=_font_config(),
    )


def _pdf_identifier(html: str) -> bytes:
    """The PDF /ID: a digest of the HTML, so the same facts give the same file and any change in
    the document gives a new identifier (WeasyPrint would otherwise leave it out)."""
    return hashlib.sha256(html.encode("utf-8")).hexdigest()[:32].encode("ascii")


def _pdf_date(day: date) -> str:
    return f"D:{day:%Y%m%d}000000Z"


def html_to_pdf(html: str, meta: DocumentMeta) -> bytes:
    """Print the HTML to PDF: Letter, fonts shipped in templates/fonts, metadata from ``meta``.

    Any WeasyPrint warning (a missing font, an unknown CSS property, a refused fetch) is a
    RenderError: a document that printed with a warning may not look the way counsel approved.
    """
    import pydyf
    from weasyprint import HTML
    from weasyprint.urls import FatalURLFetchingError

    def finisher(document: Any, pdf: Any) -> None:
        pdf.info["Title"] = pydyf.String(meta.title)
        pdf.info["Author"] = pydyf.String(meta.author)
        pdf.info["Subject"] = pydyf.String(meta.subject)
        pdf.info["Keywords"] = pydyf.String(", ".join(meta.keywords))
        pdf.info["Creator"] = pydyf.String("docgen")
        pdf.info["CreationDate"] = pydyf.String(_pdf_date(meta.created))
        pdf.info["ModDate"] = pydyf.String(_pdf_date(meta.modified))

    with _RENDER_LOCK, _weasyprint_warnings_are_errors() as warnings:
        try:
            # The shared print.css, inlined so the HTML stands alone, is parsed once per
            # process and handed to WeasyPrint ready-made (a fifth of the time of a page).
            stylesheets = []
            shared = _print_css_text()
            printed = html
            if shared in html:
                printed = html.replace(shared, "", 1)
                stylesheets.append(_print_stylesheet())
            document = HTML(
                string=_keep_citations_together(printed),
                base_url=_templates_root().as_uri() + "/",
                url_fetcher=url_fetcher(),
            )
            pdf = document.write_pdf(
                stylesheets=stylesheets,
                font_config=_font_config(),
                pdf_identifier=_pdf_identifier(html),
                pdf_forms=meta.fillable,
                finisher=finisher,
            )
        except FatalURLFetchingError as error:
            cause = error.__cause__
            raise RenderError(str(cause) if cause else str(error)) from error
    if warnings.messages:
        raise RenderError("WeasyPrint warned while printing: " + "; ".join(warnings.messages))
    return pdf


# ------------------------------------------------------------------------- reading back

_PAGE_FOOTER = re.compile(r"^\s*Page \d+ of \d+\s*$", re.MULTILINE)
_SPACE = re.compile(r"\s+")
_HYPHEN_BREAK = re.compile(r"(?<=\w)-[ \t]*\n[ \t]*(?=\w)")


def normalise_text(text: str) -> str:
    """Whitespace collapsed to single spaces, ends trimmed: how document texts are compared."""
    return _SPACE.sub(" ", text.replace("\u00a0", " ")).strip()


def text_of_pdf(pdf: bytes) -> str:
    """The PDF's body text as pypdf reads it, without the "Page N of M" footers."""
    import io

    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(pdf))
    pages = [_PAGE_FOOTER.sub("", page.extract_text() or "") for page in reader.pages]
    text = "\n".join(pages).replace("\u2060", "")
    # A line the printer broke after a hyphen ("non-" / "employee") is one word in the source.
    return normalise_text(_HYPHEN_BREAK.sub("-", text))
