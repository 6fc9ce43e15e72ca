"""`docgen batch`: a stage of a cycle issued into its own folder, OUT/<cycle>/<stage>/, whole.

The order is the design's pipeline, each step done before the next begins: the kind (the stage,
which documents it issues to whom, the cycle's name), the checks (an error finding stops the
batch before anything is written, unless it is about a packet held back: ``--hold ID``, or not
named by ``--only ID``), the plan (docgen.issue.plan: the stage folder as issued, what to render),
render (the packets over a process pool, each document read back and checked by the DOC-* rules;
then the check report as issued), assemble the next stage folder, then publish it. It is built
beside the old one and swapped in (docgen.issue.stages): an interrupted batch leaves the previous
stage folder or the new one. A re-issue keeps what it replaces in
``superseded/<n>/`` and says which packets changed and why (docgen.issue.reissue,
docgen.issue.history). docgen never deletes a file it did not write: one in the stage folder
stops a re-issue (exit 2) and is named.

The same facts give byte-identical files: no clock time and no absolute path enters a file, and
JSON is written with sorted keys.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from docgen import __version__
from docgen.checker.clause_wording import clause_wording
from docgen.checker.report_html import render_report_html
from docgen.checker.runner import resolve_stage, run_checks
from docgen.core.findings import Finding, Report
from docgen.core.output import refuse_overwriting
from docgen.core.permissions import private_files
from docgen.issue.files import BadRequest, OutLock, write_file
from docgen.issue.layout import MANIFEST_NAME, REPORT_HTML, REPORT_JSON
from docgen.issue.manifest import (
    MANIFEST_FORMAT,
    FactsFile,
    FileEntry,
    HeldSubject,
    Manifest,
    PacketChange,
)
from docgen.issue.plan import Plan, plan_batch
from docgen.issue.pool import ProgressSink, RenderedDocument, default_workers, render_packets
from docgen.issue.reissue import Assembler, Assembly, signed_otherwise
from docgen.issue.reports import (
    IssueRefusedByFindings,
    clause_approvals,
    doc_findings,
    dumps,
    portable_report,
    template_overrides,
)
from docgen.issue.scope import Scope
from docgen.issue.signing import Signing
from docgen.issue.stages import new_staging, publish_stage
from docgen.kinds import kind_of
from docgen.load import LoadedFacts, load_facts
from docgen.render.overrides import compile_templates

# What a batch raises when findings refuse it is part of what it offers its callers.
__all__ = ["BatchResult", "IssueRefusedByFindings", "issue_batch", "issue_loaded"]


@dataclass
class BatchResult:
    """What a batch did: where, which packets changed and why, who was held, the warnings."""

    folder: Path  # the stage folder
    cycle: str
    report: Report
    packets: int = 0  # packets the stage folder holds
    documents: int = 0
    files: int = 0
    warnings: list[Finding] = field(default_factory=list)
    # errors about a recorded election that did not hold the blank form correcting it (Scope.spares)
    remedied: list[Finding] = field(default_factory=list)
    current: bool = False  # nothing to issue: the folder already holds these documents
    rendered_again: bool = False  # ... and that was found by rendering them (--force)
    reissue: int = 0  # 0: the first issue into this stage folder; n: superseded/<n>/
    changes: list[PacketChange] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    held: list[HeldSubject] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # interrupted runs dealt with, folders kept


def issue_batch(facts_path: str | Path, out: str | Path, **options: Any) -> BatchResult:
    """`docgen batch`: check, render, read back, publish the stage folder (see issue_loaded).

    Raises LoadError (exit 2) for a facts file that cannot be understood, BadRequest (exit 2)
    for a request it cannot carry out, and IssueRefusedByFindings (exit 1) for error findings;
    in each case nothing is written.
    """
    return issue_loaded(load_facts(facts_path), out, **options)


@private_files()  # every folder and file issued is made without world access (0750/0640)
def issue_loaded(
    loaded: LoadedFacts,
    out: str | Path,
    *,
    stage: str | None = None,
    as_of: date,
    workers: int | None = None,
    force: bool = False,
    hold: tuple[str, ...] | list[str] = (),
    only: tuple[str, ...] | list[str] = (),
    progress: ProgressSink | None = None,
    only_into_new_folder: bool = False,
    signing: Signing | None = None,
) -> BatchResult:
    """Issue ``loaded`` at ``stage`` into OUT/<cycle>/<stage>/.

    ``hold``: issue every packet but these; their findings do not block the rest, and the
    manifest names them with their findings. ``only``: re-issue just these packets into the
    stage folder, every other file left as it was (a folder must exist unless
    ``only_into_new_folder``, as for `docgen render`). ``signing``: certify every PDF issued with
    the company's key (docgen.issue.signing); a packet signed otherwise is issued again.
    """
    # The kind: the stage, the documents it issues to whom (the packets, those asked for), the
    # cycle's name and its head subject.
    facts = loaded.facts
    kind = kind_of(facts)
    stage = resolve_stage(facts, stage)
    scope = Scope.of(loaded, kind.packets(facts, stage), stage, hold, only)
    cycle, head = kind.cycle_name(facts), kind.head(facts)[0]
    # The checks.
    report = run_checks(loaded, as_of, stage)
    scope.refuse_on(report)
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise BadRequest(
            f"--out {out}: is a file, not a folder. Name a folder for the issued packets."
        )
    # The stage folder is replaced whole: never where the facts, a roster or templates are.
    refuse_overwriting(out / cycle / stage, "--out", loaded.inputs, folder=True)
    made = [folder for folder in (out, out / cycle) if not folder.exists()]
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise BadRequest(
            f"--out {out}: cannot create the folder ({error.strerror}). "
            "Name a folder you can write to, such as out."
        ) from None
    try:
        with OutLock(out):
            plan = plan_batch(
                loaded,
                report,
                out,
                scope,
                as_of,
                force,
                only_into_new_folder,
                cycle=cycle,
                head=head,
            )
            return _issue(plan, workers, progress, signing)
    except BaseException:
        for folder in reversed(made):  # refused or failed: leave no trace, not even an empty OUT
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()
        raise


def _issue(
    plan: Plan, workers: int | None, progress: ProgressSink | None, signing: Signing | None
) -> BatchResult:
    """Render, assemble and publish what ``plan`` says, under the lock on OUT."""
    scope = plan.scope
    result = BatchResult(
        plan.stage_dir,
        plan.cycle,
        portable_report(plan.report),
        notes=plan.notes,
        held=[*plan.held],
    )
    resign = signed_otherwise(plan.previous, signing is not None)
    if plan.previous is not None and not plan.force and not resign and plan.nothing_to_do():
        return _as_current(result, plan.previous, scope, plan)
    to_render = plan.to_render(resign)
    compile_templates(plan.loaded.templates_override)  # a broken override: its file and line, now
    staging = new_staging(plan.cycle_dir, scope.stage)
    try:
        made = _render(plan, staging, to_render, workers, progress, signing)
        assembler = Assembler(
            staging,
            plan.stage_dir,
            plan.previous,
            plan.as_of.isoformat(),
            plan.loaded.sha256,
            plan.changes,
        )
        assembly = _assemble(plan, assembler, made.documents, {s for s, _ in to_render})
        if plan.previous is not None and not (
            assembly.changes or plan.held_changed or plan.changes.reports_altered
        ):
            # An altered check report is put right by a re-issue too (and kept, as altered).
            shutil.rmtree(staging, ignore_errors=True)
            result.rendered_again = True
            return _as_current(result, plan.previous, scope)
        manifest = _write_record(plan, staging, made, assembler)
        kept_note = _publish(plan, assembler, staging)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    result.report = made.report
    result.reissue = assembler.n
    result.changes, result.unchanged = assembly.changes, assembly.unchanged
    result.notes += [kept_note] if kept_note else []
    return _counted(result, manifest, scope)


@dataclass(frozen=True)
class _Rendered:
    """What the render step made: the documents rendered now (in staging), the check report as
    issued (with the DOC-* rules' findings) and its HTML page, and the people held back with
    errors, whom the report names as not issued."""

    documents: list[RenderedDocument]
    report: Report
    html: str
    held_back: list[str]


def _render(
    plan: Plan,
    staging: Path,
    to_render: list[tuple[str, list[str]]],
    workers: int | None,
    progress: ProgressSink | None,
    signing: Signing | None = None,
) -> _Rendered:
    """The packets to render, rendered into staging and read back, and the report as issued
    (the DOC-* problems as findings; refused, with nothing published, on an error among them)
    rendered as HTML, each drafted clause as the documents word it."""
    loaded = plan.loaded
    rendered = render_packets(
        loaded,
        plan.scope.stage,
        staging,
        to_render,
        workers or default_workers(),
        progress,
        as_of=plan.as_of,
        templates=plan.templates,
        signing=signing,
    )
    problems = [p for document in rendered for p in document.problems]
    issued = portable_report(plan.report, doc_findings(loaded, problems, plan.head))
    plan.scope.refuse_on(issued, stage_of_refusal="documents")
    held_back = plan.scope.held_back_with_errors(issued)
    html = render_report_html(issued, clause_wording(loaded, issued), held_back, issued=True)
    return _Rendered(rendered, issued, html, held_back)


def _assemble(
    plan: Plan,
    assembler: Assembler,
    rendered: list[RenderedDocument],
    rendered_now: set[str],
) -> Assembly:
    """The next stage folder's packets in staging: the history carried over, each packet issued
    now (rendered, or kept as issued when its inputs are), each other packet of the folder kept
    (held, or not named by --only) or withdrawn."""
    assembler.carry_history()
    for subject, _ in plan.scope.issue:
        if subject not in rendered_now:
            assembler.kept_packet(subject, unchanged=True)
            continue
        documents = [d for d in rendered if d.subject == subject]
        assembler.rendered_packet(subject, documents, plan.records[subject], forced=plan.force)
    for subject in assembler.before_packets:
        if subject in plan.records:
            continue
        if plan.scope.keeps(subject):
            assembler.kept_packet(subject)
        else:
            assembler.withdrawn_packet(subject)
    return assembler.result


def _write_record(plan: Plan, staging: Path, made: _Rendered, assembler: Assembler) -> Manifest:
    """The check report as issued (JSON and HTML) and the manifest, written into staging; a
    re-issue first keeps the last issue's report and manifest in ``superseded/<n>/``."""
    loaded, scope, issued = plan.loaded, plan.scope, made.report
    superseded = plan.previous.superseded if plan.previous else ()
    if plan.previous is not None:
        assembler.previous_record()
        superseded += (assembler.superseded_entry(plan.held_changed),)
    packets = tuple(sorted(assembler.result.packets, key=scope.order))
    report_json = issued.to_json_dict()
    if made.held_back:
        report_json["not_issued"] = made.held_back
    if plan.judged_as_of:  # --only: each packet's verdict as of its own issue
        report_json["judged_as_of"] = plan.judged_as_of
    files = dict(assembler.result.files)
    report_files = ((REPORT_JSON, dumps(report_json)), (REPORT_HTML, made.html.encode("utf-8")))
    for name, data in report_files:
        files[name] = FileEntry.from_json(write_file(staging / name, data, sync=False))
    manifest = Manifest(
        manifest_format=MANIFEST_FORMAT,
        docgen_version=__version__,
        templates_sha256=plan.templates,
        templates_dir=template_overrides(loaded),
        kind=loaded.facts.kind,
        cycle=plan.cycle,
        stage=scope.stage,
        as_of=plan.as_of.isoformat(),
        facts=FactsFile(Path(loaded.source.file).name, loaded.sha256),
        clause_approvals=tuple(clause_approvals(issued)),
        summary={
            **issued.summary,
            "packets": len(packets),
            "documents": sum(len(packet.documents) for packet in packets),
            "held": len(plan.held),
        },
        warnings=tuple(
            f.to_json_dict() for f in issued.warnings if not scope.is_held_back(f.subject)
        ),
        packets=packets,
        files=files,
        held=plan.held,
        superseded=superseded,
    )
    write_file(staging / MANIFEST_NAME, manifest.to_json(), sync=False)
    return manifest


def _publish(plan: Plan, assembler: Assembler, staging: Path) -> str | None:
    """The staging folder made the stage folder, the operating system's files carried where they
    were; a note when the replaced folder has to stay."""
    for name in (*plan.changes.os_files, *plan.changes.carried):
        if not (staging / name).exists():
            assembler.keep(name)  # an operating system's file, the send log: where they were
    return publish_stage(staging, plan.stage_dir)


def _as_current(
    result: BatchResult, previous: Manifest, scope: Scope, plan: Plan | None = None
) -> BatchResult:
    if plan is not None and previous.facts.sha256 != plan.loaded.sha256:
        # The facts file changed, yet no packet's slice did: only facts no document prints.
        model = kind_of(plan.loaded.facts).model
        unprinted = ", ".join([*model.not_printed, *model.not_in_slice])
        result.notes.append(
            f"{plan.loaded.source.file}: changed since {result.folder} was issued, but in no "
            "fact its documents print (a comment, the order of its lines, or facts only "
            f"`docgen section16`, `export-ocf` or `proxy` read: {unprinted}), so nothing is "
            "re-issued."
        )
    result.current = True
    result.reissue = previous.reissue
    result.held = [*previous.held]
    result.warnings = [w for w in result.report.warnings if not scope.is_held_back(w.subject)]
    return _counted(result, previous, scope)


def _counted(result: BatchResult, manifest: Manifest, scope: Scope) -> BatchResult:
    result.remedied = [f for f in result.report.errors if scope.spares(f)]
    result.packets = len(manifest.packets)
    result.documents = manifest.documents
    result.files = len(manifest.files) + 1
    if not result.current:
        result.warnings = [w for w in result.report.warnings if not scope.is_held_back(w.subject)]
    return result
