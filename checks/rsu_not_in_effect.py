"""Exhibit I forms on record as not in effect (``status: ineffective``): reported as info, one
finding per form, with the decision and what applies instead.

A form the Company received stays on record when it is decided not to be in effect (late,
partial, void): the record shows what arrived and what was decided about it, instead of the form
being erased or its date "corrected". The decision is the Company's; docgen records it, says what
follows from it, and reports every other rule's finding about that form at info too
(docgen.checker.runner): the decision it asked for has been made. checks/rrp_not_in_effect.py is
the same for the Plan's Deferral Elections.
"""

from __future__ import annotations

from collections.abc import Iterator

from checks import rsu_sources as rsu_src
from checks.rsu import election_path as rsu_election_path
from checks.rsu_sources import exhibit, notice
from docgen.core.model import is_in_effect
from docgen.core.rules import CheckContext, Hit, rule
from docgen.kinds.director_rsu import kind as _kind  # noqa: F401  (the kind claiming these rules)
from docgen.kinds.director_rsu.terms import effective_election


@rule(
    "RSU-ELECTION-INEFFECTIVE",
    title="Exhibit I on record as not in effect",
    severity="info",
    cites=[exhibit(), notice("C.1"), notice("F.3")],
    explanation=(
        "An Exhibit I recorded with status: ineffective (with its reason and who decided it) "
        "stays on record and governs nothing: the election in effect is another timely form, or "
        "none, in which case the Notice C.1 default Payment Date applies. The grant packet's "
        "on-file copy of Exhibit I says so."
    ),
    sources=[rsu_src.NOTICE_F3, rsu_src.EXHIBIT_DEFAULT_PAYMENT],
    remedy="",
)
def election_ineffective(context: CheckContext) -> Iterator[Hit]:
    facts = context.facts
    for d_index, director in enumerate(facts.directors):
        governing = effective_election(facts, director)
        for e_index, election in enumerate(director.elections):
            if is_in_effect(election):
                continue
            instead = (
                f"the election filed {governing.filed_on} governs"
                if governing is not None
                else "the default Payment Date applies (Notice C.1)"
            )
            yield Hit(
                director.id,
                rsu_election_path(d_index, e_index, "status"),
                f"Exhibit I filed {election.filed_on} is recorded as not in effect by "
                f"{election.decided_by}: {election.reason}; {instead}.",
            )
