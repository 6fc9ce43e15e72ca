"""How a command ends: a docgen error as its message and exit code, signals, the top-level
handler that never shows a traceback, and the exit.

Exit codes: 0 ok, 1 findings (a refused issue, a failed verify), 2 bad input or a refusal of the
disk, 3 a bug in docgen, 130 Ctrl-C, 143 SIGTERM. Every command carries :func:`exits_on_error`,
so a :class:`~docgen.core.errors.DocgenError` from anywhere in it ends the same way.
"""

from __future__ import annotations

import functools
import logging
import os
import signal
import sys
from collections.abc import Callable
from typing import NoReturn, ParamSpec, TypeVar

import typer

from docgen import api
from docgen.api import QUOTE_LIMIT, DocgenError, LoadError, clipped, inputs_of_one_command
from docgen.console.terminal import err, out

P = ParamSpec("P")
R = TypeVar("R")


def fail(error: DocgenError) -> NoReturn:
    """Print a docgen error the way a user can act on it, and exit with its code.

    An issue refused by findings carries its report: the findings go to stdout first, then the
    refusal says on stderr why nothing was written."""
    report = getattr(error, "report", None)
    if report is not None:
        out.print(api.report_view(report, "rich"))
    if isinstance(error, LoadError):
        for problem in error.problems:
            err.print(str(problem))
        count = len(error.problems)
        err.print(
            f"{count} problem{'s' if count != 1 else ''} found; nothing was written.",
            style="bold red",
        )
    else:
        lines = str(error).split("\n")  # each line whole unless it quotes a runaway value
        err.print(
            "\n".join(clipped(line, 3 * QUOTE_LIMIT) for line in lines), markup=False, style="red"
        )
    raise typer.Exit(error.exit_code)


def exits_on_error(command: Callable[P, R]) -> Callable[P, R]:
    """The decorator every command carries: a DocgenError it raises is printed (:func:`fail`)
    and the command exits with the error's code. Typer reads the command's signature and help
    through it (functools.wraps)."""

    @functools.wraps(command)
    def run_command(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            with inputs_of_one_command():  # no output written over what the command reads
                return command(*args, **kwargs)
        except DocgenError as error:
            fail(error)

    return run_command


_TERMINATED: list[int] = []


def _terminate(signum, frame) -> None:
    _TERMINATED.append(signum)
    raise KeyboardInterrupt


def run(app: Callable[[], object]) -> None:
    """Run the command-line app; no way it ends prints a traceback.

    SIGTERM (a service manager, `kill PID`) stops a command as Ctrl-C does, cleaning up on the
    way (a batch stops its workers and removes its staging folder), and exits 143 as a shell
    reports a process ended by it; Ctrl-C exits 130.
    """
    signal.signal(signal.SIGTERM, _terminate)
    # A library's warning never reaches the terminal as a bare line of its own (logging's
    # last-resort handler prints them): docgen words what matters in its own messages.
    logging.getLogger().addHandler(logging.NullHandler())
    try:
        app()
    except SystemExit as stop:  # typer turns KeyboardInterrupt into exit 130
        if _TERMINATED:
            err.print("Stopped by SIGTERM; nothing was issued.")
            sys.exit(128 + signal.SIGTERM)
        if stop.code == 130:
            err.print("Interrupted; nothing was left half-written.")
        raise
    except KeyboardInterrupt:
        err.print("Interrupted; nothing was left half-written.")
        sys.exit(130)
    except OSError as error:
        # The disk or the operating system said no (full disk, no permission, a vanished
        # folder): say what and where; issuing is atomic, so nothing half-written is left.
        where = f": {error.filename}" if error.filename else ""
        err.print(f"docgen: {error.strerror or error}{where}. Nothing was issued.")
        sys.exit(2)
    except Exception:
        if os.environ.get("DOCGEN_DEBUG"):
            raise
        err.print(
            "docgen stopped on an internal error (a bug, not a problem with your facts). "
            "Nothing was issued. Run again with DOCGEN_DEBUG=1 to see the details for a report."
        )
        sys.exit(3)


def exit_flushed(code: str | int | None) -> NoReturn:
    """Exit with ``code`` (as ``sys.exit`` reads it) once standard output is flushed.

    When the reader went away (`docgen check ... | head`), what it did not read is lost, so the
    exit says so (1), and standard output is pointed at the null device so that Python's own
    exit does not try the flush again and print the error (the recipe of the ``signal`` module's
    documentation, "Note on SIGPIPE")."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1 if code in (0, None) else code)
    sys.exit(code)
