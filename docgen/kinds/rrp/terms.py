"""The Plan's terms, each defined once: the 401(a)(17) limit for the year, the Deferral Election in
force for a Plan Year (Plan 2.03(b); DESIGN.md, "Elections roll over"), who may hold an Account,
vesting (Plan 3.06), Key Employee determinations (Plan 1.14) and when payment is due (Plan 4.01).
The rules (checks/rrp*.py), the arithmetic and the forms all use these; when an election is timely
is timing.py."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from types import MappingProxyType
from typing import Any, NamedTuple

from docgen.core.dates import (
    add_months,
    day_before,
    days_after,
    first_of_month_after_six_month_anniversary,
)
from docgen.core.model import decision_words, fact_path, is_in_effect
from docgen.core.parameters import has_value, value
from docgen.kinds.rrp.facts import Participant, RRPElection, RRPPlan, RRPPlanYearFacts
from docgen.kinds.rrp.timing import (
    Reading,
    hired_after,
    irrevocable_on,
    only_after_the_election,
    prior_year_deadline_for,
    route_readings,
    timeliness,
)

LIMIT = "irs_401a17_compensation_limit"


def compensation_limit(facts: RRPPlanYearFacts) -> Decimal:
    """The 401(a)(17) limit for the Plan Year: the facts' own figure, else the published one."""
    if facts.plan.compensation_limit is not None:
        return facts.plan.compensation_limit
    return value(LIMIT, facts.plan_year)


def published_limit(plan_year: int) -> Decimal | None:
    """The IRS's published 401(a)(17) figure for the year, or None before it is published."""
    return value(LIMIT, plan_year) if has_value(LIMIT, plan_year) else None


def may_hold_account(participant: Participant) -> bool:
    """Someone who may have an Account under the Plan (Plan 3.01): an Eligible Employee, or a
    current or former Participant with elections, investments, a termination or payments on
    file (DESIGN.md, "Who is a Participant": account and payment rules apply to them)."""
    return participant.eligible_employee or bool(
        participant.elections
        or participant.investments
        or participant.termination
        or participant.payments
    )


@dataclass(frozen=True)
class Vested:
    """Plan 3.06: the Elective Deferral Contribution Account is always vested; the restoration
    accounts (matching and retirement restoration) vest on the first event in ``because``."""

    elective_deferral_account: bool
    restoration_accounts: bool
    because: str | None

    def as_json(self) -> dict[str, Any]:
        return {
            "elective_deferral_account": self.elective_deferral_account,
            "restoration_accounts": self.restoration_accounts,
            "because": self.because,
        }


def is_retirement(plan: RRPPlan, participant: Participant) -> bool:
    """Plan 1.24: a Termination of Employment at or after age 65, other than due to death."""
    termination = participant.termination
    return (
        termination is not None
        and termination.reason != "death"
        and termination.age is not None
        and termination.age >= plan.retirement_age
    )


def vesting(facts: RRPPlanYearFacts, participant: Participant) -> Vested:
    """Plan 3.06: the elective account always; the restoration accounts on the first event."""
    plan, plan_year = facts.plan, facts.plan_year
    termination = participant.termination
    because = None
    if termination is not None and termination.reason == "death":
        because = "died before terminating employment (Plan 3.06(b))"
    elif is_retirement(plan, participant):
        because = "Retired (Plan 1.24, 3.06(b))"
    elif (participant.years_of_vesting_service or 0) >= plan.years_of_vesting_service_to_vest:
        because = "three Years of Vesting Service (Plan 3.06(b))"
    elif has_hour_of_service_from(plan, participant, plan_year):
        because = "an Hour of Service on or after January 1, 2017 (Plan 3.06(b))"
    return Vested(
        elective_deferral_account=True, restoration_accounts=because is not None, because=because
    )


def has_hour_of_service_from(plan: RRPPlan, participant: Participant, plan_year: int) -> bool:
    """Plan 3.06(b): credited with an Hour of Service on or after January 1, 2017, whenever the
    Participant left: employed on or after that day (a termination then or later), or still
    employed in a Plan Year that ends on or after it. Taken from the dates of employment; the
    Retirement Savings Plan's definition of an Hour of Service decides a doubtful day."""
    start = plan.hour_of_service_vests_from
    termination = participant.termination
    if termination is not None:
        return termination.on >= start
    return date(plan_year, 12, 31) >= start


def recorded_death(participant: Participant) -> date | None:
    """The Participant's death on record: a termination by death, or a death after termination."""
    termination = participant.termination
    if termination is not None and termination.reason == "death":
        return termination.on
    return participant.died_on


def key_employee_period(determination: date) -> tuple[date, date]:
    """The 12-month Key Employee period that a December 31 determination starts.

    Plan 1.14: a Participant who is a specified employee as of December 31 "will be considered a
    Key Employee ... for the 12-month period commencing on the next following April 1".
    Returns the first and the last day of that period.
    """
    start = date(determination.year + 1, 4, 1)
    end = day_before(add_months(start, 12))
    return start, end


def is_key_employee_on(day: date, determinations: list[date] | tuple[date, ...]) -> bool:
    """True when a determination's April 1 is on or before ``day``, less than 12 months before."""
    for determination in determinations:
        start, end = key_employee_period(determination)
        if start <= day <= end:
            return True
    return False


def key_employee_determination_for(day: date) -> date:
    """Plan 1.14: the December 31 determination whose 12-month Key Employee period (from the
    next April 1) contains ``day``."""
    year = day.year - 1 if day >= date(day.year, 4, 1) else day.year - 2
    return date(year, 12, 31)


def key_employee_payment_date(facts: RRPPlanYearFacts, participant: Participant) -> date | None:
    """Plan 4.01(b): the delayed payment date of a Key Employee, or None where it does not apply.

    A Participant who is a Key Employee (Plan 1.14) on the date of a Termination of Employment
    other than death or Total and Permanent Disability is paid "on the first day of the month
    following the six-month anniversary" of it, "if required by Code section 409A": only where
    the Company's stock is publicly traded (Code 409A(a)(2)(B)(i)). One function serves the
    arithmetic here and the checker's RRP-KEY-EMPLOYEE-PAYMENT and RRP-PAYMENT-WINDOW.
    """
    termination = participant.termination
    if (
        termination is None
        or termination.reason in ("death", "disability")
        or not facts.company.publicly_traded
        or not is_key_employee_on(termination.on, participant.key_employee_on)
    ):
        return None
    return first_of_month_after_six_month_anniversary(termination.on)


def payment_window(
    facts: RRPPlanYearFacts, participant: Participant
) -> tuple[date | None, date | None]:
    """Plan 4.01: the first and the last day the Plan allows payment; (None, None) if not due.

    (a) within 60 days following the earliest of Termination of Employment, death or Total and
    Permanent Disability; (b) a Key Employee leaving other than by death or disability is paid on
    the first day of the month following the six-month anniversary of termination.
    """
    termination = participant.termination
    if termination is None:
        return None, None
    delayed = key_employee_payment_date(facts, participant)
    if delayed is not None:
        death = recorded_death(participant)
        if death is not None and death < delayed:
            # Code 409A(a)(2)(B)(i): the delay runs to six months after separation "or, if
            # earlier, the date of death"; the Beneficiary is then paid within 60 days of the
            # death (4.01(a)), the reading docs/rrp-arithmetic.md states.
            return death, days_after(death, 60)
        return delayed, delayed
    return termination.on, days_after(termination.on, 60)


# ----------------------------------------------------------------- the election in force

# Which part of Compensation each kind of Deferral Election applies to (docs/rrp-arithmetic.md).
PART_OF_PAY = {"salary": "salary", "bonus": "bonus", "performance_based": "bonus"}
PARTS = ("salary", "bonus")


def kind_words(election: RRPElection) -> str:
    """The election's kind in words: salary, bonus, performance-based."""
    return election.kind.replace("_", "-")


def described(election: RRPElection) -> str:
    """'the salary election of 10% made 2025-12-10', as notes and findings name an election."""
    return (
        f"the {kind_words(election)} election of {election.percent.normalize():f}% made "
        f"{election.made_on.isoformat()}"
    )


# Each election's route readings (timing.route_readings) by its position in
# participant.elections, worked out once; None for an election nothing asks about.
ElectionReadings = Sequence[Mapping[str, Reading] | None]


def takes_effect_for(
    participant: Participant,
    election: RRPElection,
    readings: Mapping[str, Reading] | None = None,
) -> int:
    """DESIGN.md, "Elections roll over": the first Plan Year whose deadline the election meets: the
    Plan Year it names when it is timely for it (on any route), else the first later Plan Year whose
    December 31 deadline (before the year its period begins) it was made by. ``readings``: the
    election's route readings when already worked out."""
    if timeliness(participant, election, readings) != "no":
        return election.plan_year
    year = election.plan_year + 1
    while election.made_on > prior_year_deadline_for(election, year):
        year += 1  # ends: each later year's deadline is a year later
    return year


def deadline_for(
    participant: Participant,
    election: RRPElection,
    plan_year: int,
    readings: Mapping[str, Reading] | None = None,
) -> date:
    """The last day a revocation of the election meets for a Plan Year: the day it became
    irrevocable, for the Plan Year it names; December 31 before each later Plan Year (before the
    year its period begins). Later performance periods' criteria are not in the facts, so the
    six-month route is not assumed for them (docs/rrp-arithmetic.md)."""
    if plan_year == election.plan_year:
        if readings is None:
            readings = route_readings(participant, election)
        if timeliness(participant, election, readings) != "no":
            return irrevocable_on(participant, election, readings)
    return prior_year_deadline_for(election, plan_year)


def revocation_takes_effect_for(
    participant: Participant,
    election: RRPElection,
    readings: Mapping[str, Reading] | None = None,
) -> int | None:
    """DESIGN.md, "Elections roll over": the first Plan Year whose deadline the revocation meets;
    None if none."""
    revoked = election.revoked_on
    if revoked is None:
        return None
    year = election.plan_year
    while revoked > deadline_for(participant, election, year, readings):
        year += 1
    return year


class InForce(NamedTuple):
    """The Deferral Election in force for one part of pay (salary; bonus or performance-based
    pay) in a Plan Year, or None with the reason; ``notes``: elections on file that one might
    expect to apply and do not, one line each, naming the Plan section. (A NamedTuple: made for
    each part of pay of every participant a payroll or a check works.)"""

    part: str
    plan_year: int
    election: RRPElection | None
    position: int | None  # its position in participant.elections
    since: int | None  # the Plan Year it took effect for
    none_because: str  # none in force: why, naming the Plan section ("" when one is)
    notes: tuple[str, ...] = ()
    doubtful: bool = False  # timely on one reading of a month-end boundary only
    only_after_the_election: bool = False  # reaches only pay for services after it (2.03(c))

    @property
    def reason(self) -> str:
        """The election in force and since when (Plan 2.03(b)), or why none is. Worked out when
        asked, from what the InForce holds (a pay date's payroll prints no notes)."""
        election = self.election
        if election is None:
            return self.none_because
        rolled = f", rolled over to {self.plan_year}" if election.plan_year < self.plan_year else ""
        return f"{described(election)} for {election.plan_year}{rolled} (Plan 2.03(b))"


def election_in_force(
    participant: Participant,
    plan_year: int,
    part: str,
    readings: ElectionReadings | None = None,
) -> InForce:
    """Plan 2.03(b); DESIGN.md, "Elections roll over": the election in force for one part of pay in
    the Plan Year.

    An election applies to each later Plan Year until the Participant revokes it or makes a new
    one; a revocation or a new election takes effect for the first Plan Year whose deadline it
    meets, so a late change never takes effect for the year it was late for. Of the elections
    that have taken effect by the Plan Year, the one that took effect last governs (of two
    taking effect the same year, the later made); if it has been revoked with effect by then,
    none is in force and no earlier election revives.

    ``readings``: the elections' route readings when already worked out (readings_of).
    """
    words = "salary" if part == "salary" else "bonus or performance-based pay"
    if not participant.eligible_employee:
        return InForce(
            part,
            plan_year,
            None,
            None,
            None,
            f"no Deferral Election is in force for {plan_year}: not an Eligible Employee "
            "(Plan 1.11, 2.01)",
        )
    concerned = [
        (index, election)
        for index, election in enumerate(participant.elections)
        if PART_OF_PAY[election.kind] == part and election.plan_year <= plan_year
    ]
    # A form on record as not in effect (status: ineffective) is never in force.
    if readings is None:
        readings = readings_of(participant, plan_year, naming=False)
    candidates = [
        (index, election, takes_effect_for(participant, election, readings[index]))
        for index, election in concerned
        if is_in_effect(election)
    ]
    effective = [c for c in candidates if c[2] <= plan_year]
    chosen = max(effective, key=lambda c: (c[2], c[1].made_on, c[0]), default=None)
    notes = [
        f"{described(election)} is not used: {decision_words(election)}"
        for _, election in concerned
        if not is_in_effect(election)
    ]
    for index, election, since in candidates:
        if since > plan_year:
            deadline = prior_year_deadline_for(election, plan_year)
            notes.append(
                f"{described(election)} does not take effect for {plan_year}: it was made after "
                f"the deadline, {deadline.isoformat()}{hired_after(participant, deadline)}, "
                f"and applies from {since} (Plan 2.03(b))"
            )
        elif (
            chosen
            and since == plan_year
            and index != chosen[0]
            and election.plan_year == (plan_year)
        ):
            notes.append(
                f"{described(election)} was replaced by the later one made "
                f"{chosen[1].made_on.isoformat()} (Plan 2.03(b))"
            )
    if chosen is None:
        why = (
            "none on file"
            if not concerned
            else "every one on file is set aside"
            if not candidates
            else "none made by its deadline"
        )
        return InForce(
            part,
            plan_year,
            None,
            None,
            None,
            f"no {words} Deferral Election in force for {plan_year}: {why} (Plan 2.03(b))",
            tuple(notes),
        )
    index, election, since = chosen
    own = readings[index]
    revoked_on = election.revoked_on
    revoked_for = revocation_takes_effect_for(participant, election, own)  # None: not revoked
    if revoked_on is not None and revoked_for is not None and revoked_for <= plan_year:
        return InForce(
            part,
            plan_year,
            None,
            None,
            None,
            f"no {words} Deferral Election in force for {plan_year}: {described(election)} "
            f"was revoked on {revoked_on.isoformat()}, effective for {revoked_for} "
            "(Plan 2.03(b))",
            tuple(notes),
        )
    if revoked_on is not None and revoked_for is not None:
        notes.append(
            f"the revocation filed {revoked_on.isoformat()} is after the deadline, "
            f"{deadline_for(participant, election, plan_year, own).isoformat()}: "
            f"{described(election)}"
            f" stays in force for {plan_year} and stops for {revoked_for} (Plan 2.03(b))"
        )
    first_year = since == election.plan_year and only_after_the_election(participant, election, own)
    return InForce(
        part,
        plan_year,
        election,
        index,
        since,
        "",  # in force: InForce.reason says which, and since when
        tuple(notes),
        doubtful=since == election.plan_year
        and timeliness(participant, election, own) == "doubtful",
        only_after_the_election=first_year and election.plan_year == plan_year,
    )


def readings_of(participant: Participant, plan_year: int, naming: bool = True) -> ElectionReadings:
    """The route readings of each election the Plan Year's questions look at, by position: of an
    Eligible Employee's elections in effect up to the Plan Year (the election in force chooses
    among them) and, with ``naming``, every one naming it (the timing rules judge those)."""
    if not participant.eligible_employee:
        return (None,) * len(participant.elections)
    return tuple(
        route_readings(participant, election)
        if election.plan_year <= plan_year
        and ((naming and election.plan_year == plan_year) or is_in_effect(election))
        else None
        for election in participant.elections
    )


def elections_in_force(
    participant: Participant, plan_year: int, readings: ElectionReadings | None = None
) -> Mapping[str, InForce]:
    """The election in force for each part of pay (salary, bonus) in the Plan Year (worked out
    afresh on each call: the checker works it out once per run, in the participant's view)."""
    if readings is None:
        readings = readings_of(participant, plan_year, naming=False)
    return MappingProxyType(
        {part: election_in_force(participant, plan_year, part, readings) for part in PARTS}
    )


def elections_for_plan_year(
    participant: Participant, plan_year: int, in_force: Mapping[str, InForce] | None = None
) -> list[int]:
    """The positions of the elections that concern the Plan Year: those naming it, and those
    in force for it (rolled over from an earlier year), in file order. ``in_force``: the
    elections in force for it when already worked out."""
    if in_force is None:
        in_force = elections_in_force(participant, plan_year)
    naming = {i for i, e in enumerate(participant.elections) if e.plan_year == plan_year}
    chosen = {found.position for found in in_force.values() if found.position is not None}
    return sorted(naming | chosen)


def forms_not_in_effect(facts: RRPPlanYearFacts) -> dict[str, str]:
    """Each Deferral Election on record as not in effect, by its fact path, with the decision in
    words (the checker reports findings inside these at info: the decision has been made)."""
    return {
        fact_path("participants", p_index, "elections", e_index): decision_words(election)
        for p_index, participant in enumerate(facts.participants)
        for e_index, election in enumerate(participant.elections)
        if not is_in_effect(election)
    }


def percent_problem(plan: RRPPlan, election: RRPElection) -> str | None:
    """Why the Plan does not allow the percentage (Plan 2.03(a)), or None."""
    percent = election.percent
    if percent > plan.max_deferral_percent:
        return (
            f"{described(election)} is above the Plan maximum of "
            f"{plan.max_deferral_percent.normalize():f}% (Plan 2.03(a))"
        )
    if percent < 0 or percent != percent.to_integral_value():
        return f"{described(election)} is not a whole percent (Plan 2.03(a))"
    return None
