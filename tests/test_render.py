"""Rendering the director documents: seed text, filled blanks, escaping, reproducible PDFs.

Golden HTML lives in tests/golden/render/; after an intended change, regenerate it with
``DOCGEN_RESET_GOLDEN=1 .venv/bin/pytest tests/test_render.py`` and review it with ``git diff``.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from docgen.core import dates
from docgen.core.errors import RenderError
from docgen.core.formats import dollars
from docgen.core.resources import templates_dir
from docgen.load import load_facts
from docgen.render import html as render
from docgen.render.pdf import fetch_template_file, html_to_pdf
from docgen.render.templating import environment, render_template
from tests.readers import docx_words as text_of_docx
from tests.readers import normalise, pdf_words, squeezed

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "director-grant-2026.yaml"
SEED = ROOT / "docs" / "source-forms" / "director-rsu-notice-and-exhibit-i.txt"
GOLDEN = Path(__file__).resolve().parent / "golden" / "render"
RESET = os.environ.get("DOCGEN_RESET_GOLDEN") == "1"
BLANKS = ("[____", "20__", "[NAME", "###-###-####")

# A fair sample of the document variants: each Section III choice, no election, the blank form.
GOLDEN_CASES = [
    ("notice", "jsmith", "grant"),
    ("exhibit-i", "jsmith", "grant"),
    ("exhibit-i", "rgarcia", "grant"),
    ("exhibit-i", "mobrien", "grant"),
    ("exhibit-i", "tnguyen", "grant"),
    ("exhibit-i", "jsmith", "elections"),
]


@pytest.fixture(scope="module")
def loaded():
    return load_facts(SAMPLE)


def facts_with(tmp_path: Path, replacements: dict[str, str], name: str = "facts.yaml"):
    """The sample facts with some lines changed (each replacement must match exactly once)."""
    text = SAMPLE.read_text(encoding="utf-8")
    for old, new in replacements.items():
        assert text.count(old) == 1, f"sample no longer contains {old!r} exactly once"
        text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_facts(path)


def plain(text: str) -> str:
    """Comparable text: straight quotes, single spaces."""
    for curly, straight in (("“", '"'), ("”", '"'), ("’", "'"), ("‘", "'")):
        text = text.replace(curly, straight)
    return normalise(text)


# ------------------------------------------------------------------------ which documents


def test_documents_for_grant_stage_gives_every_director_a_notice_and_non_employees_exhibit_i(
    tmp_path,
):
    loaded = facts_with(tmp_path, {"  - id: tnguyen\n": "  - id: tnguyen\n    employee: true\n"})
    documents = render.documents_for(loaded.facts, "grant")
    directors = [d.id for d in loaded.facts.directors]
    assert [s for s, doc in documents if doc == "notice"] == directors
    assert [s for s, doc in documents if doc == "exhibit-i"] == [
        d for d in directors if d != "tnguyen"
    ]
    # Stable order: director by director, Notice before Exhibit I.
    assert documents[:3] == [("jsmith", "notice"), ("jsmith", "exhibit-i"), ("rgarcia", "notice")]


def test_documents_for_elections_stage_gives_blank_exhibit_i_to_non_employees_only(tmp_path):
    loaded = facts_with(tmp_path, {"  - id: tnguyen\n": "  - id: tnguyen\n    employee: true\n"})
    documents = render.documents_for(loaded.facts, "elections")
    assert {doc for _, doc in documents} == {"exhibit-i"}
    assert "tnguyen" not in [s for s, _ in documents]
    assert len(documents) == len(loaded.facts.directors) - 1


def test_render_refuses_what_the_stage_does_not_issue(tmp_path, loaded):
    with pytest.raises(RenderError, match="not issued at stage 'elections'"):
        render.render_html(loaded, "notice", "jsmith", "elections")
    with pytest.raises(RenderError, match="no 'nobody' in the facts file"):
        render.render_html(loaded, "notice", "nobody", "grant")
    with pytest.raises(RenderError, match="unknown document"):
        render.render_html(loaded, "memo", "jsmith", "grant")
    employee = facts_with(tmp_path, {"  - id: tnguyen\n": "  - id: tnguyen\n    employee: true\n"})
    with pytest.raises(RenderError, match="does not receive 'exhibit-i'"):
        render.render_html(employee, "exhibit-i", "tnguyen", "grant")


# ------------------------------------------------------------------------------ golden HTML


@pytest.mark.parametrize(("doc", "subject", "stage"), GOLDEN_CASES)
def test_html_matches_golden_byte_for_byte(loaded, doc, subject, stage):
    html = render.render_html(loaded, doc, subject, stage).encode("utf-8")
    golden = GOLDEN / f"{doc}-{subject}-{stage}.html"
    if RESET or not golden.exists():
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_bytes(html)
        if not RESET:
            pytest.fail(f"wrote missing golden file {golden.name}; review it and commit it")
    assert html == golden.read_bytes(), (
        f"{golden.name} differs; if the change is intended, rerun with DOCGEN_RESET_GOLDEN=1 "
        "and review `git diff tests/golden`"
    )


# ------------------------------------------------------------------------- the seed's words


def _seed_parts() -> tuple[str, str]:
    seed = SEED.read_text(encoding="utf-8")
    split = seed.index("As a non-employee Director of the")
    return seed[:split], seed[split:]


def _fill_notice(seed: str, facts, director) -> str:
    grant = facts.grant
    ordered = [
        ("[_________, 20__]", dates.long_date(grant.notice_date)),
        ("Dear [NAME]", f"Dear {director.greeting}"),
        ("As of [______, 20__]", f"As of {dates.long_date(grant.grant_date)}"),
        ("fiscal year 20__", f"fiscal year {facts.form_10k_fiscal_year}"),
        ("###-###-####", facts.company.secretary_phone),
        (
            "the [____] anniversary",
            f"the {dates.ordinal_word(grant.vesting.anniversary)} anniversary",
        ),
        ("prior to [______, 20__]", f"prior to {dates.long_date(grant.election_deadline)}"),
    ]
    for blank, value in ordered:
        assert blank in seed, blank
        seed = seed.replace(blank, value, 1)
    return _fill_names(seed, facts)


def _fill_exhibit(seed: str, facts) -> str:
    grant = facts.grant
    year = str(grant.grant_date.year)
    ordered = [
        (
            "with a [______, 20__] Date of Grant",
            f"with a {dates.long_date(grant.grant_date)} Date of Grant",
        ),
        (
            "prior to [______, 20__] (the Date",
            f"prior to {dates.long_date(grant.election_deadline)} (the Date",
        ),
        (
            "granted prior to [______, 20__]",
            f"granted prior to {dates.long_date(grant.grant_date)}",
        ),
        (
            "the [____] anniversary of the Date of Grant",
            f"the {dates.ordinal_word(grant.default_payment_anniversary)} anniversary of the "
            "Date of Grant",
        ),
    ]
    for blank, value in ordered:
        assert blank in seed, blank
        seed = seed.replace(blank, value, 1)
    # The seed twice runs "20__Units" together; the form means "20__ Units".
    seed = seed.replace("20__Units", "20__ Units").replace("20__ Unit", f"{year} Unit")
    return _fill_names(seed, facts)


def _fill_names(seed: str, facts) -> str:
    seed = seed.replace(
        "CarMax, Inc. 2002 Stock Incentive Plan, as amended and restated", facts.stock_plan
    )
    seed = seed.replace("Commonwealth of Virginia", facts.company.governing_law)
    return seed.replace("CarMax, Inc.", facts.company.name)


def _sentences(text: str) -> list[str]:
    found = []
    for line in text.splitlines():
        line = plain(line)
        if not line:
            continue
        found.extend(s for s in re.split(r"(?<=[.?!:])\s+(?=[A-Z\"(])", line) if s)
    return found


@pytest.mark.parametrize("subject", ["jsmith", "tnguyen"])
@pytest.mark.slow
def test_pdf_carries_the_seed_word_for_word_with_blanks_filled(loaded, subject):
    facts = loaded.facts
    director = facts.director(subject)
    notice_seed, exhibit_seed = _seed_parts()
    notice_text = plain(
        pdf_words(render.render_document(loaded, "notice", subject, "grant", "pdf"))
    )
    exhibit_text = plain(
        pdf_words(render.render_document(loaded, "exhibit-i", subject, "grant", "pdf"))
    )
    for seed, text in (
        (_fill_notice(notice_seed, facts, director), notice_text),
        (_fill_exhibit(exhibit_seed, facts), exhibit_text),
    ):
        sentences = _sentences(seed)
        missing = [s for s in sentences if s not in text]
        share = 1 - len(missing) / len(sentences)
        assert share >= 0.95, f"only {share:.0%} of the seed's sentences appear verbatim: {missing}"


def test_the_only_seed_sentences_not_verbatim_are_the_exhibit_title_and_the_address_block(loaded):
    notice_seed, _ = _seed_parts()
    facts = loaded.facts
    text = plain(pdf_words(render.render_document(loaded, "notice", "jsmith", "grant", "pdf")))
    missing = [
        s
        for s in _sentences(_fill_notice(notice_seed, facts, facts.director("jsmith")))
        if s not in text
    ]
    assert missing == [
        "Form of Notice of Restricted Stock Unit Grant between CarMax, Inc. and certain "
        "non-employee directors of the CarMax, Inc. board of directors",
        "[NAME/ADDRESS]",
    ]


# ------------------------------------------------------------------ every document, both formats


# One director per variant: each Section III choice, no election, a newly eligible director, a
# specified employee, an ampersand in the name (pypdf reads a four-page Notice in ~0.4 s, so the
# whole roster would add half a minute for little more).
VARIANTS = ("jsmith", "rgarcia", "mobrien", "tnguyen", "akhan", "dwhite", "pmurphy")


def _all_documents(loaded):
    for stage in ("elections", "grant"):
        for subject, doc in render.documents_for(loaded.facts, stage):
            if subject in VARIANTS:
                yield doc, subject, stage


@pytest.mark.slow
def test_each_variant_has_no_blank_and_every_key_fact_in_pdf_and_docx(loaded):
    for doc, subject, stage in _all_documents(loaded):
        pdf_text = pdf_words(render.render_document(loaded, doc, subject, stage, "pdf"))
        docx_text = text_of_docx(render.render_document(loaded, doc, subject, stage, "docx"))
        assert squeezed(pdf_text) == squeezed(docx_text), (
            f"{doc} for {subject} at {stage}: PDF and DOCX text differ"
        )
        for blank in BLANKS:
            assert blank not in pdf_text, f"{doc}/{subject}: unfilled {blank}"
        for fact in render.key_facts(loaded, doc, subject, stage):
            assert normalise(fact) in pdf_text, f"{doc}/{subject}/{stage}: {fact!r} missing"


def test_key_facts_are_the_grant_in_its_printed_form(loaded):
    facts = render.key_facts(loaded, "notice", "jsmith", "grant")
    assert facts == [
        "Jane Q. Smith",
        "June 23, 2026",
        "2,450",
        "$45.10",
        "June 23, 2026",
        "(804) 747-0422",
    ]
    assert render.key_facts(loaded, "exhibit-i", "rgarcia", "grant") == [
        "Roberto García",
        "June 23, 2026",
        "June 23, 2026",
        "May 20, 2026",
        "July 1, 2030",
    ]


def test_notice_summary_and_fills_come_from_the_facts(loaded, tmp_path):
    changed = facts_with(
        tmp_path,
        {
            'fair_market_value: "45.10"': 'fair_market_value: "1234.5"',
            "    anniversary: 1 ": "    anniversary: 3 ",
            "  default_payment_anniversary: 1 ": "  default_payment_anniversary: 4 ",
            "    units: 2450                           # restricted": "    units: 1234567 #",
        },
    )
    text = plain(pdf_words(render.render_document(changed, "notice", "jsmith", "grant", "pdf")))
    assert squeezed("Restricted Stock Units 1,234,567") in squeezed(text)
    assert squeezed("Grant Date Fair Market Value (per share) $1,234.50") in squeezed(text)
    assert "on the third anniversary of the Grant Date" in text
    assert squeezed("Specified Date June 23, 2029") in squeezed(text)
    assert "(iv) the fourth anniversary of the Grant Date." in text


def test_an_annual_meeting_vesting_date_is_named_and_marked_drafted(tmp_path):
    changed = facts_with(
        tmp_path, {"annual_meeting_date: null ": "annual_meeting_date: 2027-06-01 "}
    )
    html = render.render_html(changed, "notice", "jsmith", "grant")
    # DESIGN.md, "The Specified Date": the Specified Date stays the anniversary; the units vest
    # on the earlier annual meeting, which the clause names without redefining the term.
    assert (
        "on the first anniversary of the Grant Date (the “Specified Date”) "
        '<span data-provenance="drafted" data-clause="notice.a-annual-meeting-vesting">or, if '
        "earlier, on the date of the Company’s annual meeting of shareholders held on June 1, "
        "2027,</span> or such earlier date as may be provided in this Notice of Grant or the Plan "
        "(collectively, the “Vesting Date”)"
    ) in html
    assert '<th scope="row">Specified Date</th><td>June 23, 2027</td>' in html


def test_dollars_keep_every_decimal_the_facts_give():
    from decimal import Decimal

    assert dollars(Decimal("45.1")) == "$45.10"
    assert dollars(Decimal("45")) == "$45.00"
    assert dollars(Decimal("1234.5")) == "$1,234.50"
    assert dollars(Decimal("45.1234")) == "$45.1234"


# ---------------------------------------------------------------------- drafted clauses


def _drafted_text(html: str) -> str:
    """All the text inside elements marked data-provenance="drafted"."""
    from docgen.render.html_tree import Node, parse_html

    def text(node: Node) -> str:
        return "".join(c if isinstance(c, str) else text(c) for c in node.children)

    found: list[str] = []

    def walk(node: Node) -> None:
        for child in node.children:
            if isinstance(child, Node):
                if child.drafted:
                    found.append(text(child))
                else:
                    walk(child)

    walk(parse_html(html))
    return plain(" ".join(found))


def test_every_gap_in_the_source_form_is_drafted_and_marked(loaded):
    drafted = _drafted_text(render.render_html(loaded, "notice", "jsmith", "grant"))
    for words in (
        "Notwithstanding Section A, if you continue to provide services",  # B
        "Unless you made an effective deferral election under Section F",  # C.1
        "(a) the date you elected in Section III of Exhibit I;",  # the F.1 list
        "Grant Date Fair Market Value (per share)",  # the grant summary
    ):
        assert words in drafted
    # ...and the seed's own words are not marked.
    assert "The Company shall deliver all shares" not in drafted
    exhibit = _drafted_text(render.render_html(loaded, "exhibit-i", "jsmith", "elections"))
    for words in (
        "I. Deferral Election",
        "II. Payment of 2026 Units",
        "III. Election",
        "IV. Signature",
        "(1) the date you elect in Section III of this Election Form; or",
        "(b) the following date, which must be on or after the Specified Date (June 23, 2027):",
        "Signature of Director",
        "Printed Name",
        "Date Signed",
    ):
        assert words in exhibit
    assert "I elect to defer the receipt of all (100%)" not in exhibit


def test_no_acceleration_events_says_so(tmp_path):
    changed = facts_with(
        tmp_path, {"accelerate_on: [death, disability, change_of_control]": "accelerate_on: []"}
    )
    html = render.render_html(changed, "notice", "jsmith", "grant")
    assert "The Restricted Stock Units are not subject to accelerated vesting" in html


def test_acceleration_lists_only_the_events_the_facts_name(tmp_path):
    changed = facts_with(
        tmp_path,
        {"accelerate_on: [death, disability, change_of_control]": "accelerate_on: [death]"},
    )
    text = plain(pdf_words(render.render_document(changed, "notice", "jsmith", "grant", "pdf")))
    assert "following: (1) your death." in text
    assert "the occurrence of a Change of Control" not in text


# ------------------------------------------------------------------- Exhibit I by stage


def test_blank_election_form_has_fillable_fields_and_no_election(loaded):
    pdf = render.render_document(loaded, "exhibit-i", "jsmith", "elections", "pdf")
    reader = PdfReader(io.BytesIO(pdf))
    names = set(reader.get_fields() or {})
    assert {"pay_on", "pay_date_date", "pay_date_earlier_of_separation_or_date"} <= names
    assert {"printed_name", "date_signed"} <= names
    assert len(reader.pages) == 2, "Sections III and IV must be on Page 2, as the form says"
    assert "Election on file" not in pdf_words(pdf)
    assert "Sections III and IV (on Page 2)" in pdf_words(pdf)
    page_two = reader.pages[1].extract_text().lstrip()
    # Page 2 names whose form it is and which grant, then Section III (a returned page 2 alone
    # is not anonymous).
    assert page_two.startswith("Page 2 of Exhibit I, the Election Form of Jane Q. Smith, for the")
    assert "2026 Units of CarMax, Inc. (Date of Grant June 23, 2026)\nIII." in page_two


@pytest.mark.parametrize(
    ("subject", "on_file"),
    [
        (
            "jsmith",
            "Election on file: (a) Separation from Service; filed with the Company on "
            "May 15, 2026.",
        ),
        ("rgarcia", "Election on file: (b) July 1, 2030; filed with the Company on May 20, 2026."),
        (
            "mobrien",
            "Election on file: (c) the earlier of Separation from Service or January 15, 2031; "
            "filed with the Company on June 1, 2026.",
        ),
        (
            "tnguyen",
            "No Election Form for the 2026 Units was filed with the Company prior to "
            "June 23, 2026;",
        ),
    ],
)
def test_grant_copy_shows_the_election_on_file_and_has_no_form_fields(loaded, subject, on_file):
    pdf = render.render_document(loaded, "exhibit-i", subject, "grant", "pdf")
    reader = PdfReader(io.BytesIO(pdf))
    assert not reader.get_fields()
    assert on_file in pdf_words(pdf)
    html = render.render_html(loaded, "exhibit-i", subject, "grant")
    assert html.count("checked") == (0 if subject == "tnguyen" else 1)


def test_grant_copy_names_the_superseded_form_in_pdf_and_docx(loaded):
    """DESIGN.md, "Which Exhibit I governs": rgarcia filed twice before the deadline; the later form
    governs."""
    superseded = (
        "Superseded: an Election Form filed with the Company on May 4, 2026, electing (a) "
        "Separation from Service; the later Election Form above replaces it."
    )
    pdf = render.render_document(loaded, "exhibit-i", "rgarcia", "grant", "pdf")
    text = plain(pdf_words(pdf))
    assert superseded in text
    assert "Election on file: (b) July 1, 2030; filed with the Company on May 20, 2026." in text
    assert len(PdfReader(io.BytesIO(pdf)).pages) == 2  # Sections III-IV still on Page 2
    docx = render.render_document(loaded, "exhibit-i", "rgarcia", "grant", "docx")
    assert superseded in plain(text_of_docx(docx))
    # One form on file: nothing is superseded.
    assert "Superseded" not in render.render_html(loaded, "exhibit-i", "jsmith", "grant")


def test_exhibit_i_states_the_specified_date_as_the_anniversary(tmp_path):
    """DESIGN.md, "The Specified Date": one Specified Date, the anniversary, the same on the
    Notice and beside Exhibit I's (b), though the units vest at the earlier annual meeting."""
    changed = facts_with(
        tmp_path, {"annual_meeting_date: null ": "annual_meeting_date: 2027-06-01 "}
    )
    text = plain(
        pdf_words(render.render_document(changed, "exhibit-i", "jsmith", "elections", "pdf"))
    )
    assert (
        "(b) the following date, which must be on or after the Specified Date (June 23, 2027):"
        in text
    )
    notice = render.render_html(changed, "notice", "jsmith", "grant")
    assert '<th scope="row">Specified Date</th><td>June 23, 2027</td>' in notice


def test_a_deadline_before_the_grant_date_is_not_called_the_date_of_grant(tmp_path):
    changed = facts_with(
        tmp_path, {"election_deadline: 2026-06-23 ": "election_deadline: 2026-06-16 "}
    )
    text = plain(pdf_words(render.render_document(changed, "exhibit-i", "jsmith", "grant", "pdf")))
    assert "filed with the Company prior to June 16, 2026 (before the Date of Grant)." in text
    assert "prior to June 16, 2026 (the Date of Grant)" not in text


# ------------------------------------------------------------------- another company, escaping


OTHER_COMPANY = {
    "  name: CarMax, Inc.                      # the issuer, as it appears in the Notice": (
        "  name: Blue Heron Holdings, Inc."
    ),
    'secretary_phone: "(804) 747-0422"': 'secretary_phone: "(302) 555-0199"',
    "governing_law: Commonwealth of Virginia": "governing_law: State of Delaware",
    "stock_plan: CarMax, Inc. 2002 Stock Incentive Plan, as amended and restated": (
        "stock_plan: Blue Heron Holdings, Inc. 2021 Omnibus Equity Plan"
    ),
}


@pytest.mark.slow
def test_another_companys_cycle_renders_with_nothing_of_carmax(tmp_path):
    other = facts_with(tmp_path, OTHER_COMPANY)
    for doc, subject, stage in [
        ("notice", "jsmith", "grant"),
        ("exhibit-i", "jsmith", "grant"),
        ("exhibit-i", "jsmith", "elections"),
    ]:
        html = render.render_html(other, doc, subject, stage)
        pdf = render.render_document(other, doc, subject, stage, "pdf")
        docx = render.render_document(other, doc, subject, stage, "docx")
        for text in (html, pdf_words(pdf), text_of_docx(docx)):
            assert "CarMax" not in text and "Virginia" not in text.replace("VA 2", "")
            assert "Blue Heron Holdings, Inc." in text
        assert b"CarMax" not in pdf
        meta = render.document_meta(other, doc, subject, stage)
        assert meta.author == "Blue Heron Holdings, Inc."
    notice_text = pdf_words(render.render_document(other, "notice", "jsmith", "grant", "pdf"))
    assert "at (302) 555-0199." in notice_text
    assert "the laws of the State of Delaware without regard" in notice_text
    assert (
        "pursuant to the Blue Heron Holdings, Inc. 2021 Omnibus Equity Plan (the “Plan”)"
        in notice_text
    )


TRICKY_NAMES = [
    "José Ñúñez-Ågård",
    "Mary O'Brien & Sons",
    "Director <b>Bold</b> & <script>alert(1)</script>",
    "Alexandra Konstantinopoulou-Vanderbilt Fitzgerald-Montgomery de la Torre y Esperanza "
    "Wolfeschlegelsteinhausenbergerdorff the Third, Trustee of the Family Trust",
]


@pytest.mark.parametrize("name", TRICKY_NAMES)
@pytest.mark.slow
def test_names_are_shown_literally_never_as_markup(tmp_path, name):
    quoted = '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
    changed = facts_with(
        tmp_path,
        {
            "    name: Jane Q. Smith                   # as it should read in the Notice": (
                f"    name: {quoted}"
            ),
            "    salutation: Ms. Smith ": f"    salutation: {quoted} ",
        },
    )
    for doc in ("notice", "exhibit-i"):
        html = render.render_html(changed, doc, "jsmith", "grant")
        assert "<b>Bold" not in html and "<script>" not in html
        if "<" in name:
            assert "&lt;b&gt;Bold&lt;/b&gt; &amp; &lt;script&gt;" in html
        pdf = render.render_document(changed, doc, "jsmith", "grant", "pdf")
        pdf_text = pdf_words(pdf)
        if doc == "exhibit-i":  # the form promises Sections III and IV "on Page 2"
            assert len(PdfReader(io.BytesIO(pdf)).pages) == 2
        docx_text = text_of_docx(render.render_document(changed, doc, "jsmith", "grant", "docx"))
        assert normalise(name) in pdf_text
        assert normalise(name) in docx_text
        assert squeezed(pdf_text) == squeezed(docx_text)


# ------------------------------------------------------------------- safety and strictness


def test_url_fetcher_serves_only_the_templates_folder():
    fonts = templates_dir().resolve() / "fonts" / "LiberationSerif-Regular.ttf"
    body, mime = fetch_template_file(fonts.as_uri())
    assert body[:4] == b"\x00\x01\x00\x00" and mime == "font/ttf"
    for url in (
        "http://example.com/style.css",
        "https://example.com/font.ttf",
        "file:///etc/passwd",
        (templates_dir().resolve() / ".." / "pyproject.toml").as_uri(),
        "data:text/css,body{}",
    ):
        with pytest.raises(RenderError, match="refused to fetch"):
            fetch_template_file(url)


def test_a_document_that_reaches_outside_the_templates_is_not_printed(loaded):
    html = render.render_html(loaded, "notice", "jsmith", "grant")
    meta = render.document_meta(loaded, "notice", "jsmith", "grant")
    for url in ("http://127.0.0.1:9/x.png", "file:///etc/passwd"):
        evil = html.replace("<body", f'<body style="background: url({url})"', 1)
        with pytest.raises(RenderError, match="refused to fetch"):
            html_to_pdf(evil, meta)


def test_a_weasyprint_warning_is_an_error(loaded):
    html = render.render_html(loaded, "notice", "jsmith", "grant")
    meta = render.document_meta(loaded, "notice", "jsmith", "grant")
    with pytest.raises(RenderError, match="WeasyPrint warned"):
        html_to_pdf(html.replace("<body", '<body style="colour: red"', 1), meta)


def test_an_undefined_variable_is_a_render_error():
    meta = {
        "title": "t",
        "author": "a",
        "subject": "s",
        "keywords": [],
        "created": "",
        "modified": "",
    }
    with pytest.raises(RenderError, match="template notice.html.j2:10 .*'company' is undefined"):
        render_template(
            "notice.html.j2", {"meta": meta, "document_class": "notice", "type_size": None}
        )


def test_templates_are_sandboxed():
    env = environment()
    from jinja2.sandbox import SandboxedEnvironment

    assert isinstance(env, SandboxedEnvironment)
    assert env.autoescape is True
    with pytest.raises(Exception, match="unsafe|not safely callable|access to attribute"):
        env.from_string("{{ x.__class__.__mro__ }}").render(x=1)


def test_no_template_names_a_company():
    for path in templates_dir().rglob("*.j2"):
        text = path.read_text(encoding="utf-8")
        for word in ("CarMax", "Virginia", "747-0422", "2002 Stock Incentive Plan"):
            assert word not in text, f"{path.name} hard-codes {word!r}"


# ------------------------------------------------------------------------- reproducibility


def test_pdf_metadata_comes_from_the_facts(loaded):
    pdf = render.render_document(loaded, "notice", "jsmith", "grant", "pdf")
    info = PdfReader(io.BytesIO(pdf)).metadata
    assert info["/Title"] == "Notice of Restricted Stock Unit Grant - Jane Q. Smith"
    assert info["/Author"] == "CarMax, Inc."
    assert info["/CreationDate"] == "D:20260623000000Z" == info["/ModDate"]
    assert "2026-annual" in info["/Keywords"]
    reader = PdfReader(io.BytesIO(pdf))
    box = reader.pages[0].mediabox
    assert (float(box.width), float(box.height)) == (612, 792)  # US Letter


@pytest.mark.slow
def test_same_facts_give_byte_identical_files(loaded):
    for doc, subject, stage in [
        ("notice", "jsmith", "grant"),
        ("exhibit-i", "jsmith", "elections"),
    ]:
        for fmt in ("html", "pdf", "docx"):
            first = render.render_document(loaded, doc, subject, stage, fmt)
            second = render.render_document(loaded, doc, subject, stage, fmt)
            assert hashlib.sha256(first).hexdigest() == hashlib.sha256(second).hexdigest(), (
                doc,
                fmt,
            )


@pytest.mark.slow
def test_a_fresh_process_makes_the_same_bytes(loaded):
    """Nothing from the process (the clock, caches, font ids) leaks into the files."""
    script = (
        "import hashlib, sys\n"
        "from docgen.load import load_facts\n"
        "from docgen.render.html import render_document\n"
        f"loaded = load_facts({str(SAMPLE)!r})\n"
        "for fmt in ('pdf', 'docx'):\n"
        "    data = render_document(loaded, 'exhibit-i', 'rgarcia', 'grant', fmt)\n"
        "    print(hashlib.sha256(data).hexdigest())\n"
        "from docgen.render.pdf import _font_config\n"
        "print(_font_config()._folder)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    expected = [
        hashlib.sha256(
            render.render_document(loaded, "exhibit-i", "rgarcia", "grant", fmt)
        ).hexdigest()
        for fmt in ("pdf", "docx")
    ]
    *hashes, font_folder = result.stdout.split()
    assert hashes == expected
    # Nothing printed at exit, and WeasyPrint's @font-face folder was removed.
    assert result.stderr == ""
    assert not Path(font_folder).exists()


def test_render_to_offers_every_format_a_document_is_made_in():
    """`docgen render --to` spells its choices out (so the type checker knows them): they are
    api.RENDER_FORMATS, in the order the command line offers them."""
    from docgen import api
    from docgen.cli import RenderFormat

    assert [fmt.value for fmt in RenderFormat] == list(api.RENDER_FORMATS)
