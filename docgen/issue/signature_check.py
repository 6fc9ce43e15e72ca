"""Who certified a PDF, and whether it still holds (DESIGN.md, "Signed documents"): the company's
certification read with pyHanko, for `docgen verify FILE.pdf` and for intake.

A signed document's first signature is the company's certification: its signer's certificate
(subject, issuer, serial), the signing time it claims, the RFC 3161 timestamp when there is one,
whether the signed bytes are intact, what changed after signing (pyHanko's difference analysis,
judged against the certification's DocMDP level) and, given the company's trust anchor, whether
the certificate chains to it. The revision it signed (the unsigned document docgen made) is cut
out here, to be compared with what docgen makes from the record it carries.
"""

from __future__ import annotations

import io
import logging
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from docgen.core.errors import DocgenError
from docgen.core.safe_open import read_regular, unreadable

_EOF = re.compile(rb"%%EOF(\r\n|\r|\n)?")


class TrustAnchorUnreadable(DocgenError):
    """`--trust CA.pem` names no certificate docgen can read. Exit code 2."""


@dataclass
class Certification:
    """The company's certification of one PDF, as read and judged."""

    signer: str  # the certificate's subject
    issuer: str
    serial: int
    signed_at: datetime | None  # the time the signer's computer claimed
    timestamp: datetime | None  # the RFC 3161 timestamp's time, when there is one
    timestamp_by: str | None
    permits: str  # "no changes", "form filling" or "form filling and annotations"
    intact: bool  # the signed bytes are as signed, and the signature is the signer's
    changes: str | None  # what changed after signing, when anything did
    changes_allowed: bool  # ... and whether the certification allows it
    trusted: bool | None  # chains to --trust (None: no trust anchor given)
    trust_anchor: str | None
    signed_revision: bytes  # the document as it was signed (what docgen made)
    unsigned: bytes | None  # the revision before the signature: the document docgen made
    signatures: int = 1
    problems: list[str] = field(default_factory=list)
    trailing: int = 0  # bytes after the last revision's %%EOF: in no revision, never checked

    @property
    def holds(self) -> bool:
        return not self.problems

    def describe(self) -> str:
        when = f"signed {self.signed_at:%Y-%m-%d %H:%M:%S %Z}".rstrip() if self.signed_at else ""
        stamp = (
            f"timestamp {self.timestamp:%Y-%m-%d %H:%M:%S %Z} by {self.timestamp_by}".rstrip()
            if self.timestamp
            else "no timestamp (the signing time is the signer's own claim)"
        )
        return (
            f"certified by {self.signer} (issuer {self.issuer}, serial {self.serial:X}), "
            f"{when}; {stamp}; allows {self.permits} after signing"
        )


_PERMITS = {1: "no changes", 2: "form filling", 3: "form filling and annotations"}
_CHANGES = {
    "LTA_UPDATES": "validation data or document timestamps added",
    "FORM_FILLING": "form fields filled in",
    "ANNOTATIONS": "annotations added",
    "OTHER": "the document changed in other ways (content, structure or its record)",
}


def is_signed(data: bytes) -> bool:
    """Whether the PDF holds a signature at all (cheaply: its signature dictionary's keys)."""
    return b"/ByteRange" in data and (b"/Sig" in data or b"/DocTimeStamp" in data)


def read_trust(path: str | Path | None) -> list[Any]:
    """The trust anchors a PEM (or DER) file holds, as pyHanko's certificates."""
    if path is None:
        return []
    from asn1crypto import pem
    from asn1crypto import x509 as asn1_x509

    path = Path(path)
    try:
        data = read_regular(path)  # a FIFO would block the read: refused unopened
    except OSError as error:
        raise TrustAnchorUnreadable(
            f"--trust {path}: cannot be read ({unreadable(error)}). Name the company's CA "
            "certificate (PEM)."
        ) from None
    try:
        if pem.detect(data):
            return [asn1_x509.Certificate.load(der) for _, _, der in pem.unarmor(data, True)]
        return [asn1_x509.Certificate.load(data)]
    except ValueError as error:
        raise TrustAnchorUnreadable(f"--trust {path}: not a certificate ({error}).") from None


def _names(certificate: Any) -> tuple[str, str]:
    """A certificate's subject and issuer as RFC 4514 writes them (CN=Corporate Secretary,O=...)."""
    from cryptography import x509

    loaded = x509.load_der_x509_certificate(certificate.dump())
    return loaded.subject.rfc4514_string(), loaded.issuer.rfc4514_string()


def _unsigned_revision(reader: Any, data: bytes, revision: int) -> bytes | None:
    """The bytes of the revision before ``revision``: the file as it was before it was signed."""
    if revision < 1:
        return None
    end = reader.xrefs.get_xref_container_info(revision - 1).end_location
    found = _EOF.search(data, end)
    return data[: found.end()] if found else None


# What may follow a revision's %%EOF without being content: line ends, spaces, NUL padding.
_PADDING = b"\r\n\t \x00"


def _trailing(reader: Any, data: bytes) -> int:
    """How many bytes follow the end of the file's last revision (its %%EOF) that are not
    padding: bytes no revision holds, which no signature or difference analysis covers."""
    last = reader.xrefs.total_revisions - 1
    end = reader.xrefs.get_xref_container_info(last).end_location
    found = _EOF.search(data, end)
    after = data[found.end() :] if found else data[end:]
    return len(after) if after.strip(_PADDING) else 0


def certification(
    data: bytes, trust: list[Any] | None = None, trust_anchor: str | None = None, policy=None
) -> Certification | None:
    """The company's certification of ``data`` (its first signature), judged; None when the PDF
    is not signed. ``policy``: the difference policy (pyHanko's default when None)."""
    from pyhanko.pdf_utils.misc import PdfReadError
    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.validation import validate_pdf_signature
    from pyhanko_certvalidator import ValidationContext

    if not is_signed(data):
        return None
    _quiet_pyhanko()
    try:
        reader = PdfFileReader(io.BytesIO(data), strict=False)
        signatures = reader.embedded_signatures
    except (PdfReadError, ValueError, KeyError) as error:
        raise CertificationUnreadable(f"its signature cannot be read ({error})") from None
    if not signatures:
        return None
    embedded = signatures[0]
    context = ValidationContext(trust_roots=trust or [], allow_fetching=False)
    options: dict[str, Any] = {"diff_policy": policy} if policy is not None else {}
    try:
        status = validate_pdf_signature(embedded, context, **options)
    except Exception as error:  # pyHanko's validation errors are of many classes
        raise CertificationUnreadable(f"its signature cannot be checked ({error})") from None
    cert = status.signing_cert
    level = embedded.docmdp_level
    stamp = status.timestamp_validity
    modification = status.modification_level
    changed = modification is not None and modification.name != "NONE"
    signer, issuer = _names(cert)
    check = Certification(
        signer=signer,
        issuer=issuer,
        serial=cert.serial_number,
        signed_at=status.signer_reported_dt,
        timestamp=stamp.timestamp if stamp is not None else None,
        timestamp_by=_names(stamp.signing_cert)[0] if stamp is not None else None,
        permits=_PERMITS.get(level.value if level is not None else 0, "any change"),
        intact=bool(status.intact and status.valid),
        changes=_changes(modification, status.diff_result) if changed else None,
        changes_allowed=not changed or bool(status.docmdp_ok),
        trusted=bool(status.trusted) if trust else None,
        trust_anchor=trust_anchor,
        signed_revision=data[: sum(list(embedded.byte_range)[2:])],
        unsigned=_unsigned_revision(reader, data, embedded.signed_revision),
        signatures=len(signatures),
        trailing=_trailing(reader, data),
    )
    check.problems = _problems(check, status)
    return check


def _changes(modification: Any, diff: Any) -> str:
    """What changed after signing, in words, with the difference analysis's own reason when it
    rejected a change (its first line, shortened)."""
    said = _CHANGES.get(modification.name, modification.name)
    if isinstance(diff, Exception) and str(diff).strip():
        reason = str(diff).strip().splitlines()[0]
        said += f": {reason[:157] + '...' if len(reason) > 160 else reason}"
    return said


def _quiet_pyhanko() -> None:
    """pyHanko logs what its difference analysis rejects, with a traceback; docgen says it in
    its own words (a user sees no traceback)."""
    logger = logging.getLogger("pyhanko")
    if not logger.handlers:
        logger.addHandler(logging.NullHandler())
        logger.propagate = False


class CertificationUnreadable(DocgenError):
    """A signed PDF whose signature cannot be read or checked. Exit code 1 (not verified)."""

    exit_code = 1


def _problems(check: Certification, status: Any) -> list[str]:
    problems = []
    if not check.intact:
        problems.append(
            "the signed bytes were changed after signing, or the signature is not the "
            "certificate's: the certification is broken"
        )
    if check.changes and not check.changes_allowed:
        problems.append(
            f"changed after signing: {check.changes}, which the certification (it allows "
            f"{check.permits}) does not allow"
        )
    elif check.changes and check.changes_allowed:
        pass  # reported in the summary, allowed
    if check.trailing:
        problems.append(
            f"{check.trailing:,} bytes were appended after the file's last %%EOF: they belong "
            "to no revision, so neither the signature nor the check of what changed after "
            "signing covers them; the file is not as signed"
        )
    if check.trusted is False:
        problems.append(
            f"the signer's certificate ({check.signer}, issuer {check.issuer}) does not chain "
            f"to the trust anchor {check.trust_anchor}: not shown to be the company's"
        )
    if check.timestamp is not None and status.timestamp_validity is not None:
        if not status.timestamp_validity.intact:
            problems.append("its timestamp does not match the signature")
    return problems
