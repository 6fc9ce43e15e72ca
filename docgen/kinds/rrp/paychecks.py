"""A participant's paychecks for the Plan Year: the facts' own ``pay_periods``, else the ones the
pay schedule they are paid on gives (their own ``pay_frequency``'s, else ``plan.pay_schedule``;
DESIGN.md A18, A24; Plan 3.03 credits deferrals "each pay period").

From a schedule, with the pay paid in the year given (``compensation``): the salary
(compensation less bonus_compensation) is paid in equal parts, to the cent, on the regular pay
dates from the hire date (or January 1) through the termination date (or December 31), the last
part taking the cents left over; each paycheck's salary pays for the days from the day after the
previous regular pay date (the first: January 1 or the hire date) through its pay date. With an
annual rate (``annual_rate``), the salary is what the rate pays on those pay dates
(docgen.kinds.rrp.annual_rate), and Compensation is that salary and the bonus. The bonus is paid
on ``bonus_paid_on``: in that day's regular paycheck, else in an off-cycle paycheck of its own.
Every one of these readings is returned as a note, so the figures never rest on a silent
assumption.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import ROUND_DOWN, Decimal
from fractions import Fraction
from typing import NamedTuple

from docgen.core import dates
from docgen.kinds.rrp.annual_rate import rate_notes, rate_paychecks
from docgen.kinds.rrp.facts import Participant, PayPeriod, RRPPlanYearFacts
from docgen.kinds.rrp.pay_schedule import RULES, PaySchedule, pay_dates, previous_pay_date

ZERO = Decimal(0)
CENT = Decimal("0.01")
ONE = Fraction(1)  # a full period's share of a full period's salary


class Paycheck(NamedTuple):
    """A paycheck the pay schedule gives, read as a PayPeriod of the facts is. Built from figures
    worked out here (dates and Decimals the model already judged), so nothing is validated again
    per paycheck: a plain record, not a pydantic model."""

    paid_on: date
    compensation: Decimal
    bonus: Decimal = ZERO
    services_from: date | None = None
    services_to: date | None = None


class PayThrough(NamedTuple):
    """A participant's pay before one day and the paychecks of that day (:func:`pay_through`)."""

    paid_before: Decimal  # the year's pay paid before the day (Plan 1.21: pay to date)
    previous: date | None  # the last pay date before the day
    on_day: tuple[Paycheck, ...]


@dataclass(frozen=True)
class Paychecks:
    """The pay periods the arithmetic works on, where they come from, what was assumed, and the
    year's Compensation they pay (Plan 1.21: given, or worked from an annual rate)."""

    periods: tuple[PayPeriod | Paycheck, ...]
    source: str  # facts | schedule | none
    notes: tuple[str, ...] = ()
    compensation: Decimal = ZERO


class RegularDays(NamedTuple):
    """The regular pay dates someone employed from one day to another is paid a salary on, and
    each one's share of a full period's salary (:func:`_days_worked`)."""

    days: tuple[date, ...]
    shares: tuple[Fraction, ...]
    on_schedule: bool  # False: no regular pay date while employed, paid on the last day


class Schedules:
    """What everyone paid on one pay schedule shares, worked once per schedule in a run rather
    than once per person: the schedule's regular pay dates for the Plan Year, the ones paid to
    everyone employed over the same days (most people: the whole year), and the note that says
    which schedule pays them and why. A run over the participants makes one and hands it to
    each :func:`paychecks`; nothing is kept after the run."""

    def __init__(self, facts: RRPPlanYearFacts) -> None:
        self.facts = facts
        self._dates: dict[int, tuple[date, ...]] = {}
        self._regular: dict[tuple[int, date, date], RegularDays] = {}
        self._notes: dict[tuple[int, bool], str] = {}

    def pay_dates(self, schedule: PaySchedule) -> tuple[date, ...]:
        # keyed by the schedule object, which the facts hold for the whole run
        found = self._dates.get(id(schedule))
        if found is None:
            found = self._dates[id(schedule)] = pay_dates(schedule, self.facts.plan_year)
        return found

    def regular_days(self, schedule: PaySchedule, start: date, end: date) -> RegularDays:
        """The regular pay dates of someone employed from ``start`` through ``end``, with each
        one's share of a full period's salary (:func:`_regular_days`)."""
        key = (id(schedule), start, end)
        found = self._regular.get(key)
        if found is None:
            found = self._regular[key] = _regular_days(
                schedule, self.pay_dates(schedule), start, end
            )
        return found

    def paid_on(self, participant: Participant, schedule: PaySchedule) -> str:
        key = (id(schedule), participant.pay_frequency is not None)
        found = self._notes.get(key)
        if found is None:
            found = self._notes[key] = _paid_on(self.facts, participant, schedule)
        return found


def employed_in(participant: Participant, year: int) -> tuple[date, date]:
    """The first and last day of ``year`` the participant is employed: from the hire date (or
    January 1) through the termination date (or December 31); the first after the last when
    they worked no day of it."""
    start = max(date(year, 1, 1), participant.hired_on or date(year, 1, 1))
    termination = participant.termination
    end = min(dates.end_of_year(year), termination.on) if termination else dates.end_of_year(year)
    return start, end


def paychecks(
    facts: RRPPlanYearFacts,
    participant: Participant,
    schedules: Schedules | None = None,
    through: date | None = None,
) -> Paychecks:
    """The participant's pay periods: their own, else their pay schedule's, else none.

    ``through``: a schedule's paychecks paid on or before that day alone (`docgen payroll
    --pay-date`: a paycheck's figures rest on the pay before it, never after); the year's
    Compensation and the notes are the whole year's all the same."""
    if participant.pay_periods:
        return Paychecks(tuple(participant.pay_periods), "facts", (), _pay_given(participant))
    schedule = facts.pay_schedule_of(participant)
    if schedule is None:
        return Paychecks((), "none", (), _pay_given(participant))
    if schedules is None:
        schedules = Schedules(facts)
    year = facts.plan_year
    start, end = employed_in(participant, year)
    bonus = participant.bonus_compensation or ZERO
    notes = [schedules.paid_on(participant, schedule)]
    # (pay date, salary, first and last day of the services it pays for)
    salary_checks: list[tuple[date, Decimal, date, date]] = []
    rate = participant.annual_rate
    if rate is not None:
        # the hire and termination dates as they stand, not clipped to the year: a period that
        # began in December is paid in full on its January pay date (annual_rate)
        termination = participant.termination
        checks = rate_paychecks(
            rate, schedule, year, participant.hired_on, termination.on if termination else None
        )
        notes.extend(rate_notes(rate, schedule, year, checks))
        salary_checks = [
            (check.paid_on, check.salary, check.services_from, check.services_to)
            for check in checks
            if check.salary > 0
        ]
        compensation = sum((check.salary for check in checks), ZERO) + bonus
    else:
        compensation = _pay_given(participant)
        salary_checks = _equal_parts(schedules, schedule, compensation - bonus, start, end, notes)
    regular = [day for day, _, _, _ in salary_checks]
    periods: list[PayPeriod | Paycheck] = []
    bonus_on = participant.bonus_paid_on if bonus > 0 else None
    for day, part, services_from, services_to in salary_checks:
        if through is not None and day > through:
            break
        extra = bonus if day == bonus_on else ZERO
        # in its fields' order (positional: made once per paycheck, 260,000 for 10,000 people)
        periods.append(Paycheck(day, part + extra, extra, services_from, services_to))
    paid_on = participant.bonus_paid_on
    if bonus > 0 and paid_on is not None:
        if paid_on in regular:
            notes.append(f"the bonus is paid in the regular paycheck of {paid_on.isoformat()}")
        else:
            if through is None or paid_on <= through:
                # among the regular ones by its date (never on one of theirs: see above)
                periods.append(Paycheck(paid_on=paid_on, compensation=bonus, bonus=bonus))
                periods.sort(key=lambda p: p.paid_on)
            notes.append(
                f"the bonus is paid on {paid_on.isoformat()}, not a regular pay date: taken as a "
                "paycheck of its own, its match capped at 6% of its own Plan Compensation "
                "(Plan 3.04)"
            )
    # the regular paychecks are in date order (rate_paychecks and _equal_parts give them so)
    return Paychecks(tuple(periods), "schedule", tuple(notes), compensation)


def compensation_for_year(facts: RRPPlanYearFacts, participant: Participant) -> Decimal:
    """The participant's Compensation for the Plan Year (Plan 1.21): as the facts give it, or
    worked from their annual rate on their pay dates."""
    if participant.compensation is not None:
        return participant.compensation
    return paychecks(facts, participant).compensation


def _pay_given(participant: Participant) -> Decimal:
    """The pay paid in the year as the facts give it. The model refuses an annual_rate beside
    pay_periods or with no pay schedule (docgen.kinds.rrp.facts), so here it is given."""
    if participant.compensation is None:
        raise ValueError(f"{participant.id}: an annual rate with no pay schedule to work it")
    return participant.compensation


def _paid_on(facts: RRPPlanYearFacts, participant: Participant, schedule: PaySchedule) -> str:
    """Which schedule pays the participant, and why, in words."""
    where = next(path for path, stated in facts.plan.schedules() if stated is schedule)
    why = (
        "the participant's own pay_frequency"
        if participant.pay_frequency is not None
        else "the Plan's schedule: no pay_frequency of the participant's own"
    )
    return (
        f"paid on {where} ({why}; {schedule.frequency}: {RULES[schedule.frequency]}; first pay "
        f"date {schedule.first_pay_date.isoformat()}): each paycheck pays for the days after "
        "the previous pay date through its own (Plan 3.03)"
    )


def pay_through(
    facts: RRPPlanYearFacts, participant: Participant, schedules: Schedules, day: date
) -> PayThrough | None:
    """The pay before ``day`` and the paychecks of ``day`` (`docgen payroll --pay-date`), for a
    salary given for the year and paid in equal parts on a pay schedule: the earlier paychecks
    are the same parts :func:`paychecks` lays out, added up without laying each one out. None
    for pay periods of the facts' own or an annual rate (:func:`paychecks` lays those out)."""
    if participant.pay_periods or participant.annual_rate is not None:
        return None
    schedule = facts.pay_schedule_of(participant)
    if schedule is None:
        return None
    year = facts.plan_year
    start, end = employed_in(participant, year)
    bonus = participant.bonus_compensation or ZERO
    # the notes are the whole year's, which `payroll --pay-date` does not print
    regular, parts = _regular_parts(
        schedules, schedule, _pay_given(participant) - bonus, start, end, []
    )
    before = bisect_left(regular, day)  # the regular paychecks paid before the day
    paid_before = sum(parts[:before], ZERO)
    previous = regular[before - 1] if before else None
    on_day: list[Paycheck] = []
    bonus_on = participant.bonus_paid_on if bonus > 0 else None
    if before < len(regular) and regular[before] == day:
        extra = bonus if day == bonus_on else ZERO
        # its services: from the day after the previous regular pay date (the first: start)
        services_from = previous + timedelta(days=1) if previous is not None else start
        on_day.append(Paycheck(day, parts[before] + extra, extra, services_from, day))
    if bonus_on is not None:
        if bonus_on < day:
            paid_before += bonus  # in a regular paycheck before the day, or one of its own
            if bonus_on not in regular and (previous is None or bonus_on > previous):
                previous = bonus_on
        elif bonus_on == day and bonus_on not in regular:
            on_day.append(Paycheck(paid_on=day, compensation=bonus, bonus=bonus))
    return PayThrough(paid_before, previous, tuple(on_day))


def _equal_parts(
    schedules: Schedules,
    pay_schedule: PaySchedule,
    salary: Decimal,
    start: date,
    end: date,
    notes: list[str],
) -> list[tuple[date, Decimal, date, date]]:
    """The salary paid in the year, given, in equal parts on the pay dates employed."""
    regular, salary_parts = _regular_parts(schedules, pay_schedule, salary, start, end, notes)
    result = []
    previous = start - timedelta(days=1)
    one_day = timedelta(days=1)
    for day, part in zip(regular, salary_parts, strict=True):
        result.append((day, part, previous + one_day, day))
        previous = day
    return result


def _regular_parts(
    schedules: Schedules,
    pay_schedule: PaySchedule,
    salary: Decimal,
    start: date,
    end: date,
    notes: list[str],
) -> tuple[Sequence[date], list[Decimal]]:
    """The regular pay dates employed, in date order, and the salary's part paid on each."""
    notes.append(
        "the salary is paid in equal parts to the cent on the pay dates from the hire date (or "
        "January 1) through the termination date (or December 31), the last taking the cents "
        "left over"
    )
    if salary <= 0:
        return [], []
    regular, weights, on_schedule = schedules.regular_days(pay_schedule, start, end)
    if not on_schedule:
        notes.append(
            f"no regular pay date falls between {start.isoformat()} and {end.isoformat()}: the "
            f"salary is taken as paid on {regular[0].isoformat()}, the last day employed"
        )
    if weights[0] != 1:
        # the days themselves, not the share's lowest terms (6 of 15 days, not 2 of 5)
        worked = (regular[0] - start).days + 1
        notes.append(
            f"hired {start.isoformat()}, within the pay period the {regular[0].isoformat()} "
            f"paycheck pays for: it pays for the days worked, {worked} of the "
            f"period's {int(worked / weights[0])} days, and each later paycheck a full period "
            "(Plan 1.21: Plan Compensation is pay actually paid)"
        )
    return regular, _weighted_parts(salary, weights)


def _regular_days(
    pay_schedule: PaySchedule, schedule: tuple[date, ...], start: date, end: date
) -> RegularDays:
    """The regular pay dates from ``start`` through ``end`` a salary is paid on, and each one's
    share of a full period's salary; with none while employed, the last day employed."""
    regular = tuple(day for day in schedule if start <= day <= end)
    on_schedule = bool(regular)
    if not on_schedule:
        regular = (max(start, end),)
    return RegularDays(
        regular, tuple(_days_worked(pay_schedule, schedule, regular, start)), on_schedule
    )


def _days_worked(
    pay_schedule: PaySchedule, schedule: tuple[date, ...], regular: Sequence[date], start: date
) -> list[Fraction]:
    """Each regular paycheck's share of a full period's salary: 1, except the first paycheck
    after a hire within its pay period, which pays for the days from the hire date through its
    pay date out of the period's days (the period: from the day after the schedule's previous
    pay date, reaching into the year before for the year's first, as an annual rate's
    paychecks count it: pay_schedule.previous_pay_date)."""
    if not regular:
        return []
    first = regular[0]
    if first not in schedule:  # no regular pay date while employed: paid on the last day
        return [ONE] * len(regular)
    period_start = previous_pay_date(pay_schedule, first) + timedelta(days=1)
    if start <= period_start or (start.month, start.day) == (1, 1):
        return [ONE] * len(regular)
    days = (first - period_start).days + 1
    worked = (first - start).days + 1
    return [Fraction(worked, days), *([ONE] * (len(regular) - 1))]


def _weighted_parts(amount: Decimal, weights: Sequence[Fraction]) -> list[Decimal]:
    """``amount`` in parts to the cent in proportion to ``weights`` (equal parts when every
    weight is 1), the last taking what is left over."""
    # no hire within a period: equal parts (count compares ONE by identity first, then ==)
    if weights.count(ONE) == len(weights):
        part = (amount / len(weights)).quantize(CENT, rounding=ROUND_DOWN)
        return [part] * (len(weights) - 1) + [amount - part * (len(weights) - 1)]
    total = sum(weights, Fraction(0))
    parts = []
    for weight in weights[:-1]:
        share = weight / total
        part = amount * Decimal(share.numerator) / Decimal(share.denominator)
        parts.append(part.quantize(CENT, rounding=ROUND_DOWN))
    return [*parts, amount - sum(parts, ZERO)]
