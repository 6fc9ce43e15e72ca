"""HTML to PDF with WeasyPrint: Letter, the fonts shipped in templates/fonts, metadata from the
facts, and nothing fetched from outside the templates folder. Any WeasyPrint warning is an error.
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import logging
import re
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from docgen.core.documents import DocumentMeta
from docgen.core.errors import RenderError
from docgen.core.resources import templates_dir
from docgen.render.acroform import repair_form
from docgen.render.templating import render_template


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
    if meta.fillable:  # WeasyPrint's fields, made readable by every filler (issue 11)
        pdf = repair_form(pdf, identity=dict(meta.form_identity))
    return pdf
