"""The validation data written with each signature (docgen.issue.validation_data): a document
security store in the signature's own revision, with the signer's chain up to its root and the
timestamp authority's certificates when they chain to it; none without a root; a chain that does
not validate up to its own root refused before anything is signed (issue 26, B-LT)."""

from __future__ import annotations

import io
import logging
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import serialization

from docgen.issue.signing import SigningConfig, SigningRefused, load
from tests.signing_pki import (
    PASSPHRASE,
    _key,
    _name,
    _usage,
    certificate,
    module_fixtures,
    p12,
    start_tsa,
)
from tests.test_signer import _blank_pdf, _validate

pki_fixture, signing_fixture = module_fixtures()


def stored(pdf: bytes) -> list[str] | None:
    """The common names of the certificates in the PDF's document security store."""
    from asn1crypto import x509 as asn1_x509
    from pyhanko.pdf_utils.reader import PdfFileReader

    root = PdfFileReader(io.BytesIO(pdf)).root
    if "/DSS" not in root:
        return None
    return sorted(
        asn1_x509.Certificate.load(c.get_object().data).subject.native["common_name"]
        for c in root["/DSS"]["/Certs"]
    )


def test_the_store_holds_the_chain_and_the_timestamp_authority_in_the_signed_revision(
    signing, pki, caplog
):
    blank = _blank_pdf()
    with caplog.at_level(logging.WARNING):
        pdf = signing.sign_pdf(blank, fillable=False)
    assert stored(pdf) == ["Corporate Secretary", "Test Co Root CA", "Test Co TSA"]
    assert pdf.count(b"%%EOF") == blank.count(b"%%EOF") + 1  # one update: the signature's
    status = _validate(pdf, pki.ca_pem)
    assert status.intact and status.valid and status.trusted
    assert status.coverage.name == "ENTIRE_FILE"  # the store is inside the /ByteRange
    assert not [r for r in caplog.records if "fetching" in r.getMessage()]


def test_without_a_timestamp_server_the_store_holds_the_chain(pki):
    signing = load(SigningConfig.read(pki.config_no_tsa), PASSPHRASE.encode())
    assert stored(signing.sign_pdf(_blank_pdf(), fillable=True)) == [
        "Corporate Secretary",
        "Test Co Root CA",
    ]


def test_a_chain_without_a_root_writes_no_store(signing, pki, tmp_path):
    """A PEM key with its certificate alone: nothing to anchor validation data, so none (the
    chain is still in the signature)."""
    key = signing.key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    (tmp_path / "key.pem").write_bytes(key)
    (tmp_path / "cert.pem").write_bytes(
        signing.certificate.public_bytes(serialization.Encoding.PEM)
    )
    config = tmp_path / "signing.toml"
    config.write_text('key = "key.pem"\nchain = ["cert.pem"]\n', encoding="utf-8")
    rootless = load(SigningConfig.read(config), None)
    assert rootless.validation is None
    pdf = rootless.sign_pdf(_blank_pdf(), fillable=False)
    assert stored(pdf) is None
    status = _validate(pdf, pki.ca_pem)
    assert status.intact and status.valid


def test_a_certificate_its_own_root_did_not_issue_is_refused(signing, pki, tmp_path):
    forger_ca = x509.load_pem_x509_certificate(pki.forger_ca_pem.read_bytes())
    (tmp_path / "mixed.p12").write_bytes(p12(signing.key, signing.certificate, [forger_ca]))
    config = tmp_path / "mixed.toml"
    config.write_text('key = "mixed.p12"\n', encoding="utf-8")
    with pytest.raises(SigningRefused, match="does not validate up to the root its key file"):
        load(SigningConfig.read(config), PASSPHRASE.encode())


def test_a_timestamp_authority_under_another_root_signs_without_its_certificates(
    pki, tmp_path: Path
):
    other_key, other_name = _key(), _name("Public TSA Root", "Elsewhere")
    tsa_key = _key()
    tsa = certificate(
        _name("Public TSA", "Elsewhere"),
        tsa_key,
        other_name,
        other_key,
        usage=_usage(digital_signature=True, content_commitment=True),
        eku=[x509.oid.ExtendedKeyUsageOID.TIME_STAMPING],
    )
    url, server = start_tsa(tsa, tsa_key)
    try:
        config = tmp_path / "public-tsa.toml"
        key = Path(pki.config).parent / "company.p12"
        config.write_text(f'key = "{key}"\ntimestamp_url = "{url}"\n', encoding="utf-8")
        signing = load(SigningConfig.read(config), PASSPHRASE.encode())
        pdf = signing.sign_pdf(_blank_pdf(), fillable=False)
    finally:
        server.shutdown()
    assert stored(pdf) == ["Corporate Secretary", "Test Co Root CA"]
    assert _validate(pdf, pki.ca_pem).intact
