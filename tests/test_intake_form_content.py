"""`docgen intake` holds an uncertified form to what its pages print, and refuses a form that
carries what docgen's forms never do: scripts, actions, XFA, fields docgen did not make (issue 25;
DESIGN.md, "Fillable forms"). Each attack is reproduced through the CLI: exit 2, the reason,
the facts file byte for byte as it was, nothing left beside it."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    DecodedStreamObject,
    DictionaryObject,
    FloatObject,
    NameObject,
    NumberObject,
    TextStringObject,
)

from docgen.load import load_facts
from docgen.render import html as render
from tests.fillers import pypdf_fill

ROOT = Path(__file__).resolve().parent.parent
GRANT = ROOT / "samples" / "director-grant-2026.yaml"
RRP = ROOT / "samples" / "rrp-2026.yaml"
RECEIVED = "2026-06-22"
GOOD = {"pay_on": "separation", "printed_name": "Thanh Nguyen", "date_signed": "2026-06-18"}


@pytest.fixture(scope="module")
def blank() -> bytes:
    return render.render_document(load_facts(GRANT), "exhibit-i", "tnguyen", "elections", "pdf")


@pytest.fixture(scope="module")
def rrp_blank() -> bytes:
    return render.render_document(load_facts(RRP), "rrp-election", "e1001", "enrollment", "pdf")


def _edit(pdf: bytes, change) -> bytes:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    change(writer)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _identity(**keys: str):
    def change(writer: PdfWriter) -> None:
        writer.add_metadata({f"/Docgen{key.capitalize()}": value for key, value in keys.items()})

    return change


def _field(writer: PdfWriter, name: str) -> DictionaryObject:
    return next(
        ref.get_object()
        for ref in writer.root_object["/AcroForm"]["/Fields"]
        if ref.get_object()["/T"] == name
    )


def _javascript(code: str) -> DictionaryObject:
    return DictionaryObject(
        {NameObject("/S"): NameObject("/JavaScript"), NameObject("/JS"): TextStringObject(code)}
    )


def _format_script(writer: PdfWriter) -> None:
    """The "January 1, 2040" trick: the field holds 2030-07-01, its format action shows another
    date (what Acrobat and PDFium run when they draw the field)."""
    field = _field(writer, "pay_date_date")
    field[NameObject("/AA")] = DictionaryObject(
        {NameObject("/F"): _javascript('event.value = "January 1, 2040";')}
    )


def _open_action(writer: PdfWriter) -> None:
    writer.root_object[NameObject("/OpenAction")] = _javascript("app.alert('hello');")


def _launch(writer: PdfWriter) -> None:
    writer.root_object[NameObject("/OpenAction")] = DictionaryObject(
        {NameObject("/S"): NameObject("/Launch"), NameObject("/F"): TextStringObject("calc.exe")}
    )


def _xfa(writer: PdfWriter) -> None:
    """An XFA data packet that disagrees with the fields (what an XFA viewer shows instead)."""
    data = DecodedStreamObject()
    data.set_data(
        b'<xfa:datasets xmlns:xfa="http://www.xfa.org/schema/xfa-data/1.0/"><xfa:data>'
        b"<pay_on>date</pay_on><pay_date_date>2040-01-01</pay_date_date></xfa:data>"
        b"</xfa:datasets>"
    )
    writer.root_object["/AcroForm"][NameObject("/XFA")] = ArrayObject(
        [TextStringObject("datasets"), writer._add_object(data)]
    )


def _revoking_field(writer: PdfWriter) -> None:
    """An added text field on page 2 reading "I revoke any election on file"."""
    page = writer.pages[1]
    field = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/Annot"),
            NameObject("/Subtype"): NameObject("/Widget"),
            NameObject("/FT"): NameObject("/Tx"),
            NameObject("/T"): TextStringObject("revoke"),
            NameObject("/V"): TextStringObject("I revoke any election on file"),
            NameObject("/Rect"): ArrayObject(
                [FloatObject(72), FloatObject(72), FloatObject(400), FloatObject(90)]
            ),
            NameObject("/F"): NumberObject(4),
            NameObject("/P"): page.indirect_reference,
        }
    )
    ref = writer._add_object(field)
    page["/Annots"].append(ref)
    writer.root_object["/AcroForm"]["/Fields"].append(ref)


def _variant_2027(tmp_path: Path, day: str = "2027-06-22") -> Path:
    """The next year's facts: the grant 2027-annual, dated June 22, 2027 (or ``day``)."""
    text = GRANT.read_text(encoding="utf-8").replace("id: 2026-annual ", "id: 2027-annual ", 1)
    for key in ("grant_date", "notice_date", "election_deadline"):
        text = text.replace(f"{key}: 2026-06-23", f"{key}: {day}", 1)
    path = tmp_path / "grant-2027.yaml"
    path.write_text(text, encoding="utf-8")
    return path


ATTACKS = {
    "DocgenSubject edited to another director (the printed name too)": (
        lambda blank: pypdf_fill(
            _edit(blank, _identity(subject="ebrooks")), {**GOOD, "printed_name": "Evelyn Brooks"}
        ),
        "its identity says the director is 'Evelyn Brooks', but page 2 does not print that",
    ),
    "a format script showing another date": (
        lambda blank: _edit(
            pypdf_fill(blank, {**GOOD, "pay_on": "date", "pay_date_date": "2030-07-01"}),
            _format_script,
        ),
        "field pay_date_date runs an action to format what it shows (what the signer saw may "
        "not be what the field holds) (JavaScript)",
    ),
    "a script run when the form is opened": (
        lambda blank: _edit(pypdf_fill(blank, GOOD), _open_action),
        "it runs an action when opened (JavaScript)",
    ),
    "a Launch action": (
        lambda blank: _edit(pypdf_fill(blank, GOOD), _launch),
        "it runs an action when opened (Launch)",
    ),
    "an XFA packet": (
        lambda blank: _edit(pypdf_fill(blank, GOOD), _xfa),
        "it carries an XFA form",
    ),
    "an added field revoking the election on file": (
        lambda blank: _edit(pypdf_fill(blank, GOOD), _revoking_field),
        "revoke: a field docgen's exhibit-i form does not have (it reads 'I revoke any "
        "election on file')",
    ),
}


def _refused(cli, facts: Path, form: bytes, tmp_path: Path, message: str) -> None:
    path = tmp_path / "returned.pdf"
    path.write_bytes(form)
    before = facts.read_bytes()
    listing = sorted(p.name for p in facts.parent.iterdir())
    result = cli("intake", facts, path, "--received-on", RECEIVED, "--as-of", RECEIVED)
    assert result.exit_code == 2, result.stdout + result.stderr
    assert message in " ".join((result.stdout + result.stderr).split()), result.stderr
    assert "Recorded" not in result.stdout
    assert facts.read_bytes() == before
    assert sorted(p.name for p in facts.parent.iterdir()) == listing


@pytest.mark.parametrize("attack", list(ATTACKS))
def test_a_form_carrying_what_docgen_forms_never_do_is_refused(cli, blank, tmp_path, attack):
    make, message = ATTACKS[attack]
    facts = tmp_path / "facts" / "grant.yaml"
    facts.parent.mkdir()
    shutil.copy(GRANT, facts)
    _refused(cli, facts, make(blank), tmp_path, message)


def test_a_2026_form_with_its_cycle_forged_to_2027_is_refused(cli, blank, tmp_path):
    (tmp_path / "facts").mkdir()
    facts = _variant_2027(tmp_path / "facts")
    forged = pypdf_fill(_edit(blank, _identity(cycle="2027-annual")), GOOD)
    _refused(
        cli,
        facts,
        forged,
        tmp_path,
        "its identity says the grant is 'Date of Grant June 22, 2027', but page 2 does not print "
        "that",
    )


def test_a_forged_cycle_whose_grant_date_the_page_prints_as_another_date_is_refused(
    cli, blank, tmp_path
):
    """Issue 44: the 2027 grant on June 23, 2027 is the 2026 form's Specified Date, which its
    page 2 prints; only "Date of Grant June 23, 2027" is the grant's, and page 2 says 2026."""
    (tmp_path / "facts").mkdir()
    facts = _variant_2027(tmp_path / "facts", "2027-06-23")
    forged = pypdf_fill(_edit(blank, _identity(cycle="2027-annual")), GOOD)
    _refused(
        cli,
        facts,
        forged,
        tmp_path,
        "its identity says the grant is 'Date of Grant June 23, 2027', but page 2 does not print "
        "that",
    )


def test_an_rrp_form_whose_subject_was_edited_is_refused(cli, rrp_blank, tmp_path):
    facts = tmp_path / "facts" / "rrp.yaml"
    facts.parent.mkdir()
    shutil.copy(RRP, facts)
    forged = pypdf_fill(
        _edit(rrp_blank, _identity(subject="e1002")),
        {"salary_percent": "10", "date_signed": "December 1, 2025"},
    )
    path = tmp_path / "returned.pdf"
    path.write_bytes(forged)
    before = facts.read_bytes()
    result = cli("intake", facts, path, "--received-on", "2025-12-15", "--as-of", "2025-12-15")
    assert result.exit_code == 2, result.stdout + result.stderr
    message = " ".join(result.stderr.split())
    assert (
        "its identity says the participant is 'Morgan Alvarez (ID e1002)', but page 1 does not "
        "print that"
    ) in message
    assert facts.read_bytes() == before


def test_a_genuine_form_prints_what_its_identity_says(cli, blank, tmp_path):
    """The check passes the form as issued and filled: the same facts, nothing edited."""
    facts = tmp_path / "facts" / "grant.yaml"
    facts.parent.mkdir()
    shutil.copy(GRANT, facts)
    path = tmp_path / "returned.pdf"
    path.write_bytes(pypdf_fill(blank, GOOD))
    result = cli("intake", facts, path, "--received-on", RECEIVED, "--as-of", RECEIVED)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "Recorded" in result.stdout


def test_a_form_filled_by_pypdf_at_its_defaults_is_read_from_its_value_and_appearance(
    cli, blank, tmp_path
):
    """pypdf at its defaults writes the radio group's /V as text and sets NeedAppearances
    (poppler then shows no option marked: DESIGN.md, "Fillable forms"). Given "/date", it also
    sets the option's /AS, and intake reads the choice from the two, which agree; given "date",
    every option stays /Off, and the form is refused, nothing written."""
    from tests.fillers import pypdf_default_fill

    values = {**GOOD, "pay_on": "date", "pay_date_date": "2030-07-01"}
    facts = tmp_path / "facts" / "grant.yaml"
    facts.parent.mkdir()
    shutil.copy(GRANT, facts)
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(blank)))
    writer.update_page_form_field_values(None, values)  # "date", without its slash
    out = io.BytesIO()
    writer.write(out)
    _refused(
        cli, facts, out.getvalue(), tmp_path, "its value is 'date' but nothing is shown marked"
    )

    path = tmp_path / "returned.pdf"
    path.write_bytes(pypdf_default_fill(blank, values))
    result = cli("intake", facts, path, "--received-on", RECEIVED, "--as-of", RECEIVED)
    assert result.exit_code == 0, result.stdout + result.stderr
    (election,) = load_facts(facts).facts.director("tnguyen").elections
    assert election.pay_on == "date"
