"""The readers of fact values, one per kind of field: each takes what a facts file (or a program)
gave and returns the value, or raises a form error with what is wrong and how to fix it.

Dates, numbers and text each have documented bounds (docs/fact-files.md): a date from
EARLIEST_DATE to LATEST_DATE, numbers read from the digits written (docgen.core.numbers), text of
at most TEXT_MAX_LENGTH characters with no character that changes how other text shows
(docgen.core.safe_text). docgen.core.model builds the field types from them.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from pydantic_core import PydanticCustomError

from docgen.core.numbers import (
    MAX_WHOLE_DIGITS,
    NumberFormError,
    SourceNumber,
    check_decimal,
    decimal_from_text,
    whole_from_text,
)
from docgen.core.safe_text import describe, first_unsafe

ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def form_error(what: str, fix: str, field: str | None = None) -> PydanticCustomError:
    """A form error with its fix; ``field`` points below the model that raised it."""
    ctx: dict[str, Any] = {"what": what, "fix": fix}
    if field:
        ctx["field"] = field
    return PydanticCustomError("docgen_form", "{what}", ctx)


EARLIEST_DATE = date(1900, 1, 1)
LATEST_DATE = date(2199, 12, 31)
TEXT_MAX_LENGTH = 200  # characters in one text fact: a name, an address line, a plan's name
ADDRESS_MAX_LINES = 6
MAX_ANNIVERSARY = 50  # vesting or payment on the Nth anniversary of the Grant Date
_WHOLE_LIMIT = 10**MAX_WHOLE_DIGITS


def parse_date(value: Any) -> date:
    if type(value) is str and len(value) == 10 and ISO_DATE.match(value):  # written as it should be
        try:
            day = date.fromisoformat(value)
        except ValueError:
            raise form_error(
                "not a real calendar date", "Check the month and day (YYYY-MM-DD)."
            ) from None
    elif isinstance(value, datetime):
        raise form_error(
            "expected a date, not a date and time", "Write the date alone as YYYY-MM-DD."
        )
    elif isinstance(value, date):
        day = value
    elif isinstance(value, str) and ISO_DATE.match(value.strip()):
        try:
            day = date.fromisoformat(value.strip())
        except ValueError:
            raise form_error(
                "not a real calendar date", "Check the month and day (YYYY-MM-DD)."
            ) from None
    else:
        raise form_error("expected a date as YYYY-MM-DD", "Write it like 2026-06-23.")
    if not EARLIEST_DATE <= day <= LATEST_DATE:
        raise form_error(
            f"a date outside the years {EARLIEST_DATE.year} to {LATEST_DATE.year}",
            f"Check the year: docgen works with dates from {EARLIEST_DATE.isoformat()} to "
            f"{LATEST_DATE.isoformat()}.",
        )
    return day


def _number_error(error: NumberFormError) -> PydanticCustomError:
    return form_error(error.what, error.fix)


def parse_decimal(value: Any, *, money: bool = False) -> Decimal:
    """Money and percentages: exact decimals, from a file's source text or a program's value."""
    try:
        if type(value) is SourceNumber:  # a file's number (each YAML number is one): its text
            return decimal_from_text(value.text, money=money)
        if type(value) is str:  # a CSV's cell (a percent, an amount): its text
            return decimal_from_text(value, money=money)
        if type(value) is int and -_WHOLE_LIMIT < value < _WHOLE_LIMIT:
            return Decimal(value)  # a JSON file's whole number, exact and in bounds
        if isinstance(value, bool):
            raise NumberFormError("expected a number", 'Write a number such as 10 or "45.10".')
        if isinstance(value, SourceNumber | str):
            return decimal_from_text(str(value), money=money)
        if isinstance(value, Decimal):
            return check_decimal(value)
        if isinstance(value, int):
            if -_WHOLE_LIMIT < value < _WHOLE_LIMIT:  # the usual case, in bounds by construction
                return Decimal(value)
            return check_decimal(Decimal(value))
        if isinstance(value, float):
            return check_decimal(Decimal(repr(value)))  # a program's float: the digits it shows
    except NumberFormError as error:
        raise _number_error(error) from None
    raise form_error("expected a number", 'Write a number such as 10 or "45.10".')


def parse_money(value: Any) -> Decimal:
    amount = parse_decimal(value, money=True)
    if amount.is_signed():
        raise form_error("must not be negative", "Write zero or a positive amount.")
    return amount


def parse_positive_money(value: Any) -> Decimal:
    amount = parse_money(value)
    if amount == 0:
        raise form_error("must be more than zero", 'Write the price per share, such as "45.10".')
    return amount


def parse_whole(value: Any) -> int:
    """A whole number: an int a program passed, or digits a file wrote (never a float)."""
    if isinstance(value, SourceNumber):
        try:
            return whole_from_text(value.text)
        except NumberFormError as error:
            raise _number_error(error) from None
    if isinstance(value, bool) or not isinstance(value, int):
        raise form_error(
            "expected a whole number",
            "Write digits only, without quotes or commas, such as 2450.",
        )
    if abs(value) >= _WHOLE_LIMIT:
        raise form_error(
            f"too many digits (at most {MAX_WHOLE_DIGITS})",
            "Check the number: a digit may have been pasted twice.",
        )
    return value


def parse_positive_int(value: Any) -> int:
    number = parse_whole(value)
    if number <= 0:
        raise form_error("must be a positive whole number", "Write a number of 1 or more.")
    return number


def parse_count(value: Any) -> int:
    number = parse_whole(value)
    if number < 0:
        raise form_error("must not be negative", "Write zero or a positive whole number.")
    return number


def parse_year(value: Any) -> int:
    number = parse_whole(value)
    if not EARLIEST_DATE.year <= number <= LATEST_DATE.year:
        raise form_error(
            f"expected a year from {EARLIEST_DATE.year} to {LATEST_DATE.year}",
            "Write the four-digit year, such as 2026.",
        )
    return number


def parse_anniversary(value: Any) -> int:
    number = parse_positive_int(value)
    if number > MAX_ANNIVERSARY:
        raise form_error(
            f"at most the {MAX_ANNIVERSARY}th anniversary",
            "Write the anniversary as a small whole number, such as 1 for the first.",
        )
    return number


def check_name(value: str) -> str:
    """A person's name: a text fact (:func:`check_text`) with no format character either
    (Unicode category Cf: a zero-width space, joiner or non-joiner, a soft hyphen, a word
    joiner). Invisible in print, such a character makes two names that read the same differ
    to docgen, which matches printed names to people (issue 44). A name of a script that
    spells with a zero-width joiner or non-joiner (Persian, some Indic spellings) is written
    without it here: the refusal is the safer error, and says so."""
    if value.isascii() and value.isprintable() and len(value) <= TEXT_MAX_LENGTH:
        return value  # printable ASCII (check_text's own first case) has no format character
    check_text(value)
    if value.isascii():
        return value
    for index, char in enumerate(value):
        if unicodedata.category(char) == "Cf":
            raise form_error(
                f"contains {describe(char)} at character {index + 1}, an invisible format "
                "character: two names that print the same would differ",
                "Retype the name without it (a copy from a web page, PDF or chat can carry "
                "invisible characters); a name is matched to the person by its letters.",
            )
    return value


def check_text(value: str) -> str:
    """A text fact: at most TEXT_MAX_LENGTH characters, and no character that changes how other
    text shows (docgen.core.safe_text): such a fact would fail at render time, far from its line."""
    if len(value) > TEXT_MAX_LENGTH:
        raise form_error(
            f"is too long ({len(value):,} characters; at most {TEXT_MAX_LENGTH})",
            "Shorten it: a longer value runs off the page of the document that prints it.",
        )
    if value.isascii() and value.isprintable():  # U+0020-U+007E only: none of them is unsafe
        return value
    found = first_unsafe(value)
    if found is not None:
        index, char = found
        if char in "\n\r\u2028\u2029\x0b\x0c\x85":
            raise form_error(
                f"contains a line break ({describe(char)}) at character {index + 1}",
                "Write it on one line (an address is a list, one line per item).",
            )
        raise form_error(
            f"contains {describe(char)} at character {index + 1}, a character that changes "
            "how the text around it shows",
            "Retype the value: a copy from a web page, PDF or terminal can carry invisible "
            "characters.",
        )
    return value
