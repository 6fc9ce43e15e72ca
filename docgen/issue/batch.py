"""`docgen batch`: a stage of a cycle issued into its own folder, OUT/<cycle>/<stage>/, whole.

The order is the design's pipeline: load, check (an error finding stops the batch before
anything is written, unless it is about a packet set aside: ``--hold ID``, or not named by
``--only ID``), render the packets over a process pool, read each document back and apply the
DOC-* rules, then publish. The new stage folder is built beside the old one and swapped in
(docgen.issue.stages): an interrupted batch leaves the previous stage folder or the new one.
A re-issue keeps what it replaces in ``superseded/<n>/`` and says which packets changed and why
(docgen.issue.reissue, docgen.issue.history). docgen never deletes a file it did not write: one
in the stage folder stops a re-issue (exit 2) and is named.

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
from docgen.check.clause_wording import clause_wording
from docgen.check.report_html import render_report_html
from docgen.check.runner import resolve_stage, run_checks
from docgen.core.findings import Finding, Report
from docgen.issue.files import BadRequest, OutLock, write_file
from docgen.issue.history import packet_record
from docgen.issue.layout import REPORTS
from docgen.issue.pool import ProgressSink, default_workers, packets_of, render_packets
from docgen.issue.reissue import Assembler, Assembly, PacketChange, as_issued
from docgen.issue.reports import (
    IssueRefusedByFindings,
    clause_approvals,
    doc_findings,
    dumps,
    portable_report,
    template_overrides,
    templates_sha256,
)
from docgen.issue.scope import Scope, held_record
from docgen.issue.stages import (
    new_staging,
    os_files,
    previous_issue,
    publish_stage,
    recover,
    refuse_first_release,
    refuse_foreign,
)
from docgen.issue.verify import MANIFEST_FORMAT, MANIFEST_NAME, compare_hashes
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
    current: bool = False  # nothing to issue: the folder already holds these documents
    rendered_again: bool = False  # ... and that was found by rendering them (--force)
    reissue: int = 0  # 0: the first issue into this stage folder; n: superseded/<n>/
    changes: list[PacketChange] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    held: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # interrupted runs dealt with, folders kept


def issue_batch(facts_path: str | Path, out: str | Path, **options: Any) -> BatchResult:
    """`docgen batch`: check, render, read back, publish the stage folder (see issue_loaded).

    Raises LoadError (exit 2) for a facts file that cannot be understood, BadRequest (exit 2)
    for a request it cannot carry out, and IssueRefusedByFindings (exit 1) for error findings;
    in each case nothing is written.
    """
    return issue_loaded(load_facts(facts_path), out, **options)


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
) -> BatchResult:
    """Issue ``loaded`` at ``stage`` into OUT/<cycle>/<stage>/.

    ``hold``: issue every packet but these; their findings do not block the rest, and the
    manifest names them with their findings. ``only``: re-issue just these packets into the
    stage folder, every other file left as it was (a folder must exist unless
    ``only_into_new_folder``, as for `docgen render`).
    """
    stage = resolve_stage(loaded.facts, stage)
    scope = Scope.of(loaded, packets_of(loaded, stage), stage, hold, only)
    report = run_checks(loaded, as_of, stage)
    scope.refuse_on(report)
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise BadRequest(
            f"--out {out}: is a file, not a folder. Name a folder for the issued packets."
        )
    made = [folder for folder in (out, out / kind_of(loaded.facts).cycle_name(loaded.facts))
            if not folder.exists()]  # fmt: skip
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise BadRequest(
            f"--out {out}: cannot create the folder ({error.strerror}). "
            "Name a folder you can write to, such as out."
        ) from None
    try:
        with OutLock(out):
            return _issue(loaded, report, out, scope, as_of, workers, force, progress,
                          only_into_new_folder)  # fmt: skip
    except BaseException:
        for folder in reversed(made):  # refused or failed: leave no trace, not even an empty OUT
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()
        raise


def _issue(
    loaded: LoadedFacts,
    report: Report,
    out: Path,
    scope: Scope,
    as_of: date,
    workers: int | None,
    force: bool,
    progress: ProgressSink | None,
    only_into_new_folder: bool,
) -> BatchResult:
    kind = kind_of(loaded.facts)
    cycle, stage = kind.cycle_name(loaded.facts), scope.stage
    cycle_dir = out / cycle
    refuse_first_release(cycle_dir)
    cycle_dir.mkdir(exist_ok=True)
    notes = recover(cycle_dir, stage)
    stage_dir = cycle_dir / stage
    previous = previous_issue(stage_dir, stage)
    if previous is not None:
        refuse_foreign(stage_dir, previous)
    elif scope.only and not only_into_new_folder:
        raise BadRequest(
            f"--only re-issues packets into an issued stage folder, and {stage_dir} has not been "
            "issued yet. Run the batch without --only first."
        )
    templates = templates_sha256(loaded.templates_override)
    slices = kind.slices(loaded.facts, [subject for subject, _ in scope.issue])
    records = {
        subject: packet_record(
            loaded.facts, subject, stage, as_of.isoformat(), templates, slices[subject]
        )
        for subject, _ in scope.issue
    }
    held = held_record(report, scope, previous)
    result = BatchResult(stage_dir, cycle, portable_report(report), notes=notes, held=held)
    if (
        previous is not None
        and not force
        and _nothing_to_do(previous, stage_dir, scope, records, held)
    ):
        return _as_current(result, previous, scope)
    compile_templates(loaded.templates_override)  # a broken override: its file and line, now
    staging = new_staging(cycle_dir, stage)
    try:
        assembler = Assembler(staging, stage_dir, previous, as_of.isoformat(), loaded.sha256)
        # A packet made from the same inputs as its issued copy, intact, stays as issued without
        # rendering: rendered as of another day it would differ by its date alone.
        to_render = [
            (subject, documents)
            for subject, documents in scope.issue
            if force or not assembler.as_issued(subject, documents, records[subject])
        ]
        rendered = render_packets(
            loaded,
            stage,
            staging,
            to_render,
            workers or default_workers(),
            progress,
            as_of=as_of,
            templates=templates,  # taken once, above: the manifest's and every record's
        )
        problems = [p for document in rendered for p in document.problems]
        issued = portable_report(report, doc_findings(loaded, problems, kind.head(loaded.facts)[0]))
        scope.refuse_on(issued, stage_of_refusal="documents")
        assembler.carry_history()
        rendered_now = {subject for subject, _ in to_render}
        for subject, _ in scope.issue:
            if subject not in rendered_now:
                assembler.kept_packet(subject, unchanged=True)
                continue
            documents = [d for d in rendered if d.subject == subject]
            assembler.rendered_packet(subject, documents, records[subject], forced=force)
        for subject in assembler.before_packets:
            if subject in records:
                continue
            if scope.keeps(subject):
                assembler.kept_packet(subject)
            else:
                assembler.withdrawn_packet(subject)
        assembly = assembler.result
        held_changed = previous is not None and held != previous.get("held", [])
        # An altered check report is put right by a re-issue too (and kept, as altered).
        reports_altered = any(name in REPORTS for name in assembler.damaged)
        if previous is not None and not (assembly.changes or held_changed or reports_altered):
            shutil.rmtree(staging, ignore_errors=True)
            result.rendered_again = True
            return _as_current(result, previous, scope)
        superseded = list(previous.get("superseded", [])) if previous else []
        if previous is not None:
            assembler.previous_record()
            superseded.append(assembler.superseded_entry(held_changed))
        assembly.packets.sort(key=scope.order)
        manifest = _write_record(
            loaded, staging, issued, scope, as_of, cycle, held, assembly, superseded, templates
        )
        for name in os_files(stage_dir) if previous is not None else []:
            if not (staging / name).exists():
                assembler.keep(name)  # an operating system's file goes where it was
        kept_note = publish_stage(staging, stage_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    result.report = issued
    result.reissue = assembler.n
    result.changes, result.unchanged = assembly.changes, assembly.unchanged
    result.notes += [kept_note] if kept_note else []
    return _counted(result, manifest, scope)


def _nothing_to_do(
    previous: dict[str, Any],
    stage_dir: Path,
    scope: Scope,
    records: dict[str, dict[str, Any]],
    held: list[dict[str, Any]],
) -> bool:
    """The stage folder already holds what this batch would issue: every packet as issued (the
    same inputs and documents, its files intact), nothing to withdraw, the same packets held,
    and the check report as written."""
    damaged = dict(compare_hashes(stage_dir, previous))
    before = {p["subject"]: p for p in previous["packets"]}
    if not all(
        as_issued(before.get(subject), documents, records[subject], damaged)
        for subject, documents in scope.issue
    ):
        return False
    if any(subject not in records and not scope.keeps(subject) for subject in before):
        return False
    return held == previous.get("held", []) and not any(name in REPORTS for name in damaged)


def _as_current(result: BatchResult, previous: dict[str, Any], scope: Scope) -> BatchResult:
    result.current = True
    result.reissue = len(previous.get("superseded", []))
    result.held = previous.get("held", [])
    result.warnings = [w for w in result.report.warnings if not scope.set_aside_subject(w.subject)]
    return _counted(result, previous, scope)


def _counted(result: BatchResult, manifest: dict[str, Any], scope: Scope) -> BatchResult:
    result.packets = len(manifest["packets"])
    result.documents = sum(len(p["documents"]) for p in manifest["packets"])
    result.files = len(manifest["files"]) + 1
    if not result.current:
        result.warnings = [
            w for w in result.report.warnings if not scope.set_aside_subject(w.subject)
        ]
    return result


def _write_record(
    loaded: LoadedFacts,
    staging: Path,
    issued: Report,
    scope: Scope,
    as_of: date,
    cycle: str,
    held: list[dict[str, Any]],
    assembly: Assembly,
    superseded: list[dict[str, Any]],
    templates: str,
) -> dict[str, Any]:
    """The check report as issued (JSON and HTML) and the manifest, written into staging."""
    packets = assembly.packets
    set_aside = scope.set_aside_with_errors(issued)
    report_json = issued.to_json_dict()
    if set_aside:
        report_json["not_issued"] = set_aside
    files = dict(assembly.files)
    files["check-report.json"] = write_file(
        staging / "check-report.json", dumps(report_json), sync=False
    )
    files["check-report.html"] = write_file(
        staging / "check-report.html",
        render_report_html(issued, clause_wording(loaded, issued), set_aside).encode("utf-8"),
        sync=False,
    )
    manifest = {
        "manifest_format": MANIFEST_FORMAT,
        "docgen_version": __version__,
        "templates_sha256": templates,
        "templates_dir": template_overrides(loaded),
        "kind": loaded.facts.kind,
        "cycle": cycle,
        "stage": scope.stage,
        "as_of": as_of.isoformat(),
        "reissue": len(superseded),
        "facts": {"file": Path(loaded.source.file).name, "sha256": loaded.sha256},
        "clause_approvals": clause_approvals(issued),
        "summary": {
            **issued.summary,
            "packets": len(packets),
            "documents": sum(len(p["documents"]) for p in packets),
            "held": len(held),
        },
        "warnings": [
            f.to_json_dict() for f in issued.warnings if not scope.set_aside_subject(f.subject)
        ],
        "held": held,
        "packets": packets,
        "superseded": superseded,
        "files": files,
    }
    write_file(staging / MANIFEST_NAME, dumps(manifest), sync=False)
    return manifest
