"""The state field of a Form 4 address as EDGAR takes it (EDGAR Ownership XML Technical
Specification, ``rptOwnerState``: EDGAR's state and country codes): a United States address gives
a USPS two-letter code; a foreign one EDGAR's two-character country (or Canadian province) code,
each of which holds a digit ("X0" United Kingdom, "A6" Ontario, "2M" Germany). Anything else (a
made-up "ZZ", a country's ISO code "GB") EDGAR rejects."""

from __future__ import annotations

import re

# The USPS codes of the states, the District of Columbia, the territories EDGAR lists and the
# Armed Forces "states" (USPS Publication 28, Appendix B).
USPS_STATES = frozenset(
    (
        "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV "
        "NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY AS GU MP PR VI UM AA "
        "AE AP"
    ).split()
)
_FOREIGN = re.compile(r"^(?=[A-Z0-9]{2}$)(?=.*[0-9]).{2}$")


def is_usps_state(code: str) -> bool:
    return code in USPS_STATES


def is_edgar_country(code: str) -> bool:
    """An EDGAR country or Canadian province code: two capitals or digits, one a digit at least.
    The shape only: docgen does not hold EDGAR's list, so a well-shaped code not on it passes
    (checks/NOT_ENCODED.md)."""
    return _FOREIGN.match(code) is not None


def state_problem(code: str) -> str | None:
    """Why EDGAR would reject ``code`` as a Form 4 address's state, or None."""
    if is_usps_state(code) or is_edgar_country(code):
        return None
    return (
        f"{code!r} is neither a USPS state code nor an EDGAR country code (two characters, one "
        "a digit at least, e.g. X0 for the United Kingdom)"
    )
