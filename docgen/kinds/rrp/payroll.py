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
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any, Literal

from docgen.core.errors import LoadError, Problem
from docgen.core.formats import money_text
from docgen.core.safe_text import csv_text, for_terminal, json_text
from docgen.kinds.rrp.figures import ParticipantArithmetic, PeriodArithmetic, PlanYearArithmetic
from docgen.kinds.rrp.payroll_layout import PayrollLayout, layout_rows

PayrollFormat = Literal["csv", "json", "text"]
ZERO = Decimal(0)

CSV_COLUMNS = (
    "id",
    "name",
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
    "notes",
)

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
class PayrollRow:
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

    def as_json(self) -> dict[str, Any]:
        return {
            "paid_on": None if self.paid_on is None else self.paid_on.isoformat(),
            "salary": money_text(self.salary),
            "bonus": money_text(self.bonus),
            "compensation": money_text(self.salary + self.bonus),
            "year_to_date": money_text(self.year_to_date),
            "salary_plan_compensation": money_text(self.salary_plan_compensation),
            "bonus_plan_compensation": money_text(self.bonus_plan_compensation),
            "plan_compensation": money_text(self.plan_compensation),
            "salary_percent": _percent(self.salary_percent),
            "bonus_percent": _percent(self.bonus_percent),
            "elective_deferral": money_text(self.elective_deferral),
            "match_cap": money_text(self.match_cap),
            "matching_restoration": money_text(self.matching_restoration),
            "notes": list(self.notes),
        }


def rows_of(
    result: PlanYearArithmetic, who: ParticipantArithmetic, paid_on: date | None = None
) -> tuple[PayrollRow, ...]:
    """The participant's paychecks as payroll rows, each empty or zero figure with its note
    (with ``paid_on``, only the paychecks of that day)."""
    no_deferral = _why_no_deferral(who)
    if not who.paychecks:
        return () if paid_on is not None else (_year_row(result, who, no_deferral),)
    rows = []
    for paycheck in who.paychecks:
        if paid_on is not None and paycheck.paid_on != paid_on:
            continue
        notes = _paycheck_notes(result, paycheck, no_deferral)
        rows.append(
            PayrollRow(
                paycheck.paid_on,
                paycheck.salary,
                paycheck.bonus,
                paycheck.paid_before + paycheck.compensation,
                paycheck.salary_plan_compensation,
                paycheck.bonus_plan_compensation,
                paycheck.salary_percent if paycheck.salary_share > 0 else None,
                paycheck.bonus_percent,
                paycheck.elective_deferral,
                paycheck.match_cap,
                paycheck.matching_restoration,
                tuple(notes),
            )
        )
    return tuple(rows)


def _year_row(
    result: PlanYearArithmetic, who: ParticipantArithmetic, no_deferral: str | None
) -> PayrollRow:
    """No paychecks to work on: compute's figures for the year, as one line, saying so."""
    bonus = who.bonus_pay
    notes = [NO_PAYCHECKS if who.paychecks_from == "none" else NOTHING_SCHEDULED]
    if who.plan_compensation == 0:
        notes.append(
            f"no Plan Compensation: the year's pay {money_text(who.compensation)} is not above the "
            f"{result.plan_year} 401(a)(17) limit of {money_text(result.compensation_limit)} "
            "(Plan 1.21)"
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


def _why_no_deferral(who: ParticipantArithmetic) -> str | None:
    """Why no deferral is figured for the participant at all, or None when one is."""
    if who.elective_deferral is not None:
        return None
    for note in who.notes:
        if note.startswith("not an Eligible Employee"):
            return f"no deferral and no match: {note}"
    return (
        "no deferral and no match: no Deferral Election in force that the Plan allows "
        "(Plan 2.03(a), 2.03(b)); the participant's notes say why"
    )


def _paycheck_notes(
    result: PlanYearArithmetic, paycheck: PeriodArithmetic, no_deferral: str | None
) -> list[str]:
    notes = []
    if paycheck.plan_compensation == 0:
        notes.append(
            f"no Plan Compensation: the year's pay through this paycheck "
            f"{money_text(paycheck.paid_before + paycheck.compensation)} is not above the "
            f"{result.plan_year} 401(a)(17) limit of {money_text(result.compensation_limit)} "
            "(Plan 1.21)"
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


def as_json(result: PlanYearArithmetic) -> dict[str, Any]:
    participants = []
    for who in result.participants:
        rows = rows_of(result, who)
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
        "plan_year": result.plan_year,
        "compensation_limit": money_text(result.compensation_limit),
        "participants": participants,
    }


def as_csv(result: PlanYearArithmetic) -> str:
    """One row per paycheck; the participant's own notes ride on their first row."""
    table = []
    for who in result.participants:
        for index, row in enumerate(rows_of(result, who)):
            data = row.as_json()
            notes = list(row.notes) + (list(who.notes) if index == 0 else [])
            table.append(
                [who.id, who.name]
                + [data[column] or "" for column in CSV_COLUMNS[2:-1]]
                + ["; ".join(notes)]
            )
    return csv_text(CSV_COLUMNS, table)


def as_table(result: PlanYearArithmetic, pay_date: date | None = None):
    from rich import box
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    table = Table(
        title=Text(
            f"Retirement Restoration Plan payroll, Plan Year {result.plan_year} "
            f"(401(a)(17) limit ${result.compensation_limit:,.0f})"
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
    for who in result.participants:
        for row in rows_of(result, who):
            if pay_date is not None and row.paid_on != pay_date:
                continue
            percent = "/".join(_percent(p) or "-" for p in (row.salary_percent, row.bonus_percent))
            table.add_row(
                Text(who.id),
                "year" if row.paid_on is None else row.paid_on.isoformat(),
                *(
                    _dollars(amount)
                    for amount in (row.salary, row.bonus, row.year_to_date, row.plan_compensation)
                ),
                percent,
                *(
                    _dollars(amount)
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


def render(result: PlanYearArithmetic, output_format: PayrollFormat):
    if output_format == "json":
        return json_text(json.dumps(as_json(result), indent=2)) + "\n"
    if output_format == "csv":
        return as_csv(result)
    return as_table(result)


def _percent(value: Decimal | None) -> str | None:
    return None if value is None else f"{value.normalize():f}"


def _dollars(amount: Decimal | None) -> str:
    return "-" if amount is None else f"{amount:,.2f}"


# ------------------------------------------------------------------ one pay date


def on_pay_date(
    result: PlanYearArithmetic, pay_date: date
) -> list[tuple[ParticipantArithmetic, PayrollRow]]:
    """Each participant's paycheck on ``pay_date``, in the facts' order; refused (LoadError,
    exit 2) when no one is paid that day, naming the next pay dates."""
    found = [(who, row) for who in result.participants for row in rows_of(result, who, pay_date)]
    if not found:
        dates = {paycheck.paid_on for who in result.participants for paycheck in who.paychecks}
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
    result: PlanYearArithmetic,
    output_format: PayrollFormat,
    pay_date: date,
    layout: PayrollLayout | None,
):
    """One pay date's paychecks: in the payroll system's ``layout`` (csv), or as the whole
    year's feed shows each (csv, json, text)."""
    paid = on_pay_date(result, pay_date)
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
                        "plan_year": result.plan_year,
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
            [
                [who.id, who.name]
                + [row.as_json()[column] or "" for column in CSV_COLUMNS[2:-1]]
                + ["; ".join(row.notes)]
                for who, row in paid
            ],
        )
    return as_table(result, pay_date)
