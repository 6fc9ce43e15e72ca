"""When a Deferral Election is timely (Plan 2.03(b), (c); Code 409A(a)(4)(B); Treas. Reg.
1.409A-2(a)(3), (7), (8)): each route's deadline and each condition of a route, defined once.

The checker's timing rules (checks/rrp_timing.py) word these conditions as findings; the election
in force (terms.py), ``docgen compute``, the calendar and the form use them. A condition reads
``"yes"``, ``"no"`` or ``"doubtful"``: a month-end boundary the law leaves ambiguous passes on one
reading only, and is never silently taken as either.

Routes (DESIGN.md, "RRP election timing"): the prior-year deadline is always open; the first-year
route is open to a Participant whose ``first_eligible_on`` falls in the election's Plan Year; the
performance-based route to a ``performance_based`` election. An election is timely when any open
route makes it timely.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from decimal import Decimal
from types import MappingProxyType
from typing import Literal

from docgen.core import dates
from docgen.core.election_deadlines import first_year_election_deadline
from docgen.kinds.rrp.facts import Participant, PerformancePeriod, RRPElection

Reading = Literal["yes", "doubtful", "no"]
PRIOR_YEAR, FIRST_YEAR, PERFORMANCE_BASED = "prior-year", "first-year", "performance-based"
ROUTES = (PRIOR_YEAR, FIRST_YEAR, PERFORMANCE_BASED)


def worst(*readings: Reading) -> Reading:
    """All conditions of a route must hold: "no" if any fails, else "doubtful" if any is."""
    if "no" in readings:
        return "no"
    return "doubtful" if "doubtful" in readings else "yes"


def best(*readings: Reading) -> Reading:
    """Any route will do: "yes" if one passes, else "doubtful" if one might."""
    if "yes" in readings:
        return "yes"
    return "doubtful" if "doubtful" in readings else "no"


# ------------------------------------------------------------------ the period the pay is for


def earned_over(election: RRPElection) -> tuple[date, date]:
    """The period the elected pay is earned over: its performance period (a bonus's service
    period, or a performance period), else the Plan Year the election names."""
    period = election.performance_period
    if period is not None:
        return period.start, period.end
    return date(election.plan_year, 1, 1), dates.end_of_year(election.plan_year)


def earned_over_in(election: RRPElection, plan_year: int) -> tuple[date, date]:
    """The period a rolled-over election reaches in a later Plan Year: its own period, moved on
    by whole years (Plan 2.03(b): it applies "to subsequent Plan Years and performance periods")."""
    start, end = earned_over(election)
    years = plan_year - election.plan_year
    if years == 0:
        return start, end
    return dates.anniversary(start, years), dates.anniversary(end, years)


# ------------------------------------------------------------------ the prior-year route


def prior_year_deadline_for(election: RRPElection, plan_year: int) -> date:
    """Plan 2.03(b); DESIGN.md, "RRP election timing": December 31 before the Plan Year, or before
    the year in which the pay's period begins when that is earlier (a bonus for March to
    February)."""
    start, _ = earned_over_in(election, plan_year)
    return dates.december_31_before(min(plan_year, start.year))


def prior_year_deadline(election: RRPElection) -> date:
    """The prior-year deadline for the Plan Year the election names."""
    return prior_year_deadline_for(election, election.plan_year)


def hired_after(participant: Participant, deadline: date) -> str:
    """Words for a Participant hired after a prior-year deadline: that route was never theirs to
    use, and the first-year route needs ``first_eligible_on`` (empty when hired on or before it,
    or when the first-year route is recorded)."""
    hired = participant.hired_on
    if hired is None or hired <= deadline or participant.first_eligible_on is not None:
        return ""
    return (
        f" (hired {hired.isoformat()}, after that deadline: if first eligible in that Plan Year, "
        "record first_eligible_on for the first-year route of Plan 2.03(c))"
    )


def in_time_for_prior_year(election: RRPElection) -> Reading:
    return "yes" if election.made_on <= prior_year_deadline(election) else "no"


# ------------------------------------------------------------------ the first-year route


def first_year_route_open(participant: Participant, plan_year: int) -> bool:
    """The first-year route is considered for a Participant first eligible in the Plan Year."""
    eligible = participant.first_eligible_on
    return eligible is not None and eligible.year == plan_year


def first_eligible(participant: Participant) -> date:
    """The day the Participant first became eligible, for the first-year route, which is open
    only to a Participant who has one (first_year_route_open)."""
    eligible = participant.first_eligible_on
    if eligible is None:
        raise ValueError(f"{participant.id}: no first_eligible_on, so no first-year route")
    return eligible


def first_year_deadline(participant: Participant) -> date:
    """Plan 2.03(c): the 30th day after first eligibility (Treas. Reg. 1.409A-2(a)(7))."""
    return first_year_election_deadline(first_eligible(participant))


def newly_eligible(participant: Participant) -> Reading:
    """Treas. Reg. 1.409A-2(a)(7)(ii): not eligible at any time in the 24 months ending on the
    new eligibility date. A month-end start of the 24 months is counted both ways."""
    previous = participant.previously_eligible_until
    if previous is None:
        return "yes"
    strict, lenient = newly_eligible_readings(participant)
    if previous > lenient:
        return "no"
    return "doubtful" if previous > strict else "yes"


def newly_eligible_readings(participant: Participant) -> tuple[date, date]:
    """Both readings of "24 months before" first eligibility, the earlier first."""
    return dates.months_before_readings(first_eligible(participant), 24)


def in_time_for_first_year(participant: Participant, election: RRPElection) -> Reading:
    return "yes" if election.made_on <= first_year_deadline(participant) else "no"


def period_share(made_on: date, start: date, end: date) -> Decimal:
    """Treas. Reg. 1.409A-2(a)(7)(i): the share of pay earned over ``start`` to ``end`` that an
    election made on ``made_on`` may reach: days left in the period after the election / days in
    the period (all of it for an election made before the period begins)."""
    total = dates.days_in_period(start, end)
    if made_on < start:
        return Decimal(1)
    left = max(0, min(total, (end - made_on).days))
    return Decimal(left) / Decimal(total)


def first_year_share(election: RRPElection) -> Decimal:
    """The share of the pay's period still ahead of a first-year election."""
    start, end = earned_over(election)
    return period_share(election.made_on, start, end)


def first_year_deadline_for(participant: Participant, plan_year: int) -> date | None:
    """The first-year deadline when that route is available to the Participant for the Plan
    Year: first eligible in it and not shown to be ineligible for it (24 months); else None."""
    if not first_year_route_open(participant, plan_year) or newly_eligible(participant) == "no":
        return None
    return first_year_deadline(participant)


def own_deadline(participant: Participant, plan_year: int) -> date:
    """The Participant's own deadline for a Deferral Election for the Plan Year (DESIGN.md, "Stages
    and issued folders"): the first-year 30 days when that route is available, else December 31
    before the year."""
    return first_year_deadline_for(participant, plan_year) or dates.december_31_before(plan_year)


# ------------------------------------------------------------------ the performance-based route


def performance_period_of(election: RRPElection) -> PerformancePeriod:
    """A performance_based election's performance period, which the route is judged on (the
    facts refuse a performance_based election without one: RRPElection)."""
    period = election.performance_period
    if period is None:
        raise ValueError(f"a {election.kind} election has no performance_period")
    return period


def performance_based_readings(period: PerformancePeriod) -> tuple[date, date]:
    """Both readings of "six months before the end of the performance period", earlier first."""
    return dates.months_before_readings(period.end, 6)


def in_time_for_performance_based(election: RRPElection) -> Reading:
    strict, lenient = performance_based_readings(performance_period_of(election))
    if election.made_on > lenient:
        return "no"
    return "doubtful" if election.made_on > strict else "yes"


def performance_period_long_enough(period: PerformancePeriod) -> bool:
    """Plan 1.18; Treas. Reg. 1.409A-1(e): a performance period of at least 12 consecutive
    months."""
    return dates.add_months(period.start, 12) <= dates.days_after(period.end, 1)


def criteria_last_day(period: PerformancePeriod) -> date:
    """Plan 1.18: criteria established in writing no later than 90 days after the period begins."""
    return dates.days_after(period.start, 90)


def criteria_in_time(period: PerformancePeriod) -> Reading:
    criteria = period.criteria_established_on
    if criteria is None:
        return "doubtful"  # not recorded: performance-based timing cannot be confirmed
    return "yes" if criteria <= criteria_last_day(period) else "no"


def service_from(period: PerformancePeriod) -> date:
    """Treas. Reg. 1.409A-2(a)(8): continuous service from the later of the period's start and
    the date the criteria were established."""
    criteria = period.criteria_established_on
    return max(period.start, criteria) if criteria else period.start


def hired_in_time(participant: Participant, election: RRPElection) -> bool:
    hired = participant.hired_on
    return hired is None or hired <= service_from(performance_period_of(election))


def employed_at_election(participant: Participant, election: RRPElection) -> bool:
    termination = participant.termination
    return termination is None or termination.on >= election.made_on


def performance_based_qualifies(participant: Participant, election: RRPElection) -> Reading:
    """Every condition of the performance-based route but its deadline."""
    period = performance_period_of(election)
    return worst(
        "yes" if performance_period_long_enough(period) else "no",
        criteria_in_time(period),
        "yes" if hired_in_time(participant, election) else "no",
        "yes" if employed_at_election(participant, election) else "no",
    )


# ------------------------------------------------------------------ routes together


def open_routes(participant: Participant, election: RRPElection) -> tuple[str, ...]:
    """The routes open to this election: prior-year always, then first-year, performance-based."""
    routes = [PRIOR_YEAR]
    if first_year_route_open(participant, election.plan_year):
        routes.append(FIRST_YEAR)
    if election.kind == "performance_based":
        routes.append(PERFORMANCE_BASED)
    return tuple(routes)


def route_reading(route: str, participant: Participant, election: RRPElection) -> Reading:
    """Whether one route makes the election timely for the Plan Year it names."""
    if route == PRIOR_YEAR:
        return in_time_for_prior_year(election)
    if route == FIRST_YEAR:
        # No second cap on the percentage (DESIGN.md, "The Plan's arithmetic"): the pro-rating
        # of Plan 2.03(c) is applied once, to the pay the election reaches.
        return worst(
            in_time_for_first_year(participant, election),
            newly_eligible(participant),
        )
    return worst(
        in_time_for_performance_based(election),
        performance_based_qualifies(participant, election),
    )


def route_readings(participant: Participant, election: RRPElection) -> Mapping[str, Reading]:
    """Each open route's reading for the election, in route order. Worked out afresh on each
    call: the checker works them out once per run, in the participant's view (view.py)."""
    return MappingProxyType(
        {
            route: route_reading(route, participant, election)
            for route in open_routes(participant, election)
        }
    )


def timeliness(
    participant: Participant,
    election: RRPElection,
    readings: Mapping[str, Reading] | None = None,
) -> Reading:
    """Timely for the Plan Year it names on some open route ("doubtful": on one reading only).
    ``readings``: the election's route readings when already worked out."""
    if readings is None:
        readings = route_readings(participant, election)
    return best(*readings.values())


def route_deadline(route: str, participant: Participant, election: RRPElection) -> date:
    """The last day the route allows (the later reading, for a doubtful performance-based one)."""
    if route == PRIOR_YEAR:
        return prior_year_deadline(election)
    if route == FIRST_YEAR:
        return first_year_deadline(participant)
    strict, lenient = performance_based_readings(performance_period_of(election))
    return lenient if election.made_on > strict else strict


def irrevocable_on(
    participant: Participant,
    election: RRPElection,
    readings: Mapping[str, Reading] | None = None,
) -> date:
    """The day a timely election became irrevocable for the Plan Year it names (Plan 2.03(b)):
    the last deadline of the routes that make it timely; until then it may be revoked."""
    if readings is None:
        readings = route_readings(participant, election)
    timely = [route for route, reading in readings.items() if reading != "no"]
    return max(route_deadline(route, participant, election) for route in timely or [PRIOR_YEAR])


def only_after_the_election(
    participant: Participant,
    election: RRPElection,
    readings: Mapping[str, Reading] | None = None,
) -> bool:
    """Plan 2.03(c): an election timely only on the first-year route reaches only pay for
    services after it; one timely before its period, or on the performance-based route, all."""
    if readings is None:
        readings = route_readings(participant, election)
    return readings.get(FIRST_YEAR, "no") != "no" and all(
        reading == "no" for route, reading in readings.items() if route != FIRST_YEAR
    )
