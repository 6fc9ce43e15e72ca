"""Retirement Restoration Plan rules about the amount elected, who may participate, investments,
beneficiaries and payments (the election-timing rules are checks/rrp_timing.py)."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

from checks import sources as src
from checks.rrp_timing import kind_words
from checks.sources import code, plan, reg
from docgen.core.dates import days_after
from docgen.core.rules import CheckContext, Hit, rule
from docgen.kinds.rrp import NAME as RRP
from docgen.kinds.rrp.facts import Participant
from docgen.kinds.rrp.terms import compensation_limit, key_employee_payment_date


def _participants(context: CheckContext) -> Iterator[tuple[int, Participant]]:
    yield from enumerate(context.facts.participants)


def _election_path(p_index: int, e_index: int, field_name: str) -> str:
    return f"participants[{p_index}].elections[{e_index}].{field_name}"


# ---------------------------------------------------------------------- election amount


@rule(
    "RRP-DEFERRAL-OVER-MAX",
    title="Deferral above the Plan maximum",
    severity="error",
    cites=[plan("2.03(a)")],
    applies_to=RRP,
    explanation="A Participant may defer up to 75% of Plan Compensation (the plan's "
    "max_deferral_percent).",
    sources=[src.PLAN_2_03_A],
    remedy="Reduce the election to the maximum or less.",
)
def deferral_over_max(context: CheckContext) -> Iterator[Hit]:
    maximum = context.facts.plan.max_deferral_percent
    for p_index, participant in _participants(context):
        for e_index, election in enumerate(participant.elections):
            if election.percent > maximum:
                yield Hit(
                    participant.id,
                    _election_path(p_index, e_index, "percent"),
                    f"{kind_words(election)} election of {election.percent}% is above the "
                    f"{maximum}% maximum.",
                )


@rule(
    "RRP-DEFERRAL-INCREMENT",
    title="Deferral not in whole-percent increments",
    severity="error",
    cites=[plan("2.03(a)")],
    applies_to=RRP,
    explanation="Deferrals are elected in one percent (1%) increments of Plan Compensation: a "
    "whole number of percent, not negative.",
    sources=[src.PLAN_2_03_A],
    remedy="Round the election to a whole percent the Participant confirms.",
)
def deferral_increment(context: CheckContext) -> Iterator[Hit]:
    for p_index, participant in _participants(context):
        for e_index, election in enumerate(participant.elections):
            if election.percent % 1 != 0 or election.percent < 0:
                yield Hit(
                    participant.id,
                    _election_path(p_index, e_index, "percent"),
                    f"{kind_words(election)} election of {election.percent}% is not a whole "
                    "percent (1% increments).",
                )


# -------------------------------------------------------------------- who may participate


@rule(
    "RRP-NOT-PARTICIPANT",
    title="Election by someone who is not an Eligible Employee",
    severity="error",
    cites=[plan("1.11"), plan("2.01")],
    applies_to=RRP,
    explanation="Only an Eligible Employee (a member of the select group, a common-law "
    "employee on the U.S. payroll) may become a Participant and elect to defer.",
    sources=[src.PLAN_1_11, src.PLAN_2_01],
    remedy="Remove the election, or correct eligible_employee if the Committee selected them.",
)
def not_participant(context: CheckContext) -> Iterator[Hit]:
    for p_index, participant in _participants(context):
        if not participant.eligible_employee and participant.elections:
            yield Hit(
                participant.id,
                f"participants[{p_index}].eligible_employee",
                f"{participant.name} is not an Eligible Employee but has "
                f"{len(participant.elections)} election(s).",
            )


@rule(
    "RRP-NO-PLAN-COMPENSATION",
    title="Compensation not above the 401(a)(17) limit: the election defers nothing",
    severity="warning",
    cites=[plan("1.21"), plan("2.01")],
    applies_to=RRP,
    explanation="Plan Compensation is Compensation above the Code 401(a)(17) limit for the Plan "
    "Year (from checks/parameters, or plan.compensation_limit). Without it the "
    "Participant does not participate and an election defers nothing.",
    sources=[src.PLAN_1_21, src.PLAN_2_01],
    remedy="Confirm the Compensation figure; if right, the election has no effect this year.",
)
def no_plan_compensation(context: CheckContext) -> Iterator[Hit]:
    limit = compensation_limit(context.facts)
    for p_index, participant in _participants(context):
        if (
            participant.eligible_employee
            and participant.elections
            and participant.compensation <= limit
        ):
            yield Hit(
                participant.id,
                f"participants[{p_index}].compensation",
                f"Compensation ${participant.compensation:,} is not above the "
                f"{context.facts.plan_year} limit of ${limit:,}: no Plan Compensation to defer.",
            )


@rule(
    "RRP-INVESTMENT-ALLOCATION",
    title="Investment allocation not in whole percents summing to 100",
    severity="error",
    cites=[plan("3.05(b)")],
    applies_to=RRP,
    explanation="Investment selections are made in increments of one percent (1%); a complete "
    "allocation sums to 100%. No selection at all is allowed (the default fund applies).",
    sources=[src.PLAN_3_05_B],
    remedy="Have the Participant restate the allocation in whole percents totalling 100.",
)
def investment_allocation(context: CheckContext) -> Iterator[Hit]:
    for p_index, participant in _participants(context):
        if not participant.investments:
            continue
        path = f"participants[{p_index}].investments"
        fractional = [
            f"{fund} {share}%"
            for fund, share in participant.investments.items()
            if share % 1 != 0 or share < 0
        ]
        total = sum(participant.investments.values(), Decimal(0))
        problems = []
        if fractional:
            problems.append(f"not in whole percents: {', '.join(fractional)}")
        if total != 100:
            problems.append(f"sums to {total}%, not 100%")
        if problems:
            yield Hit(participant.id, path, f"investment allocation {'; '.join(problems)}.")


@rule(
    "RRP-BENEFICIARY-MISSING",
    title="No Beneficiary designated",
    severity="warning",
    cites=[plan("1.02"), plan("Beneficiary designation")],
    applies_to=RRP,
    explanation="Each Participant must designate a Beneficiary at enrollment; without one the "
    "Plan's default order (Surviving Spouse, else the estate) applies.",
    sources=[src.PLAN_BENEFICIARY_DESIGNATION, src.PLAN_1_02],
    remedy="Send the Participant a beneficiary designation with the enrollment form.",
)
def beneficiary_missing(context: CheckContext) -> Iterator[Hit]:
    for p_index, participant in _participants(context):
        if participant.eligible_employee and not participant.beneficiaries:
            yield Hit(
                participant.id,
                f"participants[{p_index}].beneficiaries",
                "no Beneficiary designated; the default order of Plan Section 1.02 applies.",
            )


# ------------------------------------------------------------------------------ payments


@rule(
    "RRP-KEY-EMPLOYEE-PAYMENT",
    title="Key Employee paid before the six-month delay",
    severity="error",
    cites=[plan("4.01(b)"), code("409A(a)(2)(B)(i)")],
    applies_to=RRP,
    explanation=(
        "A Key Employee on the date of Termination of Employment (other than death or "
        "disability) is paid on the first day of the month following the six-month anniversary "
        "of termination, not earlier. Key Employee status runs for the 12 months from the April 1 "
        "after each December 31 determination (Plan 1.14)."
    ),
    sources=[src.PLAN_4_01_B, src.PLAN_1_14, src.CODE_409A_A_2_B_I],
    remedy="Hold payment to the delayed date; if already paid, ask counsel about 409A correction.",
)
def key_employee_payment(context: CheckContext) -> Iterator[Hit]:
    for p_index, participant in _participants(context):
        delayed = key_employee_payment_date(context.facts, participant)
        if delayed is None:
            continue
        for pay_index, payment in enumerate(participant.payments):
            if payment.to == "participant" and payment.on < delayed:
                yield Hit(
                    participant.id,
                    f"participants[{p_index}].payments[{pay_index}].on",
                    f"payment {payment.on} to a Key Employee terminated "
                    f"{participant.termination.on} is before {delayed}, "
                    "the first day of the month following the six-month anniversary.",
                )


@rule(
    "RRP-PAYMENT-WINDOW",
    title="Payment before its event or more than 60 days after it",
    severity="error",
    cites=[plan("4.01(a)"), code("409A(a)(3)"), plan("4.01(b)"), reg("1.409A-3(d)")],
    applies_to=RRP,
    explanation=(
        "The Account is paid within 60 days following the earliest of Termination of "
        "Employment, death or disability (day 60 is the last good day), never before. A Key "
        "Employee is paid ON the first day of the month following the six-month anniversary "
        "(Plan 4.01(b)): a payment later than that day but within 60 days of it is a warning "
        "(the Plan's words say 'on'; whether 4.01(a)'s 60 days or Treas. Reg. 1.409A-3(d)'s "
        "grace reaches it is for counsel), later than that an error. Payments to an alternate "
        "payee (Plan 4.01(c)) are not checked."
    ),
    sources=[src.PLAN_4_01_A, src.PLAN_4_01_B, src.CODE_409A_A_3],
    remedy="Correct the recorded date if wrong; otherwise ask counsel about 409A correction.",
)
def payment_window(context: CheckContext) -> Iterator[Hit]:
    for p_index, participant in _participants(context):
        termination = participant.termination
        delayed = key_employee_payment_date(context.facts, participant)
        for pay_index, payment in enumerate(participant.payments):
            if payment.to == "alternate_payee":
                continue
            path = f"participants[{p_index}].payments[{pay_index}].on"
            if termination is None:
                yield Hit(
                    participant.id,
                    path,
                    f"payment {payment.on} with no Termination of Employment, "
                    "death or disability on record.",
                )
                continue
            event, what = termination.on, f"{termination.reason} on {termination.on}"
            if delayed is not None and payment.to == "participant":
                if payment.on < delayed:
                    continue  # RRP-KEY-EMPLOYEE-PAYMENT reports it
                event, what = delayed, f"the Key Employee date {delayed}"
                if delayed < payment.on <= days_after(delayed, 60):
                    yield Hit(
                        participant.id,
                        path,
                        f"payment {payment.on} is after {delayed}, the day Plan 4.01(b) says a "
                        "Key Employee is paid on; it is within 60 days of it, which Plan 4.01(a) "
                        "allows other payments.",
                        remedy="Ask counsel whether the payment date needs correcting.",
                        severity="warning",
                    )
                    continue
            if payment.on < event:
                yield Hit(
                    participant.id,
                    path,
                    f"payment {payment.on} is before its event ({what}).",
                )
            elif payment.on > days_after(event, 60):
                yield Hit(
                    participant.id,
                    path,
                    f"payment {payment.on} is more than 60 days after {what} "
                    f"(last day {days_after(event, 60)}).",
                )
