"""A director's Form 4 for the grant, as a draft (DESIGN.md, "After the grant: Form 4 drafts"):
the facts a Form 4 reports, taken from the grant's facts, with the footnotes that say what the
Notice says (the Rule 16b-3(d) exemption, the vesting terms, the deferral terms).

Nothing here is guessed: a fact a Form 4 needs that the facts file does not give (the CIKs, the
trading symbol, the table the company reports RSUs in, an address EDGAR can take) is a problem
naming its field, and `docgen section16` writes nothing until each is given.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from docgen.core.business_days import UncoveredYear, form4_due
from docgen.core.dates import long_date
from docgen.core.drafts import MissingFact
from docgen.core.model import fact_path
from docgen.kinds.director_rsu.facts import Director, DirectorGrantFacts
from docgen.kinds.director_rsu.settlement import grant_not_made, service_ended_on
from docgen.kinds.director_rsu.terms import (
    default_payment_date,
    effective_election,
    scheduled_vesting_date,
    specified_date,
)

SCHEMA_VERSION = "X0508"  # EDGAR Ownership XML Technical Specification, version 5.8
SHARES_TITLE = "Common Stock"
UNITS_TITLE = "Restricted Stock Units"
# "Richmond, VA 23220" or "Richmond VA 23220-1234": the last address line, as EDGAR splits it.
_CITY_LINE = re.compile(r"^(?P<city>.+?),?\s+(?P<state>[A-Z]{2})\s+(?P<zip>\d{5}(?:-\d{4})?)$")
_ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}
_EVENTS = {"death": "death", "disability": "Disability", "change_of_control": "a Change of Control"}


@dataclass(frozen=True)
class Address:
    street1: str
    street2: str
    city: str
    state: str
    zip_code: str
    state_description: str = ""  # a foreign address's country, in words


@dataclass(frozen=True)
class Footnote:
    id: str
    text: str


@dataclass(frozen=True)
class Form4Draft:
    """Everything one director's Form 4 for the grant reports, in the words it reports them."""

    subject: str
    issuer_cik: str
    issuer_name: str
    trading_symbol: str
    owner_cik: str
    owner_name: str
    address: Address
    table: str  # "I" or "II"
    security_title: str
    transaction_date: date
    units: int
    price: Decimal
    owned_after: int | None
    footnotes: tuple[Footnote, ...]
    exemption_note: str  # the footnote id on the transaction code
    terms_notes: tuple[str, ...]  # the footnote ids on the exercise and expiration dates / title
    owned_after_note: str | None
    signature_name: str
    signature_date: date
    due: date | None
    remarks: str
    # A 4/A (DESIGN.md A27): the day the Form 4 it amends was filed, and what it changes.
    amends: date | None = None
    changes: tuple[str, ...] = ()
    # The Form 4's box "Check this box if no longer subject to Section 16": the day the
    # director's service ended, when it ended by the day drafted (DESIGN.md A27).
    left_on: date | None = None

    @property
    def document_type(self) -> str:
        return "4" if self.amends is None else "4/A"


def _cik(value: str) -> str:
    return value.zfill(10)


def missing_facts(facts: DirectorGrantFacts) -> list[MissingFact]:
    """Each fact a Form 4 draft needs that ``facts`` does not give, by its field path."""
    company = facts.company
    missing = []
    if company.cik is None:
        missing.append(
            MissingFact("company.cik", "the issuer's CIK", 'Add company.cik: "0001234567".')
        )
    if company.trading_symbol is None:
        missing.append(
            MissingFact(
                "company.trading_symbol",
                "the issuer's trading symbol",
                "Add company.trading_symbol as the exchange lists it, e.g. ABC.",
            )
        )
    if company.form4_table is None:
        missing.append(
            MissingFact(
                "company.form4_table",
                "which Form 4 table reports the RSUs",
                'Add company.form4_table: "I" (as shares of common stock) or "II" (as '
                "derivative securities); counsel decides, docgen never guesses.",
            )
        )
    for index, director in enumerate(facts.directors):
        if grant_not_made(facts, director) is not None:
            continue  # no grant, no Form 4 (RSU-SERVICE-ENDED-BEFORE-GRANT)
        if director.cik is None:
            missing.append(
                MissingFact(
                    fact_path("directors", index, "cik"),
                    f"{director.name}'s CIK",
                    'Add the director\'s cik: "0001234567" (EDGAR; never the CCC or passphrase).',
                )
            )
        if company.form4_address == "company":
            continue  # the company's address, checked once below
        if owner_address(director) is None:
            missing.append(
                MissingFact(
                    fact_path("directors", index, "address"),
                    f'an address for {director.name} that ends in a line like "City, ST 12345"',
                    "Give the street line(s), then the city, two-letter state and ZIP code; a "
                    "foreign address as edgar_address: {street1, city, state: EDGAR's country "
                    "code, zip_code, state_description}.",
                )
            )
    if company.form4_address == "company" and company_address(facts) is None:
        missing.append(
            MissingFact(
                "company.address",
                'the company\'s address, one street line then a line like "City, ST 12345"',
                'Add company.address: ["1 Main Street", "City, ST 12345"] '
                "(form4_address: company reports it c/o the company for every director).",
            )
        )
    return missing


def company_address(facts: DirectorGrantFacts) -> Address | None:
    """The company's address as each director's Form 4 reports it "c/o" the company (EDGAR's
    two street fields: "c/o" the company's name, then its street line); None when not given as
    one street line and a "City, ST 12345" line."""
    company = facts.company
    lines = company.address or []
    if len(lines) != 2:
        return None
    matched = _CITY_LINE.match(lines[1].strip())
    if matched is None:
        return None
    return Address(
        f"c/o {company.name}", lines[0], matched["city"], matched["state"], matched["zip"]
    )


def reported_address(facts: DirectorGrantFacts, director: Director) -> Address | None:
    """The address ``director``'s Form 4 reports (``company.form4_address``)."""
    if facts.company.form4_address == "company":
        return company_address(facts)
    return owner_address(director)


def owner_address(director: Director) -> Address | None:
    """The director's address as EDGAR's fields take it: ``edgar_address`` as given, else the
    address lines; None when the last line is not "City, ST 12345" (it is never split by
    guesswork)."""
    given = director.edgar_address
    if given is not None:
        return Address(
            given.street1,
            given.street2 or "",
            given.city,
            given.state,
            given.zip_code or "",
            given.state_description or "",
        )
    if len(director.address) < 2:
        return None
    *streets, last = director.address
    matched = _CITY_LINE.match(last.strip())
    if matched is None or len(streets) > 2:
        return None
    return Address(
        streets[0],
        streets[1] if len(streets) > 1 else "",
        matched["city"],
        matched["state"],
        matched["zip"],
    )


def _vesting_words(facts: DirectorGrantFacts) -> str:
    grant = facts.grant
    on = specified_date(grant)
    years = _ORDINALS.get(grant.vesting.anniversary, f"{grant.vesting.anniversary}th")
    words = (
        f"The restricted stock units vest on the {years} anniversary of the grant date, "
        f"{long_date(on)}"
    )
    vesting = scheduled_vesting_date(grant)
    if vesting != on:
        words += f", or on {long_date(vesting)}, the date of the annual meeting, if earlier"
    words += ", subject to continued service as a director"
    events = [_EVENTS[event] for event in grant.vesting.accelerate_on]
    if events:
        listed = events[0] if len(events) == 1 else ", ".join(events[:-1]) + " or " + events[-1]
        words += "; they vest earlier upon " + listed
    return words + " (Notice of Grant, Sections A and B)."


def _deferral_words(facts: DirectorGrantFacts, director: Director) -> str:
    election = None if director.employee else effective_election(facts, director)
    delivery = (
        "; the shares are delivered within 60 days of the Payment Date (Notice of Grant, "
        "Section C)."
    )
    if election is None:
        return (
            "No deferral election governs: the vested units are paid in shares of common stock "
            f"on {long_date(default_payment_date(facts.grant))}, or earlier upon death, "
            "Disability or a change in control" + delivery
        )
    chosen = {
        "separation": "upon the director's Separation from Service",
        "date": f"on {long_date(election.pay_date)}" if election.pay_date else "",
        "earlier_of_separation_or_date": "on the earlier of the director's Separation from "
        f"Service and {long_date(election.pay_date)}"
        if election.pay_date
        else "",
    }[election.pay_on]
    return (
        f"Under the director's deferral election filed {long_date(election.filed_on)} "
        "(Exhibit I), the vested units are paid in shares of common stock "
        f"{chosen}, or earlier upon death, Disability or a change in control" + delivery
    )


def draft(facts: DirectorGrantFacts, director: Director, drafted_on: date) -> Form4Draft:
    """``director``'s Form 4 draft for the grant, dated ``drafted_on``; the facts
    :func:`missing_facts` names must be given first."""
    company = facts.company
    assert company.cik and company.trading_symbol and company.form4_table and director.cik
    address = reported_address(facts, director)
    assert address is not None
    table = company.form4_table
    plan = facts.stock_plan
    exemption = (
        f"The reporting person was granted restricted stock units under the {plan}, in a "
        "transaction exempt from Section 16(b) under Rule 16b-3(d)."
    )
    if table == "I":
        exemption += (
            " Each restricted stock unit represents a right to receive one share of common "
            "stock; the units are reported here as the shares they will be paid in."
        )
    else:
        exemption += (
            " Each restricted stock unit represents a right to receive one share of common "
            "stock, and so converts into common stock one for one."
        )
    notes = [Footnote("F1", exemption), Footnote("F2", _vesting_words(facts))]
    notes.append(Footnote("F3", _deferral_words(facts, director)))
    owned_after_note = None
    if director.shares_owned_after is None:
        owned_after_note = f"F{len(notes) + 1}"
        notes.append(
            Footnote(
                owned_after_note,
                "DRAFT: the amount beneficially owned following the reported transaction is not "
                "in the facts; enter it before filing.",
            )
        )
    try:
        due: date | None = form4_due(facts.grant.grant_date)
    except UncoveredYear:
        due = None
    remarks = (
        f"DRAFT prepared by docgen on {drafted_on.isoformat()} for review by the reporting "
        "person and counsel; not filed."
    )
    if due is not None:
        remarks += f" Due on EDGAR by {long_date(due)} (Exchange Act Section 16(a)(2)(C))."
    ended = service_ended_on(director)
    left_on = ended if ended is not None and ended <= drafted_on else None
    if left_on is not None:
        remarks += (
            f" The reporting person ceased to be a director on {long_date(left_on)} and is no "
            "longer subject to Section 16 (the box is checked; Form 4 or Form 5 obligations "
            "may continue: Form 4, General Instruction 1(b))."
        )
    if director.edgar_name is None:
        remarks += (
            " The reporting person's name is written as in the Notice: check it against EDGAR's "
            "name for the CIK (last name first), or give edgar_name"
        )
        proposal = proposed_edgar_name(director.name)
        remarks += f' (proposed, to confirm: "{proposal}").' if proposal else "."
    return Form4Draft(
        subject=director.id,
        issuer_cik=_cik(company.cik),
        issuer_name=company.name,
        trading_symbol=company.trading_symbol,
        owner_cik=_cik(director.cik),
        owner_name=director.edgar_name or director.name,
        address=address,
        table=table,
        security_title=SHARES_TITLE if table == "I" else UNITS_TITLE,
        transaction_date=facts.grant.grant_date,
        units=director.units,
        price=company.form4_price_per_share or Decimal(0),
        owned_after=director.shares_owned_after,
        footnotes=tuple(notes),
        exemption_note="F1",
        terms_notes=("F2", "F3"),
        owned_after_note=owned_after_note,
        signature_name=director.name,
        signature_date=drafted_on,
        due=due,
        remarks=remarks,
        amends=filed_before(director, drafted_on),
        left_on=left_on,
    )


_SUFFIXES = {"jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "v"}


def proposed_edgar_name(name: str) -> str | None:
    """A proposal for ``edgar_name``, shown for confirmation and never used unconfirmed: the name
    in ASCII (accents dropped: "García" -> "Garcia") and last name first, a suffix kept after the
    given names ("White David Jr."); None when a letter has no ASCII form once its accents are
    dropped ("Ł"): that spelling is EDGAR's to give. EDGAR's record for the CIK is what counts:
    splitting a name is a guess (checks/NOT_ENCODED.md)."""
    stripped = "".join(
        c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)
    )
    if not stripped.isascii():
        return None
    words = stripped.replace(",", " ").split()
    suffix = [w for w in words[1:] if w.casefold() in _SUFFIXES]
    rest = [w for w in words if w not in suffix]
    if len(rest) < 2:
        return " ".join(words)
    return " ".join([rest[-1], *rest[:-1], *suffix])


def filed_before(director: Director, drafted_on: date) -> date | None:
    """The day ``director``'s Form 4 was filed, when that is on or before ``drafted_on``: a draft
    made then is an amendment. A filing recorded for a later day is not yet made on the day
    drafted."""
    filed = director.form4_filed_on
    return filed if filed is not None and filed <= drafted_on else None
