"""The DOC-* predicates over read-back text, and `docgen verify` of an issued folder."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from checks.documents import absent_facts, clause_mark_problems, format_mismatch, unfilled_blanks
from docgen.core.documents import IssuedCopy
from docgen.issue.docrules import check_document
from docgen.render.pdf import html_to_pdf
from docgen.render.readback import ReadBack
from tests.readers import docx_text, pdf_text
from tests.readers import squeezed as normalise

# ------------------------------------------------------------------ DOC-UNFILLED-BLANK


@pytest.mark.parametrize(
    "text, label",
    [
        ("As of [______, 20__] (the “Grant Date”)", "[____"),
        ("on the [____] anniversary of the Grant Date", "[____"),
        ("on Form 10-K for fiscal year 20__ are available", "20__"),
        ("the 20__ Units", "20__"),
        ("[NAME/ADDRESS]", "[NAME"),
        ("Dear [NAME]", "[NAME"),
        ("corporate secretary at ###-###-####.", "###-###-####"),
        ("Dear {{ director.salutation }}", "template tag"),
    ],
)
def test_each_seed_blank_left_unfilled_is_found(text, label):
    found = unfilled_blanks(text)
    assert found and any(item.startswith(label) for item in found), found


@pytest.mark.parametrize(
    "text",
    [
        "As of June 23, 2026 (the “Grant Date”)",
        "on the first anniversary of the Grant Date",
        "on Form 10-K for fiscal year 2026 are available",
        "Dear Ms. Smith",
        "corporate secretary at (804) 747-0422.",
        # A signature line on Exhibit I is a line to sign on, not an unfilled blank.
        "Signature: ______________________   Date: ____________",
        "the 2026-annual grant; 2020 and 2026 Units",
    ],
)
def test_filled_text_and_signature_lines_are_not_blanks(text):
    assert unfilled_blanks(text) == []


def test_a_blank_is_reported_with_the_words_around_it():
    (found,) = unfilled_blanks("x " * 50 + "granted on [______] to you" + " y" * 50)
    assert "granted on [______] to you" in found


# ------------------------------------------------------------------ DOC-FACT-ABSENT


def test_key_facts_present_even_when_a_line_break_splits_them():
    text = "Dear Ms. Smith:\nyou have been granted 2,450 Restricted\nStock Units on June\n23, 2026"
    assert absent_facts(text, ["2,450", "June 23, 2026", "Ms. Smith"]) == []


def test_a_missing_key_fact_is_named():
    text = "Dear Ms. Smith: you have been granted 2,450 Restricted Stock Units on June 23, 2026"
    assert absent_facts(text, ["Jane Q. Smith", "2,450", "$45.10"]) == ["Jane Q. Smith", "$45.10"]


def test_fact_matching_is_case_sensitive():
    assert absent_facts("Roberto GARCÍA", ["Roberto García"]) == ["Roberto García"]


# ------------------------------------------------------------------ DOC-FORMAT-MISMATCH


def test_pdf_and_docx_text_equal_after_whitespace_and_ligatures():
    pdf = "Notice of Restricted Stock Unit Grant\nThe ﬁrst anniversary   of the\nGrant Date"
    docx = "Notice of Restricted Stock Unit Grant The first anniversary of the Grant Date"
    assert normalise(pdf) == normalise(docx)
    assert format_mismatch(pdf, docx) is None


def test_a_changed_word_is_a_mismatch_that_says_where():
    difference = format_mismatch(
        "units will vest on the first anniversary", "units will vest on the second anniversary"
    )
    assert difference is not None
    assert "first" in difference and "second" in difference


def test_text_missing_from_one_format_is_a_mismatch():
    assert format_mismatch("Section A. Section B.", "Section A.") is not None


# ------------------------------------------------------------------ DOC-DRAFTED-CLAUSE


KNOWN = {"notice.c1-payment-date", "notice.b-accelerated-vesting"}


def test_a_copy_carrying_exactly_the_expected_clauses_passes():
    html = (
        '<div data-provenance="drafted" data-clause="notice.c1-payment-date">C.1</div>'
        "<p>data-provenance is explained in the README</p>"
    )
    assert clause_mark_problems(html, {"notice.c1-payment-date"}, KNOWN) == []
    assert clause_mark_problems("<p data-provenance='seed'>A</p>", set(), KNOWN) == []


def test_a_drafted_mark_that_names_no_clause_is_refused():
    html = '<p data-provenance="drafted">C.1 Payment Date</p>'
    assert clause_mark_problems(html, set(), KNOWN) == [
        "text is marked drafted (data-provenance) without naming its clause (data-clause)"
    ]


def test_a_clause_the_check_did_not_expect_or_does_not_know_is_refused():
    html = (
        '<p data-provenance="drafted" data-clause="notice.b-accelerated-vesting">B</p>'
        "<p data-provenance='drafted' data-clause='company.own-words'>X</p>"
    )
    problems = clause_mark_problems(html, {"notice.c1-payment-date"}, KNOWN)
    assert problems == [
        "marks a drafted clause company.own-words that no document of this kind has",
        "carries drafted clause notice.b-accelerated-vesting, which the check did not expect in "
        "this copy, so its approval was not checked (does the template include its fragment by "
        "name?)",
        "does not carry drafted clause notice.c1-payment-date, which the check expected",
    ]


def _check(pdf_text, docx_text, key_facts=(), html=None, clauses=None):
    """check_document over texts as if read back from a PDF (one page) and a DOCX."""
    copy = IssuedCopy("jsmith", "notice", tuple(key_facts), None, html, clauses)
    pages = [pdf_text] if pdf_text is not None else None
    if pdf_text is None and docx_text is None:
        return check_document(copy, ReadBack.of(None, None, html))
    return check_document(copy, ReadBack(None, pages, docx_text, None))


def test_check_document_reports_clause_marks_as_doc_drafted_clause():
    html = '<p data-provenance="drafted">C.1 Payment Date</p>'
    problems = _check("x", "x", html=html, clauses=(frozenset(), frozenset(KNOWN)))
    assert [p.rule for p in problems] == ["DOC-DRAFTED-CLAUSE"]
    assert _check("x", "x") == []


def test_check_document_reads_both_formats():
    problems = _check("Dear [NAME] 2,450", "Dear Ms. Smith", key_facts=["2,450"])
    rules = sorted((p.rule, p.message.split(":")[0]) for p in problems)
    assert rules == [
        ("DOC-FACT-ABSENT", "DOCX"),
        ("DOC-FORMAT-MISMATCH", 'the texts part after "Dear"'),
        ("DOC-UNFILLED-BLANK", "PDF"),
    ]


def test_html_alone_is_checked_when_no_pdf_or_docx_was_made():
    problems = _check(
        None,
        None,
        key_facts=["Ms. Smith"],
        html="<html><head><title>Dear Ms. Smith</title></head><body>Dear [NAME]</body></html>",
    )
    assert sorted(p.rule for p in problems) == ["DOC-FACT-ABSENT", "DOC-UNFILLED-BLANK"]


# ------------------------------------------------------------------ reading back


def test_docx_text_reads_paragraphs_and_tables_in_order():
    from docx import Document

    document = Document()
    document.add_paragraph("Notice of Restricted Stock Unit Grant")
    table = document.add_table(rows=1, cols=2)
    table.cell(0, 0).text = "Units"
    table.cell(0, 1).text = "2,450"
    document.add_paragraph("Dear Ms. Smith")
    buffer = io.BytesIO()
    document.save(buffer)
    text = docx_text(buffer.getvalue())
    assert normalise(text) == normalise(
        "Notice of Restricted Stock Unit Grant Units 2,450 Dear Ms. Smith"
    )


def test_docx_page_starts_are_found_by_style_by_paragraph_and_by_break():
    """Each way Word starts a page, with the style looked up once per document: a style that
    breaks the page (used twice), one that does not, a paragraph's own setting, a page break in
    a run, and an unknown style id (Word's default paragraph style, which does not break)."""
    from docx import Document
    from docx.enum.text import WD_BREAK

    from docgen.render.readback import docx_page_starts

    document = Document()
    breaking = document.styles.add_style("Part", 1)  # WD_STYLE_TYPE.PARAGRAPH
    breaking.paragraph_format.page_break_before = True
    document.add_paragraph("Part I", style="Part")
    document.add_paragraph("plain text", style="Body Text")
    document.add_paragraph("Part II", style="Part")
    own = document.add_paragraph("its own break", style="Body Text")
    own.paragraph_format.page_break_before = True
    document.add_paragraph("in a run").add_run().add_break(WD_BREAK.PAGE)
    unknown = document.add_paragraph("unknown style")
    unknown._p.style = "NoSuchStyle"
    buffer = io.BytesIO()
    document.save(buffer)
    assert docx_page_starts(buffer.getvalue()) == [
        "Part I",
        "Part II",
        "its own break",
        "in a run",
    ]


def test_pdf_text_reads_back_what_weasyprint_wrote():
    from weasyprint import HTML

    data = HTML(string="<p>Dear Ms. Smith</p><p>2,450 Restricted Stock Units</p>").write_pdf()
    text = pdf_text(data)
    assert absent_facts(text, ["Ms. Smith", "2,450 Restricted Stock Units"]) == []
    assert json.dumps(text)  # plain text, nothing binary


def _tiny_pdf_with_a_type1_font(text: str) -> bytes:
    """A one-page PDF as another producer writes it: a standard Type1 font and a literal string."""
    stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]"
        b" /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
    ]
    body, offsets = b"%PDF-1.4\n", []
    for number, obj in enumerate(objects, start=1):
        offsets.append(len(body))
        body += b"%d 0 obj\n" % number + obj + b"\nendobj\n"
    xref = len(body)
    body += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    body += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    body += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return body


def test_fast_pdf_reading_agrees_with_pypdf_on_a_rendered_notice(samples):
    from docgen.load import load_facts
    from docgen.render import html as render

    loaded = load_facts(samples / "director-grant-2026.yaml")
    html = render.render_html(loaded, "notice", "rgarcia", "grant")
    data = html_to_pdf(html, render.document_meta(loaded, "notice", "rgarcia", "grant"))
    fast, thorough = pdf_text(data), pdf_text(data, thorough=True)
    assert normalise(fast) == normalise(thorough)
    assert "Roberto García" in fast
    assert "Page 1 of" not in fast and "Page 1 of" not in thorough  # the running footer is dropped


def test_a_pdf_from_another_producer_is_read_by_pypdf():
    assert normalise(pdf_text(_tiny_pdf_with_a_type1_font("Dear [NAME]"))) == "Dear[NAME]"


# ------------------------------------------------------------------ `docgen verify DIR`


@pytest.fixture(scope="module")
def issued_folder(tmp_path_factory):
    """A two-director grant cycle issued once for this module; tests work on copies of it."""
    from datetime import date

    from ruamel.yaml import YAML

    from docgen.issue.batch import issue_batch
    from tests.conftest import SAMPLES

    base = tmp_path_factory.mktemp("verify")
    yaml = YAML()
    yaml.width = 4096  # ruamel would wrap a long flow mapping into invalid YAML
    data = yaml.load((SAMPLES / "director-grant-2026.yaml").read_text(encoding="utf-8"))
    data["directors"] = data["directors"][:2]
    facts = base / "grant.yaml"
    with facts.open("w", encoding="utf-8") as handle:
        yaml.dump(data, handle)
    result = issue_batch(facts, base / "out", as_of=date(2026, 6, 23), workers=1)
    return result.folder


@pytest.fixture
def folder(issued_folder, tmp_path):
    import shutil

    copy = tmp_path / issued_folder.name
    shutil.copytree(issued_folder, copy)
    return copy


def test_verify_passes_on_a_fresh_folder(folder, cli):
    result = cli("verify", folder)
    assert result.exit_code == 0, result.output
    assert "intact (10 files match manifest.json; 4 documents read back" in result.stdout


def test_verify_fails_after_one_byte_is_flipped(folder, cli):
    target = folder / "rgarcia" / "notice.pdf"
    data = bytearray(target.read_bytes())
    data[len(data) // 2] ^= 0x01
    target.write_bytes(bytes(data))
    result = cli("verify", folder)
    assert result.exit_code == 1
    assert "rgarcia/notice.pdf: changed: SHA-256" in result.stderr
    assert "do not send these documents" in result.stderr


def test_verify_fails_when_a_file_is_deleted(folder, cli):
    (folder / "jsmith" / "exhibit-i.docx").unlink()
    result = cli("verify", folder)
    assert result.exit_code == 1
    assert "jsmith/exhibit-i.docx: missing" in result.stderr


def test_a_pdf_cut_short_is_named_with_no_line_from_pypdf_on_its_own(folder):
    """Through the real entry point: what pypdf logs while reading a damaged PDF (logging's
    last-resort handler would print it bare) never reaches the terminal."""
    import subprocess
    import sys

    target = folder / "jsmith" / "notice.pdf"
    target.write_bytes(target.read_bytes()[:2000])
    done = subprocess.run(
        [sys.executable, "-m", "docgen", "verify", str(folder)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert lines and all(
        line.startswith(("jsmith/notice.pdf: changed", str(folder))) for line in lines
    ), lines


def test_verify_fails_when_a_file_is_added(folder, cli):
    (folder / "jsmith" / "notice (1).pdf").write_bytes(
        (folder / "jsmith" / "notice.pdf").read_bytes()
    )
    result = cli("verify", folder)
    assert result.exit_code == 1
    assert "jsmith/notice (1).pdf: added: not listed in the manifest" in result.stderr


def test_verify_reads_documents_back_even_when_the_manifest_was_rewritten(folder, cli):
    """Hashes alone trust the manifest; the DOC-* rules catch an edit someone re-hashed."""
    import hashlib

    from docx import Document

    target = folder / "jsmith" / "notice.docx"
    document = Document(target)
    for paragraph in document.paragraphs:
        for run in paragraph.runs:
            run.text = run.text.replace("Jane Q. Smith", "Jane Q. Smyth")
    document.save(target)
    manifest_path = folder / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    data = target.read_bytes()
    manifest["files"]["jsmith/notice.docx"] = {
        "sha256": hashlib.sha256(data).hexdigest(),
        "bytes": len(data),
    }
    manifest_path.write_text(json.dumps(manifest))
    result = cli("verify", folder)
    assert result.exit_code == 1
    assert 'DOC-FACT-ABSENT: DOCX: key fact "Jane Q. Smith" is missing' in result.stderr
    assert "DOC-FORMAT-MISMATCH" in result.stderr


@pytest.mark.parametrize(
    "prepare, message",
    [
        (
            lambda f: (f / "manifest.json").unlink(),
            "not an issued folder (it has no manifest.json)",
        ),
        (lambda f: (f / "manifest.json").write_text("{not json"), "not a manifest docgen wrote"),
        (
            lambda f: (f / "manifest.json").write_text('{"files": []}'),
            "not a manifest docgen wrote",
        ),
    ],
)
def test_verify_of_something_not_issued_exits_2(folder, cli, prepare, message):
    prepare(folder)
    result = cli("verify", folder)
    assert result.exit_code == 2
    assert message in result.stderr


def test_verify_of_a_missing_folder_exits_2(tmp_path, cli):
    result = cli("verify", tmp_path / "nowhere")
    assert result.exit_code == 2
    assert "no such folder" in result.stderr


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=60))
def test_squeezed_words_normalise_each_word_as_the_rules_define_it(text):
    """checks.documents._squeezed_words skips normalise for ASCII words: the same result as
    normalising every word (docgen.core.text), on any text."""
    import re

    from checks.documents import _squeezed_words
    from docgen.core.text import normalise

    parts, breaks, at = [], {0}, 0
    for word in re.findall(r"\S+", text):
        word = normalise(word)
        parts.append(word)
        at += len(word)
        breaks.add(at)
    assert _squeezed_words(text) == ("".join(parts), frozenset(breaks))
