"""One pay date's deductions and matches in the payroll system's own import layout
(``payroll.layout`` in the facts, A24; `docgen payroll --pay-date`).

A payroll system imports, per pay date, one row per employee and deduction code (ADP's and
Workday's deduction imports are the common ones): the layout names the columns in their order,
their headers, what each holds, the company's deduction codes, and how dates and amounts are
written. The figures are `docgen payroll`'s rows for that pay date (docgen.kinds.rrp.payroll),
so the extract adds up to the whole year's feed. docs/payroll-layouts.md shows an ADP-style and a
Workday-style layout.

Decisions, and why: a row is written only for an amount that is not zero (an import line of 0.00
would be a deduction of nothing; the whole-year feed keeps every paycheck and its notes); the
Elective Deferral Contribution is withheld from the paycheck (Plan 3.03) and the Matching
Restoration Contribution is the company's credit (Plan 3.04): each has its own code, and a layout
that gives no code for one leaves it out, as its payroll system has no line for it.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Literal

from pydantic import Field, model_validator

from docgen.core.model import Fact, Text, form_error

Holds = Literal["employee_id", "name", "pay_date", "code", "amount", "value"]
DateFormat = Literal["iso", "month_first", "day_first", "yyyymmdd"]
NumberFormat = Literal["plain", "grouped", "cents"]
# The amounts a layout can give a code to, in the order their rows are written
AMOUNTS = ("elective_deferral", "matching_restoration")


class LayoutColumn(Fact):
    """One column of the import file, in its order."""

    header: Text = Field(description="The column's header as the payroll system names it.")
    holds: Holds = Field(
        description="employee_id (the participant's id, the company's payroll id for the "
        "person: a Worker ID, an ADP file number), name, pay_date, code (the deduction code), "
        "amount, or value (the same text on every row: a company code, a batch id)."
    )
    value: Text | None = Field(None, description="For holds: value, the text of every row.")

    @model_validator(mode="after")
    def _value_given(self) -> LayoutColumn:
        if (self.holds == "value") != (self.value is not None):
            raise form_error(
                "value: goes with holds: value, and only with it",
                "Give holds: value and value: TEXT, or another holds: without value:.",
                field="value",
            )
        return self


class PayrollLayout(Fact):
    """The payroll system's import layout for one pay date's deductions and matches."""

    columns: list[LayoutColumn] = Field(
        min_length=1, description="The file's columns, in order (each a header and what it holds)."
    )
    codes: dict[Literal["elective_deferral", "matching_restoration"], Text] = Field(
        min_length=1,
        description="The company's deduction code for each amount: elective_deferral (withheld, "
        "Plan 3.03) and matching_restoration (the company's credit, Plan 3.04).",
    )
    date_format: DateFormat = Field(
        "iso", description="iso (2026-01-16), month_first (01/16/2026), day_first, yyyymmdd."
    )
    number_format: NumberFormat = Field(
        "plain", description="plain (1234.50), grouped (1,234.50) or cents (123450)."
    )

    @model_validator(mode="after")
    def _one_of_each(self) -> PayrollLayout:
        holds = [column.holds for column in self.columns]
        for needed in ("employee_id", "code", "amount"):
            if needed not in holds:
                raise form_error(
                    f"no column holds {needed}",
                    "A deduction import names the employee, the code and the amount: add a "
                    f"column with holds: {needed}.",
                    field="columns",
                )
        return self


class PayrollSettings(Fact):
    """How the payroll system takes docgen's figures (`docgen payroll --pay-date`)."""

    layout: PayrollLayout | None = Field(
        None, description="The import layout of one pay date's deductions and matches."
    )


def date_text(day: date, written: DateFormat) -> str:
    if written == "month_first":
        return f"{day.month:02d}/{day.day:02d}/{day.year:04d}"
    if written == "day_first":
        return f"{day.day:02d}/{day.month:02d}/{day.year:04d}"
    if written == "yyyymmdd":
        return f"{day.year:04d}{day.month:02d}{day.day:02d}"
    return day.isoformat()


def amount_text(amount: Decimal, written: NumberFormat) -> str:
    cents = amount.quantize(Decimal("0.01"))
    if written == "grouped":
        return f"{cents:,.2f}"
    if written == "cents":
        return str(int(cents * 100))
    return f"{cents:.2f}"


def layout_rows(
    layout: PayrollLayout,
    pay_date: date,
    paychecks: list[tuple[str, str, dict[str, Decimal | None]]],
) -> tuple[list[str], list[list[str]]]:
    """The header and rows of the import: for each (id, name, amounts) paid on ``pay_date``,
    one row per amount the layout has a code for that is not zero."""
    header = [column.header for column in layout.columns]
    rows: list[list[str]] = []
    for person_id, name, amounts in paychecks:
        for which in AMOUNTS:
            code = layout.codes.get(which)  # type: ignore[call-overload]
            amount = amounts.get(which)
            if code is None or amount is None or amount == 0:
                continue
            cells = {
                "employee_id": person_id,
                "name": name,
                "pay_date": date_text(pay_date, layout.date_format),
                "code": code,
                "amount": amount_text(amount, layout.number_format),
            }
            rows.append(
                [
                    column.value or "" if column.holds == "value" else cells[column.holds]
                    for column in layout.columns
                ]
            )
    return header, rows
