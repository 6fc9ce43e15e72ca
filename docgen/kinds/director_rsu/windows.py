"""Each non-employee director's election windows for a grant: the Exhibit I deadline and the Code
409A routes (a), (b) and (c), from the same date rules the checker uses."""

from __future__ import annotations

from datetime import date

from docgen.core import dates
from docgen.core.business_days import UncoveredYear, form4_due
from docgen.core.election_deadlines import (
    first_year_election_deadline,
    forfeitable_right_election_deadline,
)
from docgen.core.windows import ElectionWindow, FilingDue
from docgen.kinds.director_rsu.facts import DirectorGrantFacts
from docgen.kinds.director_rsu.terms import scheduled_vesting_date


def director_windows(facts: DirectorGrantFacts) -> list[ElectionWindow]:
    """Each non-employee director's Exhibit I deadline and Code 409A routes for the grant."""
    grant = facts.grant
    document = f"Exhibit I, grant {grant.id}"
    vesting = scheduled_vesting_date(grant)  # the earliest vesting on service alone
    route_b = forfeitable_right_election_deadline(grant.grant_date, vesting)
    windows: list[ElectionWindow] = []
    for director in facts.directors:
        if director.employee:
            continue  # Notice F.1, Exhibit I: for non-employee Directors only.
        who = (director.id, director.name, document)
        eligible_from = director.first_eligible_on
        exhibit_i = ElectionWindow(
            *who,
            route="exhibit-i",
            rule=f"Exhibit I must be filed prior to {dates.long_date(grant.election_deadline)} "
            "(Notice F.3; Exhibit I)",
            opens_on=None,
            closes_on=dates.day_before(grant.election_deadline),
            eligible_from=eligible_from,
        )
        route_a = ElectionWindow(
            *who,
            route="409a-a",
            rule="(a) December 31 before the grant year (Code 409A(a)(4)(B); "
            "Treas. Reg. 1.409A-2(a)(3))",
            opens_on=None,
            closes_on=dates.december_31_before(grant.grant_date.year),
            eligible_from=eligible_from,
        )
        windows += [exhibit_i, route_a]
        if route_b is not None:
            windows.append(
                ElectionWindow(
                    *who,
                    route="409a-b",
                    rule="(b) within 30 days after the grant and at least 12 months before the "
                    f"earliest vesting {vesting} (Treas. Reg. 1.409A-2(a)(5))",
                    # "On or before the 30th day after" the grant: an election before the grant
                    # date counts too, as RSU-ELECTION-409A-TIMING reads it, so no first day.
                    opens_on=None,
                    closes_on=route_b,
                    eligible_from=eligible_from,
                )
            )
        if director.first_eligible_on is not None:
            windows.append(
                ElectionWindow(
                    *who,
                    route="409a-c",
                    rule="(c) within 30 days after first becoming eligible "
                    "(Treas. Reg. 1.409A-2(a)(7))",
                    opens_on=director.first_eligible_on,
                    closes_on=first_year_election_deadline(director.first_eligible_on),
                    eligible_from=eligible_from,
                )
            )
    return windows + form4_windows(facts)


FORM4_RULE = (
    "Form 4 due before the end of the second business day after the grant date "
    "(Exchange Act Section 16(a)(2)(C); Rule 16a-3(g)(1))"
)


def form4_filings(facts: DirectorGrantFacts) -> list[FilingDue]:
    """Each director's Form 4 for the grant: its due date and the day filed, if recorded."""
    grant = facts.grant
    note = None
    try:
        due: date | None = form4_due(grant.grant_date)
    except UncoveredYear as error:
        due, note = None, error.problems[0].what
    return [
        FilingDue(
            director.id,
            director.name,
            f"Form 4, grant {grant.id}",
            FORM4_RULE,
            due,
            director.form4_filed_on,
            note,
        )
        for director in facts.directors
    ]


def form4_windows(facts: DirectorGrantFacts) -> list[ElectionWindow]:
    """Each director's Form 4 for the grant: from the grant date to the end of the second business
    day after it (RSU-FORM4-DUE). Not an election, but a deadline the same calendar carries. A grant
    in a year the holiday calendar does not list has no window here; `docgen check` says why."""
    grant = facts.grant
    try:
        due = form4_due(grant.grant_date)
    except UncoveredYear:
        return []
    return [
        ElectionWindow(
            director.id,
            director.name,
            f"Form 4, grant {grant.id}",
            route="form4",
            rule=FORM4_RULE,
            opens_on=grant.grant_date,
            closes_on=due,
        )
        for director in facts.directors
        if director.form4_filed_on is None
    ]
