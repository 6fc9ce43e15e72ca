"""Deferral Elections on record as not in effect (``status: ineffective``): reported as info,
one finding per form, with the decision.

A form the Company received stays on record when it is decided not to be in effect (late,
partial, void): the record shows what arrived and what was decided about it, instead of the form
being erased or its date "corrected". The decision is the Committee's, which administers the
Plan; docgen records it, says what follows from it, and reports every other rule's finding about
that form at info too (docgen.checker.runner): the decision it asked for has been made.
checks/rsu_not_in_effect.py is the same for the director's Exhibit I.
"""

from __future__ import annotations

from collections.abc import Iterator

from checks import rrp_sources as rrp_src
from checks.rrp_routes import election_path as rrp_election_path
from checks.rrp_sources import plan
from docgen.core.model import is_in_effect
from docgen.core.rules import CheckContext, Hit, rule
from docgen.kinds.rrp import kind as _kind  # noqa: F401  (the kind claiming these rules)


@rule(
    "RRP-ELECTION-INEFFECTIVE",
    title="Deferral Election on record as not in effect",
    severity="info",
    cites=[plan("2.03(b)"), plan("Article V")],
    explanation=(
        "A Deferral Election recorded with status: ineffective (with its reason and who decided "
        "it: the Committee administers the Plan) stays on record and defers nothing: "
        "docgen compute leaves it out, and no other rule's finding about it blocks the Plan Year."
    ),
    sources=[rrp_src.PLAN_2_03_B, rrp_src.PLAN_ADMINISTRATION],
    remedy="",
)
def rrp_election_ineffective(context: CheckContext) -> Iterator[Hit]:
    for p_index, participant in enumerate(context.facts.participants):
        for e_index, election in enumerate(participant.elections):
            if is_in_effect(election):
                continue
            yield Hit(
                participant.id,
                rrp_election_path(p_index, e_index, "status"),
                f"the {election.kind.replace('_', '-')} election of {election.percent}% made "
                f"{election.made_on} is recorded as not in effect by {election.decided_by}: "
                f"{election.reason}; it defers nothing.",
            )
