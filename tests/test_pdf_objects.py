"""Reading a PDF's text back one object at a time (docgen.render.pdf_objects) gives exactly what
reading it with pypdf as a whole gives, and steps aside for any PDF laid out otherwise."""

from __future__ import annotations

import io
from datetime import date

import pytest
from pypdf import PdfReader, PdfWriter

from docgen.issue.record import files_to_embed
from docgen.load import load_facts
from docgen.render import html as render
from docgen.render import readback
from docgen.render.pdf import html_to_pdf
from docgen.render.pdf_objects import PageObjects, Unusual

CASES = [
    ("director-grant-2026.yaml", "grant", date(2026, 6, 23)),  # PDF/A-3b with its record
    ("director-grant-2026.yaml", "elections", date(2026, 6, 22)),  # fillable forms
    ("rrp-2026.yaml", "enrollment", date(2025, 12, 1)),
]


def _fast(data: bytes) -> str | None:
    pages = readback._fast_pdf_pages(PdfReader(io.BytesIO(data)))
    return None if pages is None else "\n".join(pages)


def whole_reading(data: bytes) -> str:
    """The text as pypdf's objects give it, page by page (the reading before this module)."""
    reader = PdfReader(io.BytesIO(data))
    known: dict = {}
    pages = []
    for page in reader.pages:
        try:
            text = readback._weasyprint_page_text(page, readback._pypdf_resolve, known)
        except readback._NotWeasyPrintText:
            text = page.extract_text() or ""
        pages.append(readback.PAGE_FOOTER.sub("", text))
    return "\n".join(pages)


@pytest.fixture(scope="module")
def issued_pdfs():
    from tests.conftest import SAMPLES

    pdfs = {}
    for sample, stage, as_of in CASES:
        loaded = load_facts(SAMPLES / sample)
        for subject, doc in render.documents_for(loaded.facts, stage)[:4]:
            html = render.render_html(loaded, doc, subject, stage, as_of)
            meta = render.document_meta(loaded, doc, subject, stage, as_of)
            files = files_to_embed(loaded, doc, subject, stage, as_of, meta, html)
            pdfs[f"{stage}/{subject}/{doc}"] = html_to_pdf(html, meta, files)
    return pdfs


@pytest.mark.slow
def test_every_issued_kind_of_pdf_is_read_one_object_at_a_time(issued_pdfs):
    for name, data in issued_pdfs.items():
        fast = _fast(data)
        assert fast is not None, name
        assert fast == whole_reading(data), name
        assert readback.pdf_text(data) == fast


@pytest.mark.slow
def test_only_the_objects_a_page_needs_are_parsed(issued_pdfs):
    data = issued_pdfs["grant/jsmith/notice"]
    reader = PdfReader(io.BytesIO(data))
    objects = PageObjects(reader)
    assert len(objects.pages()) >= 2
    compressed = len(reader.xref_objStm)
    readback._fast_pdf_pages(reader)
    assert compressed > 100  # the structure tree and the rest sit in the object stream ...
    assert len(reader.resolved_objects) < 20  # ... and pypdf parsed none of them (it would all)


@pytest.mark.slow
def test_a_pdf_without_object_streams_reads_the_same(issued_pdfs):
    data = issued_pdfs["grant/jsmith/notice"]
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    buffer = io.BytesIO()
    writer.write(buffer)
    rewritten = buffer.getvalue()
    assert not PdfReader(io.BytesIO(rewritten)).xref_objStm
    assert readback.pdf_text(rewritten) == readback.pdf_text(data)


@pytest.mark.slow
def test_a_page_with_several_content_streams_is_left_to_pypdf(issued_pdfs):
    from pypdf.generic import ArrayObject, NameObject

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(issued_pdfs["grant/jsmith/notice"])))
    page = writer.pages[0]
    page[NameObject("/Contents")] = ArrayObject([page.raw_get("/Contents")])
    buffer = io.BytesIO()
    writer.write(buffer)
    data = buffer.getvalue()
    assert _fast(data) is None
    assert readback.pdf_text(data) == whole_reading(data)


@pytest.mark.slow
def test_a_broken_object_stream_is_unusual(issued_pdfs):
    reader = PdfReader(io.BytesIO(issued_pdfs["grant/jsmith/notice"]))
    objects = PageObjects(reader)
    number, _ = next(iter(reader.xref_objStm.values()))
    objects._streams[int(number)] = (b"", 0, [])  # an object stream whose header lists nothing
    with pytest.raises(Unusual):
        objects.pages()


class _Stream(dict):
    """A stand-in for a pypdf stream object: a dictionary with its decoded data."""

    def __init__(self, data: bytes, **entries) -> None:
        super().__init__(entries)
        self.data = data

    def get_object(self):
        return self

    def get_data(self) -> bytes:
        return self.data


def _page(content: bytes) -> dict:
    to_unicode = _Stream(
        b"beginbfchar <0001> <0044> <00AB> <00E9> endbfchar"  # D, and e-acute
        b" beginbfrange <0010> <0012> <0061> endbfrange"  # a, b, c
    )
    font = {"/Subtype": "/Type0", "/Encoding": "/Identity-H", "/ToUnicode": to_unicode}
    return {"/Resources": {"/Font": {"/F1": font}}, "/Contents": _Stream(content)}


@pytest.mark.parametrize(
    ("content", "text"),
    [
        (b"BT /F1 12 Tf 1 0 0 1 72 700 Tm [<00010010>-20<00ab>] TJ ET", "Da\u00e9"),
        (b"BT /F1 12 Tf 1 0 0 1 72 700 Tm <00110012> Tj ET", "bc"),  # upper or lower case hex
        (b"BT /F1 12 Tf 1 0 0 1 72 700 Tm <0010> Tj 1 0 0 1 72 680 Tm <0011> Tj ET", "a\nb"),
    ],
)
def test_glyph_codes_are_read_two_bytes_at_a_time_through_the_fonts_map(content, text):
    assert readback._weasyprint_page_text(_page(content), lambda value: value, {}) == text


@pytest.mark.parametrize(
    "content",
    [
        b"BT /F1 12 Tf 1 0 0 1 72 700 Tm <0099> Tj ET",  # a code the map does not have
        b"BT /F1 12 Tf 1 0 0 1 72 700 Tm <001> Tj ET",  # a one-byte-and-a-half code
        b"BT /F1 12 Tf 1 0 0 1 72 700 Tm (D) Tj ET",  # a literal string
        b"BT /F2 12 Tf 1 0 0 1 72 700 Tm <0010> Tj ET",  # a font the page does not have
    ],
)
def test_a_run_the_fast_reader_cannot_account_for_hands_the_page_to_pypdf(content):
    with pytest.raises(readback._NotWeasyPrintText):
        readback._weasyprint_page_text(_page(content), lambda value: value, {})
