"""Calendar arithmetic for the Plan, Code section 409A and the documents: one function per rule.

Conventions (DESIGN.md, "Rule catalogue"):

* "within N days after D" means on or before ``D + N days``;
* "N months" adds calendar months and clamps to the end of the month, so
  Aug 31 + 6 months is Feb 28, or Feb 29 in a leap year;
* an anniversary of a Feb 29 date falls on Feb 28 in a common year (the same clamping).
"""

from __future__ import annotations

import calendar
import re
from datetime import date, timedelta

_MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip

_ORDINALS = (
    "zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
    "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth",
    "sixteenth", "seventeenth", "eighteenth", "nineteenth", "twentieth",
)  # fmt: skip


def last_day_of_month(year: int, month: int) -> int:
    """The number of the last day of a month (28, 29, 30 or 31)."""
    return calendar.monthrange(year, month)[1]


def is_month_end(day: date) -> bool:
    return day.day == last_day_of_month(day.year, day.month)


def add_months(day: date, months: int) -> date:
    """``day`` plus (or minus) calendar months, clamped to the end of the target month."""
    index = day.year * 12 + (day.month - 1) + months
    year, month = divmod(index, 12)
    month += 1
    return date(year, month, min(day.day, last_day_of_month(year, month)))


def add_months_month_end(day: date, months: int) -> date:
    """The other reading of "N months" for a month-end date: the end of the target month.

    Feb 28, 2026 + 6 months is Aug 28 by :func:`add_months` but Aug 31 on this reading.
    Where the two readings of a 409A period differ, the checker warns rather than choose.
    """
    shifted = add_months(day, months)
    if is_month_end(day):
        return shifted.replace(day=last_day_of_month(shifted.year, shifted.month))
    return shifted


def months_before_readings(day: date, months: int) -> tuple[date, date]:
    """Both readings of "the date ``months`` months before ``day``", the earlier first.

    Sep 30 less 6 months is Mar 30 by :func:`add_months` but Mar 31 by
    :func:`add_months_month_end`; for Dec 31 both give June 30. A date between the two passes
    on one reading only: the checker warns instead of choosing (DESIGN.md, "Rule catalogue").
    """
    clamped, month_end = add_months(day, -months), add_months_month_end(day, -months)
    return min(clamped, month_end), max(clamped, month_end)


def anniversary(day: date, years: int) -> date:
    """The ``years``-th anniversary of ``day`` (a Feb 29 date's falls on Feb 28 in common years)."""
    return add_months(day, 12 * years)


def days_after(day: date, days: int) -> date:
    """The last day that is "within ``days`` days after" ``day``."""
    return day + timedelta(days=days)


def first_of_next_month(day: date) -> date:
    """The first day of the month following the month of ``day``."""
    return add_months(day.replace(day=1), 1)


def six_month_anniversary(day: date) -> date:
    """Six calendar months after ``day`` (clamped to month end)."""
    return add_months(day, 6)


def first_of_month_after_six_month_anniversary(day: date) -> date:
    """Plan 4.01(b): "the first day of the month following the six-month anniversary"."""
    return first_of_next_month(six_month_anniversary(day))


def end_of_year(year: int) -> date:
    return date(year, 12, 31)


def december_31_before(year: int) -> date:
    """The last day to elect for a year under the prior-year rule (Treas. Reg. 1.409A-2(a)(3))."""
    return date(year - 1, 12, 31)


def day_before(day: date) -> date:
    """The last day that is "prior to" ``day`` (Exhibit I: filed PRIOR TO the deadline)."""
    return day - timedelta(days=1)


def first_year_election_deadline(first_eligible_on: date) -> date:
    """Plan 2.03(c), Treas. Reg. 1.409A-2(a)(7): the last day "within 30 days after" eligibility."""
    return days_after(first_eligible_on, 30)


def performance_based_election_deadline(period_end: date) -> date:
    """Plan 2.03(b); Treas. Reg. 1.409A-2(a)(8): six months before the performance period ends.

    Calendar months back with month-end clamping (Dec 31 -> June 30). For a month-end period end
    whose other reading differs (Feb 28 -> Aug 28 or Aug 31) this is the earlier, safe date;
    :func:`add_months_month_end` gives the other reading for the checker's warning.
    """
    return add_months(period_end, -6)


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


def days_in_period(start: date, end: date) -> int:
    """Days from ``start`` to ``end``, both counted."""
    return (end - start).days + 1


def key_employee_period(determination: date) -> tuple[date, date]:
    """The 12-month Key Employee period that a December 31 determination starts.

    Plan 1.14: a Participant who is a specified employee as of December 31 "will be considered a
    Key Employee ... for the 12-month period commencing on the next following April 1".
    Returns the first and the last day of that period.
    """
    start = date(determination.year + 1, 4, 1)
    end = add_months(start, 12) - timedelta(days=1)
    return start, end


def is_key_employee_on(day: date, determinations: list[date] | tuple[date, ...]) -> bool:
    """True when a determination's April 1 is on or before ``day``, less than 12 months before."""
    for determination in determinations:
        start, end = key_employee_period(determination)
        if start <= day <= end:
            return True
    return False


def long_date(day: date) -> str:
    """ "June 23, 2026", as the documents write dates."""
    return f"{_MONTHS[day.month - 1]} {day.day}, {day.year}"


def ordinal_word(number: int) -> str:
    """ "first", "third", "twelfth": anniversaries as the Notice words them."""
    if 0 <= number < len(_ORDINALS):
        return _ORDINALS[number]
    return ordinal_suffix(number)


def ordinal_suffix(number: int) -> str:
    """ "1st", "22nd", "113th"."""
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


_MONTH_NUMBERS = {name.lower(): number for number, name in enumerate(_MONTHS, start=1)}
_MONTH_NUMBERS.update({name[:3].lower(): number for number, name in enumerate(_MONTHS, start=1)})
_MONTH_NUMBERS["sept"] = 9
_WRITTEN = re.compile(r"^([A-Za-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?\s*,?\s+(\d{4})$")
_ISO = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")


class NotADate(ValueError):
    """Text that is not a date written the two ways a form accepts."""


def parse_written_date(text: str) -> date:
    """A date as a person writes it on a form: ISO ``2030-07-01`` or ``July 1, 2030`` (``Jul 1
    2030`` too). Raises NotADate for anything else, including ``07/01/2030``: on a form sent
    to directors abroad it can be read as January 7 or July 1, and docgen never guesses."""
    cleaned = " ".join(text.split())
    iso = _ISO.match(cleaned)
    written = _WRITTEN.match(cleaned)
    try:
        if iso:
            return date(int(iso.group(1)), int(iso.group(2)), int(iso.group(3)))
        if written and written.group(1).lower() in _MONTH_NUMBERS:
            month = _MONTH_NUMBERS[written.group(1).lower()]
            return date(int(written.group(3)), month, int(written.group(2)))
    except ValueError:
        raise NotADate(f"{text!r} is not a real calendar date") from None
    if re.match(r"^\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}$", cleaned):
        raise NotADate(
            f"{text!r} can be read as two different dates (month/day or day/month); "
            "write it as July 1, 2030 or 2030-07-01"
        )
    raise NotADate(f"{text!r} is not a date: write it as July 1, 2030 or 2030-07-01")
