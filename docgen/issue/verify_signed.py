"""`docgen verify FILE.pdf [--trust CA.pem]`: who made one document, and whether it is still what
they made (DESIGN.md, "Signed documents").

A signed file: the company's certification is read and judged (docgen.issue.signature_check),
then the revision it signed is compared with what docgen makes from the record it carries
(docgen.issue.verify_file). It verifies (exit 0) only when the signature is intact, nothing the
certification forbids changed after it, the certificate chains to the trust anchor when one is
named, and the signed revision is what docgen makes. An unsigned file is checked against its own
record, and said to prove nothing about who made it; with ``--trust`` it fails, as nothing in it
can be checked against a trust anchor.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from docgen.core.errors import VerifyFailed
from docgen.issue.signature_check import (
    Certification,
    CertificationUnreadable,
    certification,
    read_trust,
)
from docgen.issue.verify_file import FileCheck, NotAnIssuedFile, read_issued_pdf, verify_file

NOT_RELIED_ON = (
    "not shown to be the document the company issued; do not rely on this copy. Ask for the "
    "copy in the issued folder (docgen verify DIR checks it there)."
)


@dataclass
class SignedFileCheck:
    """What `docgen verify FILE.pdf` found in a signed file that verifies."""

    path: Path
    certification: Certification
    made: FileCheck  # the signed revision compared with docgen's remake

    @property
    def summary(self) -> str:
        check, record = self.certification, self.made.record.data
        trust = (
            f"its certificate chains to the trust anchor {check.trust_anchor}"
            if check.trusted
            else "its certificate was not checked against a trust anchor (name the company's "
            "CA with --trust CA.pem to know the signer is the company)"
        )
        after = (
            "nothing changed after signing"
            if check.changes is None
            else f"after signing: {check.changes}, which the certification allows"
        )
        compared = "these very bytes" if self.made.compared == "bytes" else "the same text"
        return (
            f"{self.path}: {check.describe()}. The signature is intact; {after}; {trust}. "
            f"The revision it signed is what docgen makes from the record it carries: "
            f"{compared} ({record['document']} for {record['subject']}, {record['cycle']}, "
            f"stage {record['stage']}, as of {record['as_of']})."
            + ("" if self.made.compared == "bytes" else " " + " ".join(self.made.notes))
        )


def _refused(path: Path, reasons: list[str]) -> VerifyFailed:
    return VerifyFailed("\n".join(f"{path}: {r}" for r in reasons) + f"\n{path}: {NOT_RELIED_ON}")


def verify_pdf(path: str | Path, trust: str | Path | None = None) -> FileCheck | SignedFileCheck:
    """One issued PDF: its certification judged when signed, and the document compared with
    what docgen makes from its record. Raises VerifyFailed (exit 1) with every reason."""
    path = Path(path)
    if not path.is_file():
        return verify_file(path)  # says there is no such file (exit 2)
    anchors = read_trust(trust)
    data = read_issued_pdf(path)  # never more than an issued document can be
    try:
        check = certification(data, anchors, str(trust) if trust else None)
    except CertificationUnreadable as error:
        raise _refused(path, [f"signed, but {error}"]) from None
    if check is None:
        if trust is not None:
            raise _refused(
                path,
                [
                    f"not signed: nothing in it says who made it, so --trust {trust} cannot be "
                    "checked (it is only consistent with the record it carries, if that)"
                ],
            )
        return verify_file(path)
    reasons = [f"{check.describe()}.", *check.problems]
    if check.unsigned is None:
        raise _refused(path, [*reasons, "the signature covers no document docgen made"])
    try:
        made = verify_file(path, data=check.unsigned)
    except NotAnIssuedFile:
        raise
    except VerifyFailed as error:
        said = [line.split(": ", 1)[-1] for line in str(error).splitlines()[:-1]]
        raise _refused(path, [*reasons, *(f"the revision it signed: {s}" for s in said)]) from None
    if check.problems:
        raise _refused(path, reasons)
    return SignedFileCheck(path, check, made)
