"""Each Eligible Employee's routes to a Deferral Election for the Plan Year (Plan 2.03): the
prior-year deadline, the first-year route and each performance-based route."""

from __future__ import annotations

from datetime import date

from docgen.core import dates
from docgen.core.windows import ElectionWindow, no_empty_window
from docgen.kinds.rrp.facts import Participant, RRPPlanYearFacts
from docgen.kinds.rrp.timing import first_year_deadline_for, performance_based_readings


def rrp_windows(facts: RRPPlanYearFacts) -> list[ElectionWindow]:
    """Each Eligible Employee's routes to a Deferral Election for the Plan Year (Plan 2.03)."""
    return [
        window
        for participant in facts.participants
        if participant.eligible_employee  # Plan 1.11, 2.01: only an Eligible Employee may elect.
        for window in participant_windows(facts, participant)
    ]


def participant_windows(facts: RRPPlanYearFacts, participant: Participant) -> list[ElectionWindow]:
    """One participant's routes: the prior-year deadline, the first-year route when it is
    available this Plan Year (timing.first_year_deadline_for), one performance-based route per
    performance period."""
    year = facts.plan_year
    document = f"RRP Deferral Election {year}"
    who = (participant.id, participant.name, document)
    # Someone hired (or first eligible) after a window closed never had it open.
    known = [day for day in (participant.hired_on, participant.first_eligible_on) if day]
    eligible_from = max(known) if known else None
    prior_year = ElectionWindow(
        *who,
        route="prior-year",
        rule="December 31 before the Plan Year (Plan 2.03(b); Treas. Reg. 1.409A-2(a)(3))",
        opens_on=None,
        closes_on=dates.december_31_before(year),
        eligible_from=eligible_from,
    )
    windows = [prior_year]
    eligible, first_year = participant.first_eligible_on, first_year_deadline_for(participant, year)
    if first_year is not None:
        windows.append(
            ElectionWindow(
                *who,
                route="first-year",
                rule="within 30 days after first becoming eligible (Plan 2.03(c); "
                "Treas. Reg. 1.409A-2(a)(7))",
                opens_on=eligible,
                closes_on=first_year,
                note="reaches only pay for services after the election",
                eligible_from=eligible_from,
            )
        )
    seen: set[tuple[date, date]] = set()
    for election in participant.elections:
        period = election.performance_period  # a performance_based election has one
        if period is None or election.kind != "performance_based" or election.plan_year != year:
            continue
        if (period.start, period.end) in seen:
            continue
        seen.add((period.start, period.end))
        # The earlier reading of "six months before" a month-end is the window's last day.
        closes, other = performance_based_readings(period)
        note = None
        if other != closes:
            note = (
                f"counting six months from a month-end the other way gives {other}; "
                "this is the earlier, safe day"
            )
        windows.append(
            ElectionWindow(
                *who,
                route=f"performance-based-{period.end.isoformat()}",
                rule=f"six months before the performance period {period.start} to {period.end} "
                "ends (Plan 1.18, 2.03(b); Treas. Reg. 1.409A-2(a)(8))",
                opens_on=period.start,
                closes_on=closes,
                note=note,
                period_end=period.end,
                eligible_from=eligible_from,
            )
        )
    return [no_empty_window(window) for window in windows]
