"""Stock awards as a proxy statement reports them (Regulation S-K Item 402(k), the Director
Compensation table; DESIGN.md, "After the grant"): the fiscal year a table covers, an award's
grant-date fair value (FASB ASC Topic 718) with its rounding stated, and what stays outstanding at
the fiscal year-end. A kind with awards makes them (``Kind.proxy_awards``); the table is
docgen.checker.proxy_table's."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

from docgen.core.dates import add_months, is_month_end

ROUNDING = (
    "each award's grant-date fair value (units x the grant's Fair Market Value per share) is "
    "rounded to the whole dollar, half a dollar up; a director's total is the sum of those "
    "rounded values, so the table adds up"
)
UNITS_SHOWN = Decimal("0.0001")  # dividend-equivalent units are carried to four places


@dataclass(frozen=True)
class FiscalYear:
    """The twelve months ending on ``end``: from ``start`` through ``end``, both included."""

    start: date
    end: date

    def __contains__(self, day: object) -> bool:
        return isinstance(day, date) and self.start <= day <= self.end

    @property
    def reading(self) -> str:
        """How ``start`` was found, for the table's notes."""
        if is_month_end(self.end):
            return (
                f"the fiscal year is the twelve whole months ending {self.end.isoformat()}, a "
                f"month end: {self.start.isoformat()} through {self.end.isoformat()}"
            )
        return (
            f"the fiscal year is the twelve months ending {self.end.isoformat()}: "
            f"{self.start.isoformat()} (the day after the date a year earlier) through "
            f"{self.end.isoformat()}"
        )


def fiscal_year(end: date) -> FiscalYear:
    """The fiscal year that ends on ``end``. When ``end`` is the last day of a month, the year is
    twelve whole calendar months (a year ending 2029-02-28 starts 2028-03-01, not on the leap
    day); otherwise it starts the day after the same date a year earlier."""
    if is_month_end(end):
        first = end.replace(day=1)
        return FiscalYear(add_months(first, -11), end)
    return FiscalYear(add_months(end, -12) + timedelta(days=1), end)


def whole_dollars(amount: Decimal) -> int:
    """``amount`` in USD rounded to the whole dollar, half up (the table's stated rounding)."""
    return int(amount.quantize(Decimal(1), rounding=ROUND_HALF_UP))


@dataclass(frozen=True)
class OtherCompensation:
    """A director's figures for the fiscal year besides stock awards, as the facts give them (USD;
    None: not given, shown as missing, never as zero), with where they come from."""

    fees: Decimal | None  # Item 402(k)(2)(ii), fees earned or paid in cash
    option_awards: Decimal | None  # Item 402(k)(2)(iv)
    all_other: Decimal | None  # Item 402(k)(2)(vii)
    source: str


@dataclass(frozen=True)
class ProxyAward:
    """One award to one person, as of a fiscal year.

    ``in_fiscal_year``: granted in the fiscal year (its grant-date fair value is then the stock
    award the table reports). ``outstanding_units``: the units still unvested at the fiscal
    year-end (``deferred_units``: vested by then but not settled), dividend-equivalent units
    credited by then included (0 when forfeited or not yet granted by then); ``status`` says
    which, with the section it rests on.
    """

    holder_id: str
    holder_name: str
    award_id: str  # the cycle: the grant's id
    grant_date: date
    units: int
    price: Decimal  # the grant's Fair Market Value per share, USD
    in_fiscal_year: bool
    outstanding_units: Decimal
    status: str
    # Why the holder received no award after all (DESIGN.md A27): the award is then left out of
    # the table, and the table's notes say so.
    left_out: str | None = None
    # Units vested by the fiscal year-end but not yet settled (a deferral election, or a delivery
    # after the year-end), dividend-equivalent units credited by then included: still an
    # outstanding stock award (DESIGN.md A27).
    deferred_units: Decimal = Decimal("0.0000")
    other: OtherCompensation | None = None  # the holder's other figures for the fiscal year

    @property
    def fair_value(self) -> Decimal:
        """Units x the grant's Fair Market Value, exact."""
        return Decimal(self.units) * self.price

    @property
    def fair_value_reported(self) -> int:
        """The grant-date fair value as the table reports it (:data:`ROUNDING`)."""
        return whole_dollars(self.fair_value)
