"""What the rules ask of each participant for the file's Plan Year, worked out once per run.

Several rules ask the same questions of one participant: each election's route readings (when
it is timely, timing.py), the election in force for each part of pay (terms.py), the elections
that concern the Plan Year. The checker builds one frozen :class:`ParticipantView` per
participant when a run starts (``Kind.view``, handed to the rules on the ``CheckContext``), and
every rule reads the answers from it: nothing is remembered between runs, nothing is shared, and
the answers are those the terms give when asked directly (tests/test_rrp_view.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from docgen.kinds.rrp.facts import Participant, RRPPlanYearFacts
from docgen.kinds.rrp.terms import (
    ElectionReadings,
    InForce,
    elections_for_plan_year,
    elections_in_force,
    readings_of,
)
from docgen.kinds.rrp.timing import Reading, route_readings


@dataclass(frozen=True)
class ParticipantView:
    """One participant's answers for the Plan Year."""

    index: int  # the participant's position in facts.participants
    participant: Participant
    # each election's route readings, by position (None: an election the rules do not time)
    readings: ElectionReadings
    in_force: Mapping[str, InForce]  # salary, bonus: the election in force for the Plan Year
    concerning: tuple[int, ...]  # the elections concerning the Plan Year (naming it, or in force)
    # the elections naming the Plan Year that no route makes timely (the timing rules' subject)
    untimely: tuple[int, ...]

    def readings_for(self, e_index: int) -> Mapping[str, Reading]:
        """The election's route readings (worked out here if no rule needed them beforehand)."""
        found = self.readings[e_index]
        if found is None:
            return route_readings(self.participant, self.participant.elections[e_index])
        return found


@dataclass(frozen=True)
class PlanYearView:
    """The view of every participant, in file order, for the facts it was built from."""

    facts: RRPPlanYearFacts
    participants: tuple[ParticipantView, ...]
    electing: tuple[ParticipantView, ...]  # Eligible Employees only (DESIGN.md, "Who is a
    # Participant")


def participant_view(index: int, participant: Participant, plan_year: int) -> ParticipantView:
    readings = readings_of(participant, plan_year)
    in_force = elections_in_force(participant, plan_year, readings)
    concerning = tuple(elections_for_plan_year(participant, plan_year, in_force))
    untimely = tuple(
        e_index
        for e_index, election in enumerate(participant.elections)
        if election.plan_year == plan_year
        and (found := readings[e_index]) is not None
        and "yes" not in found.values()
    )
    return ParticipantView(index, participant, readings, in_force, concerning, untimely)


def plan_year_view(facts: RRPPlanYearFacts) -> PlanYearView:
    """Each participant's view for the file's Plan Year, worked out once."""
    year = facts.plan_year
    views = tuple(
        participant_view(index, participant, year)
        for index, participant in enumerate(facts.participants)
    )
    return PlanYearView(
        facts, views, tuple(view for view in views if view.participant.eligible_employee)
    )


def view_of(context: Any) -> PlanYearView:
    """The run's view (``CheckContext.view``), or one worked out now for a context built without
    it (a rule run on its own)."""
    view = context.view
    if isinstance(view, PlanYearView) and view.facts is context.facts:
        return view
    return plan_year_view(context.facts)
