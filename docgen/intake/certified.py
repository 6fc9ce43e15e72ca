"""A returned form checked against the company's certification (DESIGN.md, "Signed documents").

A blank form issued with `batch --sign` is certified for form filling: its signer may fill it in
and nothing more. When such a form comes back, intake checks that the certification still holds
(the certified revision intact, and only form filling after it, judged by
docgen.issue.form_filling_policy), reads the form's identity from the certified revision (a pypdf
fill writes no /Info in its new trailer) and refuses a form whose identity keys or pages differ
from the certified revision's. A form that was never certified (a scan, a re-typed form, one
issued unsigned) goes through as it always has.
"""

from __future__ import annotations

import io
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docgen.core.errors import Problem
from docgen.intake.record import FormsRefused
from docgen.issue.form_filling_policy import form_filling_policy
from docgen.issue.signature_check import (
    Certification,
    CertificationUnreadable,
    TrustAnchorUnreadable,
    certification,
    read_trust,
)
from docgen.issue.signing import CONFIG_ENV, SigningConfig, SigningRefused
from docgen.render.form_format import INFO_KEYS

FIX = (
    "Ask the signer for the form as they filled it in, or record what the paper says with "
    "`docgen elect`."
)


@dataclass(frozen=True)
class CompanyCa:
    """The company's CA, to check a returned form's certification against: its certificates
    (pyHanko's) and where they were read from (for messages); none when nothing names it."""

    certificates: tuple[Any, ...] = ()
    source: str | None = None


def company_ca(trust: str | Path | None = None, sign_config: str | Path | None = None) -> CompanyCa:
    """The company's CA: ``--trust`` when given, else the ``chain`` files of the signing config
    (``--sign-config``, else DOCGEN_SIGN_CONFIG); none when neither names one. A named file that
    cannot be read is refused (exit 2), never taken as no CA at all."""
    if trust is not None:
        return CompanyCa(tuple(read_trust(trust)), str(trust))
    named = sign_config or os.environ.get(CONFIG_ENV)
    if not named:
        return CompanyCa()
    try:
        config = SigningConfig.read(named)
    except SigningRefused as error:
        raise TrustAnchorUnreadable(str(error)) from None
    anchors: list[Any] = []
    for path in config.chain:
        anchors.extend(read_trust(path))
    if not anchors:
        return CompanyCa()
    return CompanyCa(tuple(anchors), ", ".join(str(path) for path in config.chain))


@dataclass(frozen=True)
class CertifiedReturn:
    """A returned form the company certified, its certification holding."""

    certification: Certification

    @property
    def revision(self) -> bytes:
        """The form as the company certified it (the blank form it issued)."""
        return self.certification.signed_revision

    def note(self, shown: str) -> str:
        check = self.certification
        filled = "filled in after it" if check.changes else "nothing changed after it"
        if check.trusted:
            return (
                f"{shown}: the company's certification holds ({check.describe()}, chaining to "
                f"the company's CA {check.trust_anchor}; {filled}, which it allows)."
            )
        # No anchor: who signed it is the certificate's own say; it reads like the company's
        # name but was not shown to be the company's key.
        return (
            f"{shown}: certified by {check.signer} (not checked against the company's CA: give "
            f"--trust CA.pem or a signing config with its chain); the certification holds "
            f"({check.describe()}; {filled}, which it allows)."
        )


def _refused(shown: str, what: str, field: str = "") -> FormsRefused:
    return FormsRefused([Problem(shown, None, field, what, fix=FIX)])


def certified_return(
    data: bytes, shown: str, company: CompanyCa | None = None
) -> CertifiedReturn | None:
    """The form's certification, checked: None for a form that was never certified; refused
    (exit 2) when the certified revision was altered, more than form filling followed it, or
    (given the company's CA) its certificate does not chain to that CA."""
    company = company or CompanyCa()
    try:
        check = certification(
            data,
            trust=list(company.certificates) or None,
            trust_anchor=company.source,
            policy=form_filling_policy(),
        )
    except CertificationUnreadable as error:
        raise _refused(shown, f"signed, but {error}") from None
    if check is None:
        return None
    if not check.intact:
        raise _refused(
            shown,
            "the form the company certified was altered after it was issued (its certified "
            "revision does not match the certification)",
        )
    if check.changes and not check.changes_allowed:
        raise _refused(
            shown,
            f"changed after the company certified it, beyond filling in the form: {check.changes}",
        )
    if check.trusted is False:
        raise _refused(
            shown,
            f"certified by {check.signer} (issuer {check.issuer}), whose certificate does not "
            f"chain to the company's CA {check.trust_anchor}: not the company's certification, "
            "however its name reads",
        )
    return CertifiedReturn(check)


def same_form(certified: CertifiedReturn, data: bytes, shown: str) -> None:
    """Refuse a form whose identity keys or pages are not the certified revision's."""
    from pypdf import PdfReader

    before = PdfReader(io.BytesIO(certified.revision))
    after = PdfReader(io.BytesIO(data))
    was: Any = before.metadata or {}
    now: Any = after.metadata or {}
    for key, info in INFO_KEYS.items():
        if info in now and str(now[info]) != str(was.get(info)):
            raise _refused(
                shown,
                f"its identity was changed after the company certified it: {info[1:]} is "
                f"{str(now[info])!r}, the certified form's is {str(was.get(info))!r}",
                field=key,
            )
    if len(before.pages) != len(after.pages):
        raise _refused(
            shown,
            f"it has {len(after.pages)} pages; the form the company certified has "
            f"{len(before.pages)}",
        )
    for number, (old, new) in enumerate(zip(before.pages, after.pages, strict=True), start=1):
        if _page(old) != _page(new):
            raise _refused(
                shown,
                f"page {number} is not the page the company certified (its content or size "
                "changed)",
            )


def _page(page) -> tuple[bytes, list[float]]:
    contents = page.get_contents()
    return (contents.get_data() if contents is not None else b""), [float(v) for v in page.mediabox]
