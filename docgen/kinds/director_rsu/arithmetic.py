"""What a director's units come to (`docgen compute` for a director grant; DESIGN.md, "What the
Notice says happens to the units"): the Vesting Date or the forfeiture, the dividend-equivalent
units, the shares to deliver, the Payment Date and the delivery window, each figure with the
Notice section it rests on."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from docgen.core.dates import days_after
from docgen.kinds.director_rsu.facts import Director, DirectorGrantFacts
from docgen.kinds.director_rsu.settlement import (
    DividendStep,
    dividend_equivalents,
    vesting_outcome,
    whole_shares,
)
from docgen.kinds.director_rsu.terms import payment_date, specified_employee_delay

CITATIONS = {
    "vesting_date": "Notice A, B",
    "forfeited_on": "Notice A",
    "dividend_equivalent_units": "Notice E",
    "shares_to_deliver": "Notice C, E",
    "payment_date": "Notice C.1, F.1, F.2; Exhibit I",
    "delivery_window": "Notice C, F.1; Treas. Reg. 1.409A-3(b)",
}


@dataclass(frozen=True)
class DirectorArithmetic:
    id: str
    name: str
    units_granted: int
    vesting_date: date | None
    forfeited_on: date | None
    vesting: str
    dividend_equivalent_units: Decimal
    total_units: Decimal
    shares_to_deliver: int
    fractional_unit: Decimal
    payment_date: date | None
    payment_event: str
    delivery_window: tuple[date, date] | None
    dividends: tuple[DividendStep, ...]
    notes: tuple[str, ...]

    def as_json(self) -> dict[str, Any]:
        window = self.delivery_window
        return {
            "id": self.id,
            "name": self.name,
            "units_granted": self.units_granted,
            "vesting_date": _iso(self.vesting_date),
            "forfeited_on": _iso(self.forfeited_on),
            "vesting": self.vesting,
            "dividend_equivalent_units": f"{self.dividend_equivalent_units:f}",
            "total_units": f"{self.total_units:f}",
            "shares_to_deliver": self.shares_to_deliver,
            "fractional_unit": f"{self.fractional_unit:f}",
            "payment_date": _iso(self.payment_date),
            "payment_event": self.payment_event or None,
            "delivery_window": None
            if window is None
            else {"from": window[0].isoformat(), "to": window[1].isoformat()},
            "dividends": [
                {
                    "paid_on": step.paid_on.isoformat(),
                    "per_share": f"{step.per_share:f}",
                    "fair_market_value": f"{step.fair_market_value:f}",
                    "units_before": f"{step.units_before:f}",
                    "units_added": f"{step.units_added:f}",
                }
                for step in self.dividends
            ],
            "citations": dict(CITATIONS),
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class GrantArithmetic:
    grant_id: str
    grant_date: date
    directors: tuple[DirectorArithmetic, ...]

    def as_json(self) -> dict[str, Any]:
        return {
            "grant_id": self.grant_id,
            "grant_date": self.grant_date.isoformat(),
            "directors": [row.as_json() for row in self.directors],
        }


def compute(facts: DirectorGrantFacts) -> GrantArithmetic:
    """Every director's units, in file order."""
    grant = facts.grant
    return GrantArithmetic(
        grant.id, grant.grant_date, tuple(compute_director(facts, d) for d in facts.directors)
    )


def compute_director(facts: DirectorGrantFacts, director: Director) -> DirectorArithmetic:
    notes: list[str] = []
    outcome = vesting_outcome(facts, director)
    day, event = payment_date(facts, director)
    delayed = specified_employee_delay(facts, director)
    if delayed is not None:
        day, event = delayed, "specified-employee delay (Notice F.2)"
    settlement = director.settlement
    if (
        settlement is not None
        and settlement.change_in_control_on is not None
        and settlement.change_in_control_is_409a_event is None
    ):
        notes.append(
            f"the Change of Control on {settlement.change_in_control_on.isoformat()} is taken as a "
            "409A change in control event (change_in_control_is_409a_event not recorded; Treas. "
            "Reg. 1.409A-3(i)(5))"
        )
    if outcome.forfeited:
        notes.append(
            f"units {outcome.because}; their dividend equivalents are forfeited with them "
            "(Notice A, E): nothing to deliver"
        )
        return DirectorArithmetic(
            director.id,
            director.name,
            director.units,
            None,
            outcome.forfeited_on,
            outcome.because,
            Decimal("0.0000"),
            Decimal("0.0000"),
            0,
            Decimal("0.0000"),
            None,
            "",
            None,
            (),
            tuple(notes),
        )
    if day is None:
        notes.append(
            "no payment event has occurred (an election to be paid on separation, no separation "
            "on record): dividend equivalents are accrued through the last dividend on record "
            "(Notice E)"
        )
    steps = dividend_equivalents(facts, director, day)
    added = sum((step.units_added for step in steps), Decimal("0.0000"))
    total = Decimal(director.units) + added
    shares, fraction = whole_shares(total)
    if fraction:
        notes.append(
            f"{total:f} units: {shares} whole shares; Notice E pays dividend equivalents in "
            f"shares and does not say how the fraction {fraction:f} of a unit is settled (for the "
            "Committee: checks/NOT_ENCODED.md)"
        )
    if not facts.grant.dividends:
        notes.append("no dividends on record (grant.dividends): no dividend-equivalent units")
    window = None if day is None else (day, days_after(day, 60))
    return DirectorArithmetic(
        director.id,
        director.name,
        director.units,
        outcome.vested_on,
        None,
        outcome.because,
        added,
        total,
        shares,
        fraction,
        day,
        event,
        window,
        steps,
        tuple(notes),
    )


def _iso(day: date | None) -> str | None:
    return None if day is None else day.isoformat()
