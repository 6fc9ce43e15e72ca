"""How the documents write numbers, money and dates: one function each, also Jinja filters."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from docgen.core.dates import long_date, ordinal_word

CENT = Decimal("0.01")


def units_text(units: int) -> str:
    """2450 -> "2,450"."""
    return f"{units:,}"


def cents(amount: Decimal) -> Decimal:
    """Round to the cent, half up (the figure credited to an Account)."""
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)


def dollars(amount: Decimal, *, whole: bool = False) -> str:
    """Decimal("45.1") -> "$45.10"; more than two decimals are shown, never rounded away.

    ``whole``: a round amount without cents ("$360,000"), as the forms state a limit.
    """
    if whole and amount == amount.to_integral_value():
        return f"${amount:,.0f}"
    exponent = amount.as_tuple().exponent
    places = max(2, -exponent) if isinstance(exponent, int) else 2
    return f"${amount:,.{places}f}"


def money_text(amount: Decimal | None) -> str | None:
    """A machine-readable amount in cents ("1234.50"), or None: :func:`cents`, written out.

    Inline and through ``str`` because payroll writes millions of them: a Decimal with exponent
    -2 is never in exponent notation, so ``str`` writes what ``format(..., "f")`` does."""
    if amount is None:
        return None
    if not amount:  # a zero of any exponent: rounded to the cent, only its sign shows
        return "-0.00" if amount.is_signed() else "0.00"
    return str(amount.quantize(CENT, rounding=ROUND_HALF_UP))


def amount_shown(amount: Decimal | None) -> str:
    """How `docgen compute`'s table and the workspace show an amount: Decimal("160000") ->
    "160,000.00", rounded to the cent as :func:`cents`; None (not applicable) -> "-"."""
    return "-" if amount is None else f"{cents(amount):,.2f}"


def percent_text(value: Decimal) -> str:
    """Decimal("6") -> "6"; Decimal("2.5") -> "2.5"."""
    return format(value.normalize(), "f")


FILTERS = {
    "units": units_text,
    "dollars": dollars,
    "percent": percent_text,
    "long_date": long_date,
    "ordinal_word": ordinal_word,
}
