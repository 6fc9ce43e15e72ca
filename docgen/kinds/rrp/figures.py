"""What `docgen compute` reports for a Plan Year, participant by participant (the JSON contract of
docs/rrp-arithmetic.md); docgen.kinds.rrp.arithmetic works the figures out."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any, NamedTuple

from docgen.core.formats import money_text
from docgen.kinds.rrp.terms import Vested


class PeriodArithmetic(NamedTuple):
    """One pay period's Plan Compensation, deferral and match (Plan 3.03, 3.04). A NamedTuple:
    immutable, and made hundreds of thousands of times for a payroll at less cost than a frozen
    dataclass."""

    paid_on: date
    compensation: Decimal
    plan_compensation: Decimal
    elective_deferral: Decimal | None
    matching_restoration: Decimal | None
    # What `docgen payroll` shows of the paycheck (DESIGN.md A18); `compute`'s JSON keeps the above.
    salary: Decimal = Decimal(0)
    bonus: Decimal = Decimal(0)
    paid_before: Decimal = Decimal(0)  # the year's pay before this paycheck
    salary_plan_compensation: Decimal = Decimal(0)
    bonus_plan_compensation: Decimal = Decimal(0)
    salary_percent: Decimal | None = None  # the election in force for the part, if any
    bonus_percent: Decimal | None = None
    salary_share: Decimal = Decimal(1)  # of the salary, the services a first-year election reaches
    match_cap: Decimal = Decimal(0)  # Plan 3.04: 6% of the paycheck's Plan Compensation

    def as_json(self) -> dict[str, Any]:
        return {
            "paid_on": self.paid_on.isoformat(),
            "compensation": money_text(self.compensation),
            "plan_compensation": money_text(self.plan_compensation),
            "elective_deferral": money_text(self.elective_deferral),
            "matching_restoration": money_text(self.matching_restoration),
        }


@dataclass(frozen=True)
class ParticipantPay:
    """A Participant's year paycheck by paycheck: what `docgen payroll` prints of it (DESIGN.md
    A18). `docgen compute` adds vesting and the payment window (ParticipantArithmetic)."""

    id: str
    name: str
    eligible_employee: bool
    plan_compensation: Decimal
    salary_plan_compensation: Decimal
    bonus_plan_compensation: Decimal
    elective_deferral: Decimal | None
    matching_restoration: Decimal | None
    retirement_restoration: Decimal | None
    pay_periods: tuple[PeriodArithmetic, ...]  # the paychecks with a deferral figured
    paychecks: tuple[PeriodArithmetic, ...]  # every pay period, deferral or not
    paychecks_from: str  # facts | schedule | none (docgen.kinds.rrp.paychecks)
    applied_percent: dict[str, Decimal]  # the percentages used
    compensation: Decimal  # the year's pay, and its bonus part (payroll's year line)
    bonus_pay: Decimal
    notes: tuple[str, ...]


class PaychecksOn(NamedTuple):
    """A Participant's paychecks of one pay date, worked from the year's pay through that day and
    no further (`docgen payroll --pay-date`, A24): the same figures as the whole year's. A
    NamedTuple, as PeriodArithmetic: made once per participant for every pay date asked for."""

    id: str
    name: str
    eligible_employee: bool
    # False: no deferral and no match for the year (not eligible, or no election the Plan allows);
    # worked out only when the day has a paycheck
    deferring: bool
    paychecks: tuple[PeriodArithmetic, ...]


@dataclass(frozen=True)
class ParticipantArithmetic(ParticipantPay):
    """Everything the Plan makes of one Participant's year: their pay paycheck by paycheck
    (ParticipantPay, what `docgen payroll` prints), with vesting, the payment window and the
    elections in force. ``None`` means not applicable."""

    vested: Vested
    payment_earliest_on: date | None
    payment_due_on: date | None
    elections_in_force: dict[str, dict[str, Any] | None] = field(default_factory=dict)

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
            "elections_in_force": self.elections_in_force,
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
