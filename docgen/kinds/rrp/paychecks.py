"""A participant's paychecks for the Plan Year: the facts' own ``pay_periods``, else the ones
``plan.pay_schedule`` gives (DESIGN.md A18; Plan 3.03 credits deferrals "each pay period").

From a schedule: the salary (compensation less bonus_compensation) is paid in equal parts, to the
cent, on the regular pay dates from the hire date (or January 1) through the termination date (or
December 31), the last part taking the cents left over; each paycheck's salary pays for the days
from the day after the previous regular pay date (the first: January 1 or the hire date) through
its pay date. The bonus is paid on ``bonus_paid_on``: in that day's regular paycheck, else in an
off-cycle paycheck of its own. Every one of these readings is returned as a note, so the figures
never rest on a silent assumption.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import ROUND_DOWN, Decimal
from fractions import Fraction
from typing import NamedTuple

from docgen.core import dates
from docgen.kinds.rrp.facts import Participant, PayPeriod, RRPPlanYearFacts
from docgen.kinds.rrp.pay_schedule import RULES, pay_dates

ZERO = Decimal(0)
CENT = Decimal("0.01")


class Paycheck(NamedTuple):
    """A paycheck the pay schedule gives, read as a PayPeriod of the facts is. Built from figures
    worked out here (dates and Decimals the model already judged), so nothing is validated again
    per paycheck: a plain record, not a pydantic model."""

    paid_on: date
    compensation: Decimal
    bonus: Decimal = ZERO
    services_from: date | None = None
    services_to: date | None = None


@dataclass(frozen=True)
class Paychecks:
    """The pay periods the arithmetic works on, where they come from, and what was assumed."""

    periods: tuple[PayPeriod | Paycheck, ...]
    source: str  # facts | schedule | none
    notes: tuple[str, ...] = ()


def paychecks(facts: RRPPlanYearFacts, participant: Participant) -> Paychecks:
    """The participant's pay periods: their own, else the pay schedule's, else none."""
    if participant.pay_periods:
        return Paychecks(tuple(participant.pay_periods), "facts")
    schedule = facts.plan.pay_schedule
    if schedule is None:
        return Paychecks((), "none")
    year = facts.plan_year
    start = max(date(year, 1, 1), participant.hired_on or date(year, 1, 1))
    termination = participant.termination
    end = min(dates.end_of_year(year), termination.on) if termination else dates.end_of_year(year)
    bonus = participant.bonus_compensation or ZERO
    salary = participant.compensation - bonus
    notes = [
        f"paychecks from plan.pay_schedule ({schedule.frequency}: {RULES[schedule.frequency]}; "
        f"first pay date {schedule.first_pay_date.isoformat()}): the salary is paid in equal "
        "parts to the cent on the pay dates from the hire date (or January 1) through the "
        "termination date (or December 31), the last taking the cents left over; each pays for "
        "the days after the previous pay date through its own (Plan 3.03)"
    ]
    regular = [day for day in pay_dates(schedule, year) if start <= day <= end and salary > 0]
    if salary > 0 and not regular:
        regular = [max(start, end)]
        notes.append(
            f"no regular pay date falls between {start.isoformat()} and {end.isoformat()}: the "
            f"salary is taken as paid on {regular[0].isoformat()}, the last day employed"
        )
    weights = _days_worked(pay_dates(schedule, year), regular, start)
    if weights and weights[0] != 1:
        notes.append(
            f"hired {start.isoformat()}, within the pay period the {regular[0].isoformat()} "
            f"paycheck pays for: it pays for the days worked, {weights[0].numerator} of the "
            f"period's {weights[0].denominator} days, and each later paycheck a full period "
            "(Plan 1.21: Plan Compensation is pay actually paid)"
        )
    salary_parts = _weighted_parts(salary, weights) if regular else []
    periods: list[PayPeriod | Paycheck] = []
    previous = start - timedelta(days=1)
    for day, part in zip(regular, salary_parts, strict=True):
        extra = bonus if bonus > 0 and day == participant.bonus_paid_on else ZERO
        periods.append(
            Paycheck(
                paid_on=day,
                compensation=part + extra,
                bonus=extra,
                services_from=previous + timedelta(days=1),
                services_to=day,
            )
        )
        previous = day
    paid_on = participant.bonus_paid_on
    if bonus > 0 and paid_on is not None:
        if paid_on in regular:
            notes.append(f"the bonus is paid in the regular paycheck of {paid_on.isoformat()}")
        else:
            periods.append(Paycheck(paid_on=paid_on, compensation=bonus, bonus=bonus))
            notes.append(
                f"the bonus is paid on {paid_on.isoformat()}, not a regular pay date: taken as a "
                "paycheck of its own, its match capped at 6% of its own Plan Compensation "
                "(Plan 3.04)"
            )
    return Paychecks(tuple(sorted(periods, key=lambda p: p.paid_on)), "schedule", tuple(notes))


def _days_worked(schedule: tuple[date, ...], regular: list[date], start: date) -> list[Fraction]:
    """Each regular paycheck's share of a full period's salary: 1, except the first paycheck
    after a hire within its pay period, which pays for the days from the hire date through its
    pay date out of the period's days (the period: from the day after the schedule's previous
    pay date, or one period back for the year's first pay date)."""
    if not regular:
        return []
    first = regular[0]
    at = schedule.index(first) if first in schedule else -1
    if at > 0:
        period_start = schedule[at - 1] + timedelta(days=1)
    elif at == 0 and len(schedule) > 1:
        period_start = first - (schedule[1] - schedule[0]) + timedelta(days=1)
    else:
        return [Fraction(1)] * len(regular)
    if start <= period_start or (start.month, start.day) == (1, 1):
        return [Fraction(1)] * len(regular)
    days = (first - period_start).days + 1
    worked = (first - start).days + 1
    return [Fraction(worked, days), *([Fraction(1)] * (len(regular) - 1))]


def _weighted_parts(amount: Decimal, weights: list[Fraction]) -> list[Decimal]:
    """``amount`` in parts to the cent in proportion to ``weights`` (equal parts when every
    weight is 1), the last taking what is left over."""
    if all(weight == 1 for weight in weights):  # no hire within a period: equal parts
        part = (amount / len(weights)).quantize(CENT, rounding=ROUND_DOWN)
        return [part] * (len(weights) - 1) + [amount - part * (len(weights) - 1)]
    total = sum(weights, Fraction(0))
    parts = []
    for weight in weights[:-1]:
        share = weight / total
        part = amount * Decimal(share.numerator) / Decimal(share.denominator)
        parts.append(part.quantize(CENT, rounding=ROUND_DOWN))
    return [*parts, amount - sum(parts, ZERO)]
