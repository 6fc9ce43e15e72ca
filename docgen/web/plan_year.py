"""The RRP screen's figures in the words and the amounts `docgen compute` prints them: each
participant's enrollment, Plan Compensation, deferral, match, restoration, vesting and last day
of payment, and a note every participant shares said once above the table instead of on every
row (api.totals_by_pay_date finds them). Nothing is worked here: the figures are compute's and
payroll's."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from docgen import api


def money(text: Any) -> str:
    """ "160000.00" (compute's JSON) -> "160,000.00", as `docgen compute` prints it
    (formats.amount_shown); None or "" (not applicable) -> "-"."""
    if text is None or text == "":
        return "-"
    try:
        return api.amount_shown(Decimal(str(text)))
    except InvalidOperation:
        return str(text)


@dataclass
class Row:
    id: str
    name: str
    enrollment: str
    why_not: str
    plan_compensation: str
    deferral: str
    match: str
    restoration: str
    vested: str
    pay_by: str
    notes: list[str] = field(default_factory=list)


def enrollment(row: Any) -> tuple[str, str]:
    """What `docgen status` says is in force for the participant, and why none is."""
    if row is None:
        return "no form expected", ""
    if row.in_effect:
        return str(row.election), ""
    return "no election in force", str(row.why_not or "")


def vested(figures: dict[str, Any]) -> str:
    shown = figures.get("vested") or {}
    if shown.get("restoration_accounts"):
        return "yes"
    return "elective account only" if shown.get("elective_deferral_account") else "no"


def rows(
    participants: list[dict[str, Any]], enrolled: dict[str, Any], shared: list[str]
) -> list[Row]:
    """One row per participant, in compute's order."""
    found = []
    for person in participants:
        words, why_not = enrollment(enrolled.get(person["id"]))
        found.append(
            Row(
                id=person["id"],
                name=person["name"],
                enrollment=words,
                why_not=why_not,
                plan_compensation=money(person.get("plan_compensation")),
                deferral=money(person.get("elective_deferral")),
                match=money(person.get("matching_restoration")),
                restoration=money(person.get("retirement_restoration")),
                vested=vested(person),
                pay_by=person.get("payment_due_on") or "-",
                notes=[n for n in person.get("notes") or [] if n not in shared],
            )
        )
    return found


def elections(person: dict[str, Any]) -> list[str]:
    """The Deferral Elections in force, each as compute states it."""
    said = []
    for part, election in (person.get("elections_in_force") or {}).items():
        if not election:
            continue
        words = f"{part.replace('_', '-')}: {election['percent']}%, made {election['made_on']}"
        if election.get("plan_year") is not None:
            words += f" for {election['plan_year']}"
        said.append(words)
    return said
