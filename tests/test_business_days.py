"""The SEC's business days (Regulation S-T Rule 11) and the Form 4 due date counted on them
(RSU-FORM4-DUE): the holiday file checked against 5 U.S.C. 6103's rules computed here
independently, and the due dates pinned across the holidays that move them."""

from __future__ import annotations

import calendar
from datetime import date, timedelta

import pytest

from docgen.core.business_days import (
    UncoveredYear,
    business_days_after,
    form4_due,
    holiday_calendar,
    is_business_day,
)


def _nth_monday(year: int, month: int, n: int) -> date:
    mondays = [
        week[calendar.MONDAY]
        for week in calendar.monthcalendar(year, month)
        if week[calendar.MONDAY]
    ]
    return date(year, month, mondays[n - 1] if n > 0 else mondays[-1])


def _statute(year: int) -> list[date]:
    """5 U.S.C. 6103(a) for ``year``, each moved to its observed day (6103(b); E.O. 11582)."""
    thursdays = [
        week[calendar.THURSDAY]
        for week in calendar.monthcalendar(year, 11)
        if week[calendar.THURSDAY]
    ]
    days = [
        date(year, 1, 1),
        _nth_monday(year, 1, 3),
        _nth_monday(year, 2, 3),
        _nth_monday(year, 5, -1),
        date(year, 6, 19),
        date(year, 7, 4),
        _nth_monday(year, 9, 1),
        _nth_monday(year, 10, 2),
        date(year, 11, 11),
        date(year, 11, thursdays[3]),
        date(year, 12, 25),
    ]
    moved = {5: -1, 6: 1}  # Saturday: the Friday before; Sunday: the Monday after
    return [day + timedelta(days=moved.get(day.weekday(), 0)) for day in days]


def test_the_holiday_file_is_the_statute_on_its_observed_days():
    listed = holiday_calendar()
    years = listed.years
    assert years == list(range(2024, 2031))
    expected = sorted(
        day for year in range(2024, 2032) for day in _statute(year) if day.year in years
    )
    assert sorted(h.day for h in listed.holidays) == expected
    # A Saturday New Year's Day (2028) is observed on Friday, December 31, 2027.
    assert date(2027, 12, 31) in {h.day for h in listed.holidays}
    assert listed.reference.href.startswith("https://www.opm.gov/")


@pytest.mark.parametrize(
    ("grant", "due"),
    [
        (date(2026, 11, 25), date(2026, 11, 30)),  # the Wednesday before Thanksgiving: Monday
        (date(2026, 12, 23), date(2026, 12, 28)),  # Christmas on a Friday
        (date(2027, 12, 22), date(2027, 12, 27)),  # Christmas on a Saturday, observed Friday
        (date(2026, 12, 30), date(2027, 1, 4)),  # New Year's Day on a Friday
        (date(2027, 12, 29), date(2028, 1, 3)),  # New Year's Day 2028 observed Dec 31, 2027
        (date(2026, 6, 25), date(2026, 6, 29)),  # a weekend
        (date(2026, 6, 27), date(2026, 6, 30)),  # a grant on a Saturday
        (date(2028, 2, 28), date(2028, 3, 1)),  # February 29 is a business day
        (date(2029, 1, 19), date(2029, 1, 23)),  # MLK Day; Inauguration Day 2029 is a Saturday
    ],
)
def test_form4_due_dates_are_pinned(grant, due):
    assert form4_due(grant) == due


def test_the_day_after_thanksgiving_is_a_business_day():
    assert not is_business_day(date(2026, 11, 26))
    assert is_business_day(date(2026, 11, 27))
    assert business_days_after(date(2026, 11, 25), 1) == date(2026, 11, 27)


def test_a_year_not_listed_is_refused_naming_it():
    with pytest.raises(UncoveredYear) as caught:
        form4_due(date(2031, 3, 3))
    assert caught.value.exit_code == 2
    assert "no Federal holidays listed for 2031" in str(caught.value)
    # The last days of 2030 count into 2031: refused too, not guessed.
    with pytest.raises(UncoveredYear):
        form4_due(date(2030, 12, 31))
