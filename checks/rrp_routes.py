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
from docgen.kinds.rrp.facts import Participant, RRPElection
from docgen.kinds.rrp.terms import PART_OF_PAY, described
from docgen.kinds.rrp.timing import ROUTES, hired_after, prior_year_deadline
from docgen.kinds.rrp.view import ParticipantView, PlanYearView

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
    route: str,
    participant: Participant,
    p_index: int,
    e_index: int,
    election: RRPElection,
    rule_id: str | None = None,
) -> list[tuple[str, Hit]]:
    """What one route fails on for this election, rule by rule (empty: the route passes);
    ``rule_id``: that rule's share only."""
    return [
        (found_id, hit)
        for found_id, condition in _CONDITIONS[route]
        if rule_id is None or found_id == rule_id
        for hit in condition(participant, p_index, e_index, election)
    ]


def what_stays(view: ParticipantView, election: RRPElection) -> str:
    """For a late election naming the Plan Year: the election in force that stays for it
    (DESIGN.md, "Elections roll over")."""
    found = view.in_force[PART_OF_PAY[election.kind]]
    if found.election is None or found.election is election:
        return f"; no {found.part} election is in force for {election.plan_year}"
    return f"; {described(found.election)} stays in force for {election.plan_year}"


def timing_problems(
    view: ParticipantView, e_index: int, rule_id: str | None = None
) -> list[tuple[str, Hit]]:
    """The timing findings for one election naming the Plan Year (``rule_id``: that rule's
    only): none if a route passes; a doubtful route's warnings if one passes on one reading
    only; otherwise every open route's failures."""
    participant, p_index = view.participant, view.index
    election = participant.elections[e_index]
    readings = view.readings_for(e_index)
    if "yes" in readings.values():
        return []
    doubtful = [route for route, reading in readings.items() if reading == "doubtful"]
    if doubtful:
        return [
            problem
            for route in doubtful
            for problem in route_problems(route, participant, p_index, e_index, election, rule_id)
        ]
    problems = [
        problem
        for route in readings
        for problem in route_problems(route, participant, p_index, e_index, election, rule_id)
    ]
    if not problems:
        return []
    named = ", ".join(readings)
    if "prior-year" in readings:
        named += hired_after(participant, prior_year_deadline(election))
    stays = what_stays(view, election) if any(found == LATE for found, _ in problems) else ""
    return [
        (
            found_id,
            Hit(
                hit.subject,
                hit.path,
                f"{hit.message} (routes open: {named}){stays if found_id == LATE else ''}.",
                hit.remedy,
                hit.severity,
            ),
        )
        for found_id, hit in problems
    ]


def timing_hits(view: PlanYearView, rule_id: str) -> Iterator[Hit]:
    """This rule's findings over the Plan Year's elections of every Eligible Employee (an
    earlier year's election concerns this year only if in force; RRP-NOT-PARTICIPANT speaks for
    those who are not Eligible Employees: DESIGN.md, "Who is a Participant")."""
    for participant_view in view.electing:
        for e_index in participant_view.untimely:  # a timely election has no timing findings
            for _, hit in timing_problems(participant_view, e_index, rule_id):
                yield hit
