"""The Plan's arithmetic for a Plan Year, participant by participant (docs/rrp-arithmetic.md).

Plan Compensation (Plan 1.21), Elective Deferral Contributions (Plan 2.03, 3.03), Matching
Restoration Contributions (Plan 3.04), Retirement Restoration Contributions (Plan 3.02), vesting
(Plan 3.06) and the last day the Plan allows payment (Plan 4.01). Money is ``Decimal`` throughout,
rounded to cents ROUND_HALF_UP once per pay period (or once a year when no pay periods are given).

This module computes; it does not judge. A late election is computed as made (``docgen check``
flags it); a percentage the Plan does not allow (above the maximum, or not a whole percent) is
never used: the participant is reported with a null deferral and a note saying why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from docgen.core import dates
from docgen.core.formats import cents, money_text
from docgen.kinds.rrp.facts import Participant, PayPeriod, RRPElection, RRPPlanYearFacts
from docgen.kinds.rrp.terms import (
    Vested,
    compensation_limit,
    payment_window,
    period_share,
    vesting,
)

ZERO = Decimal(0)
HUNDRED = Decimal(100)
# Which part of Compensation each kind of Deferral Election applies to (docs/rrp-arithmetic.md).
PART_OF_PAY = {"salary": "salary", "bonus": "bonus", "performance_based": "bonus"}


def above_limit(paid_before: Decimal, paid_now: Decimal, limit: Decimal) -> Decimal:
    """The part of ``paid_now`` above the 401(a)(17) limit, once ``paid_before`` was already paid.

    Plan 1.21: Plan Compensation is the excess of Compensation over the limit; paid through the
    year, the excess is whatever is paid after the cumulative pay reaches the limit.
    """
    return max(ZERO, paid_before + paid_now - limit) - max(ZERO, paid_before - limit)


@dataclass(frozen=True)
class PeriodArithmetic:
    """One pay period's Plan Compensation, deferral and match (Plan 3.03, 3.04)."""

    paid_on: date
    compensation: Decimal
    plan_compensation: Decimal
    elective_deferral: Decimal | None
    matching_restoration: Decimal | None

    def as_json(self) -> dict[str, Any]:
        return {
            "paid_on": self.paid_on.isoformat(),
            "compensation": money_text(self.compensation),
            "plan_compensation": money_text(self.plan_compensation),
            "elective_deferral": money_text(self.elective_deferral),
            "matching_restoration": money_text(self.matching_restoration),
        }


@dataclass(frozen=True)
class ParticipantArithmetic:
    """Everything the Plan makes of one Participant's year. ``None`` means not applicable."""

    id: str
    name: str
    plan_compensation: Decimal
    salary_plan_compensation: Decimal
    bonus_plan_compensation: Decimal
    elective_deferral: Decimal | None
    matching_restoration: Decimal | None
    retirement_restoration: Decimal | None
    vested: Vested
    payment_earliest_on: date | None
    payment_due_on: date | None
    pay_periods: tuple[PeriodArithmetic, ...] = ()
    notes: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "plan_compensation": money_text(self.plan_compensation),
            "salary_plan_compensation": money_text(self.salary_plan_compensation),
            "bonus_plan_compensation": money_text(self.bonus_plan_compensation),
            "elective_deferral": money_text(self.elective_deferral),
            "matching_restoration": money_text(self.matching_restoration),
            "retirement_restoration": money_text(self.retirement_restoration),
            "vested": self.vested.as_json(),
            "payment_earliest_on": _iso(self.payment_earliest_on),
            "payment_due_on": _iso(self.payment_due_on),
            "notes": list(self.notes),
        }
        if self.pay_periods:
            data["pay_periods"] = [period.as_json() for period in self.pay_periods]
        return data


@dataclass(frozen=True)
class PlanYearArithmetic:
    plan_year: int
    compensation_limit: Decimal
    participants: tuple[ParticipantArithmetic, ...] = field(default_factory=tuple)

    def as_json(self) -> dict[str, Any]:
        return {
            "plan_year": self.plan_year,
            "compensation_limit": money_text(self.compensation_limit),
            "participants": [participant.as_json() for participant in self.participants],
        }


def _iso(day: date | None) -> str | None:
    return None if day is None else day.isoformat()


# ----------------------------------------------------------------------------- the arithmetic


def compute(facts: RRPPlanYearFacts) -> PlanYearArithmetic:
    """The Plan's arithmetic for every participant in ``facts``, in file order."""
    limit = compensation_limit(facts)
    return PlanYearArithmetic(
        plan_year=facts.plan_year,
        compensation_limit=limit,
        participants=tuple(compute_participant(facts, p, limit) for p in facts.participants),
    )


@dataclass(frozen=True)
class _Election:
    """The Deferral Election that governs one part of pay, and the share of that part it reaches."""

    kind: str
    percent: Decimal
    made_on: date
    in_year: bool  # made during the Plan Year: reaches pay for services after it only (2.03(c))
    share: Decimal  # Treas. Reg. 1.409A-2(a)(7)(i): days after the election / days in the period


def _governing_elections(
    facts: RRPPlanYearFacts, participant: Participant, notes: list[str]
) -> tuple[dict[str, _Election], bool]:
    """The election that governs salary and bonus pay this Plan Year; False if one is unusable."""
    plan = facts.plan
    year_start = date(facts.plan_year, 1, 1)
    year_end = dates.end_of_year(facts.plan_year)
    chosen: dict[str, RRPElection] = {}
    usable = True
    for election in participant.elections:
        if election.plan_year != facts.plan_year:
            # Only this Plan Year's elections count (docs/rrp-arithmetic.md).
            notes.append(f"{election.kind} election for {election.plan_year} not used")
            continue
        if (
            election.percent > plan.max_deferral_percent
            or election.percent < 0
            or (election.percent != election.percent.to_integral_value())
        ):
            notes.append(
                f"{election.kind} election of {election.percent}% is not a whole percent from 0 to "
                f"{plan.max_deferral_percent} (Plan 2.03(a)); deferral and match not computed"
            )
            usable = False
            continue
        part = PART_OF_PAY[election.kind]
        earlier = chosen.get(part)
        if earlier is not None:
            notes.append(
                f"more than one {part} election for {facts.plan_year}; the one made "
                f"{max(earlier.made_on, election.made_on).isoformat()} is used"
            )
            if election.made_on < earlier.made_on:
                continue
        chosen[part] = election

    governing: dict[str, _Election] = {}
    for part, election in chosen.items():
        in_year = election.made_on >= year_start and election.kind != "performance_based"
        share = Decimal(1)
        if in_year:
            period = election.performance_period
            start, end = (period.start, period.end) if period else (year_start, year_end)
            share = period_share(election.made_on, start, end)
            notes.append(
                f"{election.kind} election made during the Plan Year on "
                f"{election.made_on.isoformat()} reaches only pay for services after it "
                "(Plan 2.03(c))"
            )
        governing[part] = _Election(
            election.kind, election.percent, election.made_on, in_year, share
        )
    return governing, usable


def compute_participant(
    facts: RRPPlanYearFacts, participant: Participant, limit: Decimal
) -> ParticipantArithmetic:
    """One Participant's Plan Year (Plan 1.21, 2.03, 3.02-3.06, 4.01)."""
    plan = facts.plan
    notes: list[str] = []
    bonus_pay = participant.bonus_compensation
    if bonus_pay is None:
        bonus_pay = sum((period.bonus for period in participant.pay_periods), ZERO)
    salary_pay = participant.compensation - bonus_pay

    # Plan 1.21; the 401(a)(17) limit is absorbed by salary first (docs/rrp-arithmetic.md).
    plan_compensation = above_limit(ZERO, participant.compensation, limit)
    salary_plan_compensation = above_limit(ZERO, salary_pay, limit)
    bonus_plan_compensation = plan_compensation - salary_plan_compensation
    if plan_compensation == 0:
        notes.append(f"Compensation is not above the {facts.plan_year} limit: no Plan Compensation")

    elections, usable = _governing_elections(facts, participant, notes)
    if "bonus" in elections and bonus_pay == 0:
        notes.append(
            f"{elections['bonus'].kind} election, but no bonus pay (bonus_compensation): "
            "nothing deferred"
        )

    deferral: Decimal | None
    match: Decimal | None
    periods: tuple[PeriodArithmetic, ...] = ()
    if not participant.eligible_employee:
        notes.append("not an Eligible Employee (Plan 1.11): no contributions")
        deferral = match = None
    elif not usable:
        deferral = match = None
    elif participant.pay_periods:
        periods = _by_pay_period(facts, participant, limit, elections, notes)
        deferral = sum((p.elective_deferral or ZERO for p in periods), ZERO)
        match = sum((p.matching_restoration or ZERO for p in periods), ZERO)
    else:
        deferral, match = _for_the_year(
            plan, salary_plan_compensation, bonus_plan_compensation, elections
        )

    restoration = _retirement_restoration(facts, participant, plan_compensation, notes)
    payment_earliest_on, payment_due_on = payment_window(facts, participant)
    return ParticipantArithmetic(
        id=participant.id,
        name=participant.name,
        plan_compensation=plan_compensation,
        salary_plan_compensation=salary_plan_compensation,
        bonus_plan_compensation=bonus_plan_compensation,
        elective_deferral=deferral,
        matching_restoration=match,
        retirement_restoration=restoration,
        vested=vesting(facts, participant),
        payment_earliest_on=payment_earliest_on,
        payment_due_on=payment_due_on,
        pay_periods=periods,
        notes=tuple(notes),
    )


def _matching(plan, deferral: Decimal, plan_compensation: Decimal) -> Decimal:
    """Plan 3.04: 100% of the deferral, not to exceed 6% of Plan Compensation (same period)."""
    return min(
        deferral * plan.match_rate_percent / HUNDRED,
        plan_compensation * plan.match_cap_percent / HUNDRED,
    )


def _for_the_year(
    plan,
    salary_plan_compensation: Decimal,
    bonus_plan_compensation: Decimal,
    elections: dict[str, _Election],
) -> tuple[Decimal, Decimal]:
    """No pay periods given: the Plan Year is worked as one pay period."""
    deferral = ZERO
    reached = ZERO  # Plan Compensation the elections reach: the match cap's base
    for part, part_plan_compensation in (
        ("salary", salary_plan_compensation),
        ("bonus", bonus_plan_compensation),
    ):
        election = elections.get(part)
        share = election.share if election else Decimal(1)
        reached += part_plan_compensation * share
        if election:
            deferral += part_plan_compensation * share * election.percent / HUNDRED
    deferral = cents(deferral)
    return deferral, cents(_matching(plan, deferral, reached))


def _by_pay_period(
    facts: RRPPlanYearFacts,
    participant: Participant,
    limit: Decimal,
    elections: dict[str, _Election],
    notes: list[str],
) -> tuple[PeriodArithmetic, ...]:
    """Plan 3.03, 3.04 pay period by pay period; the limit is reached by cumulative pay."""
    paid_before = ZERO
    result = []
    ordered: list[PayPeriod] = sorted(participant.pay_periods, key=lambda p: p.paid_on)
    if any(period.paid_on.year != facts.plan_year for period in ordered):
        notes.append(f"some pay periods are paid outside {facts.plan_year}")
    for period in ordered:
        salary_now = period.compensation - period.bonus
        period_plan_compensation = above_limit(paid_before, period.compensation, limit)
        salary_above = above_limit(paid_before, salary_now, limit)
        bonus_above = period_plan_compensation - salary_above
        paid_before += period.compensation

        deferral = ZERO
        salary = elections.get("salary")
        if salary and (not salary.in_year or period.paid_on > salary.made_on):
            deferral += salary_above * salary.percent / HUNDRED
        bonus = elections.get("bonus")
        if bonus:
            deferral += bonus_above * bonus.share * bonus.percent / HUNDRED
        deferral = cents(deferral)
        match = cents(_matching(facts.plan, deferral, period_plan_compensation))
        result.append(
            PeriodArithmetic(
                period.paid_on, period.compensation, period_plan_compensation, deferral, match
            )
        )
    return tuple(result)


def _retirement_restoration(
    facts: RRPPlanYearFacts, participant: Participant, plan_compensation: Decimal, notes: list[str]
) -> Decimal | None:
    """Plan 3.02: the declared percentage times Plan Compensation, for those it reaches."""
    percent = facts.retirement_contribution_percent
    if percent is None or not participant.eligible_employee:
        return None
    termination = participant.termination
    if termination is None or termination.on >= dates.end_of_year(facts.plan_year):
        return cents(plan_compensation * percent / HUNDRED)  # employed on the last day
    if termination.reason == "death":
        return cents(plan_compensation * percent / HUNDRED)
    if termination.age is None or termination.hours_of_service is None:
        notes.append(
            "left during the year: age and hours_of_service at termination are needed to "
            "know whether a Retirement Restoration Contribution is due (Plan 1.24, 3.02)"
        )
        return None
    if (
        termination.age >= facts.plan.retirement_age
        and termination.hours_of_service >= facts.plan.retirement_hours_of_service
    ):
        return cents(plan_compensation * percent / HUNDRED)
    notes.append(
        "no Retirement Restoration Contribution: not employed on the last day of the Plan Year, "
        "and did not die or Retire after 1,000 Hours of Service in it (Plan 3.02)"
    )
    return cents(ZERO)


# ----------------------------------------------------------------------------- output
