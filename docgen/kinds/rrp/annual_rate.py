"""The salary an annual rate of pay pays in the Plan Year, paycheck by paycheck (A24), for a
participant whose records give a rate (``annual_rate``) rather than the pay paid in the year.

Plan 1.21 makes Plan Compensation the excess of Compensation *for the Plan Year* over the
401(a)(17) limit, and docgen reads Compensation as pay actually paid in the Plan Year (the
Retirement Savings Plan's reading, checks/NOT_ENCODED.md). So a rate is worked into what payroll
pays on the participant's pay dates in the year: a full pay period's pay is the rate divided by
the frequency's pay periods in a year (52, 26, 24, 12); a paycheck whose pay period (the days
after the schedule's previous pay date through its own) the participant was hired or left
within pays for the days worked, out of the period's days; a paycheck whose period holds no day
worked pays nothing. Each paycheck is rounded to the cent, half a cent up, from the exact
figure, and the year's salary is the sum of the rounded paychecks (so 24 semimonthly paychecks
of a $400,000 rate pay $400,000.08: what payroll pays).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

from docgen.core.formats import money_text
from docgen.kinds.rrp.pay_schedule import (
    PERIODS_PER_YEAR,
    PaySchedule,
    pay_dates,
    previous_pay_date,
)

CENT = Decimal("0.01")

ROUNDING = "each paycheck rounded to the cent, half a cent up, from the exact figure"


@dataclass(frozen=True)
class RatePaycheck:
    """One regular paycheck's salary at the rate, and the days of its period it pays for."""

    paid_on: date
    salary: Decimal
    services_from: date  # the first day worked that it pays for
    services_to: date  # the last
    days_worked: int
    period_days: int


def full_period_pay(rate: Decimal, schedule: PaySchedule) -> Decimal:
    """A full pay period's salary at ``rate`` (rounded as every paycheck is)."""
    return (rate / PERIODS_PER_YEAR[schedule.frequency]).quantize(CENT, rounding=ROUND_HALF_UP)


def rate_paychecks(
    rate: Decimal,
    schedule: PaySchedule,
    year: int,
    hired_on: date | None,
    terminated_on: date | None,
) -> tuple[RatePaycheck, ...]:
    """The salary paid at ``rate`` on each of the schedule's pay dates in ``year`` whose period
    holds a day worked (from ``hired_on`` through ``terminated_on``; either open)."""
    periods_per_year = PERIODS_PER_YEAR[schedule.frequency]
    result = []
    for paid_on in pay_dates(schedule, year):
        period_from = previous_pay_date(schedule, paid_on) + timedelta(days=1)
        worked_from = max(period_from, hired_on) if hired_on else period_from
        worked_to = min(paid_on, terminated_on) if terminated_on else paid_on
        if worked_to < worked_from:
            continue
        worked = (worked_to - worked_from).days + 1
        days = (paid_on - period_from).days + 1
        exact = rate * worked / (periods_per_year * days)
        result.append(
            RatePaycheck(
                paid_on,
                exact.quantize(CENT, rounding=ROUND_HALF_UP),
                worked_from,
                worked_to,
                worked,
                days,
            )
        )
    return tuple(result)


def rate_notes(
    rate: Decimal, schedule: PaySchedule, year: int, checks: tuple[RatePaycheck, ...]
) -> list[str]:
    """What the salary from the rate rests on, in words: the division, the rounding, each
    paycheck that pays for part of its period, and the year's sum."""
    periods_per_year = PERIODS_PER_YEAR[schedule.frequency]
    notes = [
        f"the salary is worked from the annual rate of {money_text(rate)} (Plan 1.21: Plan "
        f"Compensation is pay actually paid in the Plan Year): {money_text(rate)} / "
        f"{periods_per_year} {schedule.frequency} pay periods = "
        f"{money_text(full_period_pay(rate, schedule))} a full period, on each pay date in "
        f"{year} whose period (the days after the previous pay date through it) holds days "
        f"worked; {ROUNDING}"
    ]
    for check in checks:
        if check.days_worked != check.period_days:
            notes.append(
                f"the {check.paid_on.isoformat()} paycheck pays for the days worked, "
                f"{check.services_from.isoformat()} to {check.services_to.isoformat()}: "
                f"{check.days_worked} of its period's {check.period_days} days, "
                f"{money_text(check.salary)}"
            )
    total = sum((check.salary for check in checks), Decimal(0))
    if checks:
        notes.append(
            f"salary paid in {year} at the rate: {money_text(total)} in {len(checks)} paychecks"
        )
    else:
        notes.append(
            f"no pay date in {year} pays for a day worked: no salary paid in the Plan Year"
        )
    return notes
