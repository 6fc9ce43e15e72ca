"""`docgen verify FILE.pdf [--trust CA.pem]` says who certified a Notice, and fails (exit 1, with
the reason) when anything changed after signing or the signer is not the company's (DESIGN.md,
"Signed documents"). The PKI and timestamp server are made in the test run."""

from __future__ import annotations

import io
import json
import shutil
from datetime import date
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter
from pypdf.annotations import FreeText

from docgen.issue.batch import issue_batch
from docgen.issue.record import RECORD_NAME
from docgen.issue.signing import SigningConfig, load
from tests.signing_pki import PASSPHRASE, module_fixtures

pytestmark = pytest.mark.slow
pki_fixture, signing_fixture = module_fixtures()

ROOT = Path(__file__).resolve().parent.parent
GRANT = ROOT / "samples" / "director-grant-2026.yaml"
AS_OF = date(2026, 6, 23)


@pytest.fixture(scope="module")
def folder(tmp_path_factory, signing) -> Path:
    out = tmp_path_factory.mktemp("signed")
    return issue_batch(
        GRANT,
        out,
        stage="grant",
        as_of=AS_OF,
        only=["jsmith"],
        only_into_new_folder=True,
        signing=signing,
    ).folder


@pytest.fixture
def notice(folder, tmp_path) -> Path:
    """jsmith's signed Notice, away from its folder."""
    copy = tmp_path / "Notice from CarMax.pdf"
    shutil.copyfile(folder / "jsmith" / "notice.pdf", copy)
    return copy


def test_a_signed_notice_says_who_certified_it(cli, notice, pki):
    result = cli("verify", notice, "--trust", pki.ca_pem)
    assert result.exit_code == 0, result.output
    said = result.stdout
    assert f"{notice}: certified by CN=Corporate Secretary,O=Test Co" in said
    assert "issuer CN=Test Co Root CA,O=Test Co" in said
    assert f"serial {pki.serial:X}" in said
    assert "timestamp " in said and "by CN=Test Co TSA,O=Test Co" in said
    assert "allows no changes after signing" in said
    assert "nothing changed after signing" in said
    assert f"its certificate chains to the trust anchor {pki.ca_pem}" in said
    assert "The revision it signed is what docgen makes from the record it carries" in said
    assert "these very bytes" in said


def test_without_trust_it_says_the_signer_was_not_checked(cli, notice):
    result = cli("verify", notice)
    assert result.exit_code == 0, result.output
    assert "was not checked against a trust anchor" in result.stdout


def _fails(cli, path: Path, trust: Path, *reasons: str) -> str:
    result = cli("verify", path, "--trust", trust)
    assert result.exit_code == 1, result.output
    for reason in reasons:
        assert reason in result.stderr, result.stderr
    assert "not shown to be the document the company issued" in result.stderr
    return result.stderr


def test_one_changed_byte_breaks_the_certification(cli, notice, pki):
    data = bytearray(notice.read_bytes())
    data[10] ^= 0x01  # the header's binary comment: the PDF still reads
    notice.write_bytes(bytes(data))
    _fails(cli, notice, pki.ca_pem, "the signed bytes were changed after signing")


def test_an_annotation_added_after_signing_fails(cli, notice, pki):
    writer = PdfWriter(io.BytesIO(notice.read_bytes()), incremental=True)
    writer.add_annotation(0, FreeText(text="Void", rect=(50, 50, 200, 100)))
    buffer = io.BytesIO()
    writer.write(buffer)
    notice.write_bytes(buffer.getvalue())
    # pyHanko's difference analysis sees the page rewritten: any change breaks "no changes".
    said = _fails(cli, notice, pki.ca_pem, "changed after signing", "(it allows no changes)")
    assert "Traceback" not in said


def test_a_record_edited_after_signing_fails(cli, notice, pki):
    writer = PdfWriter(io.BytesIO(notice.read_bytes()), incremental=True)
    for spec in writer.root_object["/AF"]:
        spec = spec.get_object()
        if spec["/F"] == RECORD_NAME:
            stream = spec["/EF"]["/F"].get_object()
            record = json.loads(stream.get_data())
            record["facts"]["directors"][0]["name"] = "Mallory Q. Smith"
            stream.set_data(json.dumps(record).encode())
    buffer = io.BytesIO()
    writer.write(buffer)
    notice.write_bytes(buffer.getvalue())
    assert PdfReader(notice).attachments[RECORD_NAME][0] != b""
    _fails(cli, notice, pki.ca_pem, "changed after signing", "does not allow")


def test_a_forged_remake_signed_by_another_key_fails_against_trust(cli, pki, tmp_path):
    facts = tmp_path / "grant.yaml"
    facts.write_text(GRANT.read_text().replace("Jane Q. Smith", "Mallory Q. Smith"))
    forger = load(SigningConfig.read(pki.forger_config), PASSPHRASE.encode())
    forged = issue_batch(
        facts,
        tmp_path / "out",
        stage="grant",
        as_of=AS_OF,
        only=["jsmith"],
        only_into_new_folder=True,
        signing=forger,
    ).folder
    notice = forged / "jsmith" / "notice.pdf"
    # Consistent with its own record, and validly signed: only the trust anchor tells it apart.
    assert cli("verify", notice).exit_code == 0
    _fails(cli, notice, pki.ca_pem, "does not chain to the trust anchor")


def test_an_unsigned_notice_with_trust_fails(cli, tmp_path, pki):
    plain = issue_batch(
        GRANT,
        tmp_path / "out",
        stage="grant",
        as_of=AS_OF,
        only=["jsmith"],
        only_into_new_folder=True,
    ).folder
    _fails(cli, plain / "jsmith" / "notice.pdf", pki.ca_pem, "not signed: nothing in it says who")


def test_a_trust_anchor_that_is_not_a_certificate_is_refused(cli, notice, tmp_path):
    bad = tmp_path / "ca.pem"
    bad.write_text("not a certificate")
    result = cli("verify", notice, "--trust", bad)
    assert result.exit_code == 2
    assert "not a certificate" in result.stderr


def test_bytes_appended_after_the_last_eof_are_not_these_very_bytes(cli, notice, pki):
    notice.write_bytes(notice.read_bytes() + b"<script>payload()</script>\n")
    said = _fails(cli, notice, pki.ca_pem, "bytes were appended after the file's last %%EOF")
    assert "these very bytes" not in said
    assert "nothing changed after signing" not in said


def test_an_appended_fake_eof_is_refused_too(cli, notice, pki):
    # A payload ending in its own %%EOF hides the signed revision's end: pyHanko finds no
    # startxref after it and the signature is not read at all.
    notice.write_bytes(notice.read_bytes() + b"%PDF payload\n%%EOF\n")
    said = _fails(cli, notice, pki.ca_pem)
    assert "these very bytes" not in said


@pytest.fixture(scope="module")
def company_templates_folder(tmp_path_factory, signing) -> Path:
    """jsmith's Notice issued from the company's own templates (a folder of its own), signed
    with the company's key."""
    work = tmp_path_factory.mktemp("own-templates")
    (work / "forms").mkdir()
    facts = work / "grant.yaml"
    own = "templates_dir: forms\ndirectors_csv: null"
    facts.write_text(GRANT.read_text().replace("directors_csv: null", own))
    return issue_batch(
        facts,
        work / "out",
        stage="grant",
        as_of=AS_OF,
        only=["jsmith"],
        only_into_new_folder=True,
        signing=signing,
    ).folder


def test_a_company_template_notice_verifies_against_the_companys_ca(
    cli, company_templates_folder, pki, tmp_path
):
    notice = tmp_path / "notice.pdf"
    shutil.copyfile(company_templates_folder / "jsmith" / "notice.pdf", notice)
    result = cli("verify", notice, "--trust", pki.ca_pem)
    assert result.exit_code == 0, result.output
    said = " ".join(result.stdout.split())
    assert "do not rely on this copy" not in said
    assert (
        "chain: CN=Corporate Secretary,O=Test Co <- CN=Test Co Root CA,O=Test Co, which chains "
        f"to the trust anchor {pki.ca_pem}" in said
    )
    assert "made with the company's own templates" in said
    # A forger's CA is not the company's: the same file fails against it.
    _fails(cli, notice, pki.forger_ca_pem, "does not chain to the trust anchor")


def test_a_stage_folder_accepts_trust(cli, folder, pki):
    result = cli("verify", folder, "--trust", pki.ca_pem)
    assert result.exit_code == 0, result.output
    assert f"PDFs certified by a key chaining to {pki.ca_pem}" in " ".join(result.stdout.split())


def test_a_stage_folder_against_another_ca_fails(cli, folder, pki):
    result = cli("verify", folder, "--trust", pki.forger_ca_pem)
    assert result.exit_code == 1, result.output
    assert "jsmith/notice.pdf: the signer's certificate" in result.stderr
    assert "does not chain to the trust anchor" in result.stderr
