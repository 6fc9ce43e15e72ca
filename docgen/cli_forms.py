"""The command line of the election loop: `docgen intake` (returned PDFs into the facts file),
`docgen elect` (a paper form's content), `docgen status` (who has answered). Thin adapters, as in
docgen/cli.py (which registers them): parse the options, call one api function, print; a docgen
error ends each as its exit code (docgen.console.process.exits_on_error)."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from docgen import api
from docgen.console.options import (
    AsOf,
    FactsFile,
    Output,
    as_of_option,
    format_option,
    parse_as_of,
    parse_received_on,
)
from docgen.console.output import emit
from docgen.console.printers import print_recorded
from docgen.console.process import exits_on_error
from docgen.console.terminal import err

_RECEIVED_HELP = (
    "The day the Company received the form(s), YYYY-MM-DD: recorded as the filing date."
)
_ACCEPT_NAME_HELP = (
    "Accept a printed name that does not read as the name on record (Exhibit I, Section IV), "
    "for this REASON: recorded beside the filing as name_accepted."
)
AcceptName = Annotated[
    str | None, typer.Option("--accept-name", metavar="REASON", help=_ACCEPT_NAME_HELP)
]


def _ended(result: api.Recorded) -> None:
    """Print what was recorded; exit 2 when a form was refused (each said why), else by the
    check's findings."""
    print_recorded(result)
    if result.refused:
        for problem in result.refused:
            err.print(str(problem), markup=False)
        count = len(result.refused_forms)
        err.print(
            f"{count} form{'s' if count != 1 else ''} refused and not recorded; the others "
            "were recorded.",
            style="bold red",
        )
        raise typer.Exit(2)
    raise typer.Exit(result.report.exit_code())


@exits_on_error
def intake(
    file: FactsFile,
    forms: Annotated[
        list[Path],
        typer.Argument(help="Returned, filled PDF forms (Exhibit I or RRP).", show_default=False),
    ],
    received_on: Annotated[str, typer.Option("--received-on", help=_RECEIVED_HELP)],
    as_of: AsOf = None,
    accept_name: AcceptName = None,
) -> None:
    """Read returned forms into FILE as filings on the day received, then check it.

    Each form is matched to its director or participant by the identity it carries, its fields
    validated (one option, a date where the option needs one, the signature block completed),
    and recorded in FILE as written (comments, order, quoting kept), or in the CSV the person
    lives in (the roster row, or elections_csv, beneficiaries_csv, allocations_csv when the
    facts name them). Exit 0 recorded and clean, 1 recorded with error findings, 2 refused with
    nothing written: a scan (use `docgen elect`), another cycle's form, someone not in FILE, a
    form already recorded, blank or unclear fields. Of several forms, every valid one is
    recorded and each refused one named with its reason (exit 2)."""
    checked_on = parse_as_of(as_of)
    received = parse_received_on(received_on, checked_on)
    result = api.intake(
        file, forms, received_on=received, as_of=checked_on, accept_name=accept_name
    )
    _ended(result)


@exits_on_error
def elect(
    file: FactsFile,
    subject: Annotated[str, typer.Option("--for", help="The director or participant id.")],
    received_on: Annotated[str, typer.Option("--received-on", "--filed-on", help=_RECEIVED_HELP)],
    pay_on: Annotated[
        str | None,
        typer.Option(
            help="Exhibit I, Section III: separation, date or earlier_of_separation_or_date."
        ),
    ] = None,
    pay_date: Annotated[
        str | None, typer.Option(help="Exhibit I: the date beside option (b) or (c).")
    ] = None,
    printed_name: Annotated[
        str | None, typer.Option(help="Exhibit I, Section IV: the name printed (checked).")
    ] = None,
    signed_on: Annotated[str | None, typer.Option(help="The date the form was signed.")] = None,
    recorded_by: Annotated[
        str | None,
        typer.Option(help="Who is recording the paper form (the on-file copy names them)."),
    ] = None,
    salary_percent: Annotated[
        str | None, typer.Option(help="RRP form, Section II(a): percent of base salary.")
    ] = None,
    bonus_percent: Annotated[
        str | None, typer.Option(help="RRP form, Section II(b): percent of bonus.")
    ] = None,
    performance_percent: Annotated[
        list[str] | None,
        typer.Option(help="RRP form: END=PERCENT for the performance period ending END."),
    ] = None,
    allocation: Annotated[
        list[str] | None, typer.Option(help="RRP form, Section IV: FUND=PERCENT, each fund.")
    ] = None,
    beneficiary: Annotated[
        list[str] | None,
        typer.Option(help='RRP form, Section V: "NAME;RELATIONSHIP;SHARE", each Beneficiary.'),
    ] = None,
    as_of: AsOf = None,
    accept_name: AcceptName = None,
) -> None:
    """Record a paper form's content (a scan, a fax) in FILE, with intake's validation.

    Give what the form says as options: for Exhibit I --pay-on (and --pay-date), for the RRP
    form the percentages, allocation and Beneficiaries. Exit codes as `docgen intake`."""
    checked_on = parse_as_of(as_of)
    received = parse_received_on(received_on, checked_on)
    options = {
        "pay-on": pay_on,
        "pay-date": pay_date,
        "printed-name": printed_name,
        "signed-on": signed_on,
        "recorded-by": recorded_by,
        "salary-percent": salary_percent,
        "bonus-percent": bonus_percent,
        "performance-percent": performance_percent,
        "allocation": allocation,
        "beneficiary": beneficiary,
        "accept-name": accept_name,
    }
    result = api.elect(file, subject, options, received_on=received, as_of=checked_on)
    _ended(result)


class StatusFormat(StrEnum):
    text = "text"
    json = "json"
    csv = "csv"


@exits_on_error
def status(
    file: FactsFile,
    as_of: Annotated[
        str | None, as_of_option("Count days left from this date (default: today).")
    ] = None,
    out_dir: Annotated[
        Path | None,
        typer.Option("--out", help="The folder the blank forms were issued into (batch --out)."),
    ] = None,
    output_format: Annotated[
        StatusFormat, format_option("text (a table), json or csv.")
    ] = StatusFormat.text,
    output: Output = None,
) -> None:
    """Who has returned a form and when, whether it is in effect, and the days left to file.

    Per director or participant: the day the blank form was sent (from the folder it was issued
    into, with --out), forms returned and the last one's filing day, the election in effect (or
    why not), the last day to file and the days left. Exit 0 (2 for bad input)."""
    checked_on = parse_as_of(as_of)
    result = api.status(file, as_of=checked_on, out=out_dir)
    view = "rich" if output_format is StatusFormat.text else output_format.value
    emit(api.status_view(result, view), output)
