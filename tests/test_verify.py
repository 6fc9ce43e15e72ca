"""The DOC-* predicates over read-back text, and `docgen verify` of an issued folder."""

from __future__ import annotations

import io
import json

import pytest

from docgen.verify import (
    absent_facts,
    check_document,
    docx_text,
    format_mismatch,
    has_drafted_clauses,
    normalise,
    pdf_text,
    unfilled_blanks,
)

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


def test_drafted_clause_marker_found():
    assert has_drafted_clauses(
        '<section data-provenance="drafted"><p>B. Accelerated Vesting</p></section>'
    )
    assert has_drafted_clauses("<p data-provenance='drafted'>x</p>")


def test_seed_text_only_has_no_drafted_clause():
    assert not has_drafted_clauses('<section data-provenance="seed"><p>A. Vesting</p></section>')
    assert not has_drafted_clauses("<p>data-provenance is explained in DESIGN.md</p>")


def test_drafted_clause_is_a_warning_only_until_counsel_approves():
    html = '<p data-provenance="drafted">C.1 Payment Date</p>'
    unapproved = check_document(
        "jsmith", "notice", pdf_text="x", docx_text="x", key_facts=[], html=html
    )
    approved = check_document(
        "jsmith",
        "notice",
        pdf_text="x",
        docx_text="x",
        key_facts=[],
        html=html,
        approved_by="A. Counsel",
    )
    assert [p.rule for p in unapproved] == ["DOC-DRAFTED-CLAUSE"]
    assert approved == []


def test_check_document_reads_both_formats():
    problems = check_document(
        "jsmith",
        "notice",
        pdf_text="Dear [NAME] 2,450",
        docx_text="Dear Ms. Smith",
        key_facts=["2,450"],
    )
    rules = sorted((p.rule, p.message.split(":")[0]) for p in problems)
    assert rules == [
        ("DOC-FACT-ABSENT", "DOCX"),
        ("DOC-FORMAT-MISMATCH", 'the texts part after "Dear"'),
        ("DOC-UNFILLED-BLANK", "PDF"),
    ]


def test_html_alone_is_checked_when_no_pdf_or_docx_was_made():
    problems = check_document(
        "jsmith",
        "notice",
        pdf_text=None,
        docx_text=None,
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


def test_pdf_text_reads_back_what_weasyprint_wrote():
    from weasyprint import HTML

    data = HTML(string="<p>Dear Ms. Smith</p><p>2,450 Restricted Stock Units</p>").write_pdf()
    text = pdf_text(data)
    assert absent_facts(text, ["Ms. Smith", "2,450 Restricted Stock Units"]) == []
    assert json.dumps(text)  # plain text, nothing binary
