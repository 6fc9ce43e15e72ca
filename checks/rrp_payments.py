"""Retirement Restoration Plan rules about payment after Termination of Employment (Plan 4.01): the
Key Employee's six-month delay, the 60-day window, and a payment no Key Employee determination
covers. They apply to every Participant with a termination or a payment on file, a former
Participant included (DESIGN.md, "Who is a Participant")."""

from __future__ import annotations

from collections.abc import Iterator

from checks import rrp_sources as rrp_src
from checks import sources as src
from checks.rrp_sources import PLAN_1_14_DETERMINATION, PLAN_4_01_A_BENEFICIARY, plan
from checks.sources import code, reg
from docgen.core.dates import days_after, six_month_anniversary
from docgen.core.model import fact_path
from docgen.core.rules import CheckContext, Hit, rule
from docgen.kinds.rrp import kind as _kind  # noqa: F401  (the kind claiming these rules)
from docgen.kinds.rrp.terms import (
    key_employee_determination_for,
    key_employee_payment_date,
    recorded_death,
)


def _path(p_index: int, pay_index: int) -> str:
    return fact_path("participants", p_index, "payments", pay_index, "on")


@rule(
    "RRP-KEY-EMPLOYEE-PAYMENT",
    title="Key Employee paid before the six-month delay",
    severity="error",
    cites=[plan("4.01(b)"), code("409A(a)(2)(B)(i)"), reg("1.409A-3(d)")],
    explanation=(
        "A Key Employee on the date of Termination of Employment (other than death or "
        "disability) is paid on the first day of the month following the six-month anniversary "
        "of termination, not earlier. Key Employee status runs for the 12 months from the April 1 "
        "after each December 31 determination (Plan 1.14). Only a death ends the delay sooner "
        "(Code 409A(a)(2)(B)(i)): a payment to a Beneficiary before the delayed date needs a "
        "recorded death (termination by death, or died_on) on or before it. A payment to the "
        "Participant on or after the six-month date but before the Plan's date, and no more than "
        "30 days before it, meets the Code and Treas. Reg. 1.409A-3(d) treats it as made on the "
        "designated date: a warning (a deviation from the Plan for the Committee), not an error."
    ),
    sources=[
        rrp_src.PLAN_4_01_B,
        rrp_src.PLAN_1_14,
        src.CODE_409A_A_2_B_I,
        PLAN_4_01_A_BENEFICIARY,
        src.REG_3_D,
    ],
    remedy="Hold payment to the delayed date; if already paid, ask counsel about 409A correction.",
)
def key_employee_payment(context: CheckContext) -> Iterator[Hit]:
    for p_index, participant in enumerate(context.facts.participants):
        delayed = key_employee_payment_date(context.facts, participant)
        if delayed is None:
            continue
        left = participant.termination.on
        death = recorded_death(participant)
        for pay_index, payment in enumerate(participant.payments):
            if payment.to == "alternate_payee" or payment.on >= delayed:
                continue
            if payment.to == "beneficiary" and death is None:
                yield Hit(
                    participant.id,
                    _path(p_index, pay_index),
                    f"payment {payment.on} to a beneficiary of a Key Employee terminated {left}, "
                    f"but no death is recorded (died_on): the six-month delay applies until "
                    f"{delayed}.",
                    remedy="Record the date of death (died_on) if the Participant has died; "
                    "otherwise hold payment to the delayed date.",
                )
            elif payment.to == "beneficiary" and payment.on < death:
                yield Hit(
                    participant.id,
                    _path(p_index, pay_index),
                    f"payment {payment.on} to a beneficiary is before the recorded death {death}: "
                    f"the six-month delay applies until {delayed}.",
                )
            elif payment.to == "participant" and _within_the_grace(left, payment.on, delayed):
                yield Hit(
                    participant.id,
                    _path(p_index, pay_index),
                    f"payment {payment.on} to a Key Employee terminated {left} is on or after the "
                    f"six-month date {six_month_anniversary(left)}, so Code 409A(a)(2)(B)(i) is "
                    f"met, but before {delayed}, the Plan's \"first day of the month following "
                    f'the six-month anniversary" (Plan 4.01(b)), by {(delayed - payment.on).days} '
                    "day(s). Reading taken: Treas. Reg. 1.409A-3(d) treats a payment made no "
                    "earlier than 30 days before the designated date as made on it, so this is a "
                    "deviation from the Plan for the Committee, not a 409A failure.",
                    remedy="Ask the Committee (and counsel) to confirm the early payment under "
                    "Treas. Reg. 1.409A-3(d); pay on the Plan's date in future.",
                    severity="warning",
                )
            elif payment.to == "participant":
                yield Hit(
                    participant.id,
                    _path(p_index, pay_index),
                    f"payment {payment.on} to a Key Employee terminated {left} is before "
                    f"{delayed}, the first day of the month following the six-month "
                    "anniversary.",
                )


def _within_the_grace(left, paid_on, delayed) -> bool:
    """On or after the six-month date (Code 409A(a)(2)(B)(i): not "before the date which is 6
    months after" separation) and no more than 30 days before the Plan's date (Treas. Reg.
    1.409A-3(d))."""
    return paid_on >= six_month_anniversary(left) and (delayed - paid_on).days <= 30


@rule(
    "RRP-PAYMENT-WINDOW",
    title="Payment before its event or more than 60 days after it",
    severity="error",
    cites=[plan("4.01(a)"), code("409A(a)(3)"), plan("4.01(b)"), reg("1.409A-3(d)")],
    explanation=(
        "The Account is paid within 60 days following the earliest of Termination of "
        "Employment, death or disability (day 60 is the last good day), never before. A Key "
        "Employee is paid ON the first day of the month following the six-month anniversary "
        "(Plan 4.01(b)): a payment later than that day but within 60 days of it is a warning "
        "(the Plan's words say 'on'; whether 4.01(a)'s 60 days or Treas. Reg. 1.409A-3(d)'s "
        "grace reaches it is for counsel), later than that an error. A Key Employee who dies "
        "before the delayed date: the Beneficiary is paid within 60 days of the death. Payments "
        "to an alternate payee (Plan 4.01(c)) are not checked."
    ),
    sources=[rrp_src.PLAN_4_01_A, rrp_src.PLAN_4_01_B, src.CODE_409A_A_3],
    remedy="Correct the recorded date if wrong; otherwise ask counsel about 409A correction.",
)
def payment_window(context: CheckContext) -> Iterator[Hit]:
    for p_index, participant in enumerate(context.facts.participants):
        termination = participant.termination
        delayed = key_employee_payment_date(context.facts, participant)
        death = recorded_death(participant)
        for pay_index, payment in enumerate(participant.payments):
            if payment.to == "alternate_payee":
                continue
            path = _path(p_index, pay_index)
            if termination is None:
                yield Hit(
                    participant.id,
                    path,
                    f"payment {payment.on} with no Termination of Employment, "
                    "death or disability on record.",
                )
                continue
            event, what = termination.on, f"{termination.reason} on {termination.on}"
            if delayed is not None and payment.to == "beneficiary" and death and death < delayed:
                if payment.on < death:
                    continue  # RRP-KEY-EMPLOYEE-PAYMENT reports it
                event, what = death, f"the death on {death}"  # the delay ends at death
            elif delayed is not None:
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


@rule(
    "RRP-KEY-EMPLOYEE-UNDETERMINED",
    title="A leaver paid with no Key Employee determination on record",
    severity="warning",
    cites=[plan("1.14"), plan("4.01(b)")],
    explanation=(
        "Whether a publicly traded company must delay a leaver's payment six months (Plan "
        "4.01(b)) depends on the December 31 determination whose 12-month Key Employee period, "
        "from the next April 1, contains the termination date (Plan 1.14). When that "
        "determination is not recorded in plan.key_employees_determined_on (nor the Participant "
        "listed as a Key Employee at it), the delay cannot be confirmed either way."
    ),
    sources=[PLAN_1_14_DETERMINATION, rrp_src.PLAN_1_14, rrp_src.PLAN_4_01_B],
    remedy="Record the determination's December 31 in plan.key_employees_determined_on (and "
    "the Participant's key_employee_on if they were a Key Employee), then check again.",
)
def key_employee_undetermined(context: CheckContext) -> Iterator[Hit]:
    facts = context.facts
    if not facts.company.publicly_traded:
        return
    recorded = set(facts.plan.key_employees_determined_on)
    for p_index, participant in enumerate(facts.participants):
        termination = participant.termination
        if termination is None or termination.reason in ("death", "disability"):
            continue  # Plan 4.01(b) cannot apply
        determination = key_employee_determination_for(termination.on)
        if determination in recorded or determination in participant.key_employee_on:
            continue
        for pay_index, payment in enumerate(participant.payments):
            if payment.to == "alternate_payee":
                continue
            yield Hit(
                participant.id,
                _path(p_index, pay_index),
                f"payment {payment.on} after leaving {termination.on}: no Key Employee "
                f"determination as of {determination} is recorded, so whether the six-month "
                "delay of Plan 4.01(b) applies is not known.",
            )
            break  # one finding per leaver
