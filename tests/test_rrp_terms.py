"""The RRP's Key Employee periods (Plan 1.14): boundaries pinned by example, the rest by
property."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import given
from hypothesis import strategies as st

from docgen.kinds.rrp.terms import is_key_employee_on, key_employee_period

days = st.dates(min_value=date(1990, 1, 1), max_value=date(2100, 12, 31))


def test_key_employee_period_starts_april_first_for_twelve_months():
    assert key_employee_period(date(2025, 12, 31)) == (date(2026, 4, 1), date(2027, 3, 31))
    determinations = [date(2025, 12, 31)]
    assert not is_key_employee_on(date(2026, 3, 31), determinations)  # the day before
    assert is_key_employee_on(date(2026, 4, 1), determinations)  # the first day
    assert is_key_employee_on(date(2027, 3, 31), determinations)  # the last day
    assert not is_key_employee_on(date(2027, 4, 1), determinations)  # the day after
    assert not is_key_employee_on(date(2026, 6, 1), [])


def test_key_employee_period_over_a_leap_february():
    # A determination on Dec 31, 2026 runs April 1, 2027 to March 31, 2028, Feb 29 included.
    assert key_employee_period(date(2026, 12, 31)) == (date(2027, 4, 1), date(2028, 3, 31))
    assert is_key_employee_on(date(2028, 2, 29), [date(2026, 12, 31)])


@given(days)
def test_key_employee_period_is_twelve_months(day):
    start, end = key_employee_period(date(day.year, 12, 31))
    assert start == date(day.year + 1, 4, 1)
    assert end + timedelta(days=1) == date(day.year + 2, 4, 1)
