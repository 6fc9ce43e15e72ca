"""Both fillable forms filled by four fillers and looked at by two renderers (issue 25; DESIGN.md,
"Fillable forms").

Each form (Exhibit I, the RRP Deferral Election Form) is filled with pdf.js as Firefox fills it,
PDFium as Chrome does, MuPDF, and pypdf at its defaults, with a Vietnamese name (Nguyễn Văn
Đặng) and a Polish one (Łukasz Wróbel-Żółć) typed into its name fields. Each filled file is then
rendered by poppler (pdftotext: the text it draws, appearances included, and whether it had to
look for a font) and by PDFium (the page flattened as Chrome prints it, its text read back with
the font each letter is drawn in): every letter of both names is drawn, in an embedded font,
never a machine's fallback. The option chosen is drawn marked (poppler and PDFium, pixels inside
the option's widget), and `docgen intake` records exactly what was typed.

One cell is known not to hold, and is pinned as it is: a form filled by pypdf at its defaults
shows no option marked in poppler. pypdf writes the radio group's /V as text and sets
NeedAppearances, and poppler, asked to redraw, marks an option only when /V is a name
(FormFieldButton::getState); nothing in the blank form can change what pypdf writes. Intake reads
such a form from its value and the option's /AS, which agree (DESIGN.md, "Fillable forms").
"""

from __future__ import annotations

import io
import shutil
import subprocess
from datetime import date
from pathlib import Path

import pytest
from pypdf import PdfReader

from docgen.load import load_facts
from docgen.render import html as render
from tests.fillers import mupdf_fill, pdfium_fill, pdfjs_fill, pypdf_default_fill

ROOT = Path(__file__).resolve().parent.parent
GRANT = ROOT / "samples" / "director-grant-2026.yaml"
RRP = ROOT / "samples" / "rrp-2026.yaml"
VIETNAMESE = "Nguyễn Văn Đặng"
POLISH = "Łukasz Wróbel-Żółć"
FILLERS = ("pdfjs", "pdfium", "mupdf", "pypdf")

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """The sample facts, the director tnguyen named in Vietnamese as his papers name him."""
    where = tmp_path_factory.mktemp("viewers")
    text = GRANT.read_text(encoding="utf-8").replace("name: Thanh Nguyen", f"name: {VIETNAMESE}")
    (where / "grant.yaml").write_text(text, encoding="utf-8")
    shutil.copy(RRP, where / "rrp.yaml")
    return where


@pytest.fixture(scope="module")
def forms(folder) -> dict[str, tuple[bytes, dict[str, str]]]:
    """Each blank form, with the values typed into it."""
    exhibit = render.render_document(
        load_facts(folder / "grant.yaml"), "exhibit-i", "tnguyen", "elections", "pdf"
    )
    rrp = render.render_document(
        load_facts(folder / "rrp.yaml"), "rrp-election", "e1016", "enrollment", "pdf"
    )
    fields = PdfReader(io.BytesIO(rrp)).get_fields() or {}
    fund = {
        str(f["/TU"]).split("percent in ", 1)[1]: n
        for n, f in fields.items()
        if n.startswith("allocation_")
    }
    return {
        "exhibit-i": (
            exhibit,
            {
                "pay_on": "date",
                "pay_date_date": "July 1, 2030",
                "printed_name": VIETNAMESE,
                "date_signed": "June 18, 2026",
            },
        ),
        "rrp-election": (
            rrp,
            {
                "salary_percent": "10",
                fund["Stable Value Fund"]: "40",
                fund["Bond Index Fund"]: "60",
                "beneficiary_1": POLISH,
                "relationship_1": "child",
                "share_1": "60",
                "beneficiary_2": VIETNAMESE,
                "relationship_2": "spouse",
                "share_2": "40",
                "date_signed": "December 1, 2025",
            },
        ),
    }


_FILLED: dict[tuple[str, str], bytes] = {}


@pytest.fixture
def filled(forms, tmp_path):
    def fill(document: str, filler: str) -> bytes:
        key = (document, filler)
        if key not in _FILLED:
            blank, values = forms[document]
            if filler == "pdfjs":
                _FILLED[key] = pdfjs_fill(blank, values, tmp_path)
            elif filler == "pdfium":
                _FILLED[key] = pdfium_fill(blank, values)
            elif filler == "mupdf":
                _FILLED[key] = mupdf_fill(blank, values)
            else:
                _FILLED[key] = pypdf_default_fill(blank, values)
        return _FILLED[key]

    return fill


def _names(document: str) -> list[str]:
    return [VIETNAMESE] if document == "exhibit-i" else [POLISH, VIETNAMESE]


def _field_page(document: str) -> int:
    """The page the name fields are on: Section IV of Exhibit I, Section VI of the RRP form."""
    return 2


# ------------------------------------------------------------------------------ renderers


def poppler_text(pdf: bytes, page: int, tmp_path: Path) -> tuple[str, str]:
    """What poppler draws on ``page`` as text (form appearances included), and what it said."""
    path = tmp_path / "poppler.pdf"
    path.write_bytes(pdf)
    result = subprocess.run(
        ["pdftotext", "-f", str(page), "-l", str(page), str(path), "-"],
        capture_output=True,
        text=True,
        check=True,
    )
    return " ".join(result.stdout.split()), result.stderr


def pdfium_letters(pdf: bytes, page_number: int) -> list[tuple[str, bool]]:
    """Each letter PDFium draws on the page, flattened as Chrome prints a filled form (forms
    loaded, so a form asking for appearances to be redrawn is redrawn), with whether the font
    it is drawn in is embedded."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    document = pdfium.PdfDocument(pdf)
    document.init_forms()
    page = document[page_number - 1]
    assert pdfium_c.FPDFPage_Flatten(page, pdfium_c.FLAT_PRINT) != pdfium_c.FLATTEN_FAIL
    page.close()
    page = document[page_number - 1]
    text = page.get_textpage()
    letters = []
    for index in range(pdfium_c.FPDFText_CountChars(text)):
        char = chr(pdfium_c.FPDFText_GetUnicode(text, index))
        drawn = pdfium_c.FPDFText_GetTextObject(text, index)
        font = pdfium_c.FPDFTextObj_GetFont(drawn) if drawn else None
        letters.append((char, bool(font) and bool(pdfium_c.FPDFFont_GetIsEmbedded(font))))
    return letters


def _pdfium_marked(pdf: bytes) -> list[str]:
    """The pay_on options PDFium draws marked (page 2 rendered with its forms, as Chrome shows
    it; the inside of each option's widget looked at)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    document.init_forms()
    page = document[1]
    scale = 2
    image = page.render(scale=scale, may_draw_forms=True, grayscale=True).to_pil().convert("L")
    top = page.get_height()
    marked = []
    for annotation in PdfReader(io.BytesIO(pdf)).pages[1]["/Annots"]:
        widget = annotation.get_object()
        parent = widget.get("/Parent")
        if parent is None or parent.get_object().get("/T") != "pay_on":
            continue
        x1, y1, x2, y2 = (float(v) for v in widget["/Rect"])
        inset = (x2 - x1) * 0.3
        box = image.crop(
            (
                int((x1 + inset) * scale),
                int((top - y2 + inset) * scale),
                int((x2 - inset) * scale),
                int((top - y1 - inset) * scale),
            )
        )
        pixels = list(box.tobytes())
        if sum(pixels) / len(pixels) < 128:
            marked.append(next(str(k)[1:] for k in widget["/AP"]["/N"] if k != "/Off"))
    return marked


# ---------------------------------------------------------------------------------- tests


def _typed(forms, document: str, name: str) -> int:
    """How many fields ``name`` is typed into."""
    return list(forms[document][1].values()).count(name)


@pytest.mark.parametrize("filler", FILLERS)
@pytest.mark.parametrize("document", ["exhibit-i", "rrp-election"])
def test_poppler_draws_every_letter_of_the_names_typed(forms, filled, document, filler, tmp_path):
    page = _field_page(document)
    printed, _ = poppler_text(forms[document][0], page, tmp_path)  # the blank page's own text
    text, said = poppler_text(filled(document, filler), page, tmp_path)
    for name in _names(document):
        expected = printed.count(name) + _typed(forms, document, name)
        assert text.count(name) == expected, f"poppler draws {text!r}"
    assert "couldn't find a font" not in said, said


@pytest.mark.parametrize("filler", FILLERS)
@pytest.mark.parametrize("document", ["exhibit-i", "rrp-election"])
def test_pdfium_draws_every_letter_of_the_names_typed_in_an_embedded_font(
    forms, filled, document, filler
):
    page = _field_page(document)
    printed = "".join(char for char, _ in pdfium_letters(forms[document][0], page))
    letters = pdfium_letters(filled(document, filler), page)
    text = "".join(char for char, _ in letters)
    for name in _names(document):
        expected = printed.count(name) + _typed(forms, document, name)
        assert text.count(name) == expected, f"PDFium draws {' '.join(text.split())!r}"
        at = -1
        for _ in range(expected):
            at = text.find(name, at + 1)
            machine = [char for char, embedded in letters[at : at + len(name)] if not embedded]
            assert not machine, f"{machine} drawn in a font that is not embedded (a machine's)"


@pytest.mark.parametrize("filler", FILLERS)
def test_the_option_chosen_is_drawn_marked(filled, filler, tmp_path):
    from tests.test_acroform import poppler_marked

    pdf = filled("exhibit-i", filler)
    assert _pdfium_marked(pdf) == ["date"]
    # pypdf at its defaults: /V as text with NeedAppearances, which poppler cannot mark (above).
    assert poppler_marked(pdf, tmp_path) == ([] if filler == "pypdf" else ["date"])


@pytest.mark.parametrize("filler", FILLERS)
def test_intake_records_exactly_what_was_typed(cli, folder, filled, filler, tmp_path):
    facts = tmp_path / "grant.yaml"
    shutil.copy(folder / "grant.yaml", facts)
    form = tmp_path / "exhibit.pdf"
    form.write_bytes(filled("exhibit-i", filler))
    result = cli("intake", facts, form, "--received-on", "2026-06-22", "--as-of", "2026-06-22")
    assert result.exit_code == 0, result.stdout + result.stderr
    (election,) = load_facts(facts).facts.director("tnguyen").elections
    assert (election.pay_on, election.pay_date) == ("date", date(2030, 7, 1))

    facts = tmp_path / "rrp.yaml"
    shutil.copy(folder / "rrp.yaml", facts)
    form = tmp_path / "rrp.pdf"
    form.write_bytes(filled("rrp-election", filler))
    result = cli("intake", facts, form, "--received-on", "2025-12-02", "--as-of", "2025-12-02")
    assert result.exit_code == 0, result.stdout + result.stderr
    participant = load_facts(facts).facts.participant("e1016")
    assert [(b.name, b.relationship, b.percent) for b in participant.beneficiaries] == [
        (POLISH, "child", 60),
        (VIETNAMESE, "spouse", 40),
    ]
    assert participant.investments == {"Stable Value Fund": 40, "Bond Index Fund": 60}


def test_the_fillers_are_the_ones_named(filled):
    """Each filler really wrote its own appearances (not a copy of another's file)."""
    assert len({filled("exhibit-i", filler) for filler in FILLERS}) == len(FILLERS)
