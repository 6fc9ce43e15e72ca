"""Fillable forms that real PDF readers agree on (DESIGN.md, "Fillable forms", issue 11).

The blank Exhibit I and RRP forms are rendered for real, then: their structure is clean for qpdf,
their field names are exactly A10's, the radio group is one field with named on-states, every
field uses the embedded field font from /DR, and the form carries its identity. Each is then
filled for every option, with pypdf and with pdf.js run as Firefox runs it (annotationStorage, then
saveDocument: tools/pdfjs/fill_pdfjs.mjs), and read back exactly by read_form, by
pdf.js reopening the file, by qpdf and by poppler (which option it draws marked).

pdf.js needs Node and ``npm ci --prefix tools/pdfjs``; .ci/run installs both. Without them these
tests fail, saying so: they are never skipped.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter
from pypdf.generic import NameObject

from docgen.core.errors import RenderError
from docgen.load import load_facts
from docgen.render import form_format
from docgen.render import html as render
from docgen.render.acroform import repair_form
from docgen.render.form_reader import NotAForm, read_form
from docgen.render.pdf import html_to_pdf
from tests.fillers import pdfjs_fill, pdfjs_read, pypdf_fill

ROOT = Path(__file__).resolve().parent.parent
GRANT = ROOT / "samples" / "director-grant-2026.yaml"
RRP = ROOT / "samples" / "rrp-2026.yaml"

OPTIONS = ("separation", "date", "earlier_of_separation_or_date")
EXHIBIT_FIELDS = {
    "pay_on",
    "pay_date_date",
    "pay_date_earlier_of_separation_or_date",
    "printed_name",
    "date_signed",
    "received_on",
}
ROWS = 3  # blank beneficiary rows on the RRP form


def rrp_fields(funds: int) -> set[str]:
    return (
        {"salary_percent", "bonus_percent", "date_signed", "received_on"}
        | {f"allocation_{n}" for n in range(1, funds + 1)}
        | {f"{kind}_{n}" for kind in ("beneficiary", "relationship", "share") for n in (1, 2, 3)}
    )


@pytest.fixture(scope="module")
def grant():
    return load_facts(GRANT)


@pytest.fixture(scope="module")
def rrp():
    return load_facts(RRP)


@pytest.fixture(scope="module")
def exhibit(grant) -> bytes:
    return render.render_document(grant, "exhibit-i", "jsmith", "elections", "pdf")


@pytest.fixture(scope="module")
def rrp_forms(rrp) -> dict[str, bytes]:
    """e1001: the plain form; e1010: with a performance-based period."""
    return {
        pid: render.render_document(rrp, "rrp-election", pid, "enrollment", "pdf")
        for pid in ("e1001", "e1010")
    }


def funds(rrp) -> int:
    return len({fund for p in rrp.facts.participants for fund in p.investments})


# ----------------------------------------------------------------------------- readers


def qpdf(pdf: bytes, tmp_path: Path) -> dict[str, str | None]:
    """qpdf --check and --json, both with no warning; returns qpdf's field values."""
    path = tmp_path / "q.pdf"
    path.write_bytes(pdf)
    check = subprocess.run(["qpdf", "--check", str(path)], capture_output=True, text=True)
    assert check.returncode == 0 and "WARNING" not in check.stdout + check.stderr, (
        check.stdout + check.stderr
    )
    dumped = subprocess.run(["qpdf", "--json", str(path)], capture_output=True, text=True)
    assert dumped.returncode == 0 and dumped.stderr == "", dumped.stderr
    values: dict[str, str | None] = {}
    options: dict[str, set[str]] = {}
    for item in json.loads(dumped.stdout)["acroform"]["fields"]:
        value = item["value"]
        if isinstance(value, str) and value.startswith("u:"):
            value = value[2:]
        if item["isradiobutton"]:  # one item per option widget, each with the value qpdf reads
            options.setdefault(item["fullname"], set()).add(value.lstrip("/"))
        else:
            values[item["fullname"]] = value or None
    for name, seen in options.items():
        chosen = seen - {"Off"}
        assert len(chosen) <= 1, f"qpdf reads {name} as {sorted(chosen)}"
        values[name] = chosen.pop() if chosen else None
    return values


def poppler_marked(pdf: bytes, tmp_path: Path) -> list[str]:
    """The pay_on options poppler draws marked: page 2 rasterised by pdftoppm, the inside of
    each option's widget looked at (the dot fills it; an unmarked box is white inside)."""
    path = tmp_path / "p.pdf"
    path.write_bytes(pdf)
    dpi = 144
    subprocess.run(
        ["pdftoppm", "-f", "2", "-l", "2", "-r", str(dpi), "-gray", str(path), str(tmp_path / "p")],
        check=True,
    )
    image = next(tmp_path.glob("p-*.pgm")).read_bytes()
    magic, width, height, _maxval, pixels = image.split(maxsplit=4)
    assert magic == b"P5"
    width, height = int(width), int(height)
    reader = PdfReader(io.BytesIO(pdf))
    page = reader.pages[1]
    scale = dpi / 72
    top = float(page.mediabox.top)
    marked = []
    for annotation in page["/Annots"]:
        widget = annotation.get_object()
        parent = widget.get("/Parent")
        if parent is None or parent.get_object().get("/T") != "pay_on":
            continue
        x1, y1, x2, y2 = (float(v) for v in widget["/Rect"])
        on = next(str(key)[1:] for key in widget["/AP"]["/N"] if key != "/Off")
        inset = (x2 - x1) * 0.3
        box = [
            pixels[row * width + col]
            for row in range(int((top - y2 + inset) * scale), int((top - y1 - inset) * scale))
            for col in range(int((x1 + inset) * scale), int((x2 - inset) * scale))
        ]
        if sum(box) / len(box) < 128:
            marked.append(on)
    return marked


def blank_values(names: set[str]) -> dict[str, str | None]:
    return dict.fromkeys(names)


def exhibit_values(option: str | None) -> dict[str, str]:
    values = {"printed_name": "José Núñez", "date_signed": "May 1, 2026"}
    if option is not None:
        values["pay_on"] = option
    if option == "date":
        values["pay_date_date"] = "July 1, 2030"
    if option == "earlier_of_separation_or_date":
        values["pay_date_earlier_of_separation_or_date"] = "January 15, 2031"
    return values


def rrp_values(funds: int) -> dict[str, str]:
    values = {"salary_percent": "10", "bonus_percent": "25", "date_signed": "December 1, 2025"}
    shares = [100 // funds] * funds
    shares[0] += 100 - sum(shares)
    values.update({f"allocation_{n}": str(share) for n, share in enumerate(shares, start=1)})
    values.update({"beneficiary_1": "Jamie Lee", "relationship_1": "child", "share_1": "100"})
    return values


# --------------------------------------------------------------------------- blank forms


def test_blank_forms_are_clean_for_qpdf(exhibit, rrp_forms, tmp_path):
    assert qpdf(exhibit, tmp_path) == blank_values(EXHIBIT_FIELDS)
    for pdf in rrp_forms.values():
        values = qpdf(pdf, tmp_path)
        assert set(values.values()) == {None}


def test_field_names_are_exactly_a10(exhibit, rrp_forms, rrp):
    assert set(PdfReader(io.BytesIO(exhibit)).get_fields()) == EXHIBIT_FIELDS
    assert set(PdfReader(io.BytesIO(rrp_forms["e1001"])).get_fields()) == rrp_fields(funds(rrp))
    # A performance period adds its own percentage field (A10 does not name it yet).
    assert set(PdfReader(io.BytesIO(rrp_forms["e1010"])).get_fields()) == rrp_fields(funds(rrp)) | {
        "performance_percent_1"
    }


def test_the_radio_group_is_one_field_whose_widgets_are_named_by_their_option(exhibit):
    reader = PdfReader(io.BytesIO(exhibit))
    acro = reader.trailer["/Root"]["/AcroForm"]
    top = [ref.get_object() for ref in acro["/Fields"]]
    assert all("/Parent" not in item for item in top), "only top-level fields in /Fields"
    assert sorted(str(item["/T"]) for item in top) == sorted(EXHIBIT_FIELDS)
    group = next(item for item in top if item["/T"] == "pay_on")
    assert group["/FT"] == "/Btn"
    assert group["/Ff"] & form_format.FF_RADIO and group["/Ff"] & form_format.FF_NO_TOGGLE_TO_OFF
    assert group["/V"] == "/Off" and "/Opt" not in group
    tooltip = str(group["/TU"])
    assert tooltip.startswith("Section III: ")
    assert all(words in tooltip for words in ("Separation from Service", "a specified date"))
    kids = [kid.get_object() for kid in group["/Kids"]]
    states = []
    for kid in kids:
        assert not {"/T", "/FT", "/TU", "/V", "/Opt"} & set(kid), sorted(kid)
        assert kid["/Subtype"] == "/Widget" and kid["/AS"] == "/Off"
        normal = set(kid["/AP"]["/N"])
        assert "/Off" in normal and len(normal) == 2
        states.append(next(str(key)[1:] for key in normal if key != "/Off"))
    assert states == list(OPTIONS)


def test_every_field_uses_the_embedded_field_font_from_the_form_resources(exhibit, rrp_forms):
    """DejaVu Serif, whole and embedded as a Type0 font (issue 25: Helvetica dropped ễ, ặ, Ł),
    under the resource name PDFium needs to draw such letters in it (docgen.render.acroform)."""
    shipped = (ROOT / "templates" / "fonts" / "DejaVuSerif.ttf").read_bytes()
    for pdf in (exhibit, *rrp_forms.values()):
        reader = PdfReader(io.BytesIO(pdf))
        acro = reader.trailer["/Root"]["/AcroForm"]
        assert not acro.get("/NeedAppearances", False)
        fonts = acro["/DR"]["/Font"]
        assert list(fonts) == ["/Wingdings"]
        field_font = fonts["/Wingdings"].get_object()
        assert (field_font["/Subtype"], field_font["/BaseFont"], field_font["/Encoding"]) == (
            "/Type0",
            "/DejaVuSerif",
            "/Identity-H",
        )
        cid = field_font["/DescendantFonts"][0].get_object()
        assert (cid["/Subtype"], cid["/CIDToGIDMap"]) == ("/CIDFontType2", "/Identity")
        assert cid["/FontDescriptor"]["/FontFile2"].get_data() == shipped
        to_unicode = field_font["/ToUnicode"].get_data()
        for char in "ễặĐŁłŻżóć":
            assert f"<{ord(char):04X}>".encode() in to_unicode, char
        assert str(acro["/DA"]).startswith("/Wingdings ")
        widgets = [
            a.get_object()
            for page in reader.pages
            for a in page.get("/Annots", [])
            if a.get_object()["/Subtype"] == "/Widget"
        ]
        assert widgets
        for widget in widgets:
            assert "/AP" in widget and "/N" in widget["/AP"], "every widget has an appearance"
            if widget.get("/FT") == "/Tx":
                assert str(widget["/DA"]).startswith("/Wingdings ")
                resources = widget["/AP"]["/N"]["/Resources"]["/Font"]
                assert resources["/Wingdings"].get_object() == field_font


def test_the_blank_form_carries_its_identity(exhibit, rrp_forms, grant, rrp, tmp_path):
    contents = read_form(exhibit)
    assert contents.identity == {
        "document": "exhibit-i",
        "cycle": "2026-annual",
        "subject": "jsmith",
        "facts_sha256": grant.sha256,
    }
    assert contents.values == blank_values(EXHIBIT_FIELDS)
    assert contents.problems == []
    info = PdfReader(io.BytesIO(exhibit)).metadata
    assert info["/DocgenCycle"] == "2026-annual" and info["/DocgenSubject"] == "jsmith"
    assert info["/Title"] == "Exhibit I Deferral Election Form - Jane Q. Smith"  # unchanged
    assert read_form(rrp_forms["e1010"]).identity == {
        "document": "rrp-election",
        "cycle": "rrp-2026",
        "subject": "e1010",
        "facts_sha256": rrp.sha256,
    }
    seen = pdfjs_read(exhibit, tmp_path)
    assert seen["identity"] == {
        "DocgenDocument": "exhibit-i",
        "DocgenCycle": "2026-annual",
        "DocgenSubject": "jsmith",
        "DocgenFactsSHA256": grant.sha256,
    }
    assert seen["fieldNames"] == sorted(EXHIBIT_FIELDS)
    assert seen["options"] == {"pay_on": list(OPTIONS)}
    assert seen["widgets"] == len(EXHIBIT_FIELDS) - 1 + len(OPTIONS)


@pytest.mark.slow
def test_a_fresh_process_makes_the_same_blank_form(exhibit):
    script = (
        "import hashlib\n"
        "from docgen.load import load_facts\n"
        "from docgen.render.html import render_document\n"
        f"loaded = load_facts({str(GRANT)!r})\n"
        "pdf = render_document(loaded, 'exhibit-i', 'jsmith', 'elections', 'pdf')\n"
        "print(hashlib.sha256(pdf).hexdigest())\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    import hashlib

    assert result.stdout.strip() == hashlib.sha256(exhibit).hexdigest()


# -------------------------------------------------------------------------------- filling


@pytest.mark.parametrize("option", [*OPTIONS, None])
def test_filled_with_pypdf_every_reader_reads_what_was_chosen(exhibit, option, tmp_path):
    values = exhibit_values(option)
    filled = pypdf_fill(exhibit, values)
    expected = {**blank_values(EXHIBIT_FIELDS), **values}
    contents = read_form(filled)
    assert contents.values == expected
    assert contents.problems == []
    assert contents.identity == read_form(exhibit).identity
    assert qpdf(filled, tmp_path)["pay_on"] == option
    assert pdfjs_read(filled, tmp_path)["values"] == expected
    assert poppler_marked(filled, tmp_path) == ([option] if option else [])


@pytest.mark.parametrize("option", [*OPTIONS, None])
@pytest.mark.slow
def test_filled_with_pdfjs_as_firefox_does_every_reader_reads_what_was_chosen(
    exhibit, option, tmp_path
):
    values = exhibit_values(option)
    filled = pdfjs_fill(exhibit, values, tmp_path)
    expected = {**blank_values(EXHIBIT_FIELDS), **values}
    contents = read_form(filled)
    assert contents.values == expected
    assert contents.problems == []
    assert contents.identity == read_form(exhibit).identity
    reopened = pdfjs_read(filled, tmp_path)  # what the director sees on opening it again
    assert reopened["values"] == expected
    assert reopened["checked"] == {"pay_on": [option] if option else []}
    assert reopened["identity"]["DocgenSubject"] == "jsmith"
    assert qpdf(filled, tmp_path) == expected
    assert poppler_marked(filled, tmp_path) == ([option] if option else [])
    # A script reading pay_on with pypdf gets the option too (issue 11: it got "Off").
    assert PdfReader(io.BytesIO(filled)).get_fields()["pay_on"]["/V"] == f"/{option or 'Off'}"


@pytest.mark.slow
def test_a_changed_choice_reads_as_the_last_one(exhibit, tmp_path):
    first = pdfjs_fill(exhibit, exhibit_values("separation"), tmp_path)
    second = pdfjs_fill(first, {"pay_on": "date", "pay_date_date": "July 1, 2030"}, tmp_path)
    assert read_form(second).values["pay_on"] == "date"
    assert pdfjs_read(second, tmp_path)["checked"] == {"pay_on": ["date"]}
    assert poppler_marked(second, tmp_path) == ["date"]
    again = pypdf_fill(second, {"pay_on": "earlier_of_separation_or_date"})
    assert read_form(again).values["pay_on"] == "earlier_of_separation_or_date"
    assert read_form(again).problems == []


@pytest.mark.parametrize("filler", ["pypdf", "pdfjs"])
@pytest.mark.slow
def test_the_rrp_form_reads_back_what_was_typed(rrp_forms, rrp, filler, tmp_path):
    pdf = rrp_forms["e1001"]
    values = rrp_values(funds(rrp))
    filled = pypdf_fill(pdf, values) if filler == "pypdf" else pdfjs_fill(pdf, values, tmp_path)
    expected = {**blank_values(rrp_fields(funds(rrp))), **values}
    contents = read_form(filled)
    assert contents.values == expected
    assert contents.problems == []
    assert contents.identity["subject"] == "e1001"
    assert qpdf(filled, tmp_path) == expected
    assert pdfjs_read(filled, tmp_path)["values"] == expected


@pytest.mark.parametrize("filler", ["pypdf", "pdfjs"])
@pytest.mark.slow
def test_fillers_draw_typed_text_with_the_forms_field_font(exhibit, filler, tmp_path):
    values = exhibit_values("date")
    filled = (
        pypdf_fill(exhibit, values) if filler == "pypdf" else pdfjs_fill(exhibit, values, tmp_path)
    )
    reader = PdfReader(io.BytesIO(filled))
    for widget in (a.get_object() for a in reader.pages[1]["/Annots"]):
        if widget.get("/T") in values:
            appearance = widget["/AP"]["/N"].get_object()
            assert appearance.get_data().strip(), f"{widget['/T']} has no drawn value"
            for font in appearance["/Resources"]["/Font"].values():
                assert font.get_object()["/BaseFont"] == "/DejaVuSerif"


# ------------------------------------------------------------------------- reading back


def _edit(pdf: bytes, change) -> bytes:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    group = next(
        ref.get_object()
        for ref in writer.root_object["/AcroForm"]["/Fields"]
        if ref.get_object()["/T"] == "pay_on"
    )
    change(group, [kid.get_object() for kid in group["/Kids"]])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _set(group, kids, value, shown):
    group[NameObject("/V")] = NameObject(f"/{value}")
    for kid, option in zip(kids, OPTIONS, strict=True):
        kid[NameObject("/AS")] = NameObject(f"/{option}" if option in shown else "/Off")


@pytest.mark.parametrize(
    ("value", "shown", "problem"),
    [
        ("date", ["separation"], "its value is 'date' but separation is shown marked"),
        ("date", ["date", "separation"], "but date, separation is shown marked"),
        ("date", [], "but nothing is shown marked"),
        ("Off", ["date"], "date is shown marked but the field's value is Off"),
        ("later", [], "its value 'later' is none of its options"),
    ],
)
def test_a_radio_group_that_is_not_one_clear_answer_is_a_problem(exhibit, value, shown, problem):
    contents = read_form(_edit(exhibit, lambda g, k: _set(g, k, value, shown)))
    assert contents.values["pay_on"] is None
    assert [p.field for p in contents.problems] == ["pay_on"]
    assert problem in str(contents.problems[0])


def test_a_field_listed_twice_is_a_problem(exhibit):
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(exhibit)))
    fields = writer.root_object["/AcroForm"]["/Fields"]
    fields.append(fields[0])
    out = io.BytesIO()
    writer.write(out)
    contents = read_form(out.getvalue())
    assert any("more than once" in str(p) for p in contents.problems)


def test_weasyprints_own_radio_structure_is_read_as_ambiguous_not_guessed(grant, monkeypatch):
    """The structure issue 11 reports (each option also a pay_on field of its own, listed
    twice) is never read as an answer: the duplicates and the loop are problems."""
    from docgen.render import pdf as printer

    monkeypatch.setattr(printer, "repair_form", lambda pdf, **_: None)
    raw = render.render_document(grant, "exhibit-i", "jsmith", "elections", "pdf")
    monkeypatch.undo()
    assert "/Opt" in PdfReader(io.BytesIO(raw)).get_fields()["pay_on"]  # WeasyPrint's
    meta = render.document_meta(grant, "exhibit-i", "jsmith", "elections")
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(raw)))
    writer.add_metadata({form_format.INFO_KEYS[k]: v for k, v in meta.form_identity})
    out = io.BytesIO()
    writer.write(out)
    contents = read_form(out.getvalue())
    assert "pay_on.pay_on" in contents.values
    assert any("more than once" in str(p) for p in contents.problems)


def test_a_pdf_without_fields_is_not_a_form(grant):
    notice = render.render_document(grant, "notice", "jsmith", "grant", "pdf")
    with pytest.raises(NotAForm, match="no form fields: a scanned or printed copy"):
        read_form(notice)
    with pytest.raises(NotAForm, match="not a readable PDF"):
        read_form(b"%PDF-1.7\nnot really")
    with pytest.raises(NotAForm, match="not a PDF file .a PDF begins with %PDF-"):
        read_form(b"JFIF a photo of the form")


def test_a_form_without_its_identity_is_not_a_docgen_form(exhibit):
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(exhibit)))
    del writer._info.get_object()[NameObject("/DocgenSubject")]
    out = io.BytesIO()
    writer.write(out)
    with pytest.raises(NotAForm, match="no DocgenSubject"):
        read_form(out.getvalue())
    assert NotAForm.exit_code == 2


# ------------------------------------------------------------------------------ repairing


def _repaired(grant, doc: str, stage: str, identity, tooltips=None) -> bytes:
    """A document's HTML through WeasyPrint with the repair as its finisher, as html_to_pdf
    runs it (WeasyPrint's own objects, before the file is written)."""
    import weasyprint

    html = render.render_html(grant, doc, "jsmith", stage)
    return weasyprint.HTML(string=html, base_url=str(Path.cwd())).write_pdf(
        pdf_forms=True,
        finisher=lambda _, pdf: repair_form(pdf, identity=identity, tooltips=tooltips),
    )


def test_a_form_is_only_made_with_its_whole_identity(exhibit, grant):
    identity = dict(read_form(exhibit).identity)
    with pytest.raises(RenderError, match="missing subject"):
        partial = {k: v for k, v in identity.items() if k != "subject"}
        _repaired(grant, "exhibit-i", "elections", partial)
    with pytest.raises(RenderError, match="64 lowercase hex"):
        _repaired(grant, "exhibit-i", "elections", {**identity, "facts_sha256": "abc"})
    with pytest.raises(RenderError, match="render it from a facts file"):
        render.render_document(grant.facts, "exhibit-i", "jsmith", "elections", "pdf")
    meta = replace(
        render.document_meta(grant, "exhibit-i", "jsmith", "elections"), form_identity=()
    )
    with pytest.raises(RenderError, match="render it from a facts file"):
        html_to_pdf(render.render_html(grant, "exhibit-i", "jsmith", "elections"), meta)


def test_repair_refuses_a_pdf_with_no_fields(grant):
    identity = {"document": "notice", "cycle": "c", "subject": "s", "facts_sha256": "0" * 64}
    with pytest.raises(RenderError, match="no form fields"):
        _repaired(grant, "notice", "grant", identity)


def test_tooltips_override_and_must_name_real_fields(exhibit, grant):
    identity = read_form(exhibit).identity
    tips = {"pay_on": "Section III: when the 2026 Units are paid"}
    repaired = _repaired(grant, "exhibit-i", "elections", identity, tips)
    group = PdfReader(io.BytesIO(repaired)).get_fields()["pay_on"]
    assert group["/TU"] == "Section III: when the 2026 Units are paid"
    assert read_form(repaired).identity == identity
    with pytest.raises(RenderError, match="payon"):
        _repaired(grant, "exhibit-i", "elections", identity, {"payon": "typo"})
