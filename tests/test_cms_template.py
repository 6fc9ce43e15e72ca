"""The signature container put together from its fixed pieces (docgen.issue.cms_template) is
pyHanko's own, byte for byte, so that signing cheaper weakens nothing: the same PAdES
container, with the same certificates, attributes and signature (issue 26's speed item)."""

from __future__ import annotations

import asyncio
import hashlib
import io
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, padding

from docgen.issue import cms_template
from docgen.issue.cms_template import der
from docgen.issue.signing import Signing, SigningConfig
from tests.signing_pki import _name, _usage, certificate, module_fixtures, pem

pki_fixture, signing_fixture = module_fixtures()


def containers(signer, digest: bytes) -> tuple[bytes, bytes]:
    """The container docgen's signer makes for ``digest`` and the one pyHanko's makes."""
    from pyhanko.sign.signers import SimpleSigner
    from pyhanko.sign.signers.pdf_cms import PdfCMSSignedAttributes

    def made(sign) -> bytes:
        attrs = PdfCMSSignedAttributes()
        return asyncio.run(
            sign(signer, digest, "sha256", use_pades=True, signed_attr_settings=attrs)
        ).dump()

    return made(type(signer).async_sign), made(SimpleSigner.async_sign)


@pytest.mark.parametrize("seed", [b"notice", b"exhibit", b"form"])
def test_the_container_is_pyhankos_own_byte_for_byte(signing, seed):
    signer = signing.signer
    assert signer.template is not None
    ours, pyhankos = containers(signer, hashlib.sha256(seed).digest())
    assert ours == pyhankos  # RSA PKCS #1 v1.5 signatures are deterministic


def test_the_signature_is_over_the_signed_attributes(signing):
    from asn1crypto import cms

    digest = hashlib.sha256(b"a document").digest()
    made, _ = containers(signing.signer, digest)
    info = cms.ContentInfo.load(made)["content"]["signer_infos"][0]
    to_sign = signing.signer.template.signed_attributes(digest)
    signing.certificate.public_key().verify(
        info["signature"].native, to_sign, padding.PKCS1v15(), hashes.SHA256()
    )
    attrs = {a["type"].native: a["values"][0].native for a in info["signed_attrs"]}
    assert attrs["message_digest"] == digest
    assert set(attrs) == {"content_type", "message_digest", "signing_certificate_v2"}


def test_der_lengths_on_their_boundaries():
    assert der(0x04, b"x" * 127)[:2] == b"\x04\x7f"
    assert der(0x04, b"x" * 128)[:3] == b"\x04\x81\x80"
    assert der(0x04, b"x" * 255)[:3] == b"\x04\x81\xff"
    assert der(0x04, b"x" * 256)[:4] == b"\x04\x82\x01\x00"
    assert der(0x30, b"") == b"\x30\x00"


def test_a_template_that_does_not_remake_pyhankos_bytes_is_not_used(signing, pki, monkeypatch):
    """The way back: a signer whose template is refused signs as pyHanko does, validly."""
    monkeypatch.setattr(cms_template.CmsTemplate, "container", lambda self, *a, **k: b"0")
    fresh = Signing(signing.config, signing.key, signing.certificate, signing.chain)
    assert fresh.signer.template is None
    status = _validate(fresh.sign_pdf(_blank_pdf(), fillable=False), pki.ca_pem)
    assert status.intact and status.valid and status.trusted


def test_an_ecdsa_key_signs_through_the_template_and_validates(tmp_path):
    """ECDSA signatures vary in length from one to the next: each container is encoded anew."""
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca_name = _name("EC Root CA", "Test Co")
    ca = certificate(ca_name, ca_key, ca_name, ca_key, ca=True)
    usage = _usage(digital_signature=True, content_commitment=True)
    cert = certificate(_name("EC Secretary", "Test Co"), key, ca_name, ca_key, usage=usage)
    (tmp_path / "ca.pem").write_bytes(pem(ca))
    signing = Signing(SigningConfig(tmp_path / "ec.toml", tmp_path / "ec.pem"), key, cert, [ca])
    assert signing.signer.template is not None
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
