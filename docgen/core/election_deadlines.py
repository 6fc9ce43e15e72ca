"""The deadlines Treas. Reg. 1.409A-2(a) sets for an initial deferral election that do not
depend on a kind's plan: the 30 days of a newly eligible person and the forfeitable-right route.

Each kind builds its own deadlines on these (docgen.kinds.rrp.timing, the director RSU windows and
rules); the date arithmetic under them is docgen.core.dates.
"""

from __future__ import annotations

from datetime import date

from docgen.core.dates import add_months, days_after


def first_year_election_deadline(first_eligible_on: date) -> date:
    """Treas. Reg. 1.409A-2(a)(7) (Plan 2.03(c) for the RRP): the last day "within 30 days
    after" first becoming eligible."""
    return days_after(first_eligible_on, 30)


def vests_within_12_months(grant_date: date, earliest_vesting: date) -> bool:
    """True when the right can vest less than 12 months after the grant, which closes the
    forfeitable-right route of Treas. Reg. 1.409A-2(a)(5)."""
    return earliest_vesting < add_months(grant_date, 12)


def forfeitable_right_election_deadline(grant_date: date, earliest_vesting: date) -> date | None:
    """Treas. Reg. 1.409A-2(a)(5): the last day to elect on a right that cannot vest for at least
    12 months: within 30 days after the grant AND at least 12 months before the earliest vesting
    (the earlier, safe reading of "12 months" at a month-end). None when vesting can come sooner
    than 12 months after the grant: the route is closed.
    """
    if vests_within_12_months(grant_date, earliest_vesting):
        return None
    return min(days_after(grant_date, 30), add_months(earliest_vesting, -12))
