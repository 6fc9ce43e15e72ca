"""An election window: one route to a timely election for one person, and the days it is open.

Each kind of facts lists its windows (docgen.kinds); docgen.checker.calendar writes them as a
table, CSV or an RFC 5545 calendar.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date


@dataclass(frozen=True)
class ElectionWindow:
    """One route to a timely election for one person: the days it is open."""

    subject: str  # participant or director id
    name: str
    document: str  # the form the election is made on
    route: str  # short, stable: prior-year, first-year, performance-based, exhibit-i, 409a-b ...
    rule: str  # the rule in words, with its citation
    opens_on: date | None  # None: the rule sets no first day
    closes_on: date  # the last day an election is timely on this route
    note: str | None = None
    period_end: date | None = None  # a performance-based route: the end of its period
    # The first day the person could elect at all (hired, or first eligible): a window that
    # closed before it was never open to them, and the calendar leaves it out.
    eligible_from: date | None = None

    @property
    def key(self) -> str:
        return f"{self.subject}-{self.route}"


@dataclass(frozen=True)
class FilingDue:
    """A filing a person owes after the cycle's documents (a director's Form 4 for the grant):
    when it is due, and when it was filed, if the facts record it (`docgen status`)."""

    subject: str
    name: str
    document: str
    rule: str  # the rule in words, with its citation
    due_on: date | None  # None: the due date cannot be counted (the message says why)
    filed_on: date | None
    note: str | None = None


def no_empty_window(window: ElectionWindow) -> ElectionWindow:
    """A route whose last day falls before its first (a short performance period, a leap-day
    grant) has no open day: shown by its last day alone, with a note, never as a negative span."""
    if window.opens_on is None or window.closes_on >= window.opens_on:
        return window
    note = f"no day is open on this route: its last day is before {window.opens_on}"
    return replace(window, opens_on=None, note=note)
