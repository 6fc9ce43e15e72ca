"""Reading rendered documents back: the one text reader for PDFs, DOCX files and HTML (and
the files a PDF carries inside it), and :class:`ReadBack`, what one copy reads back as.

The DOC-* rules, `docgen verify` and the tests all read documents through these functions, so
what a test asserts is what issuing checks.
"""

from __future__ import annotations

import io
import logging
import re
import sys
from array import array
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from html.parser import HTMLParser
from typing import Any

from docgen.render.pdf_objects import PageObjects, Unusual

# Reading a PDF back. pypdf's extract_text costs about as much as WeasyPrint took to print the
# page (it parses every operator in Python), which would make verifying dearer than rendering.
# WeasyPrint writes text one way only: Type0 fonts with Identity-H encoding and a ToUnicode map,
# shown by hex-string TJ/Tj operators positioned with Tm. So docgen reads those operators with
# pypdf's own objects (fonts, decompressed content) and a scan of the content stream, and falls
# back to pypdf's extract_text for any page it cannot account for: a font of another kind, a code
# missing from the map, or a text operator it did not read. And before a document is declared
# wrong on the strength of the fast reading, its PDF is read again with pypdf
# (ReadBack.thoroughly, called by docgen.issue.docrules.check_rendered).
_TEXT_OPERATORS = re.compile(
    rb"(-?[\d.]+)\s+(-?[\d.]+)\s+Tm\b"  # text matrix: a new line when its y changes
    rb"|/([^\s/\[\]<>()%]+)\s+-?[\d.]+\s+Tf\b"  # font selection
    rb"|\[([^\]]*)\]\s*TJ\b"  # glyph runs with kerning
    rb"|<([0-9a-fA-F]*)>\s*Tj\b"
)
_SHOW_OPERATORS = re.compile(rb"T[jJ]\b|[)>\]]\s*['\"]")
_HEX_RUN = re.compile(rb"<([0-9a-fA-F]*)>")
_ODD_RUN = re.compile(rb"<(?:[0-9a-fA-F]{4})*[0-9a-fA-F]{1,3}>")
_BFCHAR = re.compile(rb"beginbfchar(.*?)endbfchar", re.S)
_BFRANGE = re.compile(rb"beginbfrange(.*?)endbfrange", re.S)
_CHAR_PAIR = re.compile(rb"<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>")
_RANGE = re.compile(rb"<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(<[0-9a-fA-F]+>|\[[^\]]*\])")
_HEX = re.compile(rb"<([0-9a-fA-F]+)>")
# The running footer WeasyPrint prints from the stylesheet's @page rule; the DOCX has it in a
# Word footer (a PAGE field), outside the body text compared.
PAGE_FOOTER = re.compile(r"^\s*Page \d+ of \d+\s*$", re.MULTILINE)


class _NotWeasyPrintText(Exception):
    """A page the fast reader cannot account for; pypdf's extract_text reads it instead."""


def _utf16(hex_digits: bytes) -> str:
    return bytes.fromhex(hex_digits.decode("ascii")).decode("utf-16-be")


def _to_unicode(font: Any) -> dict[int, str]:
    """The font's two-byte glyph codes (as a content stream writes them in 4 hex digits) to
    text."""
    if font.get("/Subtype") != "/Type0" or font.get("/Encoding") != "/Identity-H":
        raise _NotWeasyPrintText
    if "/ToUnicode" not in font:
        raise _NotWeasyPrintText
    data = font["/ToUnicode"].get_object().get_data()
    table: dict[int, str] = {}
    for block in _BFCHAR.findall(data):
        for code, text in _CHAR_PAIR.findall(block):
            table[int(code, 16)] = _utf16(text)
    for block in _BFRANGE.findall(data):
        for low, high, target in _RANGE.findall(block):
            first, last = int(low, 16), int(high, 16)
            if target.startswith(b"["):
                for offset, text in enumerate(_HEX.findall(target)):
                    table[first + offset] = _utf16(text)
                continue
            base = bytes.fromhex(target[1:-1].decode("ascii"))
            start = int.from_bytes(base[-2:], "big")
            for offset in range(last - first + 1):
                unit = (start + offset).to_bytes(2, "big")
                table[first + offset] = (base[:-2] + unit).decode("utf-16-be")
    return table


def _glyph_codes(hex_digits: bytes) -> array:
    """A run's hex digits (4 to a glyph) as its two-byte codes, big-endian as the PDF has them."""
    codes = array("H", bytes.fromhex(hex_digits.decode("ascii")))
    if sys.byteorder == "little":
        codes.byteswap()
    return codes


def _weasyprint_page_text(
    page: Any, resolve: Callable[[Any], Any], known: dict[Any, dict[int, str]]
) -> str:
    resources = resolve(page.get("/Resources")) or {}
    fonts = {}
    for name, font in (resolve(resources.get("/Font")) or {}).items():
        key = getattr(font, "idnum", None) or id(font)  # pages share their fonts' objects
        if key not in known:
            known[key] = _to_unicode(resolve(font))
        fonts[str(name)[1:]] = known[key]
    contents = resolve(page.get("/Contents"))
    if contents is None:
        data = b""
    elif hasattr(contents, "get_data"):
        data = contents.get_data()
    else:  # several content streams: WeasyPrint writes one per page
        raise _NotWeasyPrintText
    parts: list[str] = []
    table: dict[int, str] | None = None
    line: bytes | None = None
    shown = 0
    for match in _TEXT_OPERATORS.finditer(data):
        if match.group(2) is not None:
            if line is not None and match.group(2) != line:
                parts.append("\n")
            line = match.group(2)
        elif match.group(3) is not None:
            table = fonts.get(match.group(3).decode("latin-1"))
            if table is None:
                raise _NotWeasyPrintText
        else:
            shown += 1
            run = match.group(4) if match.group(4) is not None else b"<" + match.group(5) + b">"
            if table is None:
                raise _NotWeasyPrintText
            if b"(" in run:
                raise _NotWeasyPrintText  # a literal string: not how WeasyPrint writes text
            if _ODD_RUN.search(run):
                raise _NotWeasyPrintText  # a one-byte code
            try:
                parts.extend(map(table.__getitem__, _glyph_codes(b"".join(_HEX_RUN.findall(run)))))
            except KeyError:
                raise _NotWeasyPrintText from None
    if shown != len(_SHOW_OPERATORS.findall(data)):
        raise _NotWeasyPrintText
    return "".join(parts)


def _pypdf_resolve(value: Any) -> Any:
    return value.get_object() if value is not None else None


def _fast_pdf_pages(reader: Any) -> list[str] | None:
    """Every page read the fast way, fetching only the objects a page's text needs (see
    docgen.render.pdf_objects); None when some page or object is not as WeasyPrint writes it."""
    from pypdf.errors import PyPdfError

    objects = PageObjects(reader)

    def resolve(value: Any) -> Any:
        return objects.resolve(value) if value is not None else None

    known: dict[Any, dict[int, str]] = {}
    try:
        pages = [_weasyprint_page_text(page, resolve, known) for page in objects.pages()]
    except (_NotWeasyPrintText, Unusual, PyPdfError, KeyError, ValueError, TypeError):
        return None
    return [PAGE_FOOTER.sub("", text) for text in pages]


def pdf_pages(data: bytes, *, thorough: bool = False) -> list[str]:
    """The text of each page of a PDF, without the running "Page N of M" footer.

    Fast for what WeasyPrint writes (see above); ``thorough`` uses pypdf's extract_text only.
    """
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    if not thorough:
        fast = _fast_pdf_pages(reader)
        if fast is not None:
            return fast
    pages = []
    known_fonts: dict[Any, dict[int, str]] = {}
    for page in reader.pages:
        text = None
        if not thorough:
            try:
                text = _weasyprint_page_text(page, _pypdf_resolve, known_fonts)
            except _NotWeasyPrintText:
                text = None
        if text is None:
            text = page.extract_text() or ""
        pages.append(PAGE_FOOTER.sub("", text))
    return pages


def pdf_text(data: bytes, *, thorough: bool = False) -> str:
    """The text of a PDF, page after page (:func:`pdf_pages` joined)."""
    return "\n".join(pdf_pages(data, thorough=thorough))


def pdf_embedded_file(data: bytes, name: str) -> bytes | None:
    """The file called ``name`` that a PDF carries (its /EmbeddedFiles), or None when it carries
    none by that name. Raises pypdf's errors for a file that is not a readable PDF."""
    from pypdf import PdfReader

    found = PdfReader(io.BytesIO(data)).attachments.get(name)
    return found[0] if found else None


def docx_text(data: bytes) -> str:
    """The text of a DOCX body in document order: paragraphs, table cells and content controls."""
    from docx import Document

    return _body_text(Document(io.BytesIO(data)))


def docx_page_starts(data: bytes) -> list[str]:
    """The text of each DOCX paragraph that begins a new page by a forced break: a page break
    before it (set on the paragraph or its style) or a page break inside it. How many pages the
    text between them fills is the word processor's layout, which only opening it tells."""
    from docx import Document

    return _page_starts(Document(io.BytesIO(data)))


def docx_reading(data: bytes) -> tuple[str, list[str]]:
    """:func:`docx_text` and :func:`docx_page_starts` from one opening of the file."""
    from docx import Document

    document = Document(io.BytesIO(data))
    return _body_text(document), _page_starts(document)


def _body_text(document: Any) -> str:
    from docx.oxml.ns import qn

    body = document.element.body
    text_tag, tab_tag, breaks = qn("w:t"), qn("w:tab"), {qn("w:br"), qn("w:cr")}
    paragraphs = []
    for paragraph in body.iter(qn("w:p")):
        parts = []
        for node in paragraph.iter():
            if node.tag == text_tag:
                parts.append(node.text or "")
            elif node.tag == tab_tag:
                parts.append("\t")
            elif node.tag in breaks:
                parts.append("\n")
        paragraphs.append("".join(parts))
    return "\n".join(paragraphs)


def _page_starts(document: Any) -> list[str]:
    from docx.oxml.ns import qn

    starts = []
    # Whether a style breaks the page, once per style id: python-docx finds a paragraph's style
    # by an XPath search of the whole style sheet, which was most of reading a DOCX back.
    style_breaks: dict[str | None, bool] = {}
    for paragraph in document.paragraphs:
        style_id = paragraph._p.style
        if style_id not in style_breaks:
            style = paragraph.style
            style_breaks[style_id] = bool(
                style is not None and style.paragraph_format.page_break_before
            )
        forced = bool(paragraph.paragraph_format.page_break_before) or style_breaks[style_id]
        forced = forced or any(
            br.get(qn("w:type")) == "page" for br in paragraph._p.iter(qn("w:br"))
        )
        if forced:
            starts.append(paragraph.text)
    return starts


@dataclass(frozen=True)
class ReadBack:
    """What one copy's PDF and DOCX read back as: the PDF page by page (the fast reading first,
    see above), the DOCX's text and the paragraphs that begin its pages; when neither format
    was made, the visible text of the HTML. A format not made reads as None."""

    pdf: bytes | None = field(repr=False)
    pdf_pages: list[str] | None
    docx_text: str | None
    docx_page_starts: list[str] | None
    html_text: str | None = None
    thorough: bool = False  # the PDF read by pypdf's own extractor alone

    @classmethod
    def of(cls, pdf: bytes | None, docx: bytes | None, html: str | None = None) -> ReadBack:
        """Read each format once (the DOCX's text and page starts from one opening of it)."""
        text, starts = docx_reading(docx) if docx is not None else (None, None)
        shown = html_text(html) if html is not None and pdf is None and docx is None else None
        pages = pdf_pages(pdf) if pdf is not None else None
        return cls(pdf, pages, text, starts, shown)

    @property
    def pdf_text(self) -> str | None:
        return "\n".join(self.pdf_pages) if self.pdf_pages is not None else None

    @property
    def texts(self) -> dict[str, str]:
        """Each text read back by its format's label: PDF, DOCX; HTML when neither was made."""
        if self.html_text is not None:
            return {"HTML": self.html_text}
        found = {"PDF": self.pdf_text, "DOCX": self.docx_text}
        return {label: text for label, text in found.items() if text is not None}

    def thoroughly(self) -> ReadBack:
        """The same reading with the PDF read again by pypdf's own extractor (the DOCX is not
        read again); itself when there is no PDF or it was so read already."""
        if self.pdf is None or self.thorough:
            return self
        return replace(self, pdf_pages=pdf_pages(self.pdf, thorough=True), thorough=True)


class PdfReaderNotes(logging.Handler):
    """What pypdf says while it reads a damaged file, kept for the report instead of printed."""

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())

    def summary(self) -> list[str]:
        if not self.messages:
            return []
        more = len(self.messages) - 1
        return [f"reading it: {self.messages[0]}" + (f" (and {more} more)" if more else "")]


@contextmanager
def pdf_reader_notes() -> Iterator[PdfReaderNotes]:
    logger = logging.getLogger("pypdf")
    notes, propagate = PdfReaderNotes(), logger.propagate
    logger.addHandler(notes)
    logger.propagate = False
    try:
        yield notes
    finally:
        logger.removeHandler(notes)
        logger.propagate = propagate


class _TextOnly(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("style", "script", "head"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "script", "head") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def html_text(html: str) -> str:
    """The visible text of an HTML document (no head, styles or scripts)."""
    parser = _TextOnly()
    parser.feed(html)
    parser.close()
    return " ".join(parser.parts)


def prepare() -> None:
    """Import the readers now (a batch, once, before its workers fork)."""
    import docx  # noqa: F401
    import pypdf  # noqa: F401
