"""HTML to PDF with WeasyPrint: Letter, the fonts shipped in templates/fonts, metadata from the
facts, and nothing fetched from outside the templates folder (and a company's own templates
folder, when the facts name one). Any WeasyPrint warning is an error.

Every PDF is tagged (a structure tree in reading order: headings, paragraphs, lists, tables, form
fields with their labels), names its language, shows its title in the viewer's title bar and has
bookmarks from its headings. A document that is not a fillable form is PDF/A-3b and may carry files
of its own (docgen's record of what it was made from, DESIGN.md, "Trusted documents"); a fillable
form is not (PDF/A forbids the NeedAppearances flag its fields rely on).

WeasyPrint is imported inside the functions that print, not at the top of this module: the issue
and verify modules import this one for its names, and a command that prints nothing (`docgen
check`) never imports WeasyPrint (tests/test_check_cli.py).
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import logging
import re
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from docgen.core.documents import DocumentMeta
from docgen.core.errors import RenderError
from docgen.core.resources import templates_dir
from docgen.render.acroform import repair_form
from docgen.render.glyphs import declared_fonts, refuse_missing_glyphs
from docgen.render.heading_text import join_numbered_headings, numbered_headings
from docgen.render.pdf_structure import tidy_structure
from docgen.render.templating import render_template


def _templates_root() -> Path:
    return templates_dir().resolve()


def _base(override: Path | None) -> Path:
    """Where a document's relative references resolve: the company's folder, else the built-ins."""
    return override.resolve() if override is not None else _templates_root()


def fetch_template_file(url: str, override: Path | None = None) -> tuple[bytes, str]:
    """Serve a file for WeasyPrint, only from the templates folder or a company's own folder of
    templates (``templates_dir``): no network, no files elsewhere. A file the company's folder
    lacks (the bundled fonts) is served from the built-ins by the same relative name.
    Returns (body, mime type); anything else raises RenderError."""
    parsed = urlparse(url)
    if parsed.scheme != "file":
        raise RenderError(
            f"refused to fetch {url}: documents may only use files in the templates folder"
        )
    root = _templates_root()
    path = Path(unquote(parsed.path)).resolve()
    if override is not None and path.is_relative_to(override.resolve()):
        if not path.is_file():
            path = (root / path.relative_to(override.resolve())).resolve()
    if not path.is_relative_to(root) and not (
        override is not None and path.is_relative_to(override.resolve())
    ):
        raise RenderError(f"refused to fetch {url}: not a file inside {root}")
    if not path.is_file():
        raise RenderError(f"refused to fetch {url}: no such file in the templates folder")
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
        """WeasyPrint's fetcher cut down to the templates folders; a refusal stops the render."""

        def __init__(self, override: Path | None) -> None:
            super().__init__(fail_on_errors=True)
            self.override = override

        def fetch(self, url: str, headers: Any = None) -> Any:
            body, mime = _cached_fetch(url, self.override)
            return URLFetcherResponse(url, body, {"Content-Type": mime})

    return TemplateFetcher


@functools.lru_cache(maxsize=64)
def _cached_fetch(url: str, override: Path | None) -> tuple[bytes, str]:
    return fetch_template_file(url, override)


@functools.cache
def url_fetcher(override: Path | None = None) -> Any:
    """A WeasyPrint URL fetcher that serves only the templates folders: one per process and
    folder (making one sets up urllib's handlers, an SSL context among them, that it never
    uses)."""
    return _fetcher_class()(override)


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

    atexit.register(_release_font_config)
    return FontConfiguration()


def _release_font_config() -> None:
    """Let go of the font configuration while the interpreter is still whole, so that WeasyPrint
    removes the folder where it keeps the @font-face files (FontConfiguration.__del__); left to
    the interpreter's teardown, that fails noisily and leaks the folder."""
    _print_stylesheet.cache_clear()
    _font_config.cache_clear()


_CITATION_JOINT = re.compile(r"\)\(")


def _keep_citations_together(html: str) -> str:
    """A citation such as 409A(a)(2)(B)(i) is never split across lines: a word joiner (no glyph,
    no text) between ")(" removes the line-break opportunity Unicode allows there."""
    return _CITATION_JOINT.sub(")\u2060(", html)


@functools.cache
def _print_css_text(override: Path | None = None) -> str:
    return render_template("print.css", {}, override)


@functools.cache
def _print_stylesheet(override: Path | None = None) -> Any:
    from weasyprint import CSS

    return CSS(
        string=_print_css_text(override),
        base_url=_base(override).as_uri() + "/",
        url_fetcher=url_fetcher(override),
        font_config=_font_config(),
    )


# ISO 19005-3, conformance level B: the archival form of every document that is not a form to fill.
ARCHIVAL_VARIANT = "pdf/a-3b"


@dataclass(frozen=True)
class EmbeddedFile:
    """A file carried inside the PDF (PDF/A-3 associates it with the whole document)."""

    name: str
    data: bytes
    description: str
    relationship: str = "Source"  # ISO 32000-2 7.11.3: the source the document was made from


@functools.cache
def renderer() -> str:
    """What printed the PDF, as far as it decides the bytes: WeasyPrint, pydyf (which writes the
    file), Pango (which shapes the text) and what subsets the fonts. The same facts give the same
    bytes only through the same renderer; a record names it so that `docgen verify` compares the
    text, not the bytes, of a document printed by another. (Versions from the modules
    themselves: importlib.metadata costs a command 38 ms to import.)"""
    import fontTools
    import pydyf
    import weasyprint
    from weasyprint.text.ffi import harfbuzz, harfbuzz_subset, pango

    number = pango.pango_version()
    pango_version = f"{number // 10000}.{number // 100 % 100}.{number % 100}"
    if harfbuzz_subset and harfbuzz.hb_version_atleast(4, 1, 0):
        subsetter = "HarfBuzz-Subset"
    else:
        subsetter = f"fontTools {fontTools.version}"
    return (
        f"WeasyPrint {weasyprint.__version__}, pydyf {pydyf.__version__}, Pango {pango_version}, "
        f"fonts subset by {subsetter}"
    )


def _midnight(day: date) -> datetime:
    return datetime.combine(day, time(0, 0), tzinfo=UTC)


def _set_metadata(document: Any, meta: DocumentMeta) -> None:
    """The PDF's Info dictionary and its XMP packet, both from ``meta`` (WeasyPrint writes the
    two from the same values, as PDF/A requires them to agree); dates at midnight UTC."""
    metadata = document.metadata
    metadata.title = meta.title
    metadata.authors = [meta.author]
    metadata.description = meta.subject
    metadata.keywords = list(meta.keywords)
    metadata.generator = "docgen"
    metadata.created = f"{meta.created.isoformat()}T00:00:00Z"
    metadata.modified = f"{meta.modified.isoformat()}T00:00:00Z"
    metadata.lang = meta.language


def _attachments(files: Sequence[EmbeddedFile], meta: DocumentMeta) -> list[Any]:
    from weasyprint import Attachment

    return [
        Attachment(
            string=file.data,
            name=file.name,
            description=file.description,
            # The document's own dates, never the clock: the same facts give the same bytes.
            created=_midnight(meta.created),
            modified=_midnight(meta.modified),
            relationship=file.relationship,
            url_fetcher=url_fetcher(),
        )
        for file in files
    ]


def _pdf_identifier(html: str, files: Sequence[EmbeddedFile]) -> bytes:
    """The PDF /ID: a digest of the HTML and of the files carried, so the same facts give the
    same file and any change in the document gives a new identifier."""
    digest = hashlib.sha256(html.encode("utf-8"))
    for file in files:
        digest.update(file.name.encode("utf-8") + b"\0" + hashlib.sha256(file.data).digest())
    return digest.hexdigest()[:32].encode("ascii")


def _finisher(meta: DocumentMeta, headings: list[str | None]) -> Any:
    def finish(document: Any, pdf: Any) -> None:
        tidy_structure(pdf)
        join_numbered_headings(pdf, headings)
        if "AF" in pdf.catalog:
            # WeasyPrint lists each embedded file's specification twice; once is the rule.
            listed = pdf.catalog["AF"]
            listed[:] = list(dict.fromkeys(listed))
        if pdf_variant(meta) is None:
            # PDF/A writes the XMP packet; a form gets the same one, without the claim, so
            # assistive technology finds its title there too (PDF/UA 7.1).
            document.metadata.include_in_pdf(pdf, "a", None, None, True)
        _uncompressed_metadata(pdf)
        if meta.fillable:  # WeasyPrint's fields, made readable by every filler (issue 11)
            repair_form(pdf, identity=dict(meta.form_identity))

    return finish


@contextmanager
def _streams_ended_safely() -> Iterator[None]:
    """While WeasyPrint writes a PDF (under the render lock), every stream pydyf makes, its
    object and cross-reference streams included, closes data that ends in a carriage return with
    CR LF before ``endstream``: with LF alone a reader takes the data's CR for part of the end of
    line and counts one byte fewer than /Length (page-validation's PDFA3B-STREAM-LENGTH-001; ISO
    32000-2, 7.3.8.1). Compressed data ends in CR by chance, once in 256 streams."""
    import pydyf

    original = pydyf.Stream.data
    write = original.fget

    def data(stream: Any) -> bytes:
        written = write(stream)
        if written.endswith(b"\r\nendstream"):
            written = written[: -len(b"\nendstream")] + b"\r\nendstream"
        return written

    pydyf.Stream.data = property(data)
    try:
        yield
    finally:
        pydyf.Stream.data = original


def _uncompressed_metadata(pdf: Any) -> None:
    """The XMP packet written as plain text: PDF/A forbids a Filter on the catalog's metadata
    stream (ISO 19005-3, 6.6.2.1, after 19005-1 6.7.2; page-validation's
    PDFA3B-METADATA-FILTER-001), and a validator that cannot read a compressed packet finds no
    pdfaid identification in it (pdf-oxide's XMP-002)."""
    reference = pdf.catalog["Metadata"]
    stream = pdf.objects[int(bytes(reference).split()[0])]
    stream.compress = False
    stream.stream[:] = [
        _PDFAID_ATTRIBUTES.sub(_PDFAID_ELEMENTS, bytes(part)) for part in stream.stream
    ]


# WeasyPrint writes the PDF/A identification as attributes of an rdf:Description; the same RDF
# written as elements is what every reader finds (pdf-oxide reads no attribute form).
_PDFAID_ATTRIBUTES = re.compile(
    rb'<rdf:Description rdf:about="" pdfaid:part="(\d)" pdfaid:conformance="([A-Z])" />'
)
_PDFAID_ELEMENTS = (
    rb'<rdf:Description rdf:about=""><pdfaid:part>\1</pdfaid:part>'
    rb"<pdfaid:conformance>\2</pdfaid:conformance></rdf:Description>"
)


def pdf_variant(meta: DocumentMeta) -> str | None:
    """PDF/A-3b for a document to keep; None (plain tagged PDF) for a fillable form."""
    return None if meta.fillable else ARCHIVAL_VARIANT


def pdf_options(html: str, meta: DocumentMeta, files: Sequence[EmbeddedFile]) -> dict[str, Any]:
    """WeasyPrint's options for one document: tagged, PDF/A-3b unless a form, its /ID."""
    variant = pdf_variant(meta)
    if files and variant is None:
        raise RenderError(
            f"{meta.title}: a fillable form is not PDF/A and carries no embedded files"
        )
    return {
        "pdf_tags": True,
        "pdf_variant": variant,
        "pdf_forms": meta.fillable,
        "pdf_identifier": _pdf_identifier(html, files),
    }


def document_fonts(html: str, override: Path | None = None) -> list[Path]:
    """The font files a document's stylesheet declares (the shared print.css inlined in it):
    from a company's folder where it has them, else the built-ins (as the fetcher serves them)."""
    roots = (override.resolve(), _templates_root()) if override else (_templates_root(),)
    return declared_fonts(html, roots)


LINK_SCHEMES = ("https", "mailto")


def _refuse_links(document: Any) -> None:
    """A document links only to ``https:`` and ``mailto:`` addresses (and within itself): a
    company's template that links to ``javascript:``, ``file:`` or ``http:`` would issue a PDF
    whose link runs a script or opens a local file, so it is refused."""
    for number, page in enumerate(document.pages, start=1):
        for link_type, target, _rectangle, _box in page.links:
            if link_type != "external":
                continue
            scheme = urlparse(target).scheme.lower()
            if scheme not in LINK_SCHEMES:
                shown = target if len(target) <= 80 else target[:77] + "..."
                raise RenderError(
                    f"page {number} links to {shown!r}: a document may link only to https: "
                    "and mailto: addresses. Remove the link or make it an https: address."
                )


def html_to_pdf(
    html: str,
    meta: DocumentMeta,
    files: Sequence[EmbeddedFile] = (),
    override: Path | None = None,
) -> bytes:
    """Print the HTML to PDF: Letter, fonts shipped in templates/fonts, metadata from ``meta``,
    tagged; PDF/A-3b carrying ``files`` unless it is a fillable form. ``override`` is a
    company's templates folder (``templates_dir``), whose files the document may also use.

    Any WeasyPrint warning (a missing font, an unknown CSS property, a refused fetch, an element
    it cannot tag) is a RenderError: a document that printed with a warning may not look the way
    counsel approved.
    """
    from weasyprint import HTML
    from weasyprint.urls import FatalURLFetchingError

    # Every letter in a font docgen ships, or refused here: never a machine's fallback font.
    refuse_missing_glyphs(html, document_fonts(html, override), meta.title)
    options = pdf_options(html, meta, files)
    with _RENDER_LOCK, _weasyprint_warnings_are_errors() as warnings:
        try:
            # The shared print.css, inlined so the HTML stands alone, is parsed once per
            # process and handed to WeasyPrint ready-made (a fifth of the time of a page).
            stylesheets = []
            shared = _print_css_text(override)
            printed = html
            if shared in html:
                printed = html.replace(shared, "", 1)
                stylesheets.append(_print_stylesheet(override))
            document = HTML(
                string=_keep_citations_together(printed),
                base_url=_base(override).as_uri() + "/",
                url_fetcher=url_fetcher(override),
            ).render(font_config=_font_config(), stylesheets=stylesheets, **options)
            _refuse_links(document)
            _set_metadata(document, meta)
            with _streams_ended_safely():
                pdf = document.write_pdf(
                    attachments=_attachments(files, meta),
                    finisher=_finisher(meta, numbered_headings(html)),
                    **options,
                )
        except FatalURLFetchingError as error:
            cause = error.__cause__
            raise RenderError(str(cause) if cause else str(error)) from error
    if warnings.messages:
        raise RenderError("WeasyPrint warned while printing: " + "; ".join(warnings.messages))
    return pdf


def prepare(override: Path | None = None) -> None:
    """Parse the shared stylesheet, configure its fonts and make the fetcher now, once: a batch
    worker does it before its first document, so its documents only print."""
    _print_stylesheet(override)
    url_fetcher(override)
