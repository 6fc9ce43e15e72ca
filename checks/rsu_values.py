"""Director RSU grant rules about the grant's own figures: a Grant Date Fair Market Value far
from the previous grant's or from the price range the facts give (a second look, never a block).

"Fair Market Value" is not defined in the Notice: its opening paragraph gives every capitalized
term it does not define the meaning the Stock Incentive Plan gives it, so the value is the Plan's
(the Committee's determination under the Plan), which docgen cannot compute. A value off by a
factor of 100 or more is what a mis-keyed decimal point or a price in cents looks like (45,100
typed for 45.10); the rule asks for a second look and leaves the value to the Plan.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

from checks.rsu_sources import notice
from checks.sources import describe, quote
from docgen.core.rules import CheckContext, Hit, rule
from docgen.kinds.director_rsu import kind as _kind  # noqa: F401  (the kind claiming these rules)

# The factor at which a value is too far from the one it is compared with: 100 times it, or a
# hundredth of it, is already too far (a decimal point two places off).
FACTOR = Decimal(100)

_NOTICE_TERMS = quote(
    notice("opening paragraph"),
    """
    All capitalized terms not defined herein shall have the meaning given to them in the Plan.
""",
)
_PLAN_FMV = describe(
    notice("opening paragraph"),
    "The Notice does not define the Grant Date Fair Market Value it states; the Plan (the "
    "Stock Incentive Plan) defines Fair Market Value, and it is the Plan's value the Notice "
    "sets out per share.",
)


def _far(value: Decimal, low: Decimal, high: Decimal) -> bool:
    """``value`` at 100 times ``high`` or more, or at a hundredth of ``low`` or less."""
    return value >= high * FACTOR or value * FACTOR <= low


@rule(
    "RSU-FMV-OUT-OF-RANGE",
    title="Grant Date Fair Market Value 100 times off the previous grant's or the price range",
    severity="warning",
    cites=[notice("opening paragraph"), notice("A")],
    explanation="A Grant Date Fair Market Value 100 times the previous grant's (when the facts "
    "give grant.previous_fair_market_value) or more, or a hundredth of it or less, or as far "
    "outside grant.market_price_range (100 times max, or min/100), is what a misplaced decimal "
    "point or a price in cents looks like. The value is the Plan's Fair Market Value, which the "
    "Notice states and docgen cannot compute: a warning, for a second look.",
    sources=[_NOTICE_TERMS, _PLAN_FMV],
    remedy="Check grant.fair_market_value against the Plan's Fair Market Value on the Grant "
    "Date (a decimal point, or a price in cents); if it is right, keep it.",
)
def fmv_out_of_range(context: CheckContext) -> Iterator[Hit]:
    grant = context.facts.grant
    value = grant.fair_market_value
    previous = grant.previous_fair_market_value
    if previous is not None and _far(value, previous, previous):
        yield Hit(
            grant.id,
            "grant.fair_market_value",
            f"fair_market_value {value} per share is {_times(value, previous)} the previous "
            f"grant's {previous} (previous_fair_market_value).",
        )
    bounds = grant.market_price_range
    if bounds is not None and _far(value, bounds.min, bounds.max):
        yield Hit(
            grant.id,
            "grant.fair_market_value",
            f"fair_market_value {value} per share is 100 times or more outside "
            f"market_price_range {bounds.min} to {bounds.max}.",
        )


def _times(value: Decimal, other: Decimal) -> str:
    if value >= other:
        return f"{(value / other).quantize(Decimal('0.1'))} times"
    return f"1/{(other / value).quantize(Decimal('0.1'))} of"
