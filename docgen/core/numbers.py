"""Numbers read from the text a facts file shows, never through a float, in one plain form.

The readers (YAML, JSON, the roster CSV) hand every number to the fact model as its source text
(:class:`SourceNumber`); the field's type reads it here. Accepted: plain decimal digits, a minus
sign where the field allows one, a decimal point with digits on both sides, and, in money given
as quoted text, a leading ``$`` and commas grouping the whole part in threes (``"1,225,000.50"``).
Refused, each with what to write instead, because each has been misread somewhere:

- a decimal comma (``"45,10"``, ``"7,5"``) or commas not grouped in threes (``"4,5,1.0"``);
- hexadecimal, octal or binary (``0x992``, ``0o4622``), digit separators (``2_450``), a leading
  zero (``02450``: octal to a YAML 1.1 reader), a leading ``+``, exponents (``1e5``, ``1e100000``),
  ``inf`` and ``nan``, and negative zero (``-0`` prints as ``$-0.00``);
- more than :data:`MAX_WHOLE_DIGITS` digits before the point or :data:`MAX_FRACTION_DIGITS` after
  (``1e999999999`` written out would exhaust memory; a JSON integer of 4,301 digits would stop
  Python's ``int``).
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal
from typing import cast

MAX_WHOLE_DIGITS = 15  # under a thousand trillion: more than any amount, count or year needs
MAX_FRACTION_DIGITS = 20  # exact well past a float's precision (99.99999999999999999 stays so)

_PLAIN = re.compile(r"(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?")
_GROUPED = re.compile(r"[1-9][0-9]{0,2}(?:,[0-9]{3})+(?:\.[0-9]+)?")
_PREFIXED = re.compile(r"[-+]?0[xXoObB][0-9a-fA-F_]*")
_EXPONENT = re.compile(r"[-+]?(?:[0-9][0-9_,]*)?\.?[0-9_]*[eE][-+]?[0-9]+")
_NOT_FINITE = re.compile(r"[-+]?\.?(?:inf|infinity|nan)", re.IGNORECASE)
_BASES = {"x": ("hexadecimal", 16), "o": ("octal", 8), "b": ("binary", 2)}


class SourceNumber:
    """A number as the facts file wrote it (``2450``, ``45.10``, ``0x992``), not yet read: the
    field it lands in decides whether and how (money, a percent, a count, a year). Neither a str
    nor a number, so no text or number field takes it without reading it."""

    __slots__ = ("text",)

    def __init__(self, text: str):  # plain slots: the JSON reader makes one per number
        self.text = text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"SourceNumber({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SourceNumber) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)


class NumberFormError(ValueError):
    """A number in a form docgen does not read; ``what`` and ``fix`` go into the load message."""

    def __init__(self, what: str, fix: str):
        super().__init__(what)
        self.what = what
        self.fix = fix


def _refuse(what: str, fix: str) -> NumberFormError:
    return NumberFormError(what, fix)


def _diagnose(text: str, example: str, kind: str) -> NumberFormError:
    """Why ``text`` is not a plain decimal number, in words, with what to write instead."""
    if _PREFIXED.fullmatch(text):
        word, base = _BASES[text.lstrip("+-")[1].lower()]
        try:
            value = int(text.replace("_", ""), 0)
            hint = f" ({text} is {value} in decimal)" if abs(value) < 10**MAX_WHOLE_DIGITS else ""
        except ValueError:
            hint = ""
        article = "an" if word[0] in "aeiou" else "a"
        return _refuse(
            f"{article} {word} number{hint}; docgen reads plain decimal digits only",
            f"Write the number in decimal digits, such as {example}.",
        )
    if _NOT_FINITE.fullmatch(text):
        return _refuse("expected a finite number", f"Write a number such as {example}.")
    symbol = next((c for c in text if c == "%" or unicodedata.category(c) == "Sc"), None)
    if symbol is not None:  # before the commas: "€448,500" is not a matter of grouping
        bare = "".join(c for c in text if c != symbol).strip()
        if symbol == "%":
            return _refuse(
                "a percent sign: the field holds the number of percent",
                f"Write {bare or 'the number'} without the % sign.",
            )
        if symbol == "$" and kind == "money":
            return _refuse("a $ sign goes before the digits, or not at all", f"Write ${bare}.")
        return _refuse(
            f"a currency sign ({symbol}): amounts are in US dollars, written as digits",
            f"Write the amount in dollars, such as {example}.",
        )
    if _EXPONENT.fullmatch(text):
        return _refuse(
            "exponent notation (1e5) is not accepted",
            f"Write the number out in plain digits, such as {example}.",
        )
    if "_" in text and re.fullmatch(r"[-+]?[0-9_.]+", text):
        plain = text.replace("_", "")
        return _refuse(
            "underscores are not digit separators in a facts file",
            f"Write {plain} without them.",
        )
    if "," in text:
        if kind == "whole":
            return _refuse(
                "a comma in a whole number",
                f"Write digits only, without commas, such as {example}.",
            )
        if _GROUPED.fullmatch(text.lstrip("-")):
            return _refuse(
                "thousands separators are not accepted here",
                f"Write {text.replace(',', '')} without the commas.",
            )
        if re.fullmatch(r"-?[0-9]+,[0-9]{1,2}", text) or re.fullmatch(r"-?[0-9]+,[0-9]{4,}", text):
            pointed = text.replace(",", ".")
            also = " (a comma only groups thousands, as in 1,225,000)" if kind == "money" else ""
            return _refuse(
                "a decimal comma: docgen writes decimals with a point",
                f"Write {pointed} if that is the amount{also}.",
            )
        return _refuse(
            "commas that do not group the digits in threes",
            f"Write the number with a point for decimals and no commas, such as {example}.",
        )
    if text.startswith("+"):
        return _refuse("a leading + is not accepted", f"Write {text[1:]} without it.")
    if re.fullmatch(r"-?0[0-9]+(?:\.[0-9]+)?", text):
        stripped = re.sub(r"^(-?)0+(?=[0-9])", r"\1", text)
        return _refuse(
            "a leading zero (some YAML readers take 02450 for an octal number)",
            f"Write {stripped}.",
        )
    if re.fullmatch(r"-?\.[0-9]+", text):
        return _refuse(
            "a decimal point needs a digit before it", f"Write {text.replace('.', '0.', 1)}."
        )
    if re.fullmatch(r"-?[0-9]+\.", text):
        return _refuse("a decimal point needs a digit after it", f"Write {text[:-1]}.")
    return _refuse("expected a number", f"Write a number such as {example}.")


def _plain(text: str, example: str, kind: str) -> re.Match[str]:
    """The parts of a plain decimal number (sign, whole digits, fraction digits), bounded; the
    reason it is not one otherwise."""
    match = _PLAIN.fullmatch(text)
    if match is None:
        raise _diagnose(text, example, kind)
    sign, whole, fraction = match.groups()
    fraction = fraction or ""
    if len(whole) > MAX_WHOLE_DIGITS or len(fraction) > MAX_FRACTION_DIGITS:
        raise _refuse(
            f"too many digits ({len(whole)} before the point, {len(fraction)} after; at most "
            f"{MAX_WHOLE_DIGITS} and {MAX_FRACTION_DIGITS})",
            "Check the number: a digit may have been pasted twice.",
        )
    if sign and whole == "0" and not fraction.strip("0"):
        raise _refuse("negative zero", "Write 0 without the minus sign.")
    return match


def decimal_from_text(text: str, *, money: bool = False, example: str = '10 or "45.10"') -> Decimal:
    """An exact decimal from its source text (see the module docstring for the accepted forms).

    With ``money``, a leading ``$`` and commas grouped in threes are accepted.
    """
    if text.isdigit() and text.isascii() and len(text) <= MAX_WHOLE_DIGITS:
        # The commonest case of all (a YAML percent or amount written in digits): a whole
        # number _PLAIN takes, so long as it has no leading zero.
        if text[0] != "0" or len(text) == 1:
            return Decimal(text)
    match = _PLAIN.fullmatch(text)  # the usual case: a plain number, read in one match
    if match is None or len(text) > MAX_WHOLE_DIGITS or match.group(1):
        text = text.strip()
        if money:
            text = text.removeprefix("$")
            if _GROUPED.fullmatch(text):
                text = text.replace(",", "")
        _plain(text, example, "money" if money else "decimal")
    return Decimal(text)


def whole_from_text(text: str, *, example: str = "2450") -> int:
    """A whole number from its source text: plain decimal digits, no sign but ``-``."""
    if text.isdigit() and text.isascii() and len(text) <= MAX_WHOLE_DIGITS:
        if text[0] != "0" or len(text) == 1:  # what _plain takes, read without it (a year)
            return int(text)
    text = text.strip()
    match = _plain(text, example, "whole")
    if match.group(3) is not None:
        raise _refuse("expected a whole number", "Remove the decimal part.")
    return int(text)


def check_decimal(number: Decimal) -> Decimal:
    """The same bounds for a Decimal a program passed in (not read from a file)."""
    if not number.is_finite():
        raise _refuse("expected a finite number", 'Write a number such as 10 or "45.10".')
    sign, digits, exponent = number.as_tuple()
    exponent = cast(int, exponent)  # an int for a finite number, as it is by now
    whole = max(0, len(digits) + exponent)
    fraction = max(0, -exponent)
    if whole > MAX_WHOLE_DIGITS or fraction > MAX_FRACTION_DIGITS:
        raise _refuse(
            f"too many digits (at most {MAX_WHOLE_DIGITS} before the point and "
            f"{MAX_FRACTION_DIGITS} after)",
            "Check the number: a digit may have been pasted twice.",
        )
    if sign and not any(digits):
        raise _refuse("negative zero", "Write 0 without the minus sign.")
    return number
