"""What the Notice says happens to a director's units (DESIGN.md, "What the Notice says happens to
the units"): whether they vest or are forfeited (Notice A, B), the dividend-equivalent units they
accrue (Notice E), and the shares a settlement delivers. The rules (checks/rsu_payments.py) and
`docgen compute` use these."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal

from docgen.kinds.director_rsu.facts import Director, DirectorGrantFacts
from docgen.kinds.director_rsu.terms import is_409a_event, scheduled_vesting_date

UNIT_PLACES = Decimal("0.0001")  # dividend-equivalent units are carried to four decimal places
_EVENTS = (("death", "death_on"), ("disability", "disability_on"))


@dataclass(frozen=True)
class VestingOutcome:
    """The units' fate: vested on ``vested_on`` (the Vesting Date: scheduled, or accelerated by a
    Section B event), or forfeited on ``forfeited_on``; ``because`` says which, naming the
    Notice section. Both None: never (no grant date has passed is not judged here)."""

    vested_on: date | None
    forfeited_on: date | None
    because: str

    @property
    def forfeited(self) -> bool:
        return self.forfeited_on is not None


def service_ended_on(director: Director) -> date | None:
    """The day service as a Director ended: the Separation from Service or death, the earlier."""
    settlement = director.settlement
    if settlement is None:
        return None
    days = [d for d in (settlement.separation_on, settlement.death_on) if d is not None]
    return min(days, default=None)


@dataclass(frozen=True)
class NoGrant:
    """Why a director received no grant: service ended on ``on``, by ``event``, on or before the
    Grant Date (DESIGN.md A27)."""

    on: date
    event: str  # "separation from service", "death" or "Disability"
    field: str  # the settlement field that records it

    def words(self, name: str, grant_date: date) -> str:
        when = "on" if self.on == grant_date else "before"
        return (
            f"{name}'s service ended by {self.event} on {self.on.isoformat()}, {when} the Grant "
            f"Date {grant_date.isoformat()} (settlement.{self.field}): no units were granted "
            '(Notice A: service "from the Grant Date until the Vesting Date")'
        )


_ENDINGS = (
    ("separation_on", "separation from service"),
    ("death_on", "death"),
    ("disability_on", "Disability"),
)


def grant_not_made(facts: DirectorGrantFacts, director: Director) -> NoGrant | None:
    """Notice A grants units to a director who serves "from the Grant Date until the Vesting
    Date". Reading taken (DESIGN.md A27; checks/NOT_ENCODED.md): service that ended on or before
    the Grant Date, by separation, death or Disability (a Disabled director cannot serve), never
    began the service the grant rewards, so no units were granted; the earliest such event, else
    None. Service ending the day after the Grant Date is a grant, then a forfeiture (Notice A)."""
    settlement = director.settlement
    if settlement is None:
        return None
    grant_date = facts.grant.grant_date
    found = [
        NoGrant(getattr(settlement, field), event, field)
        for field, event in _ENDINGS
        if getattr(settlement, field) is not None and getattr(settlement, field) <= grant_date
    ]
    return min(found, key=lambda n: n.on, default=None)


def granted_directors(facts: DirectorGrantFacts) -> list[Director]:
    """The directors who received the grant: every one but those :func:`grant_not_made` names."""
    return [d for d in facts.directors if grant_not_made(facts, d) is None]


def accelerating_events(facts: DirectorGrantFacts, director: Director) -> list[tuple[date, str]]:
    """The Section B events on record that the grant accelerates on (grant.vesting.accelerate_on):
    death, Disability, and a Change of Control that is also a 409A change in control event."""
    settlement = director.settlement
    if settlement is None:
        return []
    accelerate = facts.grant.vesting.accelerate_on
    found: list[tuple[date, str]] = [
        (getattr(settlement, field), name)
        for name, field in _EVENTS
        if name in accelerate and getattr(settlement, field) is not None
    ]
    control = settlement.change_in_control_on
    if "change_of_control" in accelerate and control is not None and is_409a_event(director):
        found.append((control, "change in control"))
    return sorted(found)


def vesting_outcome(facts: DirectorGrantFacts, director: Director) -> VestingOutcome:
    """Notice A: the units vest on the Vesting Date if the director serves "from the Grant Date
    until the Vesting Date" (service ending on it counts as served); Section B accelerates on its
    events; service ending earlier for any other reason forfeits the units "on the date of such
    termination ... regardless of any election"."""
    scheduled = scheduled_vesting_date(facts.grant)
    ended = service_ended_on(director)
    early = [
        (day, name)
        for day, name in accelerating_events(facts, director)
        if day < scheduled and (ended is None or day <= ended)
    ]
    if early:
        day, name = early[0]
        return VestingOutcome(day, None, f"vested early on {name}, {day} (Notice B)")
    if ended is None or ended >= scheduled:
        return VestingOutcome(scheduled, None, f"vests on the Vesting Date {scheduled} (Notice A)")
    return VestingOutcome(
        None,
        ended,
        f"forfeited on {ended}: service ended before the Vesting Date {scheduled} for a reason "
        "outside Section B (Notice A)",
    )


@dataclass(frozen=True)
class DividendStep:
    paid_on: date
    per_share: Decimal
    fair_market_value: Decimal
    units_before: Decimal
    units_added: Decimal


def dividend_equivalents(
    facts: DirectorGrantFacts, director: Director, through: date | None
) -> tuple[DividendStep, ...]:
    """Notice E: on each dividend paid from the Grant Date to ``through`` (the Payment Date; None:
    every dividend on record), the units held (those granted and those already added) times the
    dividend per share, divided by the Fair Market Value on the day it was paid, are added as
    units, rounded half up to four decimal places."""
    grant = facts.grant
    units = Decimal(director.units)
    steps = []
    for dividend in sorted(grant.dividends, key=lambda d: d.paid_on):
        if dividend.paid_on < grant.grant_date or (
            through is not None and dividend.paid_on > through
        ):
            continue
        added = (units * dividend.per_share / dividend.fair_market_value).quantize(
            UNIT_PLACES, rounding=ROUND_HALF_UP
        )
        steps.append(
            DividendStep(
                dividend.paid_on, dividend.per_share, dividend.fair_market_value, units, added
            )
        )
        units += added
    return tuple(steps)


def whole_shares(units: Decimal) -> tuple[int, Decimal]:
    """The whole shares a settlement delivers and the fraction of a unit left over."""
    whole = units.to_integral_value(rounding=ROUND_DOWN)
    return int(whole), units - whole
