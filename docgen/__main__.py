"""`docgen` and `python -m docgen`: the command line, imported with the cycle collector asleep
and frozen after (docgen.core.heap), then run (docgen.cli.entry)."""

from __future__ import annotations

from typing import NoReturn

from docgen.core.heap import built_once


def entry() -> NoReturn:
    """The console script's entry point."""
    with built_once():
        from docgen.cli import entry as command_line
    command_line()


if __name__ == "__main__":
    entry()
