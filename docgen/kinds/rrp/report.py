"""`docgen compute` output: the Plan Year's arithmetic as JSON, CSV or a table."""

from __future__ import annotations

from docgen.core.formats import amount_shown
from docgen.core.safe_text import csv_text, for_terminal, json_text
from docgen.kinds.registry import ComputeFormat
from docgen.kinds.rrp.figures import PlanYearArithmetic

Format = ComputeFormat


CSV_COLUMNS = (
    "id",
    "name",
    "plan_compensation",
    "elective_deferral",
    "matching_restoration",
    "retirement_restoration",
    "restoration_accounts_vested",
    "payment_earliest_on",
    "payment_due_on",
    "notes",
)


def as_csv(result: PlanYearArithmetic) -> str:
    """One row per participant; money with two decimals, dates ISO, empty where not applicable.
    RFC 4180, each cell safe to open in a spreadsheet (docgen.core.safe_text.csv_cell)."""
    rows = []
    for row in result.participants:
        data = row.as_json()
        rows.append(
            [
                row.id,
                row.name,
                data["plan_compensation"],
                data["elective_deferral"] or "",
                data["matching_restoration"] or "",
                data["retirement_restoration"] or "",
                "yes" if row.vested.restoration_accounts else "no",
                data["payment_earliest_on"] or "",
                data["payment_due_on"] or "",
                "; ".join(row.notes),
            ]
        )
    return csv_text(CSV_COLUMNS, rows)


def as_table(result: PlanYearArithmetic):
    """A rich table for the terminal, then each participant's notes."""
    from rich import box
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    table = Table(
        title=Text(
            f"Retirement Restoration Plan, Plan Year {result.plan_year} "
            f"(401(a)(17) limit ${result.compensation_limit:,.0f})"
        ),
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    table.add_column("id", no_wrap=True)
    for heading in ("Plan comp.", "deferral", "match", "restoration"):
        table.add_column(heading, justify="right", no_wrap=True)
    table.add_column("vested", no_wrap=True)
    table.add_column("pay by", no_wrap=True)
    notes = Text()
    for row in result.participants:
        table.add_row(
            Text(row.id),
            amount_shown(row.plan_compensation),
            amount_shown(row.elective_deferral),
            amount_shown(row.matching_restoration),
            amount_shown(row.retirement_restoration),
            "yes" if row.vested.restoration_accounts else "no",
            _iso(row.payment_due_on) or "",
        )
        for note in row.notes:
            notes.append(f"{row.id}: {for_terminal(note)}\n")
    legend = Text(
        "vested: the matching and retirement restoration accounts (the elective account always "
        "is); pay by: the last day Plan 4.01 allows payment; -: not applicable.\n",
        style="dim",
    )
    return Group(table, legend, notes)


def _iso(day) -> str | None:
    return None if day is None else day.isoformat()


def render(result: PlanYearArithmetic, output_format: Format):
    """``json`` and ``csv`` as text; ``text`` as a rich table to print."""
    import json

    if output_format == "json":
        return json_text(json.dumps(result.as_json(), indent=2)) + "\n"
    if output_format == "csv":
        return as_csv(result)
    return as_table(result)
