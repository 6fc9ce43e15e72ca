"""How the RRP election-timing rules combine (DESIGN.md, "Rule catalogue", and Amendment A4).

An election is timely when ANY route open to it makes it timely: the prior-year deadline (always
open), the first-year route (a Participant whose ``first_eligible_on`` falls in the election's
Plan Year) and the performance-based route (``kind: performance_based``). Each timing rule's own
condition is a pure function of (participant, election), registered under its route by
``checks/rrp_timing.py``. When no route passes, each open route's failures are reported under
their own rules. A route that passes on one reading of an ambiguous boundary only makes the
election doubtful: its findings are warnings and nothing else is reported.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from docgen.core.dates import december_31_before
from docgen.core.rules import Hit
from docgen.kinds.rrp.facts import Participant, RRPElection, RRPPlanYearFacts

# A condition: (participant, its index, the election's index, the election) -> what it fails on.
Condition = Callable[[Participant, int, int, RRPElection], Iterable[Hit]]

ROUTES = ("prior-year", "first-year", "performance-based")
_CONDITIONS: dict[str, list[tuple[str, Condition]]] = {route: [] for route in ROUTES}


def add_condition(route: str, rule_id: str, condition: Condition) -> None:
    """Register one timing rule's condition under the route it belongs to (at import time)."""
    _CONDITIONS[route].append((rule_id, condition))


def election_path(p_index: int, e_index: int, field_name: str) -> str:
    return f"participants[{p_index}].elections[{e_index}].{field_name}"


def open_routes(participant: Participant, election: RRPElection) -> list[str]:
    """The routes open to this election: prior-year always, then first-year, performance-based."""
    routes = ["prior-year"]
    eligible = participant.first_eligible_on
    if eligible is not None and eligible.year == election.plan_year:
        routes.append("first-year")
    if election.kind == "performance_based":
        routes.append("performance-based")
    return routes


def route_problems(
    route: str, participant: Participant, p_index: int, e_index: int, election: RRPElection
) -> list[tuple[str, Hit]]:
    """What one route fails on for this election, rule by rule (empty: the route passes)."""
    return [
        (rule_id, hit)
        for rule_id, condition in _CONDITIONS[route]
        for hit in condition(participant, p_index, e_index, election)
    ]


def timing_problems(
    participant: Participant, p_index: int, e_index: int, election: RRPElection
) -> list[tuple[str, Hit]]:
    """The timing findings for one election: none if any route passes; warnings only if a
    route passes on one reading; otherwise every open route's failures."""
    if election.made_on <= december_31_before(election.plan_year):
        return []  # the prior-year route, always open, makes it timely
    routes = open_routes(participant, election)
    problems = {r: route_problems(r, participant, p_index, e_index, election) for r in routes}
    if any(not found for found in problems.values()):
        return []
    doubtful = [
        found for found in problems.values() if all(hit.severity == "warning" for _, hit in found)
    ]
    if doubtful:
        return [problem for found in doubtful for problem in found]
    named = ", ".join(routes)
    return [
        (
            rule_id,
            Hit(hit.subject, hit.path, f"{hit.message} (routes open: {named}).", hit.remedy,
                hit.severity),
        )
        for found in problems.values()
        for rule_id, hit in found
    ]  # fmt: skip


def timing_hits(facts: RRPPlanYearFacts, rule_id: str) -> Iterator[Hit]:
    """This rule's findings over every election of every Eligible Employee."""
    for p_index, participant in enumerate(facts.participants):
        if not participant.eligible_employee:
            continue  # RRP-NOT-PARTICIPANT: no election is available at all
        for e_index, election in enumerate(participant.elections):
            for found_id, hit in timing_problems(participant, p_index, e_index, election):
                if found_id == rule_id:
                    yield hit
