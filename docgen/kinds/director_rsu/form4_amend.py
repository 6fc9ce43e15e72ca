"""A Form 4 redrafted after it was filed is an amendment, a 4/A (DESIGN.md A27): what it reports
compared with the earlier draft (the one the folder held, taken as the one filed), each change in
words for the remarks and the readable copy, and a redraft that changes nothing refused as a
duplicate. The EDGAR Ownership XML Technical Specification (X0508) gives a 4/A the
``documentType`` "4/A" and the ``dateOfOriginalSubmission`` of the Form 4 it amends."""

from __future__ import annotations

from dataclasses import replace
from xml.etree import ElementTree as ET

from docgen.core.drafts import Refusal
from docgen.core.model import fact_path
from docgen.kinds.director_rsu.form4 import Form4Draft

# What a filing reports, by the words a change is told in: the element paths of the ownership
# XML (either table). The remarks, the signature date and the document type are not compared:
# they say when and how the draft was made, not what it reports.
_REPORTED = (
    ("issuer's CIK", "issuer/issuerCik"),
    ("trading symbol", "issuer/issuerTradingSymbol"),
    ("reporting person's CIK", "reportingOwner/reportingOwnerId/rptOwnerCik"),
    ("reporting person's name", "reportingOwner/reportingOwnerId/rptOwnerName"),
    ("street", "reportingOwner/reportingOwnerAddress/rptOwnerStreet1"),
    ("street (second line)", "reportingOwner/reportingOwnerAddress/rptOwnerStreet2"),
    ("city", "reportingOwner/reportingOwnerAddress/rptOwnerCity"),
    ("state", "reportingOwner/reportingOwnerAddress/rptOwnerState"),
    ("ZIP code", "reportingOwner/reportingOwnerAddress/rptOwnerZipCode"),
    ("title of security", ".//securityTitle/value"),
    ("transaction date", ".//transactionDate/value"),
    ("amount", ".//transactionAmounts/transactionShares/value"),
    ("price", ".//transactionAmounts/transactionPricePerShare/value"),
    ("amount owned following the transaction", ".//sharesOwnedFollowingTransaction/value"),
)


def reported(xml: bytes) -> dict[str, str]:
    """What an ownership XML document reports, by the words a change is told in; the table
    (I or II) and each footnote's text included."""
    root = ET.fromstring(xml)
    found = {label: (root.findtext(path) or "").strip() for label, path in _REPORTED}
    found["table"] = "II" if root.find("derivativeTable") is not None else "I"
    for note in root.iter("footnote"):
        found[f"footnote {note.get('id')}"] = " ".join((note.text or "").split())
    return found


def changes(earlier: bytes, now: bytes) -> tuple[str, ...]:
    """Each thing ``now`` reports differently from ``earlier``, in words."""
    before, after = reported(earlier), reported(now)
    told = []
    for label in dict.fromkeys([*before, *after]):
        old, new = before.get(label, ""), after.get(label, "")
        if old != new:
            told.append(f"{label}: {old or '(none)'} -> {new or '(none)'}")
    return tuple(told)


def as_amendment(item: Form4Draft, told: tuple[str, ...] | None) -> Form4Draft:
    """``item`` as the 4/A of the Form 4 filed on ``item.amends``; ``told``: what changed (None:
    no earlier draft to compare with, which the remarks say)."""
    assert item.amends is not None
    filed = item.amends.isoformat()
    if told is None:
        words = (
            f" AMENDMENT (Form 4/A) of the Form 4 filed {filed}: no earlier draft is in the "
            "section16 folder to compare with, so what it changes is not shown; state it here "
            "before filing."
        )
    else:
        words = f" AMENDMENT (Form 4/A) of the Form 4 filed {filed}; it changes: " + "; ".join(told)
        words += "."
    return replace(item, changes=told or (), remarks=item.remarks + words)


def duplicate(item: Form4Draft, index: int) -> Refusal:
    assert item.amends is not None
    return Refusal(
        fact_path("directors", index, "form4_filed_on"),
        f"{item.signature_name}'s Form 4 was filed {item.amends.isoformat()} and this redraft "
        "reports nothing different from the draft in the section16 folder: a 4/A would report "
        "the grant twice",
        "Change the fact that was wrong before redrafting, or draft the others with --only; "
        "remove form4_filed_on only if the Form 4 was never filed.",
        item.subject,
    )
