"""The Plan's terms, each defined once: the 401(a)(17) limit for the year, the share of a period's
pay an election made during it reaches, vesting (Plan 3.06), and when payment is due (Plan 4.01).
The rules (checks/rrp*.py), the arithmetic and the forms all use these."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from docgen.core.dates import (
    days_after,
    days_in_period,
    first_of_month_after_six_month_anniversary,
    is_key_employee_on,
)
from docgen.core.parameters import value
from docgen.kinds.rrp.facts import Participant, RRPPlan, RRPPlanYearFacts


def compensation_limit(facts: RRPPlanYearFacts) -> Decimal:
    """The 401(a)(17) limit for the Plan Year: the facts' own figure, else the published one."""
    if facts.plan.compensation_limit is not None:
        return facts.plan.compensation_limit
    return value("irs_401a17_compensation_limit", facts.plan_year)


def period_share(made_on: date, start: date, end: date) -> Decimal:
    """Treas. Reg. 1.409A-2(a)(7)(i): the share of pay earned over ``start`` to ``end`` that an
    election made on ``made_on`` may reach: days left in the period after the election / days in
    the period (all of it for an election made before the period begins)."""
    total = days_in_period(start, end)
    if made_on < start:
        return Decimal(1)
    left = max(0, min(total, (end - made_on).days))
    return Decimal(left) / Decimal(total)


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
    elif date(plan_year, 1, 1) >= plan.hour_of_service_vests_from and (
        termination is None or termination.on >= date(plan_year, 1, 1)
    ):
        # Employed in a Plan Year from 2017 on: credited with an Hour of Service in it.
        because = "an Hour of Service on or after January 1, 2017 (Plan 3.06(b))"
    return Vested(
        elective_deferral_account=True, restoration_accounts=because is not None, because=because
    )


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
        return delayed, delayed
    return termination.on, days_after(termination.on, 60)
