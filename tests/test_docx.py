"""The DOCX made from the rendered HTML: Word styles, footer fields, comments, fixed bytes."""

from __future__ import annotations

import io
import shutil
import subprocess
import zipfile
from datetime import UTC, datetime
from pathlib import Path

import pytest
from docx import Document
from docx.enum.text import WD_ALIGN_PARAGRAPH
from pypdf import PdfReader

from docgen.load import load_facts
from docgen.render import html as render
from docgen.render.docx import REVIEW_BANNER, html_to_docx
from docgen.render.html_tree import parse_html
from tests.readers import docx_words as text_of_docx
from tests.readers import normalise

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "director-grant-2026.yaml"
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


@pytest.fixture(scope="module")
def loaded():
    return load_facts(SAMPLE)


@pytest.fixture(scope="module")
def notice(loaded) -> bytes:
    return render.render_document(loaded, "notice", "jsmith", "grant", "docx")


@pytest.fixture(scope="module")
def blank_form(loaded) -> bytes:
    return render.render_document(loaded, "exhibit-i", "jsmith", "elections", "docx")


def _paragraph(document, starts: str):
    for paragraph in document.paragraphs:
        if paragraph.text.startswith(starts):
            return paragraph
    raise AssertionError(f"no paragraph starts with {starts!r}")


def test_documents_use_real_word_styles(notice):
    document = Document(io.BytesIO(notice))
    assert _paragraph(document, "NOTICE OF RESTRICTED STOCK UNIT GRANT").style.name == "Title"
    heading = _paragraph(document, "A.\tVesting of Restricted Stock Units")
    assert heading.style.name == "Heading 1"
    clause = _paragraph(document, "Except as otherwise provided in this Notice of Grant")
    assert clause.style.name == "Clause"
    assert clause.style.base_style.name == "Body Text"
    assert clause.style.base_style.paragraph_format.alignment == WD_ALIGN_PARAGRAPH.JUSTIFY
    item = _paragraph(document, "(ii)\tthe date your service as a Director terminates")
    assert item.style.name == "Enumerated Clause"
    assert item.style.base_style.name == "List Paragraph"
    assert item.style.paragraph_format.first_line_indent < 0  # a hanging indent


def test_page_is_letter_with_one_inch_margins_and_page_n_of_m_footer(notice):
    document = Document(io.BytesIO(notice))
    section = document.sections[0]
    assert (section.page_width.inches, section.page_height.inches) == (8.5, 11)
    assert {section.left_margin.inches, section.right_margin.inches} == {1.0}
    assert {section.top_margin.inches, section.bottom_margin.inches} == {1.0}
    footer = section.footer.paragraphs[0]._p.xml
    instructions = [t.strip() for t in _texts(footer, "instrText")]
    assert instructions == ["PAGE", "NUMPAGES"]
    assert section.footer.paragraphs[0].text.startswith("Page ")
    assert " of " in section.footer.paragraphs[0].text


def _texts(xml: str, tag: str) -> list[str]:
    import re

    return re.findall(rf"<w:{tag}[^>]*>([^<]*)</w:{tag}>", xml)


def test_core_properties_come_from_the_facts(notice):
    props = Document(io.BytesIO(notice)).core_properties
    assert props.title == "Notice of Restricted Stock Unit Grant - Jane Q. Smith"
    assert props.author == "CarMax, Inc."
    assert props.created == datetime(2026, 6, 23, tzinfo=UTC) == props.modified
    assert "2026-annual" in props.keywords


def test_zip_entries_carry_the_facts_date_not_the_clock(notice):
    archive = zipfile.ZipFile(io.BytesIO(notice))
    assert {info.date_time for info in archive.infolist()} == {(2026, 6, 23, 0, 0, 0)}
    names = archive.namelist()
    assert "docProps/thumbnail.jpeg" not in names
    assert archive.testzip() is None


def test_the_issued_docx_carries_no_review_comments(loaded, notice):
    assert not list(Document(io.BytesIO(notice)).comments)
    assert "word/comments.xml" not in zipfile.ZipFile(io.BytesIO(notice)).namelist()
    exhibit = render.render_document(loaded, "exhibit-i", "jsmith", "grant", "docx")
    assert not list(Document(io.BytesIO(exhibit)).comments)


def _review_copy(loaded, doc: str, stage: str) -> bytes:
    """Counsel's review copy, as `docgen render --review` makes it (comments from the check)."""
    from datetime import date

    from docgen.checker.runner import run_checks
    from docgen.issue.one import review_comment

    report = run_checks(loaded, date(2026, 6, 23), stage)
    html = render.render_html(loaded, doc, "jsmith", stage)
    meta = render.document_meta(loaded, doc, "jsmith", stage)
    comments = {review.id: review_comment(review) for review in report.clauses}
    return html_to_docx(html, meta, review=comments), report


def test_a_review_copy_has_one_comment_per_drafted_clause_with_its_own_rationale(loaded):
    data, report = _review_copy(loaded, "notice", "grant")
    document = Document(io.BytesIO(data))
    comments = list(document.comments)
    notice_clauses = [r for r in report.clauses if "notice" in r.documents]
    assert len(comments) == len(notice_clauses) == 4  # summary table, B, C.1, the F.1 list
    for comment, review in zip(comments, notice_clauses, strict=True):
        assert comment.text.startswith(f"Drafted clause {review.id} ({review.section}).")
        assert review.rationale in comment.text
        assert "Approved by A. Counsel on 2026-05-01." in comment.text
        assert review.sha256 in comment.text
        assert comment.author == "docgen"
        assert comment.timestamp == datetime(2026, 6, 23, tzinfo=comment.timestamp.tzinfo)
    assert len({comment.text for comment in comments}) == len(comments)  # no boilerplate
    assert document.paragraphs[0].text == REVIEW_BANNER
    body = document.element.body.xml
    start = body.index("commentRangeStart")
    assert "Grant Date" in body[start : body.index("commentRangeEnd")]
    # The seed's own words are never inside a comment range.
    seed_words = body.index("The Restricted Stock Units are subject to the provisions of the Plan")
    assert body.rfind("commentRangeStart", 0, seed_words) < body.rfind(
        "commentRangeEnd", 0, seed_words
    )


def test_a_review_copy_comments_even_a_bare_heading_with_its_own_words(loaded):
    data, report = _review_copy(loaded, "exhibit-i", "grant")
    texts = [comment.text for comment in Document(io.BytesIO(data)).comments]
    heading = next(t for t in texts if t.startswith("Drafted clause exhibit-i.heading-iii "))
    assert "Section III is headed “Election”" in heading
    # The director line, four headings, II's list, the page 2 line, III's choices, the election on
    # file, IV.
    commented = [t.split()[2] for t in texts]
    assert sorted(commented) == sorted(r.id for r in report.clauses if "exhibit-i" in r.documents)
    assert len(commented) == 10


def test_blank_form_has_check_boxes_blanks_and_a_signature_table(blank_form):
    document = Document(io.BytesIO(blank_form))
    xml = document.element.body.xml
    assert xml.count('w:char="F0A8"') == 3 and 'w:char="F0FE"' not in xml  # three empty boxes
    signature = document.tables[-1]
    labels = [cell.text for row in signature.rows for cell in row.cells]
    assert any("Signature of Director" in label for label in labels)
    assert any("Printed Name" in label for label in labels)
    assert any("Date Signed" in label for label in labels)
    assert "w:tblBorders" in signature._tbl.xml and 'w:val="nil"' in signature._tbl.xml
    # Page 2 begins with the line naming the director and the grant, then Section III.
    page_two = _paragraph(document, "Page 2 of Exhibit I, the Election Form of Jane Q. Smith")
    assert page_two.paragraph_format.page_break_before
    assert not _paragraph(document, "III.\tElection").paragraph_format.page_break_before


def test_grant_copy_marks_the_elected_choice(loaded):
    data = render.render_document(loaded, "exhibit-i", "rgarcia", "grant", "docx")
    xml = Document(io.BytesIO(data)).element.body.xml
    assert xml.count('w:char="F0FE"') == 1 and xml.count('w:char="F0A8"') == 2
    text = text_of_docx(data)
    assert (
        "(b) the following date, which must be on or after the Specified Date (June 23, 2027): "
        "July 1, 2030; or" in text
    )


def test_markup_in_text_stays_text():
    from docgen.core.documents import DocumentMeta

    meta = DocumentMeta("t", "a", "s", (), datetime(2026, 1, 2).date(), datetime(2026, 1, 2).date())
    html = "<html><body><p>Dear &lt;b&gt;Bold&lt;/b&gt; &amp; Co.:</p></body></html>"
    assert text_of_docx(html_to_docx(html, meta)) == "Dear <b>Bold</b> & Co.:"
    tree = parse_html(html)
    assert tree.find("p").children == ["Dear <b>Bold</b> & Co.:"]


def test_same_html_gives_the_same_docx_bytes(loaded):
    html = render.render_html(loaded, "exhibit-i", "mobrien", "grant")
    meta = render.document_meta(loaded, "exhibit-i", "mobrien", "grant")
    assert html_to_docx(html, meta) == html_to_docx(html, meta)


@pytest.mark.slow
def test_libreoffice_opens_the_docx_and_prints_the_same_text(tmp_path, loaded):
    office = shutil.which("libreoffice") or shutil.which("soffice")
    if office is None:
        pytest.skip("libreoffice is not installed (apt-get install libreoffice-writer-nogui)")
    for doc, subject, stage in [
        ("notice", "jsmith", "grant"),
        ("exhibit-i", "jsmith", "elections"),
    ]:
        data = render.render_document(loaded, doc, subject, stage, "docx")
        (tmp_path / f"{doc}.docx").write_bytes(data)
    result = subprocess.run(
        [
            office,
            f"-env:UserInstallation=file://{tmp_path / 'profile'}",
            "--headless",
            "--convert-to",
            "pdf",
            "--outdir",
            str(tmp_path),
            str(tmp_path / "notice.docx"),
            str(tmp_path / "exhibit-i.docx"),
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, result.stderr
    for doc, subject, stage in [
        ("notice", "jsmith", "grant"),
        ("exhibit-i", "jsmith", "elections"),
    ]:
        reader = PdfReader(tmp_path / f"{doc}.pdf")
        first = reader.pages[0].extract_text()
        assert f"Page 1 of {len(reader.pages)}" in first  # PAGE and NUMPAGES were computed
        office_text = normalise(" ".join(p.extract_text() for p in reader.pages))
        for fact in render.key_facts(loaded, doc, subject, stage):
            assert fact in office_text
        for sentence in (
            "Your deferral election is irrevocable",
            "Sections III and IV (on Page 2)",
        ):
            if sentence in text_of_docx((tmp_path / f"{doc}.docx").read_bytes()):
                assert sentence in office_text


@pytest.mark.parametrize(
    "bold,italic,underline",
    [(b, i, u) for b in (False, True) for i in (False, True) for u in (False, True)],
)
def test_runs_and_paragraph_styles_built_directly_are_python_docx_s_own_xml(
    bold, italic, underline
):
    """docgen.render.docx builds a run's and a paragraph's properties itself (python-docx's
    setters search for where the schema puts each element): the XML must be the setters'."""
    from docx.oxml.ns import qn
    from lxml import etree

    from docgen.core.documents import DocumentMeta
    from docgen.render.docx import _RunStyle, _Writer

    meta = DocumentMeta("t", "a", "s", (), datetime(2026, 1, 2).date(), datetime(2026, 1, 2).date())
    writer = _Writer(meta)
    ours = writer.document.add_paragraph()
    writer.set_style(ours, "Body Text")
    writer.run(ours, "Grant Date", _RunStyle(bold, italic, underline))
    theirs = writer.document.add_paragraph()
    theirs._p.style = writer.style_ids["Body Text"]
    run = theirs.add_run("Grant Date")
    if bold:
        run.bold = True
    if italic:
        run.italic = True
    if underline:
        run.underline = True
    assert etree.tostring(ours._p) == etree.tostring(theirs._p)
    assert ours._p.find(qn("w:pPr")).find(qn("w:pStyle")) is not None


def test_each_document_from_the_template_is_its_own():
    """Documents share the template's parts as read from its zip, never the parsed parts: what
    one document adds is not in the next, and each starts as ``Document(template)`` does."""
    from docgen.render.docx_style_sheet import HOUSE_TYPE_SIZE
    from docgen.render.docx_styles import blank_document, styled_template

    first = blank_document()
    first.add_paragraph("only in the first")
    first.styles["Normal"].font.bold = True
    second = blank_document()
    reference = Document(io.BytesIO(styled_template(HOUSE_TYPE_SIZE)))
    assert [p.text for p in second.paragraphs] == [p.text for p in reference.paragraphs]
    assert second.styles["Normal"].font.bold is None
    assert second.part.package is not first.part.package
    assert [str(part.partname) for part in second.part.package.parts] == [
        str(part.partname) for part in reference.part.package.parts
    ]


def test_a_runs_text_is_read_as_python_docx_reads_it():
    from docx.enum.text import WD_BREAK

    from docgen.render.docx_styles import run_text

    paragraph = Document().add_paragraph()
    runs = [
        paragraph.add_run("plain"),
        paragraph.add_run("a\ttab and a\nbreak"),
        paragraph.add_run(),
    ]
    runs[2].add_break(WD_BREAK.PAGE)
    runs.append(paragraph.add_run(""))
    assert [run_text(run) for run in runs] == [run.text for run in runs]
    assert [run_text(run) for run in runs] == ["plain", "a\ttab and a\nbreak", "", ""]


def test_every_docx_opens_in_current_word_not_compatibility_mode(loaded, notice, blank_form):
    """compatibilityMode 15 (Word 2013 and later), not python-docx's 14 (issue 25)."""
    rrp = render.render_document(
        load_facts(ROOT / "samples" / "rrp-2026.yaml"),
        "rrp-election",
        "e1017",
        "enrollment",
        "docx",
    )
    for data in (notice, blank_form, rrp):
        settings = zipfile.ZipFile(io.BytesIO(data)).read("word/settings.xml").decode()
        assert (
            'w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" '
            'w:val="15"' in settings
        )
        assert 'w:val="14"' not in settings
