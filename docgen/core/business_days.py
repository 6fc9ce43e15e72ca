"""The SEC's business days, and the Form 4 due date counted on them.

A business day is any day other than a Saturday, Sunday or Federal holiday (Regulation S-T
Rule 11, 17 CFR 232.11); the Federal holidays are the legal public holidays of 5 U.S.C. 6103 on
the days they are observed, listed year by year as a dated parameter with its source
(``checks/parameters/holidays/us_federal_holidays.yaml``). A year the file does not cover is an
error naming the year: a due date is never counted on a guessed calendar.
"""

from __future__ import annotations

from datetime import date, timedelta
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, StrictStr, ValidationError

from docgen.core.errors import ParameterError, Problem
from docgen.core.package_yaml import PackageYamlError, read_package_yaml
from docgen.core.parameters import Reference
from docgen.core.resources import parameters_dir

HOLIDAYS_FILE = "holidays/us_federal_holidays.yaml"
FORM4_BUSINESS_DAYS = 2  # Exchange Act 16(a)(2)(C): "before the end of the second business day"


class Holiday(BaseModel):
    model_config = ConfigDict(strict=True, frozen=True, extra="forbid")
    day: date  # the day observed
    holiday: StrictStr = Field(min_length=1)
    falls_on: date | None = None  # the day itself, when it is observed on another


class HolidayCalendar(BaseModel):
    """The Federal holidays, on the days observed, for the years listed."""

    model_config = ConfigDict(strict=True, frozen=True, extra="forbid")
    description: StrictStr
    citation: StrictStr
    reference: Reference
    rules: StrictStr
    years: list[int] = Field(min_length=1)
    holidays: list[Holiday]

    def by_day(self) -> dict[date, Holiday]:
        return {holiday.day: holiday for holiday in self.holidays}


class UncoveredYear(ParameterError):
    """A day in a year the holiday calendar does not list. Exit code 2."""


def _problem(message: str, fix: str) -> ParameterError:
    return ParameterError(
        [Problem(f"checks/parameters/{HOLIDAYS_FILE}", None, "holidays", message, None, fix)]
    )


@cache
def holiday_calendar(folder: Path | None = None) -> HolidayCalendar:
    path = (folder or parameters_dir()) / HOLIDAYS_FILE
    try:
        data = read_package_yaml(path)
        return HolidayCalendar.model_validate(data)
    except (OSError, PackageYamlError) as error:
        raise _problem(f"cannot be read: {error}", "Restore the file from the release.") from None
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        where = ".".join(str(part) for part in first["loc"])
        raise _problem(
            f"{where}: {first['msg']}", "Each holiday needs day: and holiday:; nothing else."
        ) from None


def holiday_on(day: date) -> Holiday | None:
    """The Federal holiday observed on ``day``, if any; :class:`UncoveredYear` for a year the
    calendar does not list."""
    calendar = holiday_calendar()
    if day.year not in calendar.years:
        raise UncoveredYear(
            [
                Problem(
                    f"checks/parameters/{HOLIDAYS_FILE}",
                    None,
                    "years",
                    f"no Federal holidays listed for {day.year}",
                    None,
                    f"Add {day.year}'s holidays (5 U.S.C. 6103, on their observed days) with "
                    "their source before a due date in it is counted.",
                )
            ]
        )
    return calendar.by_day().get(day)


def is_business_day(day: date) -> bool:
    """Not a Saturday, Sunday or Federal holiday (Regulation S-T Rule 11)."""
    return day.weekday() < 5 and holiday_on(day) is None


def business_days_after(start: date, count: int) -> date:
    """The ``count``-th business day after ``start`` (``start`` itself never counts)."""
    day = start
    while count > 0:
        day += timedelta(days=1)
        if is_business_day(day):
            count -= 1
    return day


def form4_due(grant_date: date) -> date:
    """The last day a Form 4 for a transaction on ``grant_date`` is timely: the end of the second
    business day after it (Exchange Act 16(a)(2)(C); Rule 16a-3(g)(1))."""
    return business_days_after(grant_date, FORM4_BUSINESS_DAYS)


def days_skipped(start: date, end: date) -> list[str]:
    """The holidays between ``start`` and ``end`` (both excluded), in words, for a message."""
    words = []
    day = start + timedelta(days=1)
    while day < end:
        holiday = holiday_on(day)
        if holiday is not None:
            words.append(f"{holiday.holiday} ({day.isoformat()})")
        day += timedelta(days=1)
    return words
