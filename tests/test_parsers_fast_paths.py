"""The readers' fast paths (docgen.core.parsers): a date written as YYYY-MM-DD and a JSON file's
whole number are read without the general reading, and read exactly as it reads them; anything
else still goes the general way, with its words."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic_core import PydanticCustomError

from docgen.core.parsers import _WHOLE_LIMIT, parse_date, parse_decimal


def _general_date(value: str) -> date | str:
    """The general reading of a date's text, as parse_date read every text before its fast path:
    stripped, matched, then read by the calendar."""
    import re

    text = value.strip()
    if not re.match(r"^\d{4}-\d{2}-\d{2}$", text):
        return "expected a date as YYYY-MM-DD"
    try:
        day = date.fromisoformat(text)
    except ValueError:
        return "not a real calendar date"
    if not date(1900, 1, 1) <= day <= date(2199, 12, 31):
        return "a date outside the years 1900 to 2199"
    return day


def _read_date(value: object) -> date | str:
    try:
        return parse_date(value)
    except PydanticCustomError as error:
        return str(error)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-06-23", date(2026, 6, 23)),
        ("2024-02-29", date(2024, 2, 29)),  # a leap day
        ("2026-02-29", "not a real calendar date"),
        ("2026-01-05\n", date(2026, 1, 5)),  # $ matches before a final line break: stripped first
        (" 2026-01-05", date(2026, 1, 5)),
        ("1899-12-31", "a date outside the years 1900 to 2199"),
        ("2200-01-01", "a date outside the years 1900 to 2199"),
        ("\u0662\u0660\u0662\u0666-\u0660\u0661-\u0660\u0665", "not a real calendar date"),
        ("2026-1-05", "expected a date as YYYY-MM-DD"),
    ],
)
def test_a_dates_text_reads_as_the_general_reading_reads_it(text, expected):
    assert _general_date(text) == expected
    assert _read_date(text) == expected


@given(st.text(alphabet="0123456789-\n \t\u0660\u0665", min_size=8, max_size=12))
def test_any_date_like_text_reads_as_the_general_reading(text):
    assert _read_date(text) == _general_date(text)


def test_a_date_and_time_is_still_refused_and_a_date_still_taken():
    assert "not a date and time" in str(_read_date(datetime(2026, 6, 23, 9, 0)))
    assert _read_date(date(2026, 6, 23)) == date(2026, 6, 23)


@pytest.mark.parametrize("number", [0, 7, -12, _WHOLE_LIMIT - 1, -(_WHOLE_LIMIT - 1)])
def test_a_whole_number_in_bounds_is_that_decimal(number):
    assert parse_decimal(number) == Decimal(number)
    assert parse_decimal(number).as_tuple() == Decimal(number).as_tuple()


@pytest.mark.parametrize("number", [_WHOLE_LIMIT, -_WHOLE_LIMIT, 10**40])
def test_a_whole_number_out_of_bounds_is_still_refused(number):
    with pytest.raises(PydanticCustomError, match="too many digits"):
        parse_decimal(number)


@pytest.mark.parametrize("flag", [True, False])
def test_a_boolean_is_not_a_number(flag):
    with pytest.raises(PydanticCustomError, match="expected a number"):
        parse_decimal(flag)
