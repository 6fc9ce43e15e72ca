"""The toy kind's one rule: an award accepted after it was made cannot be accepted by a date
before it."""

from __future__ import annotations

from docgen.core.rules import CheckContext, Hit, rule
from tests.toykind import AWARD_LETTER


@rule(
    "TOY-ACCEPT-BEFORE-AWARD",
    title="Acceptance deadline before the award date",
    severity="error",
    cites=[AWARD_LETTER.cite("Section 1")],
    explanation="The holder cannot accept an award before it is made.",
    remedy="Set accept_by on or after awarded_on.",
)
def accept_before_award(context: CheckContext):
    facts = context.facts
    if facts.accept_by < facts.awarded_on:
        yield Hit(facts.award_id, "accept_by", f"accept_by {facts.accept_by} is before the award.")
