"""A director grant cycle as Open Cap Format 1.2.0 objects (`docgen export-ocf`; DESIGN.md, "After
the grant"): the issuer, each director as a ``Stakeholder`` (BOARD_MEMBER), the Plan, its class of
stock, the grant's vesting terms, and per director the RSU issuance, its vesting start, its
acceptance when the director returned a form, its cancellation when the units were forfeited (by
the as-of date), and the issued Notice as a ``Document``. OCF cannot express deferral elections
or 409A payment terms: they go beside the bundle (``beside``).

Identifiers are made from the facts, never at random, so the same facts give the same bundle and a
director keeps one stakeholder id across cycles."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from docgen.core.errors import LoadError, Problem
from docgen.core.model import fact_path, is_in_effect
from docgen.core.ocf import IssuedDocument, Json, OCFCycle
from docgen.kinds.director_rsu.facts import Director, DirectorElection, DirectorGrantFacts
from docgen.kinds.director_rsu.ocf_facts import OCFFacts
from docgen.kinds.director_rsu.settlement import (
    dividend_equivalents,
    grant_not_made,
    service_ended_on,
    vesting_outcome,
    whole_shares,
)
from docgen.kinds.director_rsu.terms import (
    election_record,
    elections_for_grant,
    payment_date,
    scheduled_vesting_date,
    specified_date,
)

STOCK_CLASS_ID = "common-stock"
STOCK_PLAN_ID = "stock-plan"
ISSUER_ID = "issuer"
_EVENTS = {
    "death": "the Director's death (Notice B)",
    "disability": "termination of service as a Director on Disability (Notice B)",
    "change_of_control": "a Change of Control that is also a change in control event (Notice B)",
}


def stakeholder_id(director: Director) -> str:
    """One id per director across cycles: ids are unique without regard to case."""
    return f"director-{director.id.casefold()}"


def security_id(facts: DirectorGrantFacts, director: Director) -> str:
    return f"{facts.grant.id}-{director.id.casefold()}-rsu"


def ocf_cycle(
    facts: DirectorGrantFacts, as_of: date, documents: Sequence[IssuedDocument]
) -> OCFCycle:
    """The cycle as of ``as_of`` (a day on or after the Grant Date); ``documents``: the issued
    stage's documents, of which the Notices are listed."""
    ocf = _required(facts, as_of)
    grant = facts.grant
    terms_id = f"{grant.id}-vesting"
    cycle = OCFCycle(
        issuer=_issuer(facts, ocf),
        as_of=as_of,
        stock_classes=[_stock_class(ocf)],
        stock_plans=[
            {
                "object_type": "STOCK_PLAN",
                "id": STOCK_PLAN_ID,
                "plan_name": facts.stock_plan,
                "initial_shares_reserved": str(ocf.plan_shares_reserved),
                "stock_class_ids": [STOCK_CLASS_ID],
            }
        ],
        vesting_terms=[_vesting_terms(facts, terms_id)],
        comments=[
            f"Director restricted stock unit grant {grant.id} of {grant.grant_date.isoformat()}, "
            f"as of {as_of.isoformat()}, exported by docgen.",
            "Deferral elections and their status are in docgen-elections.json beside these "
            "files: OCF cannot express them.",
        ],
    )
    notices = {d.subject_id: d for d in documents if d.name == "notice"}
    subjects = []
    for director in facts.directors:
        no_grant = grant_not_made(facts, director)
        if no_grant is not None:  # no issuance to export (RSU-SERVICE-ENDED-BEFORE-GRANT)
            cycle.comments.append(
                f"{director.id} left out: {no_grant.words(director.name, grant.grant_date)}."
            )
            continue
        cycle.stakeholders.append(_stakeholder(director, as_of))
        cycle.transactions.extend(_transactions(facts, director, terms_id, as_of))
        notice = notices.get(director.id)
        if notice is not None:
            cycle.documents.append(_document(facts, director, notice))
        subjects.append(_elections(facts, director))
    cycle.beside.update(
        {
            "docgen_elections_version": 1,
            "cycle": grant.id,
            "as_of": as_of.isoformat(),
            "grant_date": grant.grant_date.isoformat(),
            "election_deadline": grant.election_deadline.isoformat(),
            "subjects": subjects,
        }
    )
    return cycle


def _required(facts: DirectorGrantFacts, as_of: date) -> OCFFacts:
    problems = []
    if facts.ocf is None:
        problems.append(
            Problem(
                "",
                None,
                "ocf",
                "an Open Cap Format bundle needs the issuer's formation, its stock class and "
                "the Plan's share reserve, which no Notice states",
                fix="Add an ocf: block (formation_date, country_of_formation, stock_class: "
                "{name, initial_shares_authorized, votes_per_share}, plan_shares_reserved); see "
                "docs/fact-files.md and docs/ocf-export.md.",
            )
        )
    if as_of < facts.grant.grant_date:
        problems.append(
            Problem(
                "",
                None,
                "grant.grant_date",
                f"the grant is made on {facts.grant.grant_date.isoformat()}, after --as-of "
                f"{as_of.isoformat()}: there is no issuance to export yet",
                fix="Export on or after the Grant Date (--as-of).",
            )
        )
    for index, director in enumerate(facts.directors):
        settlement = director.settlement
        if (
            settlement is not None
            and settlement.delivered_on is not None
            and settlement.delivered_on <= as_of
            and settlement.delivered_fair_market_value is None
            and vesting_outcome(facts, director).forfeited_on is None
            and grant_not_made(facts, director) is None
        ):
            problems.append(
                Problem(
                    "",
                    None,
                    fact_path("directors", index, "settlement", "delivered_fair_market_value"),
                    f"{director.name}'s shares were delivered "
                    f"{settlement.delivered_on.isoformat()}: an OCF release needs the release "
                    "price, the Fair Market Value of a share that day, which the facts do not give",
                    fix="Add settlement.delivered_fair_market_value: the Fair Market Value on "
                    'the delivery date, e.g. "48.25"; docgen never guesses it.',
                )
            )
    if problems or facts.ocf is None:
        raise LoadError(problems)
    return facts.ocf


def _issuer(facts: DirectorGrantFacts, ocf: OCFFacts) -> Json:
    issuer: Json = {
        "object_type": "ISSUER",
        "id": ISSUER_ID,
        "legal_name": facts.company.name,
        "formation_date": ocf.formation_date.isoformat(),
        "country_of_formation": ocf.country_of_formation,
    }
    if ocf.country_subdivision_of_formation is not None:
        issuer["country_subdivision_of_formation"] = ocf.country_subdivision_of_formation
    return issuer


def _stock_class(ocf: OCFFacts) -> Json:
    stock = ocf.stock_class
    found: Json = {
        "object_type": "STOCK_CLASS",
        "id": STOCK_CLASS_ID,
        "name": stock.name,
        "class_type": "COMMON",
        "default_id_prefix": "CS-",
        "initial_shares_authorized": str(stock.initial_shares_authorized),
        "votes_per_share": str(stock.votes_per_share),
        "seniority": "1",
    }
    if stock.par_value is not None:
        found["par_value"] = {"amount": f"{stock.par_value:f}", "currency": "USD"}
    return found


def _vesting_terms(facts: DirectorGrantFacts, terms_id: str) -> Json:
    """Notice A: every unit vests on the Vesting Date (the Specified Date, or the annual meeting
    when earlier); Notice B: earlier on each accelerating event the grant names."""
    grant = facts.grant
    vests = scheduled_vesting_date(grant)
    events = list(grant.vesting.accelerate_on)
    conditions: list[Json] = [
        {
            "id": "grant-date",
            "description": "The Grant Date: nothing vests on it (Notice A).",
            "quantity": "0",
            "trigger": {"type": "VESTING_START_DATE"},
            "next_condition_ids": ["vesting-date", *(f"on-{e}" for e in events)],
        },
        {
            "id": "vesting-date",
            "description": f"The Vesting Date {vests.isoformat()}: every unit vests on continued "
            f"service (Notice A; the Specified Date is {specified_date(grant).isoformat()}).",
            "portion": {"numerator": "1", "denominator": "1"},
            "trigger": {"type": "VESTING_SCHEDULE_ABSOLUTE", "date": vests.isoformat()},
            "next_condition_ids": [],
        },
    ]
    conditions.extend(
        {
            "id": f"on-{event}",
            "description": f"Every unit vests early on {_EVENTS[event]}.",
            "portion": {"numerator": "1", "denominator": "1"},
            "trigger": {"type": "VESTING_EVENT"},
            "next_condition_ids": [],
        }
        for event in events
    )
    return {
        "object_type": "VESTING_TERMS",
        "id": terms_id,
        "name": f"Director RSU grant {grant.id}",
        "description": "All the units vest at once on the Vesting Date, or earlier on an "
        "accelerating event of Notice Section B; service ending earlier for another reason "
        "forfeits them (Notice A).",
        "allocation_type": "CUMULATIVE_ROUND_DOWN",
        "vesting_conditions": conditions,
    }


def _stakeholder(director: Director, as_of: date) -> Json:
    """A director; one whose service ended by ``as_of`` is no longer a board member. OCF 1.2.0
    has no former-board-member relationship (StakeholderRelationshipType has EX_EMPLOYEE,
    EX_ADVISOR, EX_CONSULTANT only) and no relationship-change transaction: the schema's way is
    to state no ``current_relationship``, and the comment gives the day service ended."""
    found: Json = {
        "object_type": "STAKEHOLDER",
        "id": stakeholder_id(director),
        "name": {"legal_name": director.name},
        "stakeholder_type": "INDIVIDUAL",
        "issuer_assigned_id": director.id,
    }
    ended = service_ended_on(director)
    if ended is None or ended > as_of:
        found["current_relationship"] = "BOARD_MEMBER"
    else:
        found["comments"] = [
            f"Service as a Director ended {ended.isoformat()}: no longer a board member (OCF "
            "1.2.0 has no former-board-member relationship, so none is stated)."
        ]
    return found


def credited_through(facts: DirectorGrantFacts, director: Director, as_of: date) -> date:
    """The last day a dividend adds units (Notice E: "from the Grant Date to the Payment Date"):
    the Payment Date when it has occurred, else the as-of date; for forfeited units the day
    before the forfeiture (Notice A: forfeited "on the date of such termination", dividend
    equivalent rights with them)."""
    outcome = vesting_outcome(facts, director)
    if outcome.forfeited_on is not None and outcome.forfeited_on <= as_of:
        return outcome.forfeited_on - timedelta(days=1)
    paid_on, _ = payment_date(facts, director)
    return as_of if paid_on is None or paid_on > as_of else paid_on


def _dividend_units(
    facts: DirectorGrantFacts, director: Director, terms_id: str, as_of: date
) -> list[tuple[Json, Decimal]]:
    """Notice E: each dividend's units, as an issuance of its own tied to the grant's security
    by its id and comment (OCF 1.2.0 has no adjustment of one security's quantity), with the
    dividend's date, amount and Fair Market Value; subject to the grant's vesting terms ("the
    same forfeiture restrictions")."""
    security = security_id(facts, director)
    found = []
    through = credited_through(facts, director, as_of)
    for step in dividend_equivalents(facts, director, through):
        day = step.paid_on.isoformat()
        found.append(
            (
                {
                    "object_type": "TX_EQUITY_COMPENSATION_ISSUANCE",
                    "id": f"{security}-de-{day}-issuance",
                    "date": day,
                    "security_id": f"{security}-de-{day}",
                    "custom_id": f"RSU-{facts.grant.id}-{director.id}-DE-{day}",
                    "stakeholder_id": stakeholder_id(director),
                    "security_law_exemptions": [],
                    "compensation_type": "RSU",
                    "quantity": f"{step.units_added:f}",
                    "stock_plan_id": STOCK_PLAN_ID,
                    "stock_class_id": STOCK_CLASS_ID,
                    "vesting_terms_id": terms_id,
                    "expiration_date": None,
                    "termination_exercise_windows": [],
                    "comments": [
                        f"Dividend-equivalent restricted stock units on {security} (Notice E): "
                        f"the dividend paid {day} of ${step.per_share:f} a share on "
                        f"{step.units_before:f} units, at that day's Fair Market Value "
                        f"${step.fair_market_value:f}, rounded half up to four places."
                    ],
                },
                step.units_added,
            )
        )
    return found


def _transactions(
    facts: DirectorGrantFacts, director: Director, terms_id: str, as_of: date
) -> list[Json]:
    grant = facts.grant
    security = security_id(facts, director)
    found: list[Json] = [
        {
            "object_type": "TX_EQUITY_COMPENSATION_ISSUANCE",
            "id": f"{security}-issuance",
            "date": grant.grant_date.isoformat(),
            "security_id": security,
            "custom_id": f"RSU-{grant.id}-{director.id}",
            "stakeholder_id": stakeholder_id(director),
            "security_law_exemptions": [],
            "compensation_type": "RSU",
            "quantity": str(director.units),
            "stock_plan_id": STOCK_PLAN_ID,
            "stock_class_id": STOCK_CLASS_ID,
            "vesting_terms_id": terms_id,
            "expiration_date": None,
            "termination_exercise_windows": [],
        },
        {
            "object_type": "TX_VESTING_START",
            "id": f"{security}-vesting-start",
            "date": grant.grant_date.isoformat(),
            "security_id": security,
            "vesting_condition_id": "grant-date",
        },
    ]
    securities: list[tuple[str, Decimal]] = [(security, Decimal(director.units))]
    for issuance, units in _dividend_units(facts, director, terms_id, as_of):
        found.append(issuance)
        found.append(
            {
                "object_type": "TX_VESTING_START",
                "id": f"{issuance['security_id']}-vesting-start",
                "date": issuance["date"],
                "security_id": issuance["security_id"],
                "vesting_condition_id": "grant-date",
            }
        )
        securities.append((issuance["security_id"], units))
    outcome = vesting_outcome(facts, director)
    if outcome.forfeited_on is not None and outcome.forfeited_on <= as_of:
        found.extend(
            {
                "object_type": "TX_EQUITY_COMPENSATION_CANCELLATION",
                "id": f"{held}-forfeiture",
                "date": outcome.forfeited_on.isoformat(),
                "security_id": held,
                "quantity": _quantity(units),
                "reason_text": f"Units {outcome.because}.",
            }
            for held, units in securities
        )
    else:
        found.extend(_releases(director, securities, as_of))
    accepted = _acceptance(facts, director, as_of)
    if accepted is not None:
        day, comments = accepted
        found.append(
            {
                "object_type": "TX_EQUITY_COMPENSATION_ACCEPTANCE",
                "id": f"{security}-acceptance",
                "date": day.isoformat(),
                "security_id": security,
                "comments": comments,
            }
        )
    return found


def _quantity(units: Decimal) -> str:
    return f"{units:f}" if units != units.to_integral_value() else str(int(units))


def _releases(director: Director, securities: list[tuple[str, Decimal]], as_of: date) -> list[Json]:
    """The settlement (Notice C, F): once ``settlement.delivered_on`` is recorded (by ``as_of``),
    each security (the grant and each dividend's units) is released in full on that day, at
    the Fair Market Value on delivery; the shares delivered are the whole shares of all of them
    together, the fraction left stated (the Notice does not say how a fraction is paid)."""
    settlement = director.settlement
    if settlement is None or settlement.delivered_on is None or settlement.delivered_on > as_of:
        return []
    price = settlement.delivered_fair_market_value
    assert price is not None  # _required refused a release without it
    day = settlement.delivered_on.isoformat()
    total = sum((units for _, units in securities), Decimal(0))
    shares, fraction = whole_shares(total)
    delivered = f"{shares:,} whole shares of common stock delivered {day} for {total:f} units"
    if fraction:
        delivered += (
            f"; the fraction {fraction:f} of a unit is not delivered as a share: the Notice does "
            "not say whether it is paid in cash, rounded or carried"
        )
    return [
        {
            "object_type": "TX_EQUITY_COMPENSATION_RELEASE",
            "id": f"{held}-release",
            "date": day,
            "security_id": held,
            "settlement_date": day,
            "release_price": {"amount": f"{price:f}", "currency": "USD"},
            "quantity": _quantity(units),
            "resulting_security_ids": [],
            "comments": [delivered + " (Notice C, F; settlement.delivered_on)."],
        }
        for held, units in securities
    ]


def _acceptance(
    facts: DirectorGrantFacts, director: Director, as_of: date
) -> tuple[date, list[str]] | None:
    """The day the director accepted the award: the first Exhibit I for this grant on record
    and in effect. An election is made before the Grant Date (Code 409A(a)(4)(B)); an award is
    accepted no earlier than it is made, so such a form dates the acceptance the Grant Date and
    the comment gives the form's own date."""
    returned = [e for _, e in elections_for_grant(facts, director) if is_in_effect(e)]
    if not returned:
        return None
    first = returned[0]
    grant_date = facts.grant.grant_date
    if first.filed_on >= grant_date:
        return first.filed_on, [f"Exhibit I returned {first.filed_on.isoformat()}."]
    if as_of < grant_date:
        return None
    return grant_date, [
        f"Exhibit I returned {first.filed_on.isoformat()}, before the Grant Date: the award is "
        "taken as accepted on the Grant Date, the first day there is one to accept."
    ]


def _document(facts: DirectorGrantFacts, director: Director, notice: IssuedDocument) -> Json:
    security = security_id(facts, director)
    return {
        "object_type": "DOCUMENT",
        "id": f"{security}-notice",
        "path": notice.path,
        "md5": notice.md5,
        "related_objects": [
            {"object_type": "STAKEHOLDER", "object_id": stakeholder_id(director)},
            {"object_type": "TX_EQUITY_COMPENSATION_ISSUANCE", "object_id": f"{security}-issuance"},
        ],
        "comments": [
            f"The Notice of Restricted Stock Unit Grant issued to {director.name}, as issued "
            "(the path is inside the issued stage folder)."
        ],
    }


def _form(election: DirectorElection, status: str) -> Json:
    form: dict[str, Any] = {
        "filed_on": election.filed_on.isoformat(),
        "percent": f"{election.percent:f}",
        "pay_on": election.pay_on,
        "pay_date": None if election.pay_date is None else election.pay_date.isoformat(),
        "received_as": election.received_as,
        "status": status,
    }
    if election.reason is not None:
        form["reason"] = election.reason
    return form


def _elections(facts: DirectorGrantFacts, director: Director) -> Json:
    """What OCF cannot say: the director's Exhibit I forms, which governs, and the Payment Date
    that has occurred (Notice C.1, F.1; Exhibit I; Code 409A(a)(4))."""
    record = election_record(facts, director)
    forms = []
    for election in director.elections:
        if election is record.effective:
            status = "governs"
        elif any(election is s for s in record.superseded):
            status = "superseded"
        elif not is_in_effect(election):
            status = "not_in_effect"
        else:
            status = "never_governed"
        forms.append(_form(election, status))
    day, event = payment_date(facts, director)
    outcome = vesting_outcome(facts, director)
    if outcome.forfeited:
        day, event = None, f"none: units {outcome.because}"
    return {
        "director_id": director.id,
        "stakeholder_id": stakeholder_id(director),
        "security_id": security_id(facts, director),
        "name": director.name,
        "forms": forms,
        "default_payment_applies": record.effective is None,
        "payment_date": None if day is None else day.isoformat(),
        "payment_event": event or None,
        "citations": "Notice C.1, F.1, F.2; Exhibit I; Code 409A(a)(4)",
    }
