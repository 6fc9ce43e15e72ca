"""The validation data written with each signature (PAdES B-LT, ETSI EN 319 142-1: a document
security store, /DSS, holding what a later reader needs to check the signature without
asking anyone): the certificates of the signer's chain up to its root and, with a timestamp, the
timestamp authority's.

The store is written in the signature's own revision, before the signature is computed (pyHanko's
DSS placement "together with the signature", without VRI entries, which would need the finished
signature): the /ByteRange then covers the whole file but the signature value, as PDF/A-3b wants
(ISO 19005-3, 6.4.3 via 19005-2); pyHanko's default, a second incremental update after the
signature, fails PDF/A-3b (page-validation's PDFA3B-SIGNATURE-BYTERANGE-001).

Only what the company's key file holds goes in: the data is there when the chain ends in a root
(a self-signed certificate); without one there is nothing to anchor it and the store is not
written. Revocation data (CRLs, OCSP responses) is not fetched, as docgen reaches no network but
the timestamp server (checks/NOT_ENCODED.md). A timestamp authority's certificates go in only
if they chain to the company's root; a public authority's token carries its own certificate.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from cryptography.exceptions import InvalidSignature


def validation_context(certificate: Any, chain: list[Any]) -> Any | None:
    """pyHanko's validation context over the key file's chain (cryptography certificates), its
    self-signed certificates the roots; None when the chain holds no root."""
    from asn1crypto import x509 as asn1_x509
    from cryptography.hazmat.primitives.serialization import Encoding
    from pyhanko_certvalidator import ValidationContext

    roots = [c for c in chain if _self_signed(c)]
    if not roots:
        return None
    der = [asn1_x509.Certificate.load(c.public_bytes(Encoding.DER)) for c in chain]
    return ValidationContext(
        trust_roots=[d for c, d in zip(chain, der, strict=True) if c in roots],
        other_certs=[d for c, d in zip(chain, der, strict=True) if c not in roots],
        allow_fetching=False,
        revocation_mode="soft-fail",
    )


def _self_signed(certificate: Any) -> bool:
    """Issued by itself: its subject its issuer, its signature its own key's."""
    if certificate.subject != certificate.issuer:
        return False
    try:
        certificate.verify_directly_issued_by(certificate)
    except (ValueError, TypeError, InvalidSignature):
        return False
    return True


def chain_problem(context: Any, signer: Any) -> str | None:
    """Why the signer's certificate (pyHanko's signer) does not validate up to the key file's
    root, or None when it does."""
    from pyhanko_certvalidator import CertificateValidator
    from pyhanko_certvalidator.errors import PathBuildingError, PathValidationError

    validator = CertificateValidator(
        signer.signing_cert,
        intermediate_certs=signer.cert_registry,
        validation_context=context,
    )
    try:
        asyncio.run(validator.async_validate_usage(set()))
    except (PathBuildingError, PathValidationError) as error:
        return str(error)
    return None


class _NotFetching(logging.Filter):
    """pyHanko warns at every signature that revocation data is not fetched: docgen means it
    not to be (the module's docstring), and a secretary's terminal is no place for the warning."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "fetching is not allowed" not in record.getMessage()


def signature_settings(context: Any) -> dict[str, Any]:
    """What PdfSignatureMetadata needs to write the store with the signature. The key usage is
    docgen's own check (docgen.issue.signing: digitalSignature or nonRepudiation), not pyHanko's
    default of nonRepudiation alone."""
    from pyhanko.sign.signers.pdf_signer import DSSContentSettings, SigDSSPlacementPreference

    logger = logging.getLogger("pyhanko.sign.signers.pdf_signer")
    if not any(isinstance(f, _NotFetching) for f in logger.filters):
        logger.addFilter(_NotFetching())

    return {
        "embed_validation_info": True,
        "validation_context": context,
        "signer_key_usage": set(),
        "dss_settings": DSSContentSettings(
            placement=SigDSSPlacementPreference.TOGETHER_WITH_SIGNATURE, include_vri=False
        ),
    }


async def chained_paths(paths: Any) -> Any:
    """A timestamp authority's validation paths, none when its certificate does not chain to
    the company's root (its token still carries its certificate)."""
    from pyhanko_certvalidator.errors import PathBuildingError, PathValidationError

    found = []
    try:
        async for path in paths:
            found.append(path)
    except (PathBuildingError, PathValidationError):
        return
    for path in found:
        yield path
