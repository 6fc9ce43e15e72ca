"""The options several commands share, declared once, and the dates they are given in.

``--as-of``, ``-o``/``--output`` and ``--format`` are spelled here and nowhere else; a command
says only what its date, its file or its formats are (its help), and ``--format``'s choices are
the command's own enum. The dates are parsed in the command, not by the option, so a bad one is
told in docgen's words (with the range facts may hold) and exits 2.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Annotated

import typer
from typer.models import OptionInfo

from docgen import api
from docgen.console.terminal import err

# The FILE argument of every command that reads a facts file.
FactsFile = Annotated[
    Path,
    typer.Argument(
        help="A facts file (.yaml, .yml or .json); see `docgen schema`.", show_default=False
    ),
]


def as_of_option(meaning: str) -> OptionInfo:
    """``--as-of DATE`` (read by :func:`parse_as_of`); ``meaning`` is what the date does."""
    return typer.Option("--as-of", help=meaning)


def output_option(meaning: str = "Write to this file instead of stdout.") -> OptionInfo:
    """``-o PATH`` / ``--output PATH``: the file a command's result goes to instead of stdout
    (written by docgen.console.output)."""
    return typer.Option("-o", "--output", help=meaning)


def format_option(choices: str | None = None) -> OptionInfo:
    """``--format``: which of the command's formats; ``choices`` says them in words."""
    return typer.Option("--format", help=choices)


# The common cases, whole: a check's date, and stdout or a file.
AsOf = Annotated[str | None, as_of_option("Check as of this date (default: today).")]
IssuedOn = Annotated[
    str | None,
    as_of_option("The date the documents are issued on, YYYY-MM-DD (default: today)."),
]
Output = Annotated[Path | None, output_option()]


def _iso_date(option: str, text: str, example: str = "") -> date:
    """``text`` as an ISO date; anything else is told (with ``example``, a date to copy) and
    exits 2."""
    try:
        return date.fromisoformat(text)
    except ValueError:
        like = f" Write it like {example}." if example else ""
        err.print(f"{option}: expected a date as YYYY-MM-DD (got {text}).{like}")
        raise typer.Exit(2) from None


def _in_range(option: str, text: str, day: date, after: str = "") -> date:
    """``day`` when it is in the range facts may hold; else told (then ``after``) and exits 2."""
    earliest, latest = api.DATE_RANGE
    if not earliest <= day <= latest:
        err.print(
            f"{option}: a date outside the years {earliest.year} to {latest.year} (got {text})."
            + after
        )
        raise typer.Exit(2)
    return day


def parse_as_of(text: str | None) -> date:
    """`--as-of`: an ISO date in the range facts may hold, defaulting to today."""
    if text is None:
        return date.today()
    earliest, latest = api.DATE_RANGE
    works_with = f" docgen works with dates from {earliest.isoformat()} to {latest.isoformat()}."
    return _in_range("--as-of", text, _iso_date("--as-of", text, "2026-06-01"), works_with)


def parse_date_option(option: str, text: str) -> date:
    """A date option other than --as-of (``option`` names it): an ISO date in the range facts
    may hold; a bad one is told and exits 2."""
    return _in_range(option, text, _iso_date(option, text))


def parse_received_on(text: str, as_of: date) -> date:
    """`--received-on`: an ISO date, not after the day the command checks as of."""
    received = _iso_date("--received-on", text, "2026-06-10")
    if received > as_of:
        err.print(
            f"--received-on {received} is after {as_of} (--as-of, default today): a form is "
            "recorded on the day it was received, which cannot be later. Nothing was written."
        )
        raise typer.Exit(2)
    return received
