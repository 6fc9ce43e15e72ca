"""The grant's terms, each defined once: the Specified Date, the elections that name this grant,
the election that governs payment, and the Payment Date. The rules (checks/rsu*.py), the
documents and the calendar all use these."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

from docgen.core.dates import anniversary, six_month_anniversary
from docgen.kinds.director_rsu.facts import Director, DirectorElection, DirectorGrantFacts, Grant


def specified_date(grant: Grant) -> date:
    """DESIGN.md A1: the day the units vest absent acceleration, the earlier of the vesting
    anniversary of the Grant Date and ``annual_meeting_date`` when one is set.

    This is also the earliest date the units could vest on continued service alone: Treas. Reg.
    1.409A-2(a)(5) ignores acceleration on death, disability or a change in control, while an
    annual-meeting vesting date is not an acceleration and counts.
    """
    on = anniversary(grant.grant_date, grant.vesting.anniversary)
    meeting = grant.vesting.annual_meeting_date
    return min(on, meeting) if meeting is not None else on


def default_payment_date(grant: Grant) -> date:
    """Notice C.1 (iv): the default anniversary of the Grant Date."""
    return anniversary(grant.grant_date, grant.default_payment_anniversary)


def elections_for_grant(
    facts: DirectorGrantFacts, director: Director
) -> Iterator[tuple[int, DirectorElection]]:
    """The director's Exhibit I forms that name this grant, with their positions."""
    for index, election in enumerate(director.elections):
        if election.grant_id == facts.grant.id:
            yield index, election


def effective_election(facts: DirectorGrantFacts, director: Director) -> DirectorElection | None:
    """The Exhibit I that governs payment: the first form naming this grant, for a non-employee
    director; None when the default Payment Date applies."""
    if director.employee:
        return None
    for _, election in elections_for_grant(facts, director):
        return election
    return None


def payment_date(facts: DirectorGrantFacts, director: Director) -> tuple[date | None, str]:
    """The Payment Date that has occurred (Notice C.1 / F.1), and the event that fixed it.

    Without an election: the earliest of death, Disability, a change in control, and the
    default anniversary. With one: the earliest of the elected date, death, Disability and a
    change in control. ``None`` when no payment event has occurred.
    """
    settlement = director.settlement
    events: list[tuple[date, str]] = []
    if settlement is not None:
        for day, name in (
            (settlement.death_on, "death"),
            (settlement.disability_on, "disability"),
            (settlement.change_in_control_on, "change in control"),
        ):
            if day is not None:
                events.append((day, name))
    election = effective_election(facts, director)
    separation = settlement.separation_on if settlement else None
    if election is None:
        events.append((default_payment_date(facts.grant), "default anniversary"))
    else:
        if election.pay_on in ("separation", "earlier_of_separation_or_date") and separation:
            events.append((separation, "separation"))
        if election.pay_on in ("date", "earlier_of_separation_or_date"):
            events.append((election.pay_date, "elected date"))
    if not events:
        return None, ""
    return min(events)


def specified_employee_delay(facts: DirectorGrantFacts, director: Director) -> date | None:
    """Notice F.2: the delayed Payment Date of a specified employee paid on separation."""
    day, event = payment_date(facts, director)
    if day is None or event != "separation" or not director.specified_employee:
        return None
    delayed = six_month_anniversary(day)  # "the date that is six months following"
    death = director.settlement.death_on if director.settlement else None
    return min(delayed, death) if death is not None else delayed
