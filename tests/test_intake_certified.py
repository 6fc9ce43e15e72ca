"""`docgen intake` of a form the company certified for form filling (`batch --sign`): filled by
pdf.js (as Firefox does) or by pypdf (an incremental update, as a certified form must be filled),
the certification still holds and the election is recorded; the same form with its identity,
a page or its certified revision changed is refused, the facts file untouched (DESIGN.md, "Signed
documents")."""

from __future__ import annotations

import io
import shutil
import subprocess
from datetime import date
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter
from pypdf.generic import NameObject, TextStringObject

from docgen.load import load_facts
from docgen.render import html as render
from tests.fillers import pdfjs_fill, pypdf_fill
from tests.signing_pki import PASSPHRASE, module_fixtures

pytestmark = pytest.mark.slow
pki_fixture, signing_fixture = module_fixtures()

ROOT = Path(__file__).resolve().parent.parent
GRANT = ROOT / "samples" / "director-grant-2026.yaml"
RECEIVED = "2026-06-22"
VALUES = {
    "pay_on": "date",
    "printed_name": "thanh nguyen",
    "date_signed": "June 18, 2026",
    "pay_date_date": "July 1, 2030",
}


@pytest.fixture(scope="module")
def certified(signing) -> bytes:
    """tnguyen's blank Exhibit I, certified for form filling as `batch --sign` issues it."""
    blank = render.render_document(load_facts(GRANT), "exhibit-i", "tnguyen", "elections", "pdf")
    return signing.sign_pdf(blank, fillable=True)


@pytest.fixture
def facts(tmp_path) -> Path:
    path = tmp_path / "grant.yaml"
    shutil.copy(GRANT, path)
    return path


def take_in(cli, facts: Path, data: bytes, tmp_path: Path, *more):
    form = tmp_path / "returned.pdf"
    form.write_bytes(data)
    return form, cli("intake", facts, form, "--received-on", RECEIVED, "--as-of", RECEIVED, *more)


@pytest.fixture(scope="module")
def forged(pki) -> bytes:
    """tnguyen's blank Exhibit I certified by a forger's key: its own CA, a subject that reads
    like the company's (CN=Corporate Secretary, O=Test Co)."""
    from docgen.issue.signing import SigningConfig, load

    forger = load(SigningConfig.read(pki.forger_config), PASSPHRASE.encode())
    blank = render.render_document(load_facts(GRANT), "exhibit-i", "tnguyen", "elections", "pdf")
    return forger.sign_pdf(blank, fillable=True)


@pytest.mark.parametrize("filler", ["pdfjs", "pypdf"])
def test_a_certified_form_filled_in_is_recorded_and_its_certification_holds(
    cli, facts, certified, tmp_path, filler, pki
):
    if filler == "pdfjs":
        filled = pdfjs_fill(certified, VALUES, tmp_path)
    else:
        filled = pypdf_fill(certified, VALUES, incremental=True)
    assert filled[: len(certified)] == certified  # both fill by appending an update
    form, result = take_in(cli, facts, filled, tmp_path, "--trust", pki.ca_pem)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert f"Recorded {form}: tnguyen, Exhibit I option" in result.stdout
    assert f"{form}: the company's certification holds (certified by CN=Corporate" in result.stdout
    assert f"chaining to the company's CA {pki.ca_pem}" in result.stdout
    assert "filled in after it, which it allows" in result.stdout
    (election,) = load_facts(facts).facts.director("tnguyen").elections
    assert (election.pay_on, election.pay_date) == ("date", date(2030, 7, 1))
    # poppler validates it too: the signed revision intact, the fill after it.
    shown = subprocess.run(["pdfsig", str(form)], capture_output=True, text=True).stdout
    assert "Signature Validation: Signature is Valid." in shown


def _refused(cli, facts: Path, data: bytes, tmp_path: Path, *said: str, extra: tuple = ()) -> None:
    before = facts.read_bytes()
    _, result = take_in(cli, facts, data, tmp_path, *extra)
    assert result.exit_code == 2, result.stdout + result.stderr
    for words in said:
        assert words in result.stderr, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert facts.read_bytes() == before


def _updated(data: bytes, change) -> bytes:
    writer = PdfWriter(io.BytesIO(data), incremental=True)
    change(writer)
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def test_an_identity_key_changed_by_an_incremental_update_is_refused(
    cli, facts, certified, tmp_path
):
    filled = pypdf_fill(certified, VALUES, incremental=True)
    # The form made out to another director: DocgenSubject rewritten in a new /Info.
    forged = _updated(filled, lambda w: w.add_metadata({"/DocgenSubject": "ebrooks"}))
    assert PdfReader(io.BytesIO(forged)).metadata["/DocgenSubject"] == "ebrooks"
    _refused(cli, facts, forged, tmp_path, "changed after the company certified it")


def test_a_page_changed_after_certification_is_refused(cli, facts, certified, tmp_path):
    filled = pypdf_fill(certified, VALUES, incremental=True)

    def stamp(writer: PdfWriter) -> None:
        page = writer.pages[0]
        contents = page.get_contents()
        contents.set_data(contents.get_data() + b"\nBT /F1 12 Tf 72 72 Td (VOID) Tj ET")
        page[NameObject("/Contents")] = writer._add_object(contents)

    _refused(cli, facts, _updated(filled, stamp), tmp_path, "beyond filling in the form")


def test_a_field_made_another_field_is_refused(cli, facts, certified, tmp_path):
    def rename(writer: PdfWriter) -> None:
        for annotation in writer.pages[-1].get("/Annots", []):
            widget = annotation.get_object()
            if widget.get("/T") == "printed_name":
                widget[NameObject("/T")] = TextStringObject("other_name")

    filled = pypdf_fill(certified, VALUES, incremental=True)
    _refused(cli, facts, _updated(filled, rename), tmp_path, "beyond filling in the form")


def test_a_changed_byte_in_the_certified_revision_is_refused(cli, facts, certified, tmp_path):
    filled = bytearray(pypdf_fill(certified, VALUES, incremental=True))
    filled[10] ^= 0x01
    _refused(cli, facts, bytes(filled), tmp_path, "altered after it was issued")


def test_a_certified_form_saved_whole_is_refused(cli, facts, certified, tmp_path):
    # A fill that rewrites the file (pypdf without incremental) leaves the signature over bytes
    # that are no longer there: the certified form cannot be shown to be the one issued.
    _refused(cli, facts, pypdf_fill(certified, VALUES), tmp_path, "altered after it was issued")


def test_an_identity_in_a_new_information_dictionary_is_refused(cli, facts, certified, tmp_path):
    """A new /Info object (not the certified one changed) passes the difference analysis, since
    a new object is reachable from no page or field; the identity check refuses it."""
    from pyhanko.pdf_utils import generic
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter

    filled = pypdf_fill(certified, VALUES, incremental=True)
    writer = IncrementalPdfFileWriter(io.BytesIO(filled))
    old = PdfReader(io.BytesIO(certified)).metadata
    info = generic.DictionaryObject(
        {generic.NameObject(k): generic.TextStringObject(str(v)) for k, v in old.items()}
    )
    info[generic.NameObject("/DocgenSubject")] = generic.TextStringObject("ebrooks")
    writer._info = writer.add_object(info)
    writer._update_meta = lambda: None
    buffer = io.BytesIO()
    writer.write(buffer)
    _refused(cli, facts, buffer.getvalue(), tmp_path, "its identity was changed after the company")


def test_a_certification_without_the_companys_ca_is_not_called_the_companys(
    cli, facts, certified, tmp_path, monkeypatch
):
    monkeypatch.delenv("DOCGEN_SIGN_CONFIG", raising=False)
    filled = pypdf_fill(certified, VALUES, incremental=True)
    form, result = take_in(cli, facts, filled, tmp_path)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "the company's certification holds" not in result.stdout
    assert (
        f"{form}: certified by CN=Corporate Secretary,O=Test Co (not checked against the "
        "company's CA" in " ".join(result.stdout.split())
    )


def test_a_forgers_certification_is_refused_against_the_companys_ca(
    cli, facts, forged, tmp_path, pki
):
    filled = pypdf_fill(forged, VALUES, incremental=True)
    _refused(
        cli,
        facts,
        filled,
        tmp_path,
        "does not chain to the company's CA",
        "not the company's certification",
        extra=("--trust", pki.ca_pem),
    )


def test_the_signing_configs_chain_is_the_companys_ca(
    cli, facts, forged, certified, tmp_path, pki, monkeypatch
):
    config = tmp_path / "signing.toml"
    config.write_text(f'key = "{pki.folder / "company.p12"}"\nchain = ["{pki.ca_pem}"]\n')
    monkeypatch.setenv("DOCGEN_SIGN_CONFIG", str(config))
    _refused(cli, facts, pypdf_fill(forged, VALUES, incremental=True), tmp_path, "does not chain")
    form, result = take_in(cli, facts, pypdf_fill(certified, VALUES, incremental=True), tmp_path)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "the company's certification holds" in result.stdout


def _pymupdf_fill(data: bytes, tmp_path: Path, extra=None) -> bytes:
    """Fill the form as PyMuPDF does (an incremental save): each text field's value, its border
    style and default appearance written again with it."""
    import pymupdf

    path = tmp_path / "mupdf.pdf"
    path.write_bytes(data)
    doc = pymupdf.open(path)
    for page in doc:
        for widget in page.widgets():
            if widget.field_name in VALUES and widget.field_type == pymupdf.PDF_WIDGET_TYPE_TEXT:
                widget.field_value = VALUES[widget.field_name]
                widget.update()
            elif widget.field_type == pymupdf.PDF_WIDGET_TYPE_RADIOBUTTON:
                if widget.on_state() == VALUES.get(widget.field_name):
                    widget.field_value = widget.on_state()
                    widget.update()
            if extra is not None:
                extra(widget)
    doc.save(path, incremental=True, encryption=pymupdf.PDF_ENCRYPT_KEEP)
    doc.close()
    return path.read_bytes()


def test_a_pymupdf_fill_rewriting_border_styles_is_form_filling(cli, facts, certified, tmp_path):
    filled = _pymupdf_fill(certified, tmp_path)
    assert b"/BS" in filled[len(certified) :]  # it wrote the border style again
    form, result = take_in(cli, facts, filled, tmp_path)
    assert "more than filling in the form" not in result.stderr, result.stderr
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "certified by CN=Corporate Secretary" in " ".join(result.stdout.split())


def test_a_pymupdf_edit_that_makes_a_field_read_only_is_refused(cli, facts, certified, tmp_path):
    import pymupdf

    def read_only(widget):
        if widget.field_name == "received_on":
            widget.field_flags |= pymupdf.PDF_FIELD_IS_READ_ONLY
            widget.update()

    _refused(
        cli,
        facts,
        _pymupdf_fill(certified, tmp_path, read_only),
        tmp_path,
        "more than filling in the form",
    )
