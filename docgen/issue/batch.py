"""`docgen batch`: a whole cycle's packets, issued atomically.

The order is the design's pipeline: load, check (any error finding: nothing is written), render
every packet over a process pool, read each document back and apply the DOC-* rules (any DOC
error: nothing is written), then publish. Publishing is atomic: everything is written into a
staging folder beside the target (``OUT/.<cycle>.staging-<random>``), synced, and swapped into
``OUT/<cycle>`` as the last step, so an interrupted batch leaves the old complete cycle folder or
the new complete one, never a mixture. Stale staging folders are removed by the next run.

The same facts give byte-identical output: no clock time and no absolute path enters a file,
and JSON is written with sorted keys.
"""

from __future__ import annotations

import secrets
import shutil
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from docgen import __version__
from docgen.check.clause_wording import clause_wording
from docgen.check.report_html import render_report_html
from docgen.check.rules import get_rule
from docgen.check.runner import resolve_stage, run_checks, subjects_of
from docgen.core.errors import DocgenError
from docgen.core.findings import Finding, Report
from docgen.issue.files import (
    STAGING,
    BadRequest,
    OutLock,
    publish,
    remove_stale,
    sync_tree,
    write_file,
)
from docgen.issue.pool import (
    ProgressSink,
    RenderedDocument,
    default_workers,
    packets_of,
    render_packets,
)
from docgen.issue.reports import (
    IssueRefusedByFindings,
    clause_approvals,
    doc_findings,
    dumps,
    portable_report,
    template_overrides,
    templates_sha256,
)
from docgen.issue.verify import (
    MANIFEST_FORMAT,
    MANIFEST_NAME,
    NotAnIssuedFolder,
    compare_hashes,
    read_manifest,
)
from docgen.kinds import kind_of
from docgen.load import LoadedFacts, load_facts
from docgen.render.overrides import compile_templates


@dataclass
class BatchResult:
    """What a batch did: where, how much, and the warnings recorded."""

    folder: Path
    cycle: str
    report: Report
    packets: int = 0
    documents: int = 0
    files: int = 0
    warnings: list[Finding] = field(default_factory=list)
    current: bool = False  # the folder was already current: nothing re-rendered
    removed_stale: list[Path] = field(default_factory=list)


def manifest_is_current(target: Path, loaded: LoadedFacts, stage: str, as_of: date) -> bool:
    """True when ``target`` was issued from these facts, at this stage and date, by this docgen
    with these templates, and not one of its files has changed since."""
    try:
        manifest = read_manifest(target)
    except NotAnIssuedFolder:
        return False
    expected = {
        "docgen_version": __version__,
        "templates_sha256": templates_sha256(loaded.templates_override),
        "stage": stage,
        "as_of": as_of.isoformat(),
    }
    if any(manifest.get(key) != value for key, value in expected.items()):
        return False
    if (manifest.get("facts") or {}).get("sha256") != loaded.sha256:
        return False
    return not compare_hashes(target, manifest)


def build_manifest(
    loaded: LoadedFacts,
    cycle: str,
    stage: str,
    as_of: date,
    rendered: list[RenderedDocument],
    report: Report,
    report_entries: dict[str, dict[str, Any]],
) -> dict[str, Any]:
    files: dict[str, dict[str, Any]] = dict(report_entries)
    packets: dict[str, list[dict[str, Any]]] = {}
    for document in rendered:
        files.update(document.entries)
        packets.setdefault(document.subject, []).append(
            {"name": document.name, "files": document.files, "key_facts": document.key_facts}
            | ({"return_part": document.return_part} if document.return_part else {})
        )
    return {
        "manifest_format": MANIFEST_FORMAT,
        "docgen_version": __version__,
        "templates_sha256": templates_sha256(loaded.templates_override),
        "templates_dir": template_overrides(loaded),
        "kind": loaded.facts.kind,
        "cycle": cycle,
        "stage": stage,
        "as_of": as_of.isoformat(),
        "facts": {"file": Path(loaded.source.file).name, "sha256": loaded.sha256},
        "clause_approvals": clause_approvals(report),
        "summary": {**report.summary, "packets": len(packets), "documents": len(rendered)},
        "warnings": [f.to_json_dict() for f in report.warnings],
        "packets": [{"subject": subject, "documents": docs} for subject, docs in packets.items()],
        "files": files,
    }


def issue_batch(
    facts_path: str | Path,
    out: str | Path,
    *,
    stage: str | None = None,
    as_of: date,
    workers: int | None = None,
    force: bool = False,
    progress: ProgressSink | None = None,
) -> BatchResult:
    """`docgen batch`: check, render every packet, read back, publish the cycle folder atomically.

    Raises LoadError (exit 2) for a facts file that cannot be understood and
    IssueRefusedByFindings (exit 1) for error findings; in both cases nothing is written.
    """
    loaded = load_facts(facts_path)
    stage = resolve_stage(loaded.facts, stage)  # grant cycle: grant; RRP: enrollment
    report = run_checks(loaded, as_of, stage)
    if report.errors:
        raise IssueRefusedByFindings(portable_report(report))
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise BadRequest(
            f"--out {out}: is a file, not a folder. Name a folder for the issued packets."
        )
    cycle = kind_of(loaded.facts).cycle_name(loaded.facts)
    made_out = not out.exists()
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise BadRequest(
            f"--out {out}: cannot create the folder ({error.strerror}). "
            "Name a folder you can write to, such as out."
        ) from None
    target = out / cycle
    try:
        return _issue_into(
            loaded, report, out, target, cycle, stage, as_of, workers, force, progress
        )
    except BaseException:
        if made_out and not any(out.iterdir()):
            out.rmdir()  # refused or failed: leave no trace, not even an empty OUT
        raise


def _recorded_warnings(manifest: dict[str, Any]) -> list[Finding]:
    """The warnings an issued folder's manifest recorded, as findings to show again."""
    warnings = []
    for entry in manifest.get("warnings", []):
        try:
            rule = get_rule(entry["rule"])
        except (KeyError, DocgenError):
            continue
        warnings.append(
            rule.finding(
                entry.get("subject", ""),
                entry.get("path", ""),
                entry.get("message", ""),
                line=entry.get("line"),
            )
        )
    return warnings


def _issue_into(
    loaded: LoadedFacts,
    report: Report,
    out: Path,
    target: Path,
    cycle: str,
    stage: str,
    as_of: date,
    workers: int | None,
    force: bool,
    progress: ProgressSink | None,
) -> BatchResult:
    with OutLock(out):
        removed = remove_stale(out, cycle)
        if target.exists():
            # Replacing a folder deletes it: only ever one that docgen issued.
            try:
                read_manifest(target)
            except NotAnIssuedFolder:
                raise BadRequest(
                    f"{target}: exists and is not a folder docgen issued (no readable "
                    "manifest.json), so docgen will not replace it. Move it aside, or choose "
                    "another --out."
                ) from None
        if not force and manifest_is_current(target, loaded, stage, as_of):
            manifest = read_manifest(target)
            return BatchResult(
                folder=target,
                cycle=cycle,
                report=portable_report(report),
                packets=len(manifest["packets"]),
                documents=sum(len(p["documents"]) for p in manifest["packets"]),
                files=len(manifest["files"]) + 1,
                warnings=_recorded_warnings(manifest),
                current=True,
                removed_stale=removed,
            )
        packets = packets_of(loaded, stage)
        compile_templates(loaded.templates_override)  # a broken override: its file and line, now
        staging = out / f".{cycle}{STAGING}{secrets.token_hex(4)}"
        staging.mkdir()
        try:
            rendered = render_packets(
                loaded, stage, staging, packets, workers or default_workers(), progress, as_of=as_of
            )
            head = subjects_of(loaded.facts)[0][0]
            problems = [p for document in rendered for p in document.problems]
            issued = portable_report(report, doc_findings(loaded, problems, head))
            if issued.errors:
                raise IssueRefusedByFindings(issued, stage_of_refusal="documents")
            report_entries = {
                "check-report.json": write_file(
                    staging / "check-report.json", dumps(issued.to_json_dict()), sync=False
                ),
                "check-report.html": write_file(
                    staging / "check-report.html",
                    render_report_html(issued, clause_wording(loaded, issued)).encode("utf-8"),
                    sync=False,
                ),
            }
            manifest = build_manifest(loaded, cycle, stage, as_of, rendered, issued, report_entries)
            write_file(staging / MANIFEST_NAME, dumps(manifest), sync=False)
            sync_tree(staging)
            publish(staging, target)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    return BatchResult(
        folder=target,
        cycle=cycle,
        report=issued,
        packets=len(packets),
        documents=len(rendered),
        files=len(manifest["files"]) + 1,
        warnings=list(issued.warnings),
        removed_stale=removed,
    )
