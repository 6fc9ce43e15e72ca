"""Issued PDFs as assistive technology and archives read them (DESIGN.md, "Trusted documents").

Every kind of document is tagged (structure tree, language, title in the title bar, bookmarks);
those that are not fillable forms are PDF/A-3b and carry docgen-record.json. No PDF/A validator
can be installed from the registries this project uses (veraPDF is Java and in none of them), so
the PDF/A-3b requirements a generator can get wrong are checked here one by one, with qpdf,
pdfinfo, pdffonts and pypdf; the PDF/UA-1 subset that `pdfua` (PyPI) implements is run as well.
"""

from __future__ import annotations

import dataclasses
import io
import re
import subprocess
import xml.etree.ElementTree as ET
from datetime import date
from pathlib import Path

import pdfua
import pytest
from pypdf import PdfReader
from pypdf.generic import BooleanObject, IndirectObject, NullObject

from docgen.core.errors import RenderError
from docgen.issue.pool import render_and_read_back
from docgen.load import load_facts
from docgen.render import html as render
from docgen.render.pdf import html_to_pdf

ROOT = Path(__file__).resolve().parent.parent
GRANT = ROOT / "samples" / "director-grant-2026.yaml"
RRP = ROOT / "samples" / "rrp-2026.yaml"

# Every kind of document docgen issues: (facts, document, subject, stage, as-of, fillable).
DOCUMENTS = {
    "notice": (GRANT, "notice", "jsmith", "grant", date(2026, 6, 23), False),
    "exhibit-i-on-file": (GRANT, "exhibit-i", "jsmith", "grant", date(2026, 6, 23), False),
    "exhibit-i-blank": (GRANT, "exhibit-i", "jsmith", "elections", date(2026, 6, 22), True),
    "rrp-election": (RRP, "rrp-election", "e1001", "enrollment", date(2025, 12, 1), True),
}
ARCHIVAL = [name for name, spec in DOCUMENTS.items() if not spec[5]]
FILLABLE = [name for name, spec in DOCUMENTS.items() if spec[5]]
NS = {
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "dc": "http://purl.org/dc/elements/1.1/",
    "xmp": "http://ns.adobe.com/xap/1.0/",
    "pdf": "http://ns.adobe.com/pdf/1.3/",
    "pdfaid": "http://www.aiim.org/pdfa/ns/id/",
}


@pytest.fixture(scope="module")
def issued(tmp_path_factory) -> dict[str, Path]:
    """Each kind of document as issued, written to a file for the command-line tools."""
    folder = tmp_path_factory.mktemp("issued")
    found = {}
    for name, (facts, doc, subject, stage, as_of, _) in DOCUMENTS.items():
        _, outputs, _, problems = render_and_read_back(
            load_facts(facts), doc, subject, stage, ("pdf",), as_of=as_of
        )
        assert [p for p in problems if p.rule != "DOC-DRAFTED-CLAUSE"] == []
        found[name] = folder / f"{name}.pdf"
        found[name].write_bytes(outputs["pdf"])
    return found


def reader(path: Path) -> PdfReader:
    return PdfReader(io.BytesIO(path.read_bytes()))


def catalog(path: Path):
    return reader(path).trailer["/Root"]


def tool(*args) -> str:
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, check=True).stdout


def xmp(path: Path) -> ET.Element:
    packet = catalog(path)["/Metadata"].get_object().get_data()
    return ET.fromstring(packet[packet.index(b"<x:xmpmeta") : packet.rindex(b"</x:xmpmeta>") + 12])


def xmp_value(root: ET.Element, path: str) -> str | None:
    """An XMP property, written as an element or as an attribute of an rdf:Description."""
    element = root.find(f".//{path}", NS)
    if element is not None:
        item = element.find(".//rdf:li", NS)
        return (item if item is not None else element).text
    prefix, name = path.split(":")
    for description in root.iter(f"{{{NS['rdf']}}}Description"):
        value = description.get(f"{{{NS[prefix]}}}{name}")
        if value is not None:
            return value
    return None


def structure(path: Path) -> list[dict]:
    """Every element of the structure tree, depth first, each with its kids resolved."""
    found: list[dict] = []

    def walk(node) -> None:
        node = node.get_object()
        if node.get("/Type") == "/StructElem":
            found.append(node)
        kids = node.get("/K")
        if kids is None:
            return
        for kid in kids if isinstance(kids, list) else [kids]:
            if isinstance(kid, IndirectObject) or hasattr(kid, "get"):
                kid = kid.get_object()
                if hasattr(kid, "get") and kid.get("/Type") in (None, "/StructElem"):
                    walk(kid)

    walk(catalog(path)["/StructTreeRoot"])
    return found


def roles(path: Path) -> set[str]:
    return {str(element["/S"]) for element in structure(path)}


def page_of(element) -> int | None:
    return element.raw_get("/Pg").idnum if "/Pg" in element else None


def marks_content(element) -> bool:
    kids = element.get("/K")
    for kid in kids if isinstance(kids, list) else [kids]:
        if isinstance(kid, int):
            return True
        kid = kid.get_object() if kid is not None else None
        if hasattr(kid, "get") and (kid.get("/Type") == "/MCR" or marks_content(kid)):
            return True
    return False


# ------------------------------------------------------------------ tagged, for every kind


@pytest.mark.parametrize("name", DOCUMENTS)
def test_pdfinfo_reports_every_kind_of_document_tagged(issued, name):
    info = tool("pdfinfo", issued[name])
    assert re.search(r"^Tagged:\s+yes$", info, re.M), info


@pytest.mark.parametrize("name", DOCUMENTS)
def test_language_title_bar_and_marked_content_are_declared(issued, name):
    root = catalog(issued[name])
    assert root["/Lang"] == "en-US"
    assert root["/ViewerPreferences"]["/DisplayDocTitle"] == BooleanObject(True)
    assert root["/MarkInfo"]["/Marked"] == BooleanObject(True)
    title = reader(issued[name]).metadata["/Title"]
    assert title.endswith((" - Jane Q. Smith", " - Pat Lee"))


@pytest.mark.parametrize("name", DOCUMENTS)
def test_bookmarks_are_the_headings(issued, name):
    outline = reader(issued[name]).outline
    top = [item.title for item in outline if not isinstance(item, list)]
    sections = [item.title for group in outline if isinstance(group, list) for item in group]
    assert len(top) == 1 and sections, outline
    if name == "notice":
        assert top == ["NOTICE OF RESTRICTED STOCK UNIT GRANT"]
        assert sections[0] == "A. Vesting of Restricted Stock Units"
        assert sections[-1] == "K. Acceptance"


def test_the_notice_is_tagged_as_headings_paragraphs_lists_and_a_table(issued):
    found = roles(issued["notice"])
    assert {"/H1", "/H2", "/P", "/L", "/LI", "/Table", "/TR", "/TH", "/TD"} <= found
    headings = [e for e in structure(issued["notice"]) if str(e["/S"]) in ("/H1", "/H2")]
    assert len(headings) == 12  # the title and Sections A to K
    assert all(marks_content(h) for h in headings), "an empty heading"


@pytest.mark.parametrize("name", DOCUMENTS)
def test_every_marked_content_id_maps_to_the_element_holding_it(issued, name):
    """The parent tree (page, marked-content id -> element) and the elements' kids agree, for
    every piece of text on every page: what a screen reader walks is what the page shows."""
    pdf = reader(issued[name])
    held = {}  # (page object number, mcid) -> element object number
    for element in structure(issued[name]):
        kids = element["/K"] if isinstance(element["/K"], list) else [element["/K"]]
        for kid in kids:
            if isinstance(kid, int):
                held[(element.raw_get("/Pg").idnum, kid)] = element.indirect_reference.idnum
    tree = catalog(issued[name])["/StructTreeRoot"]["/ParentTree"]["/Nums"]
    pages = [page.indirect_reference.idnum for page in pdf.pages]
    mapped = {}
    for index in range(0, len(tree), 2):
        key, value = tree[index], tree[index + 1]
        if key < len(pages):  # a page's marked content; keys after the pages are annotations
            for mcid, target in enumerate(value.get_object()):
                if not isinstance(target, NullObject):  # a running footer: an artifact
                    mapped[(pages[key], mcid)] = target.idnum
    assert mapped and mapped == held


@pytest.mark.parametrize("name", DOCUMENTS)
def test_the_running_footer_is_a_pagination_artifact_and_no_element_is_orphaned(issued, name):
    pdf = reader(issued[name])
    for page in pdf.pages:
        content = page.get_contents().get_data()
        assert len(re.findall(rb"/Artifact\s*<</Type /Pagination>>\s*BDC", content)) == 1
        assert b"Page " not in content  # (the footer's glyphs are hex strings; no literal)
    in_tree = {e.indirect_reference.idnum for e in structure(issued[name])}
    every = set()
    for number in range(1, pdf.trailer["/Size"]):
        found = pdf.get_object(number)
        if hasattr(found, "get") and found.get("/Type") == "/StructElem":
            every.add(number)
    assert every == in_tree


@pytest.mark.parametrize("name", DOCUMENTS)
def test_lines_of_text_are_not_elements_of_their_own(issued, name):
    """A paragraph holds its lines' marked content itself: no /Span or /NonStruct element is
    left that holds nothing but text (WeasyPrint makes one per line), but where its parent is on
    no page or another (the document itself; a paragraph across a page break)."""
    elements = structure(issued[name])
    paragraphs = [e for e in elements if e["/S"] == "/P"]
    assert paragraphs and all(any(isinstance(k, int) for k in p["/K"]) for p in paragraphs)
    hollow = [
        e["/S"]
        for e in elements
        if e["/S"] in ("/Span", "/NonStruct")
        and all(isinstance(k, int) for k in e["/K"])
        and page_of(e["/P"]) == page_of(e)
    ]
    assert hollow == []


def test_the_grant_summary_headers_name_their_rows(issued):
    """The Notice's summary table: each row's header cell has Scope Row, and each data cell
    lists its header (both ways of associating a value with its label)."""
    elements = structure(issued["notice"])
    headers = [e for e in elements if e["/S"] == "/TH"]
    cells = [e for e in elements if e["/S"] == "/TD"]
    assert len(headers) == len(cells) == 4
    assert {str(h["/A"]["/Scope"]) for h in headers} == {"/Row"}
    assert {str(h["/ID"]) for h in headers} == {str(i) for c in cells for i in c["/A"]["/Headers"]}


def test_column_headers_in_the_rrp_form_have_column_scope(issued):
    headers = [e for e in structure(issued["rrp-election"]) if e["/S"] == "/TH"]
    # investments (three columns) and beneficiaries (primary/contingent, name, relationship, share)
    assert len(headers) == 7
    assert {str(h["/A"]["/Scope"]) for h in headers} == {"/Column"}


@pytest.mark.parametrize("name", ["exhibit-i-on-file", "exhibit-i-blank"])
def test_the_signature_block_is_read_in_order_not_announced_as_a_table(issued, name):
    """Exhibit I's only table lays out the signature lines: with no header cell it holds no
    data, so it is tagged as divisions."""
    found = roles(issued[name])
    assert not found & {"/Table", "/TR", "/TD", "/TH"}, found
    text = " ".join(tool("pdftotext", "-layout", issued[name], "-").split())
    assert "Signature of Director" in text and "Printed Name" in text


@pytest.mark.parametrize("name", FILLABLE)
def test_form_fields_are_tagged_with_their_labels(issued, name):
    pdf = reader(issued[name])
    fields = pdf.get_fields()
    assert "/Form" in roles(issued[name])
    labelled = {field: str(value.get("/TU", "")) for field, value in fields.items()}
    assert labelled["date_signed"].endswith("date signed"), labelled
    assert all(labelled.values()), [f for f, label in labelled.items() if not label]
    # Each field's widget hangs in the structure tree (an /OBJR under a /Form element).
    forms = [e for e in structure(issued[name]) if e["/S"] == "/Form"]
    widgets = {
        kid.get_object().raw_get("/Obj").idnum
        for form in forms
        for kid in form["/K"]
        if kid.get_object().get("/Type") == "/OBJR"
    }
    annotations = {a.idnum for page in pdf.pages for a in page.get("/Annots", [])}
    assert annotations and annotations <= widgets


def test_the_language_is_the_documents_own():
    loaded = load_facts(GRANT)
    html = render.render_html(loaded, "notice", "jsmith", "grant")
    meta = dataclasses.replace(
        render.document_meta(loaded, "notice", "jsmith", "grant"), language="fr-CA"
    )
    pdf = PdfReader(io.BytesIO(html_to_pdf(html, meta)))
    assert pdf.trailer["/Root"]["/Lang"] == "fr-CA"


def test_a_tagging_complaint_is_a_render_error(tmp_path, monkeypatch):
    """WeasyPrint logs an error when it cannot tag something (here: an image with no text
    alternative); docgen treats it like any other WeasyPrint warning and issues nothing."""
    (tmp_path / "seal.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" '
        'height="10"/></svg>'
    )
    import shutil

    from docgen.core.resources import templates_dir

    shutil.copytree(templates_dir() / "fonts", tmp_path / "fonts")  # the fonts it prints with
    monkeypatch.setattr("docgen.render.pdf._templates_root", lambda: tmp_path)
    loaded = load_facts(GRANT)
    html = render.render_html(loaded, "notice", "jsmith", "grant")
    meta = render.document_meta(loaded, "notice", "jsmith", "grant")
    with pytest.raises(RenderError, match="no required alt"):
        html_to_pdf(html.replace("<header>", '<header><img src="seal.svg">', 1), meta)
    assert html_to_pdf(html.replace("<header>", '<header><img src="seal.svg" alt="Seal">', 1), meta)


# ------------------------------------------------------------------ PDF/A-3b


@pytest.mark.parametrize("name", ARCHIVAL)
def test_the_xmp_claims_pdf_a_3_conformance_b(issued, name):
    root = xmp(issued[name])
    assert xmp_value(root, "pdfaid:part") == "3"
    assert xmp_value(root, "pdfaid:conformance") == "B"


@pytest.mark.parametrize("name", FILLABLE)
def test_a_fillable_form_claims_no_pdf_a_yet_has_its_title_in_xmp(issued, name):
    root = xmp(issued[name])
    assert xmp_value(root, "pdfaid:part") is None
    assert xmp_value(root, "dc:title") == reader(issued[name]).metadata["/Title"]
    assert "/AcroForm" in catalog(issued[name])
    assert "/EmbeddedFiles" not in catalog(issued[name]).get("/Names", {})


@pytest.mark.parametrize("name", DOCUMENTS)
def test_info_and_xmp_agree_and_are_dated_the_as_of(issued, name):
    """PDF/A requires the Info dictionary and the XMP packet to say the same; both are dated the
    day the document is issued (the batch's --as-of), at midnight UTC."""
    as_of = DOCUMENTS[name][4]
    info = reader(issued[name]).metadata
    root = xmp(issued[name])
    assert info["/CreationDate"] == info["/ModDate"] == f"D:{as_of:%Y%m%d}000000Z"
    assert xmp_value(root, "xmp:CreateDate") == xmp_value(root, "xmp:ModifyDate")
    assert xmp_value(root, "xmp:CreateDate") == f"{as_of.isoformat()}T00:00:00Z"
    assert xmp_value(root, "dc:title") == info["/Title"]
    assert xmp_value(root, "dc:creator") == info["/Author"]
    assert xmp_value(root, "dc:description") == info["/Subject"]
    assert xmp_value(root, "pdf:Keywords") == info["/Keywords"]
    assert xmp_value(root, "pdf:Producer") == info["/Producer"]
    assert xmp_value(root, "xmp:CreatorTool") == info["/Creator"] == "docgen"


@pytest.mark.parametrize("name", ARCHIVAL)
def test_pdf_a_essentials_hold(issued, name):
    """What a PDF/A-3b validator checks that a generator can get wrong, one by one."""
    path = issued[name]
    data = path.read_bytes()
    assert data.startswith(b"%PDF-1.7\n%") and all(b > 127 for b in data[10:14])  # binary marker
    assert "No syntax or stream encoding errors" in tool("qpdf", "--check", path)
    pdf = reader(path)
    root = catalog(path)
    assert not pdf.is_encrypted and "/Encrypt" not in pdf.trailer
    assert len(pdf.trailer["/ID"]) == 2
    assert not {"/AcroForm", "/OpenAction", "/AA", "/JavaScript"} & set(root)
    (intent,) = root["/OutputIntents"]
    intent = intent.get_object()
    assert intent["/S"] == "/GTS_PDFA1"
    assert intent["/DestOutputProfile"].get_object()["/N"] == 3  # an RGB ICC profile
    fonts = tool("pdffonts", path).splitlines()[2:]
    assert fonts and all(line.split()[-5] == "yes" for line in fonts), fonts  # emb
    for page in pdf.pages:
        assert "/Group" not in page  # no transparency group
        for annotation in page.get("/Annots", []):
            assert annotation.get_object()["/F"] & 4  # printed
        states = page["/Resources"].get("/ExtGState", {})
        for state in states.values():
            state = state.get_object()
            assert state.get("/CA", 1) == 1 and state.get("/ca", 1) == 1
            assert state.get("/SMask", "/None") == "/None"


@pytest.mark.parametrize("name", ARCHIVAL)
def test_qpdf_lists_the_record_associated_with_the_document(issued, name):
    assert re.search(
        r"^docgen-record\.json -> ", tool("qpdf", "--list-attachments", issued[name]), re.M
    )
    root = catalog(issued[name])
    (spec,) = [s.get_object() for s in root["/AF"]]
    assert spec["/F"] == spec["/UF"] == "docgen-record.json"
    assert spec["/AFRelationship"] == "/Source"
    assert "docgen verify FILE.pdf" in spec["/Desc"]
    stream = spec["/EF"]["/F"].get_object()
    assert stream["/Subtype"] == "/application#2Fjson" or stream["/Subtype"] == "/application/json"
    as_of = DOCUMENTS[name][4]
    assert stream["/Params"]["/ModDate"] == f"D:{as_of:%Y%m%d}000000Z"


# ------------------------------------------------------------------ a PDF/UA-1 checker


@pytest.mark.parametrize("name", DOCUMENTS)
def test_pdfua_finds_nothing_but_the_absent_pdf_ua_claim(issued, name):
    """`pdfua` runs its share of the PDF/UA-1 machine-checkable rules. The one finding left is
    by design: docgen claims PDF/A-3b, not PDF/UA, which no validator here can confirm."""
    report = pdfua.validate(str(issued[name]))
    findings = [(f.rule_id, f.severity.name, f.message) for f in report.findings]
    assert [f for f in findings if f[0] != "UA-28-004"] == []
    # pdfua 0.1.3 cannot evaluate its empty-heading rule (UA-14-001) on any tagged file here;
    # test_the_notice_is_tagged_as_headings_paragraphs_lists_and_a_table checks headings instead.
    ran = [o.rule_id for o in report.outcomes if o.skipped_reason is None]
    assert len(ran) >= 10, ran
