"""A number's source text read by docgen.core.numbers: the digits-only fast path reads exactly
what the full reading does, and refuses what it refuses."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from docgen.core import numbers
from docgen.core.numbers import MAX_WHOLE_DIGITS, NumberFormError, decimal_from_text


def _full_reading(text: str) -> Decimal | str:
    """The reading without the fast path: the plain-number match, then its diagnosis."""
    match = numbers._PLAIN.fullmatch(text)
    try:
        if match is None or len(text) > MAX_WHOLE_DIGITS or match.group(1):
            numbers._plain(text.strip(), '10 or "45.10"', "decimal")
        return Decimal(text)
    except NumberFormError as error:
        return f"refused: {error}"


def _reading(text: str) -> Decimal | str:
    try:
        return decimal_from_text(text)
    except NumberFormError as error:
        return f"refused: {error}"


@pytest.mark.parametrize(
    "text",
    [
        "0",
        "7",
        "50",
        "864000",
        "9" * MAX_WHOLE_DIGITS,
        "1" + "0" * MAX_WHOLE_DIGITS,
        "007",
        "00",
        "0123",
        "\u0663",
        "\u00b2",
        "12\u0663",
        "-5",
        "5.5",
        "",
    ],
)
def test_digits_read_as_the_full_reading_reads_them(text):
    assert _reading(text) == _full_reading(text)


@given(st.text(alphabet="0123456789\u0663\u00b2-.", max_size=18))
def test_any_digit_text_reads_as_the_full_reading_reads_it(text):
    assert _reading(text) == _full_reading(text)


def test_a_whole_number_in_digits_is_that_number_exactly():
    assert decimal_from_text("864000") == Decimal(864000)
    assert str(decimal_from_text("0")) == "0"
    with pytest.raises(NumberFormError, match="leading zero"):
        decimal_from_text("02450")
    with pytest.raises(NumberFormError, match="too many digits"):
        decimal_from_text("1" * (MAX_WHOLE_DIGITS + 1))


def _full_whole(text: str) -> int | str:
    """whole_from_text without its digits-only fast path."""
    try:
        stripped = text.strip()
        match = numbers._plain(stripped, "2450", "whole")
        if match.group(3) is not None:
            return "refused: expected a whole number"
        return int(stripped)
    except NumberFormError as error:
        return f"refused: {error}"


@given(st.text(alphabet="0123456789\u0663\u00b2-. ", max_size=18))
def test_a_whole_number_reads_as_the_full_reading_reads_it(text):
    try:
        read: int | str = numbers.whole_from_text(text)
    except NumberFormError as error:
        read = f"refused: {error}"
    assert read == _full_whole(text)
