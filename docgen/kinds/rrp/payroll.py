"""`docgen payroll`: the payroll feed, one row per participant per paycheck (DESIGN.md A18).

Each row is the paycheck's pay (salary and bonus apart), the year's pay through it, its Plan
Compensation (the part above the 401(a)(17) limit by year-to-date pay, Plan 1.21), the percentage
of each part's election in force (Plan 2.03(a)), the Elective Deferral Contribution (Plan 3.03),
the match's cap and the Matching Restoration Contribution (Plan 3.04). The figures are
`docgen compute`'s own (docgen.kinds.rrp.arithmetic works both out), so the rows add up to its
totals. Every empty or zero figure carries a note naming its reason and section.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP as UP
from decimal import Decimal
from typing import Any, Literal, NamedTuple

from docgen.core.collector import paused_for_a_population
from docgen.core.errors import LoadError, Problem
from docgen.core.formats import CENT, amount_shown, cents, money_text
from docgen.core.safe_text import csv_text, for_terminal, json_text
from docgen.kinds.registry import PayDateTotals
from docgen.kinds.rrp.arithmetic import NOT_ELIGIBLE, each_pay, each_paychecks_on
from docgen.kinds.rrp.facts import RRPPlanYearFacts
from docgen.kinds.rrp.figures import ParticipantPay, PaychecksOn, PeriodArithmetic
from docgen.kinds.rrp.paychecks import Schedules, paychecks
from docgen.kinds.rrp.payroll_layout import PayrollLayout, layout_rows
from docgen.kinds.rrp.terms import compensation_limit

PayrollFormat = Literal["csv", "json", "text"]
ZERO = Decimal(0)

ROW_FIGURES = (
    "paid_on",
    "salary",
    "bonus",
    "compensation",
    "year_to_date",
    "salary_plan_compensation",
    "bonus_plan_compensation",
    "plan_compensation",
    "salary_percent",
    "bonus_percent",
    "elective_deferral",
    "match_cap",
    "matching_restoration",
)
CSV_COLUMNS = ("id", "name", *ROW_FIGURES, "notes")

NO_PAYCHECKS = (
    "no pay periods in the facts and no plan.pay_schedule: the Plan Year as one line, as "
    "`docgen compute` works it (Plan 3.03 credits each pay period: give pay_periods or "
    "plan.pay_schedule for paychecks)"
)

NOTHING_SCHEDULED = (
    "no pay on any of plan.pay_schedule's pay dates in the Plan Year (no salary or bonus to pay, "
    "or none while employed): the Plan Year as one line, as `docgen compute` works it"
)


@dataclass(frozen=True)
class PayrollYear:
    """What the rows' notes and the table's title quote of the Plan Year."""

    plan_year: int
    compensation_limit: Decimal  # Plan 1.21: the 401(a)(17) limit
    limit_text: str  # as the notes write it


def payroll_year(facts: RRPPlanYearFacts) -> PayrollYear:
    limit = compensation_limit(facts)
    return PayrollYear(facts.plan_year, limit, money_text(limit) or "")


class PayrollRow(NamedTuple):
    """One paycheck of one participant (``paid_on`` None: the Plan Year as one line)."""

    paid_on: date | None
    salary: Decimal
    bonus: Decimal
    year_to_date: Decimal
    salary_plan_compensation: Decimal
    bonus_plan_compensation: Decimal
    salary_percent: Decimal | None
    bonus_percent: Decimal | None
    elective_deferral: Decimal | None
    match_cap: Decimal | None
    matching_restoration: Decimal | None
    notes: tuple[str, ...]

    @property
    def plan_compensation(self) -> Decimal:
        return self.salary_plan_compensation + self.bonus_plan_compensation

    def texts(self) -> tuple[str | None, ...]:
        """The row's figures as written, in the order of ROW_FIGURES (None: no figure)."""
        (paid_on, salary, bonus, year_to_date, salary_plan, bonus_plan, salary_percent) = self[:7]
        (bonus_percent, deferral, match_cap, match) = self[7:11]
        # money_text and _percent written out: payroll writes millions of figures, and a call
        # for each was a tenth of the whole year's run. A nonzero amount is what money_text's
        # last line makes of it; a zero (whose sign shows) or None goes through money_text.
        # A sum with a zero, or a match equal to its cap, is written as the amount it equals:
        # money_text of a nonzero amount rests on its value alone.
        salary_text = str(salary.quantize(CENT, UP)) if salary else money_text(salary)
        bonus_text = str(bonus.quantize(CENT, UP)) if bonus else money_text(bonus)
        if salary and not bonus:
            pay_text = salary_text
        else:
            pay = salary + bonus
            pay_text = str(pay.quantize(CENT, UP)) if pay else money_text(pay)
        salary_plan_text = (
            str(salary_plan.quantize(CENT, UP)) if salary_plan else money_text(salary_plan)
        )
        bonus_plan_text = (
            str(bonus_plan.quantize(CENT, UP)) if bonus_plan else money_text(bonus_plan)
        )
        if salary_plan and not bonus_plan:
            plan_text = salary_plan_text
        else:
            plan = salary_plan + bonus_plan
            plan_text = str(plan.quantize(CENT, UP)) if plan else money_text(plan)
        cap_text = str(match_cap.quantize(CENT, UP)) if match_cap else money_text(match_cap)
        if match and match == match_cap:
            match_text = cap_text
        else:
            match_text = str(match.quantize(CENT, UP)) if match else money_text(match)
        return (
            None if paid_on is None else paid_on.isoformat(),
            salary_text,
            bonus_text,
            pay_text,
            str(year_to_date.quantize(CENT, UP)) if year_to_date else money_text(year_to_date),
            salary_plan_text,
            bonus_plan_text,
            plan_text,
            None if salary_percent is None else f"{salary_percent.normalize():f}",
            None if bonus_percent is None else f"{bonus_percent.normalize():f}",
            str(deferral.quantize(CENT, UP)) if deferral else money_text(deferral),
            cap_text,
            match_text,
        )

    def as_json(self) -> dict[str, Any]:
        return {**dict(zip(ROW_FIGURES, self.texts(), strict=True)), "notes": list(self.notes)}


def rows_of(year: PayrollYear, who: ParticipantPay) -> tuple[PayrollRow, ...]:
    """The participant's paychecks as payroll rows, each empty or zero figure with its note."""
    no_deferral = _why_no_deferral(who.eligible_employee, who.elective_deferral is not None)
    if not who.paychecks:
        return (_year_row(year, who, no_deferral),)
    return tuple(_row(year, paycheck, no_deferral) for paycheck in who.paychecks)


def rows_on(year: PayrollYear, who: PaychecksOn) -> tuple[PayrollRow, ...]:
    """The participant's paychecks of one pay date as payroll rows, as the whole year has them."""
    no_deferral = _why_no_deferral(who.eligible_employee, who.deferring)
    return tuple(_row(year, paycheck, no_deferral) for paycheck in who.paychecks)


def _row(year: PayrollYear, paycheck: PeriodArithmetic, no_deferral: str | None) -> PayrollRow:
    year_to_date = paycheck.paid_before + paycheck.compensation
    return PayrollRow(
        paycheck.paid_on,
        paycheck.salary,
        paycheck.bonus,
        year_to_date,
        paycheck.salary_plan_compensation,
        paycheck.bonus_plan_compensation,
        paycheck.salary_percent if paycheck.salary_share > 0 else None,
        paycheck.bonus_percent,
        paycheck.elective_deferral,
        paycheck.match_cap,
        paycheck.matching_restoration,
        tuple(_paycheck_notes(year, paycheck, year_to_date, no_deferral)),
    )


def _year_row(year: PayrollYear, who: ParticipantPay, no_deferral: str | None) -> PayrollRow:
    """No paychecks to work on: compute's figures for the year, as one line, saying so."""
    bonus = who.bonus_pay
    notes = [NO_PAYCHECKS if who.paychecks_from == "none" else NOTHING_SCHEDULED]
    if who.plan_compensation == 0:
        notes.append(
            f"no Plan Compensation: the year's pay {money_text(who.compensation)} is not above the "
            f"{year.plan_year} 401(a)(17) limit of {year.limit_text} (Plan 1.21)"
        )
    if no_deferral is not None:
        notes.append(no_deferral)
    elif who.elective_deferral == 0:
        notes.append("no deferral and no match: see the participant's notes (Plan 2.03, 3.04)")
    notes.append("no match cap: it is 6% of each pay period's Plan Compensation (Plan 3.04)")
    return PayrollRow(
        None,
        who.compensation - bonus,
        bonus,
        who.compensation,
        who.salary_plan_compensation,
        who.bonus_plan_compensation,
        who.applied_percent.get("salary"),
        who.applied_percent.get("bonus"),
        who.elective_deferral,
        None,
        who.matching_restoration,
        tuple(notes),
    )


def _why_no_deferral(eligible_employee: bool, deferring: bool) -> str | None:
    """Why no deferral is figured for the participant at all, or None when one is."""
    if deferring:
        return None
    if not eligible_employee:
        return f"no deferral and no match: {NOT_ELIGIBLE}"
    return (
        "no deferral and no match: no Deferral Election in force that the Plan allows "
        "(Plan 2.03(a), 2.03(b)); the participant's notes say why"
    )


def _paycheck_notes(
    year: PayrollYear, paycheck: PeriodArithmetic, year_to_date: Decimal, no_deferral: str | None
) -> list[str]:
    notes = []
    if paycheck.plan_compensation == 0:
        notes.append(
            f"no Plan Compensation: the year's pay through this paycheck "
            f"{money_text(year_to_date)} is not above the "
            f"{year.plan_year} 401(a)(17) limit of {year.limit_text} (Plan 1.21)"
        )
    if no_deferral is not None:
        notes.append(no_deferral)
        return notes
    for part, pay, percent in (
        ("salary", paycheck.salary, paycheck.salary_percent),
        ("bonus", paycheck.bonus, paycheck.bonus_percent),
    ):
        if pay > 0 and percent is None:
            notes.append(f"no {part} percentage: no {part} election in force (Plan 2.03(a))")
    if paycheck.salary_percent is not None and paycheck.salary_share == 0 and paycheck.salary > 0:
        notes.append(
            "no salary percentage: this salary pays for services before the first-year election "
            "(Plan 2.03(c); Treas. Reg. 1.409A-2(a)(7)(i))"
        )
    if paycheck.plan_compensation > 0 and paycheck.elective_deferral == 0:
        notes.append(
            "no deferral and no match: none of this paycheck's Plan Compensation is pay an "
            "election in force reaches (Plan 2.03(a), 2.03(c), 3.04)"
        )
    elif paycheck.plan_compensation == 0:
        notes.append("no deferral and no match: nothing above the limit to defer (Plan 1.21, 3.04)")
    return notes


# ------------------------------------------------------------------ the formats


def as_json(year: PayrollYear, people: Iterable[ParticipantPay]) -> dict[str, Any]:
    participants = []
    for who in people:
        rows = rows_of(year, who)
        participants.append(
            {
                "id": who.id,
                "name": who.name,
                "paychecks_from": who.paychecks_from,
                "paychecks": [row.as_json() for row in rows],
                "totals": {
                    "plan_compensation": money_text(who.plan_compensation),
                    "elective_deferral": money_text(who.elective_deferral),
                    "matching_restoration": money_text(who.matching_restoration),
                },
                "notes": list(who.notes),
            }
        )
    return {
        "plan_year": year.plan_year,
        "compensation_limit": year.limit_text,
        "participants": participants,
    }


def as_csv(year: PayrollYear, people: Iterable[ParticipantPay]) -> str:
    """One row per paycheck; the participant's own notes ride on their first row."""

    def table() -> Iterator[list[str | None]]:
        for who in people:
            first = True
            for row in rows_of(year, who):
                notes = row.notes + who.notes if first else row.notes
                first = False
                yield [who.id, who.name, *row.texts(), "; ".join(notes)]  # None: empty

    return csv_text(CSV_COLUMNS, table())


def as_table(year: PayrollYear, people: Iterable[ParticipantPay], pay_date: date | None = None):
    from rich import box
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    table = Table(
        title=Text(
            f"Retirement Restoration Plan payroll, Plan Year {year.plan_year} "
            f"(401(a)(17) limit ${year.compensation_limit:,.0f})"
        ),
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    for heading in ("id", "paid on"):
        table.add_column(heading, no_wrap=True)
    for heading in ("salary", "bonus", "to date", "Plan comp.", "%", "deferral", "cap", "match"):
        table.add_column(heading, justify="right", no_wrap=True)
    notes = Text()
    for who in people:
        for row in rows_of(year, who):
            if pay_date is not None and row.paid_on != pay_date:
                continue
            percent = "/".join(_percent(p) or "-" for p in (row.salary_percent, row.bonus_percent))
            table.add_row(
                Text(who.id),
                "year" if row.paid_on is None else row.paid_on.isoformat(),
                *(
                    amount_shown(amount)
                    for amount in (row.salary, row.bonus, row.year_to_date, row.plan_compensation)
                ),
                percent,
                *(
                    amount_shown(amount)
                    for amount in (row.elective_deferral, row.match_cap, row.matching_restoration)
                ),
            )
        for note in who.notes:
            notes.append(f"{who.id}: {for_terminal(note)}\n")
    legend = Text(
        "%: the salary/bonus election in force; cap: 6% of the paycheck's Plan Compensation "
        "(Plan 3.04); -: none. `--format csv` or json give each row's notes.\n",
        style="dim",
    )
    return Group(table, legend, notes)


def render(facts: RRPPlanYearFacts, output_format: PayrollFormat):
    """The whole year's feed, each participant worked out, written and let go in turn."""
    year = payroll_year(facts)
    if output_format == "json":
        return json_text(json.dumps(as_json(year, each_pay(facts)), indent=2)) + "\n"
    if output_format == "csv":
        return as_csv(year, each_pay(facts))
    return as_table(year, each_pay(facts))


def paychecks_of(facts: RRPPlanYearFacts, ids: Collection[str]) -> dict[str, Any]:
    """The whole year's feed as `--format json` parses, for the participants of ``ids`` alone:
    each participant's paychecks are worked from their own pay and elections only."""
    return as_json(payroll_year(facts), each_pay(facts, ids))


def totals_by_pay_date(facts: RRPPlanYearFacts) -> PayDateTotals:
    """Every participant's deferral and match added up per pay date: each paycheck's figures as
    its row writes them (to the cent, a missing one as none), without the rows' words; a
    participant without paychecks adds the year's line, as `docgen payroll` writes it."""
    totals: dict[date | None, tuple[Decimal, Decimal]] = {}
    shared: list[str] | None = None
    count = 0
    for who in each_pay(facts):
        count += 1
        shared = list(who.notes) if shared is None else [n for n in shared if n in who.notes]
        figures = (
            [
                (check.paid_on, check.elective_deferral, check.matching_restoration)
                for check in who.paychecks
            ]
            if who.paychecks
            else [(None, who.elective_deferral, who.matching_restoration)]
        )
        for paid_on, deferral, match in figures:
            summed = totals.get(paid_on, (ZERO, ZERO))
            totals[paid_on] = (
                summed[0] + (ZERO if deferral is None else cents(deferral)),
                summed[1] + (ZERO if match is None else cents(match)),
            )
    return PayDateTotals(
        tuple((day, d, m) for day, (d, m) in totals.items()),
        tuple(shared or ()) if count > 1 else (),
    )


def _percent(value: Decimal | None) -> str | None:
    return None if value is None else f"{value.normalize():f}"


# ------------------------------------------------------------------ one pay date


def on_pay_date(
    facts: RRPPlanYearFacts, year: PayrollYear, pay_date: date
) -> list[tuple[PaychecksOn, PayrollRow]]:
    """Each participant's paycheck on ``pay_date``, in the facts' order, worked from the pay up to
    that day alone; refused (LoadError, exit 2) when no one is paid that day, naming the next
    pay dates."""
    found: list[tuple[PaychecksOn, PayrollRow]] = []
    # every participant's paychecks worked out make many objects and no cycles among them
    # (docgen.core.collector: the collector would rescan them again and again)
    with paused_for_a_population():
        for who in each_paychecks_on(facts, pay_date):
            found.extend((who, row) for row in rows_on(year, who))
    if not found:  # the year's pay dates, to name the next ones
        schedules = Schedules(facts)
        dates = {
            period.paid_on
            for participant in facts.participants
            for period in paychecks(facts, participant, schedules).periods
        }
        near = [day.isoformat() for day in sorted(dates) if day >= pay_date][:3]
        raise LoadError(
            [
                Problem(
                    "--pay-date",
                    None,
                    "",
                    f"no paycheck on {pay_date.isoformat()}",
                    None,
                    (f"The next pay dates: {', '.join(near)}. " if near else "")
                    + "Give a pay date of the Plan Year (`docgen payroll` lists every paycheck).",
                )
            ]
        )
    return found


def render_pay_date(
    facts: RRPPlanYearFacts,
    output_format: PayrollFormat,
    pay_date: date,
    layout: PayrollLayout | None,
):
    """One pay date's paychecks: in the payroll system's ``layout`` (csv), or as the whole
    year's feed shows each (csv, json, text)."""
    year = payroll_year(facts)
    paid = on_pay_date(facts, year, pay_date)
    if layout is not None and output_format == "csv":
        header, rows = layout_rows(
            layout,
            pay_date,
            [
                (
                    who.id,
                    who.name,
                    {
                        "elective_deferral": row.elective_deferral,
                        "matching_restoration": row.matching_restoration,
                    },
                )
                for who, row in paid
            ],
        )
        return csv_text(header, rows)
    if output_format == "json":
        return (
            json_text(
                json.dumps(
                    {
                        "plan_year": year.plan_year,
                        "pay_date": pay_date.isoformat(),
                        "paychecks": [
                            {"id": who.id, "name": who.name, **row.as_json()} for who, row in paid
                        ],
                    },
                    indent=2,
                )
            )
            + "\n"
        )
    if output_format == "csv":
        return csv_text(
            CSV_COLUMNS,
            [[who.id, who.name, *row.texts(), "; ".join(row.notes)] for who, row in paid],
        )
    # The table closes with every participant's notes for the year, so it works the year out.
    return as_table(year, each_pay(facts), pay_date)
