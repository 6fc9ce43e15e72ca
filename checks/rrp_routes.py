"""How the RRP election-timing rules combine (DESIGN.md, "Rule catalogue" and "RRP election
timing").

An election is timely when ANY route open to it makes it timely: the prior-year deadline (always
open), the first-year route (a Participant whose ``first_eligible_on`` falls in the election's
Plan Year) and the performance-based route (``kind: performance_based``). Whether a route makes it
timely is the Plan's term (docgen.kinds.rrp.timing, which the election in force and
``docgen compute`` use too); each timing rule's condition, registered under its route by
checks/rrp_timing.py, says what failed. When no route passes, each open route's failures are
reported under their own rules, RRP-ELECTION-LATE among them. A route that passes on one reading
of an ambiguous boundary only makes the election doubtful: its warnings are all that is reported.

The rules look at the elections that name the file's Plan Year, of Eligible Employees only
(DESIGN.md, "Who is a Participant": RRP-NOT-PARTICIPANT speaks for the others).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from docgen.core.model import fact_path
from docgen.core.rules import Hit
from docgen.kinds.rrp.facts import Participant, RRPElection, RRPPlanYearFacts
from docgen.kinds.rrp.terms import PART_OF_PAY, described, elections_in_force
from docgen.kinds.rrp.timing import ROUTES, hired_after, prior_year_deadline, route_readings

# A condition: (participant, its index, the election's index, the election) -> what it fails on.
Condition = Callable[[Participant, int, int, RRPElection], Iterable[Hit]]
LATE = "RRP-ELECTION-LATE"

_CONDITIONS: dict[str, list[tuple[str, Condition]]] = {route: [] for route in ROUTES}


def add_condition(route: str, rule_id: str, condition: Condition) -> None:
    """Register one timing rule's condition under the route it belongs to (at import time)."""
    _CONDITIONS[route].append((rule_id, condition))


def election_path(p_index: int, e_index: int, field_name: str) -> str:
    return fact_path("participants", p_index, "elections", e_index, field_name)


def route_problems(
    route: str, participant: Participant, p_index: int, e_index: int, election: RRPElection
) -> list[tuple[str, Hit]]:
    """What one route fails on for this election, rule by rule (empty: the route passes)."""
    return [
        (rule_id, hit)
        for rule_id, condition in _CONDITIONS[route]
        for hit in condition(participant, p_index, e_index, election)
    ]


def what_stays(participant: Participant, election: RRPElection) -> str:
    """For a late election: the election in force that stays for its Plan Year (DESIGN.md,
    "Elections roll over")."""
    found = elections_in_force(participant, election.plan_year)[PART_OF_PAY[election.kind]]
    if found.election is None or found.election is election:
        return f"; no {found.part} election is in force for {election.plan_year}"
    return f"; {described(found.election)} stays in force for {election.plan_year}"


def timing_problems(
    participant: Participant, p_index: int, e_index: int, election: RRPElection
) -> list[tuple[str, Hit]]:
    """The timing findings for one election: none if a route passes; a doubtful route's warnings
    if one passes on one reading only; otherwise every open route's failures."""
    readings = route_readings(participant, election)
    if "yes" in readings.values():
        return []
    doubtful = [route for route, reading in readings.items() if reading == "doubtful"]
    if doubtful:
        return [
            problem
            for route in doubtful
            for problem in route_problems(route, participant, p_index, e_index, election)
        ]
    named = ", ".join(readings)
    if "prior-year" in readings:
        named += hired_after(participant, prior_year_deadline(election))
    stays = what_stays(participant, election)
    return [
        (
            rule_id,
            Hit(
                hit.subject,
                hit.path,
                f"{hit.message} (routes open: {named}){stays if rule_id == LATE else ''}.",
                hit.remedy,
                hit.severity,
            ),
        )
        for route in readings
        for rule_id, hit in route_problems(route, participant, p_index, e_index, election)
    ]


def all_timing_problems(facts: RRPPlanYearFacts) -> list[tuple[str, Hit]]:
    """Every timing finding over the Plan Year's elections of every Eligible Employee."""
    found = []
    for p_index, participant in enumerate(facts.participants):
        if not participant.eligible_employee:
            # RRP-NOT-PARTICIPANT: no election is available at all (DESIGN.md, "Who is a
            # Participant")
            continue
        for e_index, election in enumerate(participant.elections):
            if election.plan_year != facts.plan_year:
                continue  # an earlier year's election concerns this year only if in force
            found.extend(timing_problems(participant, p_index, e_index, election))
    return found


# The timing rules share one pass over the facts (frozen): the last facts' problems are kept.
_LAST: list = [None, []]


def timing_hits(facts: RRPPlanYearFacts, rule_id: str) -> Iterator[Hit]:
    """This rule's findings over the Plan Year's elections of every Eligible Employee."""
    if _LAST[0] is not facts:
        _LAST[:] = [facts, all_timing_problems(facts)]
    for found_id, hit in _LAST[1]:
        if found_id == rule_id:
            yield hit
