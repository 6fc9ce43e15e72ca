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
from docgen.kinds.director_rsu.terms import payment_date, specified_employee_delay


@rule(
    "RSU-SPECIFIED-EMPLOYEE-DELAY",
    title="Specified employee paid on separation before the six-month delay",
    severity="error",
    cites=[notice("F.2"), code("409A(a)(2)(B)(i)")],
    explanation="A specified employee whose elected Payment Date is the Separation from Service "
    "may not receive the shares before the earlier of six months after separation "
    "and death. The election is the one that governs: the last form naming this grant filed "
    "before the deadline.",
    sources=[rsu_src.NOTICE_F2, src.CODE_409A_A_2_B_I, src.REG_2_A_1],
    remedy="Hold delivery until the delayed Payment Date; if already delivered, ask counsel about "
    "409A correction.",
)
def specified_employee_delay_rule(context: CheckContext) -> Iterator[Hit]:
    for d_index, director in directors_of(context):
        settlement = director.settlement
        if settlement is None or settlement.delivered_on is None:
            continue
        delayed = specified_employee_delay(context.facts, director)
        if delayed is not None and settlement.delivered_on < delayed:
            yield Hit(
                director.id,
                fact_path("directors", d_index, "settlement", "delivered_on"),
                f"shares delivered {settlement.delivered_on}, before "
                f"{delayed} (six months after separation "
                f"{settlement.separation_on}, or death if earlier).",
            )


@rule(
    "RSU-DELIVERY-WINDOW",
    title="Shares delivered outside 60 days of the Payment Date",
    severity="error",
    cites=[notice("C"), notice("F.1"), reg("1.409A-3(b)")],
    explanation="The shares are delivered in a single distribution within 60 days of the "
    "Payment Date: not before it, not more than 60 days after it. The Payment Date follows the "
    "election that governs, the last form naming this grant filed before the deadline (a later "
    "timely form supersedes an earlier one; a late form changes nothing); with none, the Notice "
    "C.1 default.",
    sources=[rsu_src.NOTICE_C, rsu_src.EXHIBIT_DEFAULT_PAYMENT, src.REG_3_B, src.REG_2_A_1],
    remedy="Correct delivered_on if misrecorded; otherwise ask counsel about 409A correction.",
)
def delivery_window(context: CheckContext) -> Iterator[Hit]:
    for d_index, director in directors_of(context):
        settlement = director.settlement
        if settlement is None or settlement.delivered_on is None:
            continue
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
