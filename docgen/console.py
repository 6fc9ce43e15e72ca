"""What the command line prints with: its two consoles, errors as messages and exit codes,
`-o` output written atomically, the progress bar, and a refused issue's report.

Nothing a user typed or a file holds is read as rich markup or emoji codes (a path such as
`grant [final].json` prints as typed, `:x:` stays `:x:`), and any control or escape character in
it is shown escaped (api.for_terminal), so no file name can clear the screen or hide text.
"""

from __future__ import annotations

import atexit
import io
import logging
import os
import signal
import sys
import threading
from datetime import date
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console

from docgen import api
from docgen.api import DocgenError, LoadError, for_terminal


class _PlainConsole(Console):
    """A console that never reads markup or emoji codes, and escapes control characters in the
    strings it is given (rich renderables escape theirs where they are built)."""

    def __init__(self, **options) -> None:
        super().__init__(highlight=False, markup=False, emoji=False, soft_wrap=True, **options)

    def print(self, *objects, **options) -> None:
        super().print(*(for_terminal(o) if isinstance(o, str) else o for o in objects), **options)


# The FILE argument of every command that reads a facts file.
FactsFile = Annotated[
    Path,
    typer.Argument(
        help="A facts file (.yaml, .yml or .json); see `docgen schema`.", show_default=False
    ),
]

# Piped into a file or a mail, tables get 120 columns rather than rich's narrow default of 80.
out = _PlainConsole(width=None if sys.stdout.isatty() else 120)
err = _PlainConsole(stderr=True, width=None if sys.stderr.isatty() else 120)


def fail(error: DocgenError) -> NoReturn:
    """Print a docgen error the way a user can act on it, and exit with its code."""
    if isinstance(error, LoadError):
        for problem in error.problems:
            err.print(str(problem))
        count = len(error.problems)
        err.print(
            f"{count} problem{'s' if count != 1 else ''} found; nothing was written.",
            style="bold red",
        )
    else:
        err.print(str(error), markup=False, style="red")
    raise typer.Exit(error.exit_code)


def parse_as_of(text: str | None) -> date:
    """`--as-of`: an ISO date in the range facts may hold, defaulting to today."""
    if text is None:
        return date.today()
    try:
        day = date.fromisoformat(text)
    except ValueError:
        err.print(f"--as-of: expected a date as YYYY-MM-DD (got {text}). Write it like 2026-06-01.")
        raise typer.Exit(2) from None
    earliest, latest = api.DATE_RANGE
    if not earliest <= day <= latest:
        err.print(
            f"--as-of: a date outside the years {earliest.year} to {latest.year} (got {text}). "
            f"docgen works with dates from {earliest.isoformat()} to {latest.isoformat()}."
        )
        raise typer.Exit(2)
    return day


def parse_received_on(text: str, as_of: date) -> date:
    """`--received-on`: an ISO date, not after the day the command checks as of."""
    try:
        received = date.fromisoformat(text)
    except ValueError:
        err.print(
            f"--received-on: expected a date as YYYY-MM-DD (got {text}). Write it like 2026-06-10.",
            markup=False,
        )
        raise typer.Exit(2) from None
    if received > as_of:
        err.print(
            f"--received-on {received} is after {as_of} (--as-of, default today): a form is "
            "recorded on the day it was received, which cannot be later. Nothing was written.",
            markup=False,
        )
        raise typer.Exit(2)
    return received


def print_recorded(result) -> None:
    """What `docgen intake` / `docgen elect` recorded and wrote, then the check report."""
    for origin, filing in result.filings:
        out.print(f"Recorded {origin}: {filing.subject}, {filing.summary}.", markup=False)
    for path in result.written:
        out.print(f"Wrote {path} (kept as written: only the new entries were added).", markup=False)
    out.print(api.report_view(result.report, "rich"))


def emit(rendered, output: Path | None, what: str = "") -> None:
    """Print a command's result, or write it to ``-o PATH`` atomically (exit 2 if it cannot).

    ``rendered`` is text, or a rich renderable (a table), which a file gets as plain text.
    """
    if output is None:
        if isinstance(rendered, str):
            sys.stdout.write(rendered)
        else:
            out.print(rendered)
        return
    if not isinstance(rendered, str):
        plain = Console(
            width=120, record=True, file=io.StringIO(), markup=False, emoji=False, highlight=False
        )
        plain.print(rendered)
        rendered = plain.export_text()
    try:
        api.write_report(output, rendered)
    except DocgenError as error:
        fail(error)
    err.print(f"Wrote {output}{f' ({what})' if what else ''}.", markup=False)


def print_refusal(error: DocgenError) -> None:
    """An issue refused by findings: the report on stdout, then why nothing was written."""
    report = getattr(error, "report", None)
    if report is not None:
        out.print(api.report_view(report, "rich"))


class ProgressBar:
    """A rich progress bar on stderr, started only once the worker processes exist."""

    def __init__(self) -> None:
        self.progress = None
        self.task = None

    def start(self, total: int) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        self.progress = Progress(
            TextColumn("{task.description}", style="progress.description", markup=False),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=err,
            transient=False,
        )
        self.task = self.progress.add_task("Rendering packets", total=total)
        self.progress.start()

    def advance(self, subject: str) -> None:
        self.progress.update(self.task, advance=1, description=f"Rendered {subject:<12}")

    def stop(self) -> None:
        if self.progress is not None:
            self.progress.stop()


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def print_packet_changes(result) -> None:
    """Which packets a re-issue changed, and why (the facts by name). Packets whose documents came
    out the same and whose record alone was updated are told in one line per reason."""
    if result.current:
        out.print(
            f"{result.folder}: nothing re-issued; the issued documents are what these facts give.",
            markup=False,
        )
        return
    if not result.reissue:
        return
    records: dict[str, list[str]] = {}
    for change in result.changes:
        why = "; ".join(change.reasons)
        if change.what == "record":
            records.setdefault(why, []).append(change.subject)
            continue
        what = f"{', '.join(change.documents)} {change.what}"
        out.print(f"  {change.subject}: {what}{f' ({why})' if why else ''}", markup=False)
    for why, subjects in records.items():
        out.print(
            f"  {', '.join(subjects)}: documents came out the same, record updated ({why})",
            markup=False,
        )


def print_batch(result, facts_file: Path, out_dir: Path, issued_on: date) -> None:
    """What `docgen batch` did, in the secretary's words."""
    for note in result.notes:
        err.print(note, markup=False)
    warnings = len(result.warnings)
    noted = f"; {_plural(warnings, 'warning')} recorded in manifest.json" if warnings else ""
    if result.current:
        how = (
            "rendered again, every document came out byte for byte as issued"
            if result.rendered_again
            else "every packet's facts, templates and docgen version are as issued and every "
            "file matches its manifest"
        )
        out.print(
            f"{result.folder} is already current ({how}): nothing re-issued{noted}."
            + ("" if result.rendered_again else " Use --force to render again."),
            markup=False,
        )
    elif result.reissue:
        moved = sum(1 for c in result.changes if c.what in ("issued", "re-issued"))
        out.print(
            f"Re-issue {result.reissue} of {result.folder}, as of {issued_on.isoformat()}: "
            f"{_plural(moved, 'packet')} issued anew, the other {result.packets - moved} left as "
            f"issued; what it replaced is kept in {result.folder}/superseded/{result.reissue}/"
            f"{noted}.",
            markup=False,
        )
        print_packet_changes(result)
    else:
        if not result.packets and not result.held:
            out.print(
                f"A {result.report.facts.kind} file at stage {result.report.stage} issues no "
                "documents (its records are checked only); wrote the check report and manifest.",
                markup=False,
            )
        out.print(
            f"Issued {_plural(result.packets, 'packet')} ({result.documents} documents, "
            f"{result.files} files) to {result.folder}{noted}.",
            markup=False,
        )
    for entry in result.held:
        reasons = "; ".join(
            f"{f['rule']}: {f['message'].rstrip('.')}"
            for f in entry.findings
            if f["severity"] == "error"
        )
        out.print(
            f"  held, not issued: {entry.subject} ({entry.name})"
            f"{': ' + reasons if reasons else ''}. Once resolved: docgen batch {facts_file} "
            f"--out {out_dir} --stage {result.report.stage} --only {entry.subject}",
            markup=False,
        )
    for finding in result.warnings:
        out.print(f"  warning {finding.rule} ({finding.subject}): {finding.message}", markup=False)
    out.print(f"Check it any time with: docgen verify {result.folder}", markup=False)


def rules_table(rules) -> Any:
    """`docgen rules`: the catalogue as a table."""
    from rich.table import Table

    table = Table(title="docgen rule catalogue (docgen explain RULE for one rule)", expand=True)
    table.add_column("id", no_wrap=True)
    table.add_column("severity", no_wrap=True)
    table.add_column("title", ratio=3)
    table.add_column("cites", ratio=2)
    for entry in rules:
        table.add_row(
            entry.id, entry.severity, entry.title, "; ".join(str(c) for c in entry.citations)
        )
    return table


def print_render(result) -> None:
    """What `docgen render` issued (or wrote without issuing), and where the copy went."""
    for finding in result.warnings:
        shown = f"{finding.severity} {finding.rule} ({finding.subject}): {finding.message}"
        err.print(shown, markup=False)
    batch = result.batch
    if batch is None:
        what = "a preview" if result.fmt == "html" else "counsel's review copy"
        out.print(
            f"Wrote {result.path} ({result.bytes:,} bytes), {what}: not issued.", markup=False
        )
        return
    if not batch.current and batch.reissue:
        out.print(
            f"Re-issue {batch.reissue} of {batch.folder}; what it replaced is kept in "
            f"{batch.folder}/superseded/{batch.reissue}/:",
            markup=False,
        )
    elif not batch.current:
        out.print(f"Issued into {batch.folder}:", markup=False)
    print_packet_changes(batch)
    copy = f"; wrote a copy to {result.path}" if result.path != result.issued else ""
    out.print(f"Issued copy: {result.issued} ({result.bytes:,} bytes){copy}.", markup=False)


def print_verified(checked) -> None:
    """`docgen verify` found it intact: one issued PDF's summary, or a line per stage folder."""
    if not isinstance(checked, list):
        out.print(checked.summary, markup=False)
        return
    for check in checked:
        out.print(
            f"{check.folder}: intact ({check.files_checked} files match manifest.json; "
            f"{check.documents_checked} documents read back with no blank, no missing key fact, "
            "PDF and DOCX text equal).",
            markup=False,
        )


_TERMINATED: list[int] = []


def _terminate(signum, frame) -> None:
    _TERMINATED.append(signum)
    raise KeyboardInterrupt


def run(app) -> None:
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


def exit_quickly(code: object) -> NoReturn:
    """End the process with ``code`` (as ``sys.exit`` reads it) without tearing down its heap.

    A command that loaded 10,000 participants holds millions of objects; an ordinary exit frees
    each one and runs a last cycle collection over them, which cost a third of `docgen check`
    (measured: 0.47 s of 1.31 s). Everything a normal exit does that anyone can observe is done
    first: standard output and error are flushed and the atexit handlers run (logging's, and
    multiprocessing's, which joins the workers). mypy ends the same way (its ``hard_exit``).
    With another thread still running, the exit is the ordinary one, which waits for it.
    """
    if isinstance(code, bool) or not isinstance(code, int):
        if code is not None:  # sys.exit("text") prints the text and exits 1
            print(code, file=sys.stderr)
        code = 0 if code is None else 1
    if any(
        not thread.daemon
        for thread in threading.enumerate()
        if thread is not threading.main_thread()
    ):
        sys.exit(code)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            # The reader went away (`docgen check ... | head`): what it did not read is lost,
            # so the exit says so, as Python's own documentation advises (exit 1).
            code = code or 1
    atexit._run_exitfuncs()
    os._exit(code)
