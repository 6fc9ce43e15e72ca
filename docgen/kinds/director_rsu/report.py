"""`docgen compute` output for a director grant: JSON, CSV or a table."""

from __future__ import annotations

import json
from typing import Literal

from docgen.core.safe_text import csv_text, for_terminal, json_text
from docgen.kinds.director_rsu.arithmetic import GrantArithmetic

Format = Literal["json", "text", "csv"]

CSV_COLUMNS = (
    "id",
    "name",
    "units_granted",
    "vesting_date",
    "forfeited_on",
    "dividend_equivalent_units",
    "total_units",
    "shares_to_deliver",
    "payment_date",
    "payment_event",
    "deliver_from",
    "deliver_by",
    "notes",
)


def as_csv(result: GrantArithmetic) -> str:
    rows = []
    for row in result.directors:
        data = row.as_json()
        window = data["delivery_window"] or {}
        rows.append(
            [
                row.id,
                row.name,
                row.units_granted,
                data["vesting_date"] or "",
                data["forfeited_on"] or "",
                data["dividend_equivalent_units"],
                data["total_units"],
                row.shares_to_deliver,
                data["payment_date"] or "",
                data["payment_event"] or "",
                window.get("from", ""),
                window.get("to", ""),
                "; ".join(row.notes),
            ]
        )
    return csv_text(CSV_COLUMNS, rows)


def as_table(result: GrantArithmetic):
    from rich import box
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    table = Table(
        title=Text(f"Director RSU grant {result.grant_id} (Grant Date {result.grant_date})"),
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    table.add_column("id", no_wrap=True)
    table.add_column("vests", no_wrap=True)
    for heading in ("units", "div. eq.", "shares"):
        table.add_column(heading, justify="right", no_wrap=True)
    table.add_column("Payment Date", no_wrap=True)
    table.add_column("deliver by", no_wrap=True)
    notes = Text()
    for row in result.directors:
        vests = (
            f"forfeited {row.forfeited_on}"
            if row.forfeited_on
            else (row.vesting_date.isoformat() if row.vesting_date else "-")
        )
        table.add_row(
            Text(row.id),
            vests,
            f"{row.units_granted:,}",
            f"{row.dividend_equivalent_units:f}",
            f"{row.shares_to_deliver:,}",
            row.payment_date.isoformat() if row.payment_date else "-",
            row.delivery_window[1].isoformat() if row.delivery_window else "-",
        )
        for note in row.notes:
            notes.append(f"{row.id}: {for_terminal(note)}\n")
    legend = Text(
        "vests: the Vesting Date (Notice A, B); div. eq.: dividend-equivalent units (Notice E); "
        "shares: whole shares to deliver; deliver by: 60 days after the Payment Date (Notice C).\n",
        style="dim",
    )
    return Group(table, legend, notes)


def render(result: GrantArithmetic, output_format: Format):
    if output_format == "json":
        return json_text(json.dumps(result.as_json(), indent=2, ensure_ascii=False)) + "\n"
    if output_format == "csv":
        return as_csv(result)
    return as_table(result)
