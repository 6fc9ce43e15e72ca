"""A Form 4 draft as an EDGAR ownership XML document (the SEC's EDGAR Ownership XML Technical
Specification, schema X0508, document type 4, or 4/A for an amendment): the elements in the
schema's order, every value from the draft (docgen.kinds.director_rsu.form4), no filer
credentials (no CCC, no passphrase: they are never facts). The same draft gives the same bytes."""

from __future__ import annotations

from decimal import Decimal
from xml.etree import ElementTree as ET

from docgen.kinds.director_rsu.form4 import SCHEMA_VERSION, SHARES_TITLE, Form4Draft


def _add(parent: ET.Element, tag: str, text: str | None = None) -> ET.Element:
    element = ET.SubElement(parent, tag)
    if text is not None:
        element.text = text
    return element


def _value(parent: ET.Element, tag: str, text: str, *notes: str) -> ET.Element:
    """``<tag><value>text</value><footnoteId id=.../></tag>``, the spec's value-with-footnotes."""
    element = _add(parent, tag)
    _add(element, "value", text)
    for note in notes:
        ET.SubElement(element, "footnoteId", id=note)
    return element


def _notes_only(parent: ET.Element, tag: str, *notes: str) -> ET.Element:
    element = _add(parent, tag)
    for note in notes:
        ET.SubElement(element, "footnoteId", id=note)
    return element


def _number(value: Decimal | int) -> str:
    text = format(Decimal(value).normalize(), "f")
    return "0" if text in ("-0", "0.0") else text


def _coding(parent: ET.Element, draft: Form4Draft) -> None:
    coding = _add(parent, "transactionCoding")
    _add(coding, "transactionFormType", "4")
    _add(coding, "transactionCode", "A")
    _add(coding, "equitySwapInvolved", "0")
    ET.SubElement(coding, "footnoteId", id=draft.exemption_note)


def _amounts(parent: ET.Element, draft: Form4Draft) -> None:
    amounts = _add(parent, "transactionAmounts")
    _value(amounts, "transactionShares", str(draft.units))
    _value(amounts, "transactionPricePerShare", _number(draft.price))
    _value(amounts, "transactionAcquiredDisposedCode", "A")


def _after(parent: ET.Element, draft: Form4Draft) -> None:
    post = _add(parent, "postTransactionAmounts")
    if draft.owned_after is None:
        assert draft.owned_after_note is not None
        _notes_only(post, "sharesOwnedFollowingTransaction", draft.owned_after_note)
    else:
        _value(post, "sharesOwnedFollowingTransaction", str(draft.owned_after))
    nature = _add(parent, "ownershipNature")
    _value(nature, "directOrIndirectOwnership", "D")


def _table_i(root: ET.Element, draft: Form4Draft) -> None:
    table = _add(root, "nonDerivativeTable")
    row = _add(table, "nonDerivativeTransaction")
    _value(row, "securityTitle", draft.security_title, *draft.terms_notes)
    _value(row, "transactionDate", draft.transaction_date.isoformat())
    _coding(row, draft)
    _amounts(row, draft)
    _after(row, draft)


def _table_ii(root: ET.Element, draft: Form4Draft) -> None:
    table = _add(root, "derivativeTable")
    row = _add(table, "derivativeTransaction")
    _value(row, "securityTitle", draft.security_title)
    _notes_only(row, "conversionOrExercisePrice", draft.exemption_note)
    _value(row, "transactionDate", draft.transaction_date.isoformat())
    _coding(row, draft)
    _amounts(row, draft)
    _notes_only(row, "exerciseDate", *draft.terms_notes)
    _notes_only(row, "expirationDate", *draft.terms_notes)
    underlying = _add(row, "underlyingSecurity")
    _value(underlying, "underlyingSecurityTitle", SHARES_TITLE)
    _value(underlying, "underlyingSecurityShares", str(draft.units))
    _after(row, draft)


def form4_xml(draft: Form4Draft) -> bytes:
    """The draft as an ownership XML document, UTF-8, with its XML declaration."""
    root = ET.Element("ownershipDocument")
    _add(root, "schemaVersion", SCHEMA_VERSION)
    _add(root, "documentType", draft.document_type)
    _add(root, "periodOfReport", draft.transaction_date.isoformat())
    if draft.amends is not None:  # a 4/A: the Form 4 it amends (X0508, after periodOfReport)
        _add(root, "dateOfOriginalSubmission", draft.amends.isoformat())
    _add(root, "notSubjectToSection16", "0" if draft.left_on is None else "1")
    issuer = _add(root, "issuer")
    _add(issuer, "issuerCik", draft.issuer_cik)
    _add(issuer, "issuerName", draft.issuer_name)
    _add(issuer, "issuerTradingSymbol", draft.trading_symbol)
    owner = _add(root, "reportingOwner")
    identity = _add(owner, "reportingOwnerId")
    _add(identity, "rptOwnerCik", draft.owner_cik)
    _add(identity, "rptOwnerName", draft.owner_name)
    address = _add(owner, "reportingOwnerAddress")
    _add(address, "rptOwnerStreet1", draft.address.street1)
    _add(address, "rptOwnerStreet2", draft.address.street2)
    _add(address, "rptOwnerCity", draft.address.city)
    _add(address, "rptOwnerState", draft.address.state)
    _add(address, "rptOwnerZipCode", draft.address.zip_code)
    if draft.address.state_description:
        _add(address, "rptOwnerStateDescription", draft.address.state_description)
    relationship = _add(owner, "reportingOwnerRelationship")
    _add(relationship, "isDirector", "1")
    _add(relationship, "isOfficer", "0")
    _add(relationship, "isTenPercentOwner", "0")
    _add(relationship, "isOther", "0")
    _add(root, "aff10b5One", "0")  # a grant is not a trade under a Rule 10b5-1(c) plan
    (_table_i if draft.table == "I" else _table_ii)(root, draft)
    footnotes = _add(root, "footnotes")
    for note in draft.footnotes:
        _add(footnotes, "footnote", note.text).set("id", note.id)
    _add(root, "remarks", draft.remarks)
    signature = _add(root, "ownerSignature")
    _add(signature, "signatureName", draft.signature_name)
    _add(signature, "signatureDate", draft.signature_date.isoformat())
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"
