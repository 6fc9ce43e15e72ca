"""Calendar arithmetic, and dates as the documents write them: months added with month-end
clamping, anniversaries, "within N days after", the length of a period; long dates and ordinals.

Nothing here knows a plan: each kind's deadlines are its own (docgen.kinds.*), and the deadlines
Code section 409A sets for every kind are docgen.core.election_deadlines, all built on these.

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
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)

_ORDINALS = (
    "zeroth",
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
)


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
    """ "The first day of the month following the six-month anniversary" of ``day`` (the RRP's
    Plan 4.01(b) pays a Key Employee so)."""
    return first_of_next_month(six_month_anniversary(day))


def end_of_year(year: int) -> date:
    return date(year, 12, 31)


def december_31_before(year: int) -> date:
    """December 31 of the year before ``year``: the last day to elect for ``year`` under the
    prior-year rule (Treas. Reg. 1.409A-2(a)(3))."""
    return date(year - 1, 12, 31)


def day_before(day: date) -> date:
    """The last day that is "prior to" ``day`` (an Exhibit I is filed PRIOR TO its deadline)."""
    return day - timedelta(days=1)


def days_in_period(start: date, end: date) -> int:
    """Days from ``start`` to ``end``, both counted."""
    return (end - start).days + 1


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
_WRITTEN = re.compile(
    r"^(?P<month>[A-Za-z]+)\.?\s+(?P<day>\d{1,2})(?:st|nd|rd|th)?\s*,?\s+(?P<year>\d{4})$"
)
_DAY_FIRST = re.compile(
    r"^(?P<day>\d{1,2})(?:st|nd|rd|th)?\s+(?P<month>[A-Za-z]+)\.?\s*,?\s+(?P<year>\d{4})$"
)
_NUMERIC = re.compile(r"^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$")
_ISO = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")


class NotADate(ValueError):
    """Text that is not a date written the two ways a form accepts."""


def parse_written_date(text: str) -> date:
    """A date as a person writes it on a form, accepted when it can be read only one way: ISO
    ``2030-07-01``; ``July 1, 2030`` (``Jul. 1 2030``, ``January 1st, 2031``); ``1 July 2030``
    (``24 Apr. 2026``); and numbers with a four-digit year when only one reading is a date
    (``04/24/2026``: 24 cannot be a month; ``05/05/2026`` reads the same either way). Raises
    NotADate for anything else, including ``07/01/2030``: on a form sent to directors abroad it
    can be read as January 7 or July 1, and docgen never guesses."""
    cleaned = " ".join(text.split())
    iso = _ISO.match(cleaned)
    written = _WRITTEN.match(cleaned) or _DAY_FIRST.match(cleaned)
    try:
        if iso:
            return date(int(iso.group(1)), int(iso.group(2)), int(iso.group(3)))
        if written and written.group("month").lower() in _MONTH_NUMBERS:
            month = _MONTH_NUMBERS[written.group("month").lower()]
            return date(int(written.group("year")), month, int(written.group("day")))
    except ValueError:
        raise NotADate(f"{text!r} is not a real calendar date") from None
    numbers = _NUMERIC.match(cleaned)
    if numbers:
        return _one_reading(text, *(int(part) for part in numbers.groups()))
    if re.match(r"^\d{1,2}[/.-]\d{1,2}[/.-]\d{2}$", cleaned):
        raise NotADate(
            f"{text!r} gives the year in two digits: write it as July 1, 2030 or 2030-07-01"
        )
    raise NotADate(f"{text!r} is not a date: write it as July 1, 2030 or 2030-07-01")


def _one_reading(text: str, first: int, second: int, year: int) -> date:
    """``first/second/year`` as month/day or day/month: the one reading that is a calendar
    date; NotADate when both are (and differ) or neither is."""
    readings = set()
    for month, day in ((first, second), (second, first)):
        try:
            readings.add(date(year, month, day))
        except ValueError:
            continue
    if len(readings) == 1:
        return readings.pop()
    if readings:
        raise NotADate(
            f"{text!r} can be read as two different dates (month/day or day/month); "
            "write it as July 1, 2030 or 2030-07-01"
        )
    raise NotADate(f"{text!r} is not a real calendar date")
