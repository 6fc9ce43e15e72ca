"""The company's pay schedules (``plan.pay_schedule``, and ``plan.pay_schedules`` for its other
payrolls; DESIGN.md A18, A24): how often a payroll runs and its first pay date in the Plan Year,
from which the year's regular pay dates follow.

Plan 3.03 credits Elective Deferral Contributions "each pay period"; where the facts give no
participant's own ``pay_periods``, the pay dates of the schedule the participant is paid on are
the pay periods (docgen.kinds.rrp.paychecks spreads each participant's salary over them).
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Literal

from pydantic import Field, model_validator

from docgen.core import dates
from docgen.core.model import Fact, FactDate, form_error

Frequency = Literal["weekly", "biweekly", "semimonthly", "monthly"]

_STEP_DAYS = {"weekly": 7, "biweekly": 14}

# How each frequency's pay dates follow from the first (docs/fact-files.md and every payroll's
# notes repeat it, so the reading taken is never silent).
RULES: dict[str, str] = {
    "weekly": "every 7 days from the first pay date",
    "biweekly": "every 14 days from the first pay date",
    "semimonthly": "the 15th and the last day of each month, from the first pay date",
    "monthly": "the first pay date's day of each month (the month's last day where the month is "
    "shorter, or every month's last day when the first pay date is a month's last day)",
}


# Pay periods in a year, by which an annual rate of pay is divided into a full period's pay: the
# payroll convention (a biweekly year with 27 pay dates pays 27 periods' pay; the notes say so).
PERIODS_PER_YEAR: dict[str, int] = {"weekly": 52, "biweekly": 26, "semimonthly": 24, "monthly": 12}


class PaySchedule(Fact):
    """How often the company pays, and its first regular pay date of the Plan Year."""

    frequency: Frequency = Field(
        description="weekly, biweekly (every 14 days), semimonthly (the 15th and the last day "
        "of each month) or monthly (the first pay date's day of each month)."
    )
    first_pay_date: FactDate = Field(
        description="The first regular pay date of the Plan Year; the later ones follow from the "
        "frequency, to December 31."
    )

    @model_validator(mode="after")
    def _semimonthly_on_its_days(self) -> PaySchedule:
        day = self.first_pay_date
        if self.frequency == "semimonthly" and day.day != 15 and not dates.is_month_end(day):
            raise form_error(
                f"a semimonthly payroll pays on the 15th and the last day of the month, not on "
                f"{day.isoformat()}",
                "Give the first 15th or month end the company pays on, or list the participants' "
                "pay_periods (docgen reads no other semimonthly pattern, to never guess).",
                field="first_pay_date",
            )
        return self


def pay_dates(schedule: PaySchedule, year: int) -> tuple[date, ...]:
    """The regular pay dates of ``year`` from the schedule's first pay date to December 31."""
    first, last = schedule.first_pay_date, dates.end_of_year(year)
    if schedule.frequency in _STEP_DAYS:
        step = timedelta(days=_STEP_DAYS[schedule.frequency])
        result, day = [], first
        while day <= last:
            result.append(day)
            day += step
        return tuple(result)
    if schedule.frequency == "semimonthly":
        candidates = (
            date(year, month, day)
            for month in range(1, 13)
            for day in (15, dates.last_day_of_month(year, month))
        )
        return tuple(day for day in candidates if first <= day <= last)
    month_end = dates.is_month_end(first)
    monthly = []
    for month in range(first.month, 13):
        end = dates.last_day_of_month(year, month)
        monthly.append(date(year, month, end if month_end else min(first.day, end)))
    return tuple(monthly)


def previous_pay_date(schedule: PaySchedule, day: date) -> date:
    """The schedule's regular pay date before ``day`` (one of its pay dates), reaching back into
    the year before for the year's first: the day after it is the first day ``day``'s paycheck
    pays for."""
    if schedule.frequency in _STEP_DAYS:
        return day - timedelta(days=_STEP_DAYS[schedule.frequency])
    if schedule.frequency == "semimonthly":
        if day.day == 15:
            return day.replace(day=1) - timedelta(days=1)
        return day.replace(day=15)
    year, month = (day.year, day.month - 1) if day.month > 1 else (day.year - 1, 12)
    end = dates.last_day_of_month(year, month)
    first = schedule.first_pay_date
    return date(year, month, end if dates.is_month_end(first) else min(first.day, end))
