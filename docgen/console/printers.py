"""What each command reports, in the secretary's words: a batch issued (or already current), a
document rendered, a folder verified, forms recorded, the rule catalogue; and the progress bar a
batch shows on stderr while its workers render.

Each printer takes the result of one api function and prints it on the consoles of
docgen.console.terminal; none decides an exit code (docgen.console.process does).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from docgen import api
from docgen.console.terminal import err, out

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID
    from rich.table import Table

    from docgen.api import (
        Approved,
        BatchResult,
        Decided,
        DraftsCheck,
        FileCheck,
        FolderCheck,
        Recorded,
        RenderResult,
        Rule,
        SignedFileCheck,
    )


def print_recorded(result: Recorded) -> None:
    """What `docgen intake` / `docgen elect` recorded and wrote, then the check report."""
    for origin, filing in result.filings:
        out.print(f"Recorded {origin}: {filing.subject}, {filing.summary}.", markup=False)
    for note in result.certified:
        out.print(note, markup=False)
    for path in result.written:
        out.print(f"Wrote {path} (kept as written but for what the filings record).", markup=False)
    _say_never_written(result.never_written, result.written)
    out.print(api.report_view(result.report, "rich"))


def _say_never_written(kept: tuple[Path, ...], written: Sequence[Path]) -> None:
    """The company's exports the facts read, named as not written (A24), when a file was."""
    if kept and written:
        out.print(
            f"Not written: {', '.join(str(path) for path in kept)}, the company's own export"
            f"{'s' if len(kept) > 1 else ''}: docgen reads {'them' if len(kept) > 1 else 'it'} "
            f"and never rewrites {'them' if len(kept) > 1 else 'it'}, so the record is in "
            f"{', '.join(str(path) for path in written)}.",
            markup=False,
        )


def print_approved(result: Approved) -> None:
    """What `docgen approve` recorded, what was approved already, and what still awaits."""
    for approval in result.recorded:
        out.print(
            f"Recorded: {approval.wording} ({approval.title}) approved by {approval.by} on "
            f"{approval.on.isoformat()}, its wording with it (SHA-256 {approval.sha256}).",
            markup=False,
        )
    for review in result.already:
        if review.approval is None:
            out.print(
                f"{review.id}: the built-in words verbatim, no approval needed.", markup=False
            )
            continue
        out.print(
            f"{review.id}: already approved in these words by {review.approval.by} on "
            f"{review.approval.on.isoformat()}; nothing written for it.",
            markup=False,
        )
    for path in result.written:
        out.print(f"Wrote {path} (kept as written but for the approvals added).", markup=False)
    if result.unapproved:
        out.print(
            f"Still awaiting counsel's approval: {', '.join(result.unapproved)} "
            f"(`docgen clauses {result.facts}` shows each).",
            markup=False,
        )
    else:
        out.print("Every wording the cycle's documents carry is approved.", markup=False)


def print_decided(result: Decided) -> None:
    """What `docgen decide` recorded about the form, where, then the check of the person."""
    said = []
    if result.in_effect is True:
        said.append("in effect (no decision against it on record)")
    elif result.in_effect is False:
        said.append(f"not in effect, decided by {result.decided_by}: {result.reason}")
    if result.signature_seen_by is not None:
        said.append(f"the director's signature seen by {result.signature_seen_by}")
    what = "; ".join(said)
    head = "Already on record" if result.unchanged else "Recorded"
    out.print(
        f"{head}: {result.subject} ({result.name}), form {result.form} ({result.summary}): {what}.",
        markup=False,
    )
    for path in result.written:
        out.print(f"Wrote {path} (kept as written but for the decision).", markup=False)
    _say_never_written(result.never_written, result.written)
    out.print(api.report_view(result.report, "rich"))


class ProgressBar:
    """A rich progress bar on stderr, started only once the worker processes exist."""

    def __init__(self) -> None:
        self.progress: Progress | None = None
        self.task: TaskID | None = None

    def start(self, total: int) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        progress = Progress(
            TextColumn("{task.description}", style="progress.description", markup=False),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=err,
            transient=False,
        )
        self.task = progress.add_task("Rendering packets", total=total)
        self.progress = progress
        progress.start()

    def advance(self, subject: str) -> None:
        assert self.progress is not None and self.task is not None, "advance() before start()"
        self.progress.update(self.task, advance=1, description=f"Rendered {subject:<12}")

    def stop(self) -> None:
        if self.progress is not None:
            self.progress.stop()


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def print_packet_changes(result: BatchResult) -> None:
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


def print_batch(result: BatchResult, facts_file: Path, out_dir: Path, issued_on: date) -> None:
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
        command = (
            f"docgen batch {facts_file} --out {out_dir} --stage {result.report.stage} "
            f"--only {entry.subject}"
        )
        # The reasons are the findings that hold the packet now, not those the manifest kept
        # from the batch that held it: a form resolved since holds nothing.
        now = [f for f in result.report.errors if f.subject == entry.subject]
        was = any(f["severity"] == "error" for f in entry.findings)
        if was and not now:
            out.print(
                f"  not issued yet: {entry.subject} ({entry.name}), held by an earlier batch; "
                f"no error holds it now. To issue it: {command}",
                markup=False,
            )
            continue
        reasons = "; ".join(f"{f.rule}: {f.message.rstrip('.')}" for f in now)
        out.print(
            f"  held, not issued: {entry.subject} ({entry.name})"
            f"{': ' + reasons if reasons else ''}. Once resolved: {command}",
            markup=False,
        )
    for finding in result.remedied:
        out.print(
            f"  error {finding.rule} ({finding.subject}): {finding.message} The blank form was "
            "issued all the same: filed again, it is how the finding is corrected.",
            markup=False,
        )
    _print_warnings(result.warnings)
    apart = api.forms_stage_missing(result, facts_file)
    if apart is not None:
        out.print(f"  warning: {apart}", markup=False)
    out.print(f"Check it any time with: docgen verify {result.folder}", markup=False)


_NAMES_SHOWN = 5  # a grouped warning names this many people, then counts the rest


def _print_warnings(warnings: list) -> None:
    """A batch's warnings, one line each, except that the same warning for many people is one
    line naming them (api.warnings_by_words): 147 participants without a Beneficiary are one
    line, not 147. The manifest and the check report list every one."""
    for finding, names in api.warnings_by_words(warnings):
        if len(names) == 1:
            who = names[0]
        else:
            who = f"{len(names)}: " + ", ".join(names[:_NAMES_SHOWN])
            if len(names) > _NAMES_SHOWN:
                who += f" and {len(names) - _NAMES_SHOWN} more (the check report names all)"
        out.print(f"  warning {finding.rule} ({who}): {finding.message}", markup=False)


def rules_table(rules: Iterable[Rule]) -> Table:
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


def print_render(result: RenderResult) -> None:
    """What `docgen render` issued (or wrote without issuing), and where the copy went."""
    for finding in result.warnings:
        shown = f"{finding.severity} {finding.rule} ({finding.subject}): {finding.message}"
        err.print(shown, markup=False)
    batch = result.batch
    for finding in batch.remedied if batch is not None else ():
        err.print(f"error {finding.rule} ({finding.subject}): {finding.message}", markup=False)
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


def print_verified(
    checked: FileCheck | SignedFileCheck | list[FolderCheck] | DraftsCheck,
) -> None:
    """`docgen verify` found it intact: one issued PDF's summary, or a line per stage folder."""
    if not isinstance(checked, list):
        out.print(checked.summary, markup=False)
        return
    for check in checked:
        signed = (
            f"; {check.signed_checked} PDFs certified by a key chaining to {check.trust_anchor}, "
            "nothing changed after signing that the certification forbids"
            if check.trust_anchor
            else ""
        )
        out.print(
            f"{check.folder}: intact ({check.files_checked} files match manifest.json; "
            f"{check.documents_checked} documents read back with no blank, no missing key fact, "
            f"PDF and DOCX text equal{signed}).",
            markup=False,
        )
