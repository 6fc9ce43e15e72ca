"""Director RSU grant rules about payment: the specified-employee delay and the delivery window,
judged against the election that governs (DESIGN.md, "Which Exhibit I governs",
docgen.kinds.director_rsu.terms): the last form naming this grant filed before the deadline, or with
none the Notice C.1 default."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

from checks import rsu_sources as rsu_src
from checks import sources as src
from checks.rsu import directors_of
from checks.rsu_sources import notice
from checks.sources import code, reg
from docgen.core.dates import days_after
from docgen.core.model import fact_path
from docgen.core.rules import CheckContext, Hit, rule
from docgen.kinds.director_rsu import kind as _kind  # noqa: F401  (the kind claiming these rules)
from docgen.kinds.director_rsu.settlement import vesting_outcome
from docgen.kinds.director_rsu.terms import (
    fixed_date_delay,
    payment_date,
    specified_employee_delay,
)


@rule(
    "RSU-SPECIFIED-EMPLOYEE-DELAY",
    title="Specified employee paid on separation before the six-month delay",
    severity="error",
    cites=[notice("F.2"), code("409A(a)(2)(B)(i)")],
    explanation="A specified employee whose elected Payment Date is the Separation from Service "
    "may not receive the shares before the earlier of six months after separation "
    "and death (an error). The election is the one that governs: the last form naming this grant "
    "filed before the deadline. A fixed date elected in Section III that falls less than six "
    "months after a specified employee's separation is a warning: Notice F.2's words delay 'the "
    "date you elected in Section III'; whether they reach a fixed date is for counsel.",
    sources=[rsu_src.NOTICE_F2, src.CODE_409A_A_2_B_I, src.REG_2_A_1],
    remedy="Hold delivery until the delayed Payment Date; if already delivered, ask counsel about "
    "409A correction.",
)
def specified_employee_delay_rule(context: CheckContext) -> Iterator[Hit]:
    for d_index, director in directors_of(context):
        fixed = fixed_date_delay(context.facts, director)
        if fixed is not None:
            elected, delayed = fixed
            separation = director.settlement.separation_on if director.settlement else None
            yield Hit(
                director.id,
                fact_path("directors", d_index, "settlement", "separation_on"),
                f"the Payment Date is the date elected in Section III, {elected}, less than six "
                f"months after the Separation from Service {separation} "
                "of a specified employee. Notice F.2: \u201cif your Payment Date would otherwise "
                "be the date you elected in Section III ... your Payment Date shall be "
                f"delayed\u201d, here to {delayed}. Reading taken: the delay is applied to "
                "payment on separation only, so the Payment Date stays "
                f"{elected}; if the words reach a fixed date, deliver no earlier than {delayed}.",
                remedy="Ask counsel whether Notice F.2 delays a fixed date before delivering.",
                severity="warning",
            )
        settlement = director.settlement
        if settlement is None or settlement.delivered_on is None:
            continue
        if vesting_outcome(context.facts, director).forfeited:
            continue  # RSU-FORFEITED-UNITS-DELIVERED speaks of it
        delay_until = specified_employee_delay(context.facts, director)
        if delay_until is not None and settlement.delivered_on < delay_until:
            yield Hit(
                director.id,
                fact_path("directors", d_index, "settlement", "delivered_on"),
                f"shares delivered {settlement.delivered_on}, before "
                f"{delay_until} (six months after separation "
                f"{settlement.separation_on}, or death if earlier).",
            )


@rule(
    "RSU-DELIVERY-WINDOW",
    title="Shares delivered outside 60 days of the Payment Date",
    severity="error",
    cites=[notice("C"), notice("F.1"), reg("1.409A-3(b)"), reg("1.409A-3(i)(5)")],
    explanation="The shares are delivered in a single distribution within 60 days of the "
    "Payment Date: not before it, not more than 60 days after it. The Payment Date follows the "
    "election that governs, the last form naming this grant filed before the deadline (a later "
    "timely form supersedes an earlier one; a late form changes nothing); with none, the Notice "
    "C.1 default. A Change of Control is a payment event only when it is also a 409A change in "
    "control event (change_in_control_is_409a_event); not recorded, it is taken as one, with a "
    "warning. Forfeited units are RSU-FORFEITED-UNITS-DELIVERED's.",
    sources=[
        rsu_src.NOTICE_C,
        rsu_src.EXHIBIT_DEFAULT_PAYMENT,
        rsu_src.EXHIBIT_CHANGE_IN_CONTROL,
        src.REG_3_B,
        src.REG_2_A_1,
        src.REG_3_I_5,
    ],
    remedy="Correct delivered_on if misrecorded; otherwise ask counsel about 409A correction.",
)
def delivery_window(context: CheckContext) -> Iterator[Hit]:
    for d_index, director in directors_of(context):
        settlement = director.settlement
        if settlement is None:
            continue
        if settlement.change_in_control_on and settlement.change_in_control_is_409a_event is None:
            yield Hit(
                director.id,
                fact_path("directors", d_index, "settlement", "change_in_control_on"),
                f"a Change of Control on {settlement.change_in_control_on} is on record, but not "
                "whether it is also a change in control event (Treas. Reg. 1.409A-3(i)(5)); "
                "Exhibit I pays on \u201can event that is both a \u2018change in control "
                "event\u2019 ... and a Change of Control\u201d. Reading taken: it is one, so it "
                "is a payment event.",
                remedy="Record settlement.change_in_control_is_409a_event: true or false.",
                severity="warning",
            )
        if settlement.delivered_on is None:
            continue
        if vesting_outcome(context.facts, director).forfeited:
            continue  # RSU-FORFEITED-UNITS-DELIVERED speaks of it
        delivered = settlement.delivered_on
        path = fact_path("directors", d_index, "settlement", "delivered_on")
        delayed = specified_employee_delay(context.facts, director)
        day: date | None
        if delayed is not None:
            if delivered < delayed:
                continue  # RSU-SPECIFIED-EMPLOYEE-DELAY reports it
            day, event = delayed, "delayed Payment Date (Notice F.2)"
        else:
            day, event = payment_date(context.facts, director)
        if day is None:
            yield Hit(
                director.id,
                path,
                f"shares delivered {delivered} but no payment event has occurred.",
            )
        elif delivered < day:
            yield Hit(
                director.id,
                path,
                f"shares delivered {delivered}, before the Payment Date {day} ({event}).",
            )
        elif delivered > days_after(day, 60):
            yield Hit(
                director.id,
                path,
                f"shares delivered {delivered}, more than 60 days after the "
                f"Payment Date {day} ({event}; last day "
                f"{days_after(day, 60)}).",
            )


@rule(
    "RSU-SPECIFIED-EMPLOYEE-NOT-EMPLOYEE",
    title="A non-employee director recorded as a specified employee",
    severity="warning",
    cites=[notice("F.2"), code("409A(a)(2)(B)(i)"), code("416(i)")],
    explanation="Notice F.2 delays the payment of a director who is a 'specified employee' as "
    "defined in Code 409A(a)(2)(B)(i): a key employee (Code 416(i)) of a public company, which is "
    "an employee. Exhibit I is for non-employee Directors only, so specified_employee: true on "
    "one is a reading for counsel, never a silent pass; docgen applies the fact as recorded.",
    sources=[rsu_src.NOTICE_F2, src.CODE_409A_A_2_B_I, src.CODE_416_I],
    remedy="Ask counsel whether the director is a specified employee; if not, set "
    "specified_employee: false.",
)
def specified_employee_not_employee(context: CheckContext) -> Iterator[Hit]:
    for d_index, director in directors_of(context):
        if director.specified_employee and not director.employee:
            yield Hit(
                director.id,
                fact_path("directors", d_index, "specified_employee"),
                f"{director.name} is recorded as a specified employee but is a non-employee "
                "director. Notice F.2 reaches one who is \u201ca \u2018specified employee\u2019 "
                "(as defined in Code Section 409A(a)(2)(B)(i))\u201d: a key employee (Code "
                "416(i)), which is an employee. Reading taken: the fact is applied as recorded "
                "(the six-month delay is worked out).",
            )


@rule(
    "RSU-FORFEITED-UNITS-DELIVERED",
    title="Shares delivered for forfeited units",
    severity="error",
    cites=[notice("A"), notice("B"), notice("E")],
    explanation="Service that ends before the Vesting Date for a reason outside Section B "
    "forfeits the units and their dividend equivalents on the date it ends, regardless of any "
    "election (Notice A); a delivery of shares for them is a delivery of nothing owed. Service "
    "ending on the Vesting Date counts as served; a Section B event on or before the end of "
    "service (death, Disability, a Change of Control that is also a 409A change in control event, "
    "as grant.vesting.accelerate_on names them) vests the units instead.",
    sources=[rsu_src.NOTICE_A_FORFEITURE, rsu_src.NOTICE_A_REGARDLESS, rsu_src.NOTICE_A],
    remedy="Correct separation_on or delivered_on if misrecorded; otherwise ask counsel about "
    "recovering the shares.",
)
def forfeited_units_delivered(context: CheckContext) -> Iterator[Hit]:
    for d_index, director in directors_of(context):
        settlement = director.settlement
        if settlement is None or settlement.delivered_on is None:
            continue
        outcome = vesting_outcome(context.facts, director)
        if outcome.forfeited:
            yield Hit(
                director.id,
                fact_path("directors", d_index, "settlement", "delivered_on"),
                f"shares delivered {settlement.delivered_on} for units {outcome.because}.",
            )
