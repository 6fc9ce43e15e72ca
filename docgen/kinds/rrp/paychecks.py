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

from docgen.core import dates
from docgen.kinds.rrp.facts import Participant, PayPeriod, RRPPlanYearFacts
from docgen.kinds.rrp.pay_schedule import RULES, pay_dates

ZERO = Decimal(0)
CENT = Decimal("0.01")


@dataclass(frozen=True)
class Paychecks:
    """The pay periods the arithmetic works on, where they come from, and what was assumed."""

    periods: tuple[PayPeriod, ...]
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
    salary_parts = _equal_parts(salary, len(regular)) if regular else []
    periods: list[PayPeriod] = []
    previous = start - timedelta(days=1)
    for day, part in zip(regular, salary_parts, strict=True):
        extra = bonus if bonus > 0 and day == participant.bonus_paid_on else ZERO
        periods.append(
            PayPeriod(
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
            periods.append(PayPeriod(paid_on=paid_on, compensation=bonus, bonus=bonus))
            notes.append(
                f"the bonus is paid on {paid_on.isoformat()}, not a regular pay date: taken as a "
                "paycheck of its own, its match capped at 6% of its own Plan Compensation "
                "(Plan 3.04)"
            )
    return Paychecks(tuple(sorted(periods, key=lambda p: p.paid_on)), "schedule", tuple(notes))


def _equal_parts(amount: Decimal, count: int) -> list[Decimal]:
    """``amount`` in ``count`` parts to the cent, the last taking what is left over."""
    part = (amount / count).quantize(CENT, rounding=ROUND_DOWN)
    return [part] * (count - 1) + [amount - part * (count - 1)]
