"""The command line of what follows a grant: `docgen section16` (each director's Form 4 draft),
`docgen proxy` (the Item 402(k) stock award figures) and `docgen export-ocf` (the cycle as an Open
Cap Format bundle). Thin adapters, as in docgen/cli.py (which registers them): parse the options,
call one api function, print; a docgen error ends each as its exit code
(docgen.console.process.exits_on_error)."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from docgen import api
from docgen.console.options import (
    FactsFile,
    IssuedOn,
    Output,
    as_of_option,
    format_option,
    output_option,
    parse_as_of,
    parse_date_option,
)
from docgen.console.output import emit
from docgen.console.process import exits_on_error
from docgen.console.terminal import err, out


class ProxyFormat(StrEnum):
    csv = "csv"
    html = "html"


@exits_on_error
def proxy(
    files: Annotated[
        list[Path],
        typer.Argument(help="The cycles' facts files (director grants).", show_default=False),
    ],
    fiscal_year_end: Annotated[
        str, typer.Option("--fiscal-year-end", help="The fiscal year's last day, YYYY-MM-DD.")
    ],
    output_format: Annotated[ProxyFormat, format_option("csv or html.")] = ProxyFormat.csv,
    output: Output = None,
) -> None:
    """The proxy's Director Compensation stock award figures (Regulation S-K Item 402(k)).

    Per director: the grant-date fair value of each award granted in the fiscal year (the twelve
    months ending --fiscal-year-end; units x the grant's Fair Market Value, ASC 718, rounded to
    the whole dollar half up) and the units outstanding at the fiscal year-end, dividend
    equivalents included. A director in several cycles is one row summing them."""
    end = parse_date_option("--fiscal-year-end", fiscal_year_end)
    emit(api.proxy(files, end, output_format.value), output, "proxy figures")


@exits_on_error
def export_ocf(
    file: FactsFile,
    output: Annotated[
        Path, output_option("The bundle to write, e.g. cycle.ocf.zip (written atomically).")
    ],
    as_of: Annotated[
        str | None, as_of_option("The bundle's as-of date (default: today); on or after the grant.")
    ] = None,
    issued: Annotated[
        Path | None,
        typer.Option(
            "--issued",
            help="The issued grant stage folder (or the OUT folder holding it): its Notices "
            "are listed as OCF Documents with their MD5.",
        ),
    ] = None,
) -> None:
    """The cycle as an Open Cap Format 1.2.0 bundle (a zip), validated before it is written.

    Issuer, a Stakeholder per director (BOARD_MEMBER), StockPlan, StockClass, VestingTerms, and
    per director the RSU issuance, its vesting start and its acceptance; the issued Notices as
    Documents (--issued). Deferral elections, which OCF cannot express, go beside them in
    docgen-elections.json (docs/ocf-export.md)."""
    written = api.export_ocf(file, output, parse_as_of(as_of), issued)
    out.print(
        f"Wrote {output}: OCF 1.2.0 bundle of cycle {written['cycle']} "
        f"({len(written['files'])} files, {written['documents']} Notices as Documents).",
        markup=False,
    )
    for note in written["notes"]:
        err.print(f"Note: {note}", markup=False)


@exits_on_error
def section16(
    file: FactsFile,
    out_dir: Annotated[Path, typer.Option("--out", help="The folder the cycle's folder is in.")],
    as_of: IssuedOn = None,
) -> None:
    """Draft each director's Form 4 for the grant: EDGAR ownership XML and a readable PDF.

    Written whole into OUT/<grant>/section16/ with drafts-manifest.json (SHA-256s). Needs the
    issuer's cik and trading_symbol, company.form4_table (I or II) and each director's cik; each
    missing one is named (exit 2) and nothing is written. Filer credentials are never facts.
    The Form 4 is due by the end of the second business day after the grant date
    (RSU-FORM4-DUE)."""
    drafted_on = parse_as_of(as_of)
    result = api.section16(file, out_dir, as_of=drafted_on)
    for note in result.notes:
        out.print(note)
    out.print(
        f"Drafted {result.count} {result.noun}s into {result.folder} "
        f"({len(result.files)} files, SHA-256s in drafts-manifest.json)."
    )
    if result.due_on:
        out.print(f"Due on EDGAR by {result.due_on.isoformat()}.")
