"""The one date module: boundaries pinned by example, the rest by property."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from docgen.core import dates

days = st.dates(min_value=date(1990, 1, 1), max_value=date(2100, 12, 31))


@pytest.mark.parametrize(
    ("start", "months", "expected"),
    [
        (date(2026, 8, 31), 6, date(2027, 2, 28)),  # DESIGN.md's example, common year
        (date(2027, 8, 31), 6, date(2028, 2, 29)),  # ... and leap year
        (date(2026, 1, 31), 1, date(2026, 2, 28)),
        (date(2026, 3, 31), -1, date(2026, 2, 28)),
        (date(2026, 12, 31), -6, date(2026, 6, 30)),  # performance period ending Dec 31
        (date(2026, 6, 15), 0, date(2026, 6, 15)),
        (date(2026, 11, 30), 2, date(2027, 1, 30)),
    ],
)
def test_add_months_clamps_to_month_end(start, months, expected):
    assert dates.add_months(start, months) == expected


def test_month_end_reading_differs_only_for_month_ends():
    assert dates.add_months(date(2027, 2, 28), -6) == date(2026, 8, 28)
    assert dates.add_months_month_end(date(2027, 2, 28), -6) == date(2026, 8, 31)
    assert dates.add_months_month_end(date(2026, 12, 31), -6) == date(2026, 6, 30)
    assert dates.add_months_month_end(date(2026, 12, 15), -6) == date(2026, 6, 15)


@pytest.mark.parametrize(
    ("grant", "years", "expected"),
    [
        (date(2024, 2, 29), 1, date(2025, 2, 28)),
        (date(2024, 2, 29), 4, date(2028, 2, 29)),
        (date(2026, 6, 23), 1, date(2027, 6, 23)),
        (date(2026, 6, 23), 3, date(2029, 6, 23)),
    ],
)
def test_anniversary(grant, years, expected):
    assert dates.anniversary(grant, years) == expected


def test_within_days_after_boundary():
    eligible = date(2026, 3, 2)
    assert dates.days_after(eligible, 30) == date(2026, 4, 1)  # the last good day


@pytest.mark.parametrize(
    ("termination", "paid_from"),
    [
        (date(2026, 5, 29), date(2026, 12, 1)),
        (date(2026, 8, 31), date(2027, 3, 1)),  # Feb 28 anniversary -> March 1
        (date(2027, 8, 31), date(2028, 3, 1)),  # Feb 29 anniversary -> March 1
        (date(2026, 6, 30), date(2027, 1, 1)),  # year end
        (date(2026, 1, 1), date(2026, 8, 1)),
    ],
)
def test_first_of_month_after_six_month_anniversary(termination, paid_from):
    assert dates.first_of_month_after_six_month_anniversary(termination) == paid_from


def test_key_employee_period_starts_april_first_for_twelve_months():
    assert dates.key_employee_period(date(2025, 12, 31)) == (date(2026, 4, 1), date(2027, 3, 31))
    determinations = [date(2025, 12, 31)]
    assert not dates.is_key_employee_on(date(2026, 3, 31), determinations)
    assert dates.is_key_employee_on(date(2026, 4, 1), determinations)
    assert dates.is_key_employee_on(date(2027, 3, 31), determinations)
    assert not dates.is_key_employee_on(date(2027, 4, 1), determinations)
    assert not dates.is_key_employee_on(date(2026, 6, 1), [])


def test_words_for_documents():
    assert dates.long_date(date(2026, 6, 23)) == "June 23, 2026"
    assert dates.long_date(date(2027, 1, 1)) == "January 1, 2027"
    assert [dates.ordinal_word(n) for n in (1, 2, 3, 10, 12)] == [
        "first", "second", "third", "tenth", "twelfth",
    ]  # fmt: skip
    assert [dates.ordinal_suffix(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th",
    ]  # fmt: skip
    assert dates.ordinal_word(25) == "25th"


def test_december_31_before_and_period_length():
    assert dates.december_31_before(2026) == date(2025, 12, 31)
    assert dates.days_in_period(date(2026, 1, 1), date(2026, 12, 31)) == 365
    assert dates.days_in_period(date(2028, 1, 1), date(2028, 12, 31)) == 366


@given(days, st.integers(min_value=-240, max_value=240))
def test_add_months_lands_in_the_right_month_never_past_its_end(day, months):
    result = dates.add_months(day, months)
    assert (result.year * 12 + result.month) - (day.year * 12 + day.month) == months
    assert result.day == min(day.day, dates.last_day_of_month(result.year, result.month))


@given(days, st.integers(min_value=0, max_value=120), st.integers(min_value=0, max_value=120))
def test_add_months_is_monotonic(day, first, second):
    low, high = sorted((first, second))
    assert dates.add_months(day, low) <= dates.add_months(day, high)


@given(days)
def test_six_month_payment_date_is_a_first_and_after_the_anniversary(day):
    paid = dates.first_of_month_after_six_month_anniversary(day)
    assert paid.day == 1
    assert paid > dates.six_month_anniversary(day)
    assert paid - dates.six_month_anniversary(day) <= timedelta(days=31)


@given(days)
def test_key_employee_period_is_twelve_months(day):
    start, end = dates.key_employee_period(date(day.year, 12, 31))
    assert start == date(day.year + 1, 4, 1)
    assert end + timedelta(days=1) == date(day.year + 2, 4, 1)


@given(days, st.integers(min_value=1, max_value=50))
def test_anniversary_keeps_the_day_unless_feb_29(day, years):
    result = dates.anniversary(day, years)
    assert result.year == day.year + years and result.month == day.month
    if (day.month, day.day) != (2, 29):
        assert result.day == day.day
