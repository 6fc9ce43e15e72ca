"""The Plan's arithmetic for a Plan Year, participant by participant (docs/rrp-arithmetic.md).

Plan Compensation (Plan 1.21), Elective Deferral Contributions (Plan 2.03, 3.03), Matching
Restoration Contributions (Plan 3.04), Retirement Restoration Contributions (Plan 3.02), vesting
(Plan 3.06) and the last day the Plan allows payment (Plan 4.01). Money is ``Decimal`` throughout,
rounded to cents ROUND_HALF_UP once per pay period (or once a year when no pay periods are given).

Only the Deferral Election in force for the Plan Year is used (terms.election_in_force: rolled over,
revoked, replaced, late; DESIGN.md, "Elections roll over"); where none is, the deferral and match
are null and a note says why, naming the Plan section. A percentage the Plan does not allow (above
the maximum, not a whole percent) is never used either: that part of pay defers nothing, with a
note; the election in force for the other part of pay is used as it stands.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from datetime import date, timedelta
from decimal import Decimal
from typing import Any, NamedTuple

from docgen.core import dates
from docgen.core.formats import cents
from docgen.kinds.rrp.facts import (
    Participant,
    PayPeriod,
    RRPPlan,
    RRPPlanYearFacts,
)
from docgen.kinds.rrp.figures import (
    ParticipantArithmetic,
    ParticipantPay,
    PaychecksOn,
    PeriodArithmetic,
    PlanYearArithmetic,
)
from docgen.kinds.rrp.paychecks import Paycheck, Schedules, employed_in, pay_through, paychecks
from docgen.kinds.rrp.terms import (
    compensation_limit,
    described,
    elections_in_force,
    payment_window,
    percent_problem,
    vesting,
)
from docgen.kinds.rrp.timing import first_year_share

ZERO = Decimal(0)
HUNDRED = Decimal(100)
ONE = Decimal(1)
NOT_ELIGIBLE = "not an Eligible Employee (Plan 1.11, 2.01): no contributions"


def above_limit(paid_before: Decimal, paid_now: Decimal, limit: Decimal) -> Decimal:
    """The part of ``paid_now`` above the 401(a)(17) limit, once ``paid_before`` was already paid.

    Plan 1.21: Plan Compensation is the excess of Compensation over the limit; paid through the
    year, the excess is whatever is paid after the cumulative pay reaches the limit.
    """
    return max(ZERO, paid_before + paid_now - limit) - max(ZERO, paid_before - limit)


def compute(facts: RRPPlanYearFacts, only: Collection[str] | None = None) -> PlanYearArithmetic:
    """The Plan's arithmetic for every participant in ``facts``, in file order; ``only``: for
    the participants of those ids alone (each participant's arithmetic is their own, so their
    figures are the whole year's: the workspace shows a page of them)."""
    limit = compensation_limit(facts)
    return PlanYearArithmetic(
        plan_year=facts.plan_year,
        compensation_limit=limit,
        participants=tuple(compute_participant(facts, p, limit) for p in _chosen(facts, only)),
    )


def _chosen(facts: RRPPlanYearFacts, only: Collection[str] | None) -> Iterator[Participant]:
    """The participants in file order, or those whose id is in ``only``."""
    if only is None:
        yield from facts.participants
        return
    wanted = set(only)
    yield from (p for p in facts.participants if p.id in wanted)


# ------------------------------------------------------------------ the elections, as applied


class Applied(NamedTuple):
    """A Deferral Election in force, as the arithmetic applies it to its part of pay (a
    NamedTuple: made for each part of pay of each participant paid on a pay date)."""

    part: str  # salary | bonus
    percent: Decimal
    made_on: date
    only_after: bool  # first-year route: reaches only pay for services after it (Plan 2.03(c))
    share: Decimal  # of a bonus's period, the days after a first-year election (1.409A-2(a)(7))


def applied_elections(
    facts: RRPPlanYearFacts, participant: Participant, notes: list[str]
) -> dict[str, Applied] | None:
    """The elections in force for each part of pay; None when none is, or when one cannot be
    used (its percentage is not allowed): then no figure is given, and ``notes`` says why."""
    in_force = elections_in_force(participant, facts.plan_year)
    for found in in_force.values():
        notes.extend(found.notes)
    governing = {
        part: (found, found.election)
        for part, found in in_force.items()
        if found.election is not None
    }
    if not governing:
        with_records = [f for f in in_force.values() if f.notes or "none on file" not in f.reason]
        if with_records:
            notes[:0] = [f.reason for f in with_records]
        else:
            notes.insert(
                0,
                f"no Deferral Election in force for {facts.plan_year}: none on file (Plan 2.03(b))",
            )
        return None
    # Each part of pay stands on its own (DESIGN.md, "Elections roll over"): an election whose
    # percentage the Plan does not allow is not used, and never voids another part's election.
    for part, (_, election) in list(governing.items()):
        problem = percent_problem(facts.plan, election)
        if problem is not None:
            notes.append(f"{problem}: no {part} deferral or match computed from it")
            del governing[part]
    if not governing:
        return None
    applied = {}
    for part, (found, election) in governing.items():
        if election.plan_year < facts.plan_year:
            notes.append(found.reason)
        if found.doubtful:
            notes.append(
                f"{described(election)} is timely on one reading of a month-end boundary only "
                "(docgen check warns): computed as made"
            )
        share = ONE
        if found.only_after_the_election:
            notes.append(
                f"{described(election)} was made under Plan 2.03(c): it reaches only pay for "
                "services after it"
            )
            if part == "bonus":
                share = first_year_share(election)
        applied[part] = Applied(
            part, election.percent, election.made_on, found.only_after_the_election, share
        )
    return applied


def in_force_json(participant: Participant, plan_year: int) -> dict[str, dict[str, Any] | None]:
    """The election in force for each part, as `docgen compute --format json` reports it."""
    result: dict[str, dict[str, Any] | None] = {}
    for part, found in elections_in_force(participant, plan_year).items():
        election = found.election
        result[part] = (
            None
            if election is None
            else {
                "kind": election.kind,
                "percent": f"{election.percent.normalize():f}",
                "made_on": election.made_on.isoformat(),
                "plan_year": election.plan_year,
                "in_force_since": found.since,
            }
        )
    return result


# ------------------------------------------------------------------ one participant


def compute_participant(
    facts: RRPPlanYearFacts, participant: Participant, limit: Decimal
) -> ParticipantArithmetic:
    """One Participant's Plan Year (Plan 1.21, 2.03, 3.02-3.06, 4.01)."""
    pay = pay_of(facts, participant, limit)
    payment_earliest_on, payment_due_on = payment_window(facts, participant)
    return ParticipantArithmetic(
        **vars(pay),
        vested=vesting(facts, participant),
        payment_earliest_on=payment_earliest_on,
        payment_due_on=payment_due_on,
        elections_in_force=in_force_json(participant, facts.plan_year),
    )


def each_pay(
    facts: RRPPlanYearFacts, only: Collection[str] | None = None
) -> Iterator[ParticipantPay]:
    """Each Participant's year paycheck by paycheck, in file order, one at a time: `docgen
    payroll` prints each and lets it go (vesting and the payment window are compute's alone);
    ``only``: the participants of those ids alone."""
    limit = compensation_limit(facts)
    schedules = Schedules(facts)
    for participant in _chosen(facts, only):
        yield pay_of(facts, participant, limit, schedules)


def pay_of(
    facts: RRPPlanYearFacts,
    participant: Participant,
    limit: Decimal,
    schedules: Schedules | None = None,
) -> ParticipantPay:
    """One Participant's pay, Plan Compensation and contributions for the Plan Year, paycheck by
    paycheck (Plan 1.21, 2.03, 3.02-3.04), with every note that explains a figure."""
    notes: list[str] = []
    # and the year's Compensation: given, or from a rate
    pay = paychecks(facts, participant, schedules)
    bonus_pay = participant.bonus_compensation
    if bonus_pay is None:
        bonus_pay = sum((period.bonus for period in participant.pay_periods), ZERO)
    salary_pay = pay.compensation - bonus_pay

    # Plan 1.21; without pay periods the limit is absorbed by salary first (docs/rrp-arithmetic.md).
    plan_compensation = above_limit(ZERO, pay.compensation, limit)
    salary_plan_compensation = above_limit(ZERO, salary_pay, limit)
    bonus_plan_compensation = plan_compensation - salary_plan_compensation
    if plan_compensation == 0:
        notes.append(f"Compensation is not above the {facts.plan_year} limit: no Plan Compensation")

    deferral: Decimal | None = None
    match: Decimal | None = None
    periods: tuple[PeriodArithmetic, ...] = ()
    applied: dict[str, Applied] | None = None
    notes.extend(pay.notes)
    if not participant.eligible_employee:
        notes.append(NOT_ELIGIBLE)
    else:
        applied = applied_elections(facts, participant, notes)
        if applied is not None:
            if "bonus" in applied and bonus_pay == 0:
                notes.append("bonus election in force, but no bonus pay (bonus_compensation)")
            if pay.periods:
                periods = _by_pay_period(facts, participant, pay.periods, limit, applied, notes)
                deferral = sum((p.elective_deferral or ZERO for p in periods), ZERO)
                match = sum((p.matching_restoration or ZERO for p in periods), ZERO)
            else:
                salary_reached = _salary_reached(facts, participant, salary_pay, limit, applied)
                by_part = {"salary": salary_plan_compensation, "bonus": bonus_plan_compensation}
                deferral, match = _for_the_year(facts.plan, salary_reached, by_part, applied)
                if "bonus" in applied and bonus_pay > 0:
                    notes.append(
                        "no pay periods given: the bonus is taken as paid in a pay period of its "
                        "own, and salary in another, each matched up to 6% of its own Plan "
                        "Compensation (Plan 3.04)"
                    )
            notes.extend(_zero_notes(facts, applied, deferral, plan_compensation))

    every_paycheck = periods
    applied_percent = {part: a.percent for part, a in (applied or {}).items()}
    if pay.periods and not periods:  # no deferral: the paychecks' Plan Compensation still counts
        every_paycheck = _by_pay_period(facts, participant, pay.periods, limit, None, [])
    restoration = _retirement_restoration(facts, participant, plan_compensation, notes)
    return ParticipantPay(
        id=participant.id,
        name=participant.name,
        eligible_employee=participant.eligible_employee,
        plan_compensation=plan_compensation,
        salary_plan_compensation=salary_plan_compensation,
        bonus_plan_compensation=bonus_plan_compensation,
        elective_deferral=deferral,
        matching_restoration=match,
        retirement_restoration=restoration,
        pay_periods=periods,
        paychecks=every_paycheck,
        paychecks_from=pay.source,
        applied_percent=applied_percent,
        compensation=pay.compensation,
        bonus_pay=bonus_pay,
        notes=tuple(notes),
    )


def each_paychecks_on(facts: RRPPlanYearFacts, day: date) -> Iterator[PaychecksOn]:
    """Each Participant's paychecks of ``day``, in file order (`docgen payroll --pay-date`)."""
    limit = compensation_limit(facts)
    schedules = Schedules(facts)
    for participant in facts.participants:
        yield paychecks_on(facts, participant, limit, day, schedules)


def paychecks_on(
    facts: RRPPlanYearFacts,
    participant: Participant,
    limit: Decimal,
    day: date,
    schedules: Schedules | None = None,
) -> PaychecksOn:
    """One Participant's paychecks of ``day`` with the figures the whole year gives them. A
    paycheck's figures rest on the pay before it in the year (the 401(a)(17) limit is reached by
    pay to date, Plan 1.21) and on the elections in force, never on a later paycheck: so only the
    paychecks up to ``day`` are worked, the earlier ones only for the pay they add up to."""
    if schedules is None:
        schedules = Schedules(facts)
    applied = None
    on_day: tuple[PeriodArithmetic, ...] = ()
    through = pay_through(facts, participant, schedules, day)
    if through is not None:  # equal parts of a salary on a schedule: the pay before, added up
        periods: tuple[PayPeriod | Paycheck, ...] = through.on_day
        paid_that_day = bool(periods)
    else:
        pay = paychecks(facts, participant, schedules, through=day)
        periods = pay.periods
        # a schedule's paychecks come in date order, through the day: paid that day if the last is
        paid_that_day = (
            periods[-1].paid_on == day
            if pay.source == "schedule" and periods
            else any(period.paid_on == day for period in periods)
        )
    if paid_that_day:
        if participant.eligible_employee:
            applied = applied_elections(facts, participant, [])  # the notes are the year's
        if through is not None:
            on_day = _by_pay_period(
                facts,
                participant,
                periods,
                limit,
                applied,
                [],
                paid_before=through.paid_before,
                previous=through.previous,
            )
        else:
            on_day = _by_pay_period(facts, participant, periods, limit, applied, [], on=day)
    return PaychecksOn(
        id=participant.id,
        name=participant.name,
        eligible_employee=participant.eligible_employee,
        deferring=applied is not None,
        paychecks=on_day,
    )


def _matching(plan: RRPPlan, deferral: Decimal, period_plan_compensation: Decimal):
    """Plan 3.04: 100% of the deferral, "not to exceed six percent (6%) of Plan Compensation for
    such pay period": all of the period's Plan Compensation, every kind of pay in it."""
    return _matched(plan, deferral, _match_cap(plan, period_plan_compensation))


def _match_cap(plan: RRPPlan, period_plan_compensation: Decimal) -> Decimal:
    """Plan 3.04: six percent (6%) of the pay period's Plan Compensation, unrounded."""
    return period_plan_compensation * plan.match_cap_percent / HUNDRED


def _matched(plan: RRPPlan, deferral: Decimal, cap: Decimal) -> Decimal:
    """Plan 3.04: the match rate (100%) of the deferral, up to ``cap`` (_match_cap)."""
    return min(deferral * plan.match_rate_percent / HUNDRED, cap)


def services_before(facts: RRPPlanYearFacts, participant: Participant, made_on: date) -> Decimal:
    """The share of the year's salary paid for services on or before ``made_on``: salary is taken
    as earned evenly over the days employed in the Plan Year (from hire, to termination)."""
    start, end = employed_in(participant, facts.plan_year)
    if end < start:
        return ZERO
    total = dates.days_in_period(start, end)
    before = min(total, max(0, (made_on - start).days + 1))
    return Decimal(before) / Decimal(total)


def _salary_reached(
    facts: RRPPlanYearFacts,
    participant: Participant,
    salary_pay: Decimal,
    limit: Decimal,
    applied: dict[str, Applied],
) -> Decimal:
    """DESIGN.md, "The Plan's arithmetic": the salary Plan Compensation an election reaches. Plan
    Compensation is the top slice of the year's pay, earned once cumulative pay passes the limit; a
    first-year election reaches max(0, salary - max(limit, salary for services before the
    election))."""
    salary = applied.get("salary")
    if salary is None:
        return ZERO
    before = ZERO
    if salary.only_after:
        before = salary_pay * services_before(facts, participant, salary.made_on)
    return max(ZERO, salary_pay - max(limit, before))


def _for_the_year(
    plan: RRPPlan,
    salary_reached: Decimal,
    plan_compensation: dict[str, Decimal],
    applied: dict[str, Applied],
) -> tuple[Decimal, Decimal]:
    """No pay periods given: the bonus is taken as paid in a pay period of its own, matched up to
    6% of all of that period's Plan Compensation, whatever share of it a first-year election
    reaches (Plan 3.04); salary as paid over the payrolls of the year, of which those a
    first-year election reaches are the ones with a deferral to match, so its cap is 6% of the
    salary Plan Compensation reached (docs/rrp-arithmetic.md).

    Each part is rounded to the cent, as the pay period it stands for would be, and the match is
    the match rate of the deferral so credited: matching the unrounded deferral could credit a
    cent more than the match rate of the Elective Deferral the account shows (Plan 3.04)."""
    deferral = match = ZERO
    bonus = applied.get("bonus")
    for part, reached, cap_base in (
        ("salary", salary_reached, salary_reached),
        (
            "bonus",
            plan_compensation["bonus"] * bonus.share if bonus else ZERO,
            plan_compensation["bonus"],
        ),
    ):
        election = applied.get(part)
        if election is None:
            continue
        part_deferral = cents(reached * election.percent / HUNDRED)
        deferral += part_deferral
        match += cents(_matching(plan, part_deferral, cap_base))
    return deferral, match


def _by_pay_period(
    facts: RRPPlanYearFacts,
    participant: Participant,
    pay_periods: tuple[PayPeriod | Paycheck, ...],
    limit: Decimal,
    applied: dict[str, Applied] | None,
    notes: list[str],
    on: date | None = None,
    paid_before: Decimal = ZERO,
    previous: date | None = None,
) -> tuple[PeriodArithmetic, ...]:
    """Plan 3.03, 3.04 pay period by pay period; the limit is reached by cumulative pay. The match
    is capped at 6% of the period's Plan Compensation, all kinds of pay (Plan 3.04); a first-year
    salary election reaches the part of a payroll's salary for service days after it.

    ``on``: the pay periods of that day alone; each earlier one counts only for the pay it adds to
    the year to date and for its pay date (the next salary's services start the day after it).
    ``paid_before`` and ``previous``: the year's pay before ``pay_periods`` and its last pay date,
    when the earlier paychecks were added up without being laid out (paychecks.pay_through)."""
    result = []
    ordered: list[PayPeriod | Paycheck] = sorted(pay_periods, key=lambda p: p.paid_on)
    if any(period.paid_on.year != facts.plan_year for period in ordered):
        notes.append(f"some pay periods are paid outside {facts.plan_year}")
    salary, bonus = (applied.get("salary"), applied.get("bonus")) if applied else (None, None)
    salary_percent = salary.percent if salary else None
    bonus_percent = bonus.percent if bonus else None
    plan = facts.plan
    assumed = False
    for period in ordered:
        if on is not None and period.paid_on != on:
            if period.paid_on > on:
                break
            paid_before += period.compensation
            previous = period.paid_on
            continue
        compensation = period.compensation
        salary_now = compensation - period.bonus
        # above_limit (Plan 1.21) for the paycheck and for its salary, written out so the part
        # of the year's pay before it that was above the limit is worked once, not twice
        over_before = max(ZERO, paid_before - limit)
        period_plan_compensation = max(ZERO, paid_before + compensation - limit) - over_before
        salary_above = max(ZERO, paid_before + salary_now - limit) - over_before
        bonus_above = period_plan_compensation - salary_above
        paid_before += compensation

        deferral = ZERO
        share = ONE
        if salary:
            if salary.only_after:
                start, end, given = _services(facts, participant, period, previous)
                assumed = assumed or (not given and salary_above > 0)
                share = _share_after(salary.made_on, start, end)
            deferral += salary_above * share * salary.percent / HUNDRED
        if bonus:
            deferral += bonus_above * bonus.share * bonus.percent / HUNDRED
        deferral = cents(deferral)
        cap = _match_cap(plan, period_plan_compensation)
        result.append(
            PeriodArithmetic(  # in its fields' order (positional: made once per paycheck)
                period.paid_on,
                compensation,
                period_plan_compensation,
                deferral if applied is not None else None,  # elective_deferral
                cents(_matched(plan, deferral, cap)) if applied is not None else None,
                salary_now,  # salary
                period.bonus,  # bonus
                paid_before - compensation,  # paid_before
                salary_above,  # salary_plan_compensation
                bonus_above,  # bonus_plan_compensation
                salary_percent,
                bonus_percent,
                share,  # salary_share
                cents(cap),  # match_cap
            )
        )
        previous = period.paid_on
    if assumed:
        notes.append(
            "pay periods give no service dates (services_from, services_to): each payroll's salary "
            "is taken as pay for the days from the one after the previous pay date (the first: "
            "January 1 or the hire date) to its pay date, and the first-year election reaches the "
            "days after it (Plan 2.03(c); Treas. Reg. 1.409A-2(a)(7)(i))"
        )
    return tuple(result)


def _services(
    facts: RRPPlanYearFacts,
    participant: Participant,
    period: PayPeriod | Paycheck,
    previous: date | None,
) -> tuple[date, date, bool]:
    """The service days a payroll's salary pays for: the facts' own, else assumed (False)."""
    if period.services_from is not None and period.services_to is not None:
        return period.services_from, period.services_to, True
    if previous is not None:
        return previous + timedelta(days=1), period.paid_on, False
    start, _ = employed_in(participant, facts.plan_year)
    return min(start, period.paid_on), period.paid_on, False


def _share_after(made_on: date, start: date, end: date) -> Decimal:
    """Of the service days ``start`` to ``end``, the share after the election day."""
    total = dates.days_in_period(start, end)
    after = max(0, min(total, (end - max(made_on, start - timedelta(days=1))).days))
    return Decimal(after) / Decimal(total)


def _zero_notes(
    facts: RRPPlanYearFacts,
    applied: dict[str, Applied],
    deferral: Decimal | None,
    plan_compensation: Decimal,
) -> list[str]:
    """A zero deferral says why, naming the section (DESIGN.md, "The Plan's arithmetic")."""
    if deferral is None or deferral != 0:
        return []
    parts = " and ".join(f"{part} {a.percent.normalize():f}%" for part, a in applied.items())
    if plan_compensation == 0:
        why = f"no pay above the {facts.plan_year} 401(a)(17) limit (Plan 1.21)"
    else:
        why = (
            "none of the Plan Compensation is pay the election reaches: the pay above the "
            "401(a)(17) limit is of another kind, or for services before a first-year election "
            "(Plan 1.21, 2.03(a), 2.03(c))"
        )
    return [f"the election in force ({parts}) defers 0.00 and earns no match: {why}"]


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
    if termination.on < date(facts.plan_year, 1, 1):
        notes.append(
            f"left on {termination.on.isoformat()}, before the {facts.plan_year} Plan Year: no "
            "Retirement Restoration Contribution for it (Plan 3.02)"
        )
        return None
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
