"""The CMS signature container pyHanko makes for the company's signer, taken apart once into its
fixed DER pieces and put together again for each document (issue 26: signing adds under 10% to
a packet).

A PAdES signature's container differs from one document to the next only in the document's
digest, the signature over the signed attributes and, when a server is configured, the
timestamp token: the certificates, the signer's identifier, the algorithms and the
signing-certificate-v2 attribute are the same every time. pyHanko builds and DER-encodes all of
it again with asn1crypto for every signature (two thirds of a signature's time, the chain's
certificates re-encoded each time). Here pyHanko builds it once, for a digest of its own; the
pieces are cut from that container, and the template is used only if putting them together
again for the same digest and signature gives pyHanko's bytes exactly (else pyHanko builds
every container itself, as before). No signed attribute depends on anything but the digest: a
PAdES baseline signature carries no signing-time attribute (ETSI EN 319 142-1; the signing
time is the signature dictionary's /M) and docgen embeds no revocation data in it.
"""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass
from typing import Any

DIGEST = "sha256"


def der(tag: int, content: bytes) -> bytes:
    """One DER element: its tag, its definite length, its content (X.690, 8.1.3)."""
    size = len(content)
    if size < 0x80:
        return bytes((tag, size)) + content
    length = size.to_bytes((size.bit_length() + 7) // 8, "big")
    return bytes((tag, 0x80 | len(length))) + length + content


@dataclass(frozen=True)
class CmsTemplate:
    """The fixed DER of one signer's SignedData around the three pieces that change."""

    content_type: bytes  # the ContentInfo's OID (signedData)
    signed_data_head: bytes  # version, digestAlgorithms, encapContentInfo, [0] certificates
    signer_head: bytes  # the SignerInfo's version, sid and digestAlgorithm
    attributes_before: bytes  # the signed attributes before the message digest
    digest_type: bytes  # the message-digest attribute's OID
    attributes_after: bytes  # and after it
    signature_algorithm: bytes

    def signed_attributes(self, digest: bytes) -> bytes:
        """The DER the signature is computed over (a SET OF attributes, RFC 5652 5.4)."""
        return der(0x31, self._attributes(digest))

    def container(self, digest: bytes, signature: bytes, unsigned: bytes | None = None) -> bytes:
        """The ContentInfo for ``digest``, signed with ``signature``; ``unsigned``: the unsigned
        attributes' content (the SET's elements without its header), or None."""
        signer = (
            self.signer_head
            + der(0xA0, self._attributes(digest))
            + self.signature_algorithm
            + der(0x04, signature)
            + (der(0xA1, unsigned) if unsigned is not None else b"")
        )
        signed_data = der(0x30, self.signed_data_head + der(0x31, der(0x30, signer)))
        return der(0x30, self.content_type + der(0xA0, signed_data))

    def _attributes(self, digest: bytes) -> bytes:
        attribute = der(0x30, self.digest_type + der(0x31, der(0x04, digest)))
        return self.attributes_before + attribute + self.attributes_after


def template_for(signer: Any) -> CmsTemplate | None:
    """The template of ``signer``'s PAdES containers (SHA-256, no timestamp), or None when the
    pieces do not make pyHanko's container again byte for byte."""
    from asn1crypto import cms
    from pyhanko.sign.signers.pdf_cms import PdfCMSSignedAttributes

    digest = hashlib.sha256(b"docgen CMS template").digest()
    made = asyncio.run(
        signer.async_sign(
            digest, DIGEST, use_pades=True, signed_attr_settings=PdfCMSSignedAttributes()
        )
    ).dump()
    info = cms.ContentInfo.load(made)
    data = info["content"]
    if len(data["signer_infos"]) != 1 or data["crls"].dump():
        return None
    signer_info = data["signer_infos"][0]
    attributes = list(signer_info["signed_attrs"])
    kinds = [a["type"].native for a in attributes]
    if kinds.count("message_digest") != 1 or signer_info["unsigned_attrs"].dump():
        return None
    at = kinds.index("message_digest")
    template = CmsTemplate(
        content_type=info["content_type"].dump(),
        signed_data_head=b"".join(
            data[name].dump()
            for name in ("version", "digest_algorithms", "encap_content_info", "certificates")
        ),
        signer_head=b"".join(
            signer_info[name].dump() for name in ("version", "sid", "digest_algorithm")
        ),
        attributes_before=b"".join(a.dump() for a in attributes[:at]),
        digest_type=attributes[at]["type"].dump(),
        attributes_after=b"".join(a.dump() for a in attributes[at + 1 :]),
        signature_algorithm=signer_info["signature_algorithm"].dump(),
    )
    again = template.container(digest, signer_info["signature"].native)
    return template if again == made else None
