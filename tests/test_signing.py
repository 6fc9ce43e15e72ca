"""`batch --sign`: every issued PDF certified with the company's key as an incremental update over
the unsigned document (DESIGN.md, "Signed documents"). The key, its CA and a timestamp server are
made in the test run (tests/signing_pki.py); nothing touches the network."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import subprocess
from datetime import date
from pathlib import Path

import pytest

from docgen.issue.batch import issue_batch
from docgen.issue.signing import PASSPHRASE_ENV, SigningConfig
from tests.signing_pki import PASSPHRASE, module_fixtures

pytestmark = pytest.mark.slow
pki_fixture, signing_fixture = module_fixtures()

ROOT = Path(__file__).resolve().parent.parent
GRANT = ROOT / "samples" / "director-grant-2026.yaml"
RRP = ROOT / "samples" / "rrp-2026.yaml"
AS_OF = date(2026, 6, 23)


@pytest.fixture(scope="module")
def unsigned(tmp_path_factory) -> Path:
    return issue_batch(GRANT, tmp_path_factory.mktemp("plain"), stage="grant", as_of=AS_OF).folder


@pytest.fixture(scope="module")
def signed(tmp_path_factory, signing) -> Path:
    out = tmp_path_factory.mktemp("signed")
    return issue_batch(GRANT, out, stage="grant", as_of=AS_OF, signing=signing).folder


@pytest.fixture(scope="module")
def signed_forms(tmp_path_factory, signing) -> Path:
    out = tmp_path_factory.mktemp("forms")  # the RRP's blank Deferral Election Forms
    return issue_batch(RRP, out, as_of=date(2025, 12, 1), signing=signing).folder


def validate(pdf: bytes, trust: Path):
    from pyhanko.keys import load_cert_from_pemder
    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.validation import validate_pdf_signature
    from pyhanko_certvalidator import ValidationContext

    reader = PdfFileReader(io.BytesIO(pdf))
    context = ValidationContext(trust_roots=[load_cert_from_pemder(str(trust))])
    return validate_pdf_signature(reader.embedded_signatures[0], context)


def certified_for(pdf: bytes):
    from pyhanko.pdf_utils.reader import PdfFileReader

    return PdfFileReader(io.BytesIO(pdf)).embedded_signatures[0].docmdp_level


def test_every_pdf_is_the_unsigned_document_with_a_signature_appended(signed, unsigned):
    manifest = json.loads((signed / "manifest.json").read_text())
    pdfs = sorted(name for name in manifest["files"] if name.endswith(".pdf"))
    assert len(pdfs) == 20
    for name in pdfs:
        entry = manifest["files"][name]
        data = (signed / name).read_bytes()
        plain = (unsigned / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"]
        assert entry["unsigned"] == {
            "sha256": hashlib.sha256(plain).hexdigest(),
            "bytes": len(plain),
        }
        assert data[: len(plain)] == plain  # an incremental update over the very same bytes
        assert len(data) > len(plain)
    for name in manifest["files"]:
        if not name.endswith(".pdf"):
            assert "unsigned" not in manifest["files"][name]  # a DOCX, a report: never signed


def test_an_unsigned_manifest_records_no_unsigned_copy(unsigned):
    manifest = json.loads((unsigned / "manifest.json").read_text())
    assert not any("unsigned" in entry for entry in manifest["files"].values())


def test_a_signed_notice_validates_with_pyhanko_certified_no_changes(signed, pki):
    from pyhanko.sign.fields import MDPPerm
    from pyhanko.sign.validation.status import SignatureCoverageLevel

    notice = (signed / "jsmith" / "notice.pdf").read_bytes()
    status = validate(notice, pki.ca_pem)
    assert status.intact and status.valid and status.trusted
    assert certified_for(notice) == MDPPerm.NO_CHANGES
    assert status.coverage == SignatureCoverageLevel.ENTIRE_FILE
    assert status.signing_cert.serial_number == pki.serial
    assert status.timestamp_validity is not None and status.timestamp_validity.intact


def test_a_signed_notice_validates_with_pdfsig(signed):
    if shutil.which("pdfsig") is None:
        pytest.fail("pdfsig is missing: apt-get install poppler-utils (.ci/run installs it)")
    shown = subprocess.run(
        ["pdfsig", str(signed / "jsmith" / "notice.pdf")], capture_output=True, text=True
    ).stdout
    assert "Signature Validation: Signature is Valid." in shown
    assert "Signer Certificate Common Name: Corporate Secretary" in shown
    assert "Total document signed" in shown


def test_a_blank_form_is_certified_for_form_filling(signed_forms, pki):
    from pyhanko.sign.fields import MDPPerm

    form = (signed_forms / "e1016" / "rrp-election.pdf").read_bytes()
    status = validate(form, pki.ca_pem)
    assert status.intact and status.valid and status.trusted
    assert certified_for(form) == MDPPerm.FILL_FORMS


def test_a_wrong_ca_does_not_trust_it(signed, pki):
    status = validate((signed / "jsmith" / "notice.pdf").read_bytes(), pki.forger_ca_pem)
    assert status.intact and not status.trusted


def test_signing_again_over_a_signed_folder_keeps_it_as_issued(signed, signing):
    before = (signed / "jsmith" / "notice.pdf").read_bytes()
    result = issue_batch(GRANT, signed.parent.parent, stage="grant", as_of=AS_OF, signing=signing)
    assert result.current
    assert (signed / "jsmith" / "notice.pdf").read_bytes() == before


def test_sign_over_an_unsigned_folder_issues_it_signed(tmp_path, signing, unsigned):
    out = tmp_path / "out"
    shutil.copytree(unsigned.parent.parent, out)
    result = issue_batch(GRANT, out, stage="grant", as_of=AS_OF, signing=signing)
    assert not result.current and result.reissue == 1
    manifest = json.loads((result.folder / "manifest.json").read_text())
    assert "unsigned" in manifest["files"]["jsmith/notice.pdf"]
    plain = (unsigned / "jsmith" / "notice.pdf").read_bytes()
    assert (result.folder / "jsmith" / "notice.pdf").read_bytes()[: len(plain)] == plain


# ------------------------------------------------------------------ refusals, through the CLI


def _batch(cli, out: Path, config: Path, monkeypatch, passphrase: str | None = PASSPHRASE):
    if passphrase is None:
        monkeypatch.delenv(PASSPHRASE_ENV, raising=False)
    else:
        monkeypatch.setenv(PASSPHRASE_ENV, passphrase)
    return cli(
        "batch",
        GRANT,
        "--out",
        out,
        "--stage",
        "grant",
        "--as-of",
        "2026-06-23",
        "--sign",
        "--sign-config",
        config,
    )


@pytest.mark.parametrize(
    ("which", "passphrase", "said"),
    [
        ("config", "not it", "the passphrase is wrong"),
        ("config", None, "no passphrase was given"),
        ("expired_config", PASSPHRASE, "expired on"),
        ("no_usage_config", PASSPHRASE, "neither digitalSignature nor nonRepudiation"),
    ],
)
def test_a_key_that_cannot_sign_is_refused_before_anything_is_written(
    cli, pki, tmp_path, monkeypatch, which, passphrase, said
):
    result = _batch(cli, tmp_path / "out", getattr(pki, which), monkeypatch, passphrase)
    assert result.exit_code == 2, result.output
    assert said in result.stderr
    assert "Traceback" not in result.output + result.stderr
    assert not (tmp_path / "out").exists()
    if passphrase:
        assert passphrase not in result.output + result.stderr


def test_sign_needs_a_config(cli, tmp_path, monkeypatch):
    monkeypatch.delenv("DOCGEN_SIGN_CONFIG", raising=False)
    result = cli("batch", GRANT, "--out", tmp_path / "out", "--stage", "grant", "--sign")
    assert result.exit_code == 2
    assert "--sign-config" in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_timestamp_server_that_does_not_answer_issues_nothing(cli, pki, tmp_path, monkeypatch):
    config = tmp_path / "signing.toml"
    config.write_text(
        f'key = "{pki.folder / "company.p12"}"\ntimestamp_url = "http://127.0.0.1:9/"\n'
    )
    result = _batch(cli, tmp_path / "out", config, monkeypatch)
    assert result.exit_code == 2, result.output
    assert "the timestamp server did not answer" in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_signing_config_with_an_unknown_key_is_refused(tmp_path):
    from docgen.issue.signing import SigningRefused

    config = tmp_path / "signing.toml"
    config.write_text('key = "k.p12"\npassphrase = "no"\n')
    with pytest.raises(SigningRefused, match="passphrase: not a signing config key"):
        SigningConfig.read(config)


def test_batch_sign_through_the_cli(cli, pki, tmp_path, monkeypatch):
    result = _batch(cli, tmp_path / "out", pki.config, monkeypatch)
    assert result.exit_code == 0, result.output
    notice = (tmp_path / "out" / "2026-annual" / "grant" / "jsmith" / "notice.pdf").read_bytes()
    assert validate(notice, pki.ca_pem).trusted


def test_a_signed_stage_folder_verifies(cli, signed):
    result = cli("verify", signed)
    assert result.exit_code == 0, result.output
    assert "intact (42 files match manifest.json; 20 documents read back" in result.stdout


def test_render_sign_issues_the_document_signed(cli, pki, tmp_path, monkeypatch):
    monkeypatch.setenv(PASSPHRASE_ENV, PASSPHRASE)
    copy = tmp_path / "jsmith-notice.pdf"
    result = cli(
        "render",
        GRANT,
        "--doc",
        "notice",
        "--for",
        "jsmith",
        "--to",
        "pdf",
        "--out",
        tmp_path / "out",
        "--as-of",
        "2026-06-23",
        "-o",
        copy,
        "--sign",
        "--sign-config",
        pki.config_no_tsa,
    )
    assert result.exit_code == 0, result.output
    status = validate(copy.read_bytes(), pki.ca_pem)
    assert status.intact and status.trusted and status.timestamp_validity is None


def test_sign_config_without_sign_is_refused(cli, pki, tmp_path):
    result = cli("batch", GRANT, "--out", tmp_path / "out", "--sign-config", pki.config)
    assert result.exit_code == 2
    assert "add --sign to sign" in result.stderr


@pytest.mark.parametrize(
    ("target", "mode", "who"),
    [
        ("company.p12", 0o666, "everyone"),
        ("company.p12", 0o660, "its group"),
        (".", 0o777, "everyone"),
    ],
)
def test_a_signing_key_others_may_write_is_refused(cli, pki, tmp_path, target, mode, who):
    keys = tmp_path / "keys"
    keys.mkdir()
    shutil.copyfile(pki.folder / "company.p12", keys / "company.p12")
    (keys / "signing.toml").write_text('key = "company.p12"\n')
    (keys / target).chmod(mode)
    result = cli(
        "batch",
        GRANT,
        "--out",
        tmp_path / "out",
        "--stage",
        "grant",
        "--sign",
        "--sign-config",
        keys / "signing.toml",
    )
    assert result.exit_code == 2, result.output
    said = " ".join(result.stderr.split())
    assert f"may be written by {who}" in said
    assert "could put their own key there" in said and "chmod go-w" in said
    assert not (tmp_path / "out").exists()
    (keys / target).chmod(0o700 if target == "." else 0o600)
