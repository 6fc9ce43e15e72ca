"""pyHanko's signer over the company's key (docgen.issue.signing): an RSA or an ECDSA key signs
a PDF whose signature validates, and the helpers the signing tests share (a blank PDF, a
signature's validation against the test CA)."""

from __future__ import annotations

import io
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric import ec

from docgen.issue.signing import Signing, SigningConfig
from tests.signing_pki import _name, _usage, certificate, module_fixtures, pem

pki_fixture, signing_fixture = module_fixtures()


def test_an_rsa_key_signs_and_the_signature_validates(signing, pki):
    status = _validate(signing.sign_pdf(_blank_pdf(), fillable=False), pki.ca_pem)
    assert status.intact and status.valid and status.trusted


def test_an_ecdsa_key_signs_and_each_signature_validates(tmp_path):
    """ECDSA signatures vary in length from one to the next: each one validates."""
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca_name = _name("EC Root CA", "Test Co")
    ca = certificate(ca_name, ca_key, ca_name, ca_key, ca=True)
    usage = _usage(digital_signature=True, content_commitment=True)
    cert = certificate(_name("EC Secretary", "Test Co"), key, ca_name, ca_key, usage=usage)
    (tmp_path / "ca.pem").write_bytes(pem(ca))
    signing = Signing(SigningConfig(tmp_path / "ec.toml", tmp_path / "ec.pem"), key, cert, [ca])
    sizes = set()
    for _ in range(8):
        pdf = signing.sign_pdf(_blank_pdf(), fillable=True)
        status = _validate(pdf, tmp_path / "ca.pem")
        assert status.intact and status.valid and status.trusted
        sizes.add(len(_signer_info(pdf)["signature"].native))
    assert len(sizes) > 1  # signatures of different lengths, all valid


def _validate(pdf: bytes, trust: Path):
    from pyhanko.keys import load_cert_from_pemder
    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.validation import validate_pdf_signature
    from pyhanko_certvalidator import ValidationContext

    reader = PdfFileReader(io.BytesIO(pdf))
    context = ValidationContext(trust_roots=[load_cert_from_pemder(str(trust))])
    return validate_pdf_signature(reader.embedded_signatures[0], context)


def _signer_info(pdf: bytes):
    from pyhanko.pdf_utils.reader import PdfFileReader

    return PdfFileReader(io.BytesIO(pdf)).embedded_signatures[0].signer_info


def _blank_pdf() -> bytes:
    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(612, 792)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
