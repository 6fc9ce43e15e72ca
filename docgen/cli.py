"""The command line: a thin adapter. Each command parses options, calls one library function, and
turns docgen's errors into a message and an exit code (0 ok, 1 findings or a failed verify,
2 bad input). No command prints a traceback for a user's mistake.
"""

from __future__ import annotations

import json
import sys
from datetime import date
from enum import StrEnum
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console

from docgen import __version__
from docgen.errors import DocgenError, LoadError

app = typer.Typer(
    name="docgen",
    help="Plan facts in, director RSU grant packets and Retirement Restoration Plan paperwork out.\n\n"
    "docgen refuses to issue anything that breaks the plan or Code section 409A.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)

FactsFile = Annotated[
    Path,
    typer.Argument(help="A facts file (.yaml, .yml or .json); see `docgen schema`.", show_default=False),
]


def fail(error: DocgenError) -> NoReturn:
    """Print a docgen error the way a user can act on it, and exit with its code."""
    if isinstance(error, LoadError):
        for problem in error.problems:
            err.print(str(problem), markup=False)
        count = len(error.problems)
        err.print(f"{count} problem{'s' if count != 1 else ''} found; nothing was written.", style="bold red")
    else:
        err.print(str(error), markup=False, style="red")
    raise typer.Exit(error.exit_code)


def parse_as_of(text: str | None) -> date:
    """`--as-of`: an ISO date, defaulting to today."""
    if text is None:
        return date.today()
    try:
        return date.fromisoformat(text)
    except ValueError:
        err.print(f"--as-of: expected a date as YYYY-MM-DD (got {text}). Write it like 2026-06-01.", markup=False)
        raise typer.Exit(2) from None


def _version(value: bool) -> None:
    if value:
        out.print(f"docgen {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", help="Print docgen's version and exit.", callback=_version, is_eager=True)
    ] = False,
) -> None:
    """Plan facts in, compliant paperwork out."""


@app.command()
def validate(file: FactsFile) -> None:
    """Load FILE and report every problem with its file:line and field (exit 0 ok, 2 not)."""
    from docgen.loader import load_facts

    try:
        loaded = load_facts(file)
    except DocgenError as error:
        fail(error)
    facts = loaded.facts
    people = facts.directors if facts.kind == "director-rsu-grant" else facts.participants
    noun = "director" if facts.kind == "director-rsu-grant" else "participant"
    out.print(f"{loaded.source.file}: ok ({facts.kind}, {len(people)} {noun}{'s' if len(people) != 1 else ''})")


@app.command()
def schema() -> None:
    """Print the JSON Schema of both kinds of facts file."""
    from docgen.facts import json_schema

    sys.stdout.write(json.dumps(json_schema(), indent=2) + "\n")


class ComputeFormat(StrEnum):
    text = "text"
    json = "json"
    csv = "csv"


@app.command()
def compute(
    file: FactsFile,
    output_format: Annotated[
        ComputeFormat, typer.Option("--format", help="text (a table), json or csv.")
    ] = ComputeFormat.text,
) -> None:
    """The RRP's arithmetic per participant: Plan Compensation, deferral, match, restoration,
    vesting, last payment day (docs/rrp-arithmetic.md)."""
    from docgen import compute as arithmetic

    try:
        result = arithmetic.compute_file(file)
    except DocgenError as error:
        fail(error)
    rendered = arithmetic.render(result, output_format.value)
    if isinstance(rendered, str):
        sys.stdout.write(rendered)
    else:
        out.print(rendered)


def main() -> None:
    """Console-script entry point."""
    try:
        app()
    except KeyboardInterrupt:
        err.print("Interrupted; nothing was left half-written.")
        sys.exit(130)
