"""Issuing documents: one (`docgen render`) or a whole cycle's packets (`docgen batch`), atomically.

The order is the design's pipeline: load, check (any error finding: nothing is written), render
every packet over a process pool, read each document back and apply the DOC-* rules (any DOC
error: nothing is written), then publish. Publishing is atomic: everything is written into a
staging folder beside the target (``OUT/.<cycle>.staging-<random>``), fsynced, and renamed to
``OUT/<cycle>`` as the last step, so an interrupted batch leaves the old complete cycle folder or
the new complete one, never a mixture. Stale staging folders are removed by the next run.

The same facts give byte-identical output: no clock time and no absolute path enters a file,
and JSON is written with sorted keys.

Test-only hook: ``DOCGEN_TEST_PAUSE_AFTER=N`` makes a batch print a line to stderr and sleep
(``DOCGEN_TEST_PAUSE_SECONDS``, default 60) once N packets are rendered, so a test can kill it
at a known point. It changes nothing else and is not for production use.
"""

from __future__ import annotations

import ctypes
import dataclasses
import errno
import fcntl
import hashlib
import json
import multiprocessing
import os
import secrets
import shutil
import sys
import time
from collections.abc import Iterable
from concurrent.futures import FIRST_EXCEPTION, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from docgen import __version__
from docgen.errors import DocgenError, IssueRefused, RenderError
from docgen.verify import (
    MANIFEST_FORMAT,
    MANIFEST_NAME,
    DocProblem,
    NotAnIssuedFolder,
    check_rendered,
    compare_hashes,
    read_manifest,
)

if TYPE_CHECKING:
    from docgen.facts import Facts
    from docgen.findings import Finding, Report
    from docgen.loader import LoadedFacts

FORMATS = ("pdf", "docx")
STAGING = ".staging-"
ASIDE = ".replaced-"
PAUSE_AFTER_ENV = "DOCGEN_TEST_PAUSE_AFTER"
PAUSE_SECONDS_ENV = "DOCGEN_TEST_PAUSE_SECONDS"


class IssueRefusedByFindings(IssueRefused):
    """Issuance refused: the checker (or a DOC-* rule on the rendered text) found errors. Exit 1."""

    def __init__(self, report: Report, stage_of_refusal: str = "check"):
        self.report = report
        self.stage_of_refusal = stage_of_refusal
        errors = len(report.errors)
        what = "the checker" if stage_of_refusal == "check" else "the rendered documents"
        super().__init__(
            f"Refused: {what} found {errors} error{'s' if errors != 1 else ''}; "
            "nothing was written."
        )


class BadRequest(DocgenError):
    """A request docgen cannot carry out as asked (an unknown document or subject). Exit code 2."""


class ProgressSink(Protocol):
    """What the command line shows while packets render."""

    def start(self, total: int) -> None: ...

    def advance(self, subject: str) -> None: ...


def default_workers() -> int:
    return max(1, min(2, os.cpu_count() or 1))


def cycle_name(facts: Facts) -> str:
    """The issued folder's name: the grant id, or ``rrp-<plan year>``."""
    if facts.kind == "director-rsu-grant":
        return facts.grant.id
    return f"rrp-{facts.plan_year}"


def templates_sha256() -> str:
    """One digest over every template file, so an edited template makes an issued folder stale."""
    from docgen.resources import templates_dir

    root = templates_dir()
    digest = hashlib.sha256()
    if root.is_dir():
        for path in sorted(
            p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts
        ):
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


# ------------------------------------------------------------------------------ file writing


def write_file(path: Path, data: bytes, *, sync: bool = True) -> dict[str, Any]:
    """Write ``data`` to a new file (fsynced unless the caller syncs the whole tree later);
    return its manifest entry."""
    with open(path, "wb") as handle:
        handle.write(data)
        if sync:
            handle.flush()
            os.fsync(handle.fileno())
    return {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}


def sync_tree(root: Path) -> None:
    """Flush a staging folder to disk before it is published.

    One syncfs(2) of the folder's filesystem replaces an fsync per file (hundreds of them in a
    batch); where syncfs is unavailable, every file and folder is fsynced.
    """
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        if sys.platform.startswith("linux"):
            try:
                if ctypes.CDLL(None, use_errno=True).syncfs(fd) == 0:
                    return
            except (OSError, AttributeError):
                pass
    finally:
        os.close(fd)
    for path in sorted(root.rglob("*")):
        if path.is_file():
            with open(path, "rb") as handle:
                os.fsync(handle.fileno())
        else:
            fsync_dir(path)
    fsync_dir(root)


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_file_atomically(target: Path, data: bytes) -> None:
    """`docgen render -o PATH`: a temporary file beside the target, fsynced, renamed over it."""
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.parent / f".{target.name}{STAGING}{secrets.token_hex(4)}"
    try:
        write_file(temporary, data)
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)
    fsync_dir(target.parent)


_RENAME_EXCHANGE = 2


def _exchange(a: Path, b: Path) -> bool:
    """Swap two folders in one step (Linux renameat2 RENAME_EXCHANGE); False where unsupported."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd = -100
    result = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), _RENAME_EXCHANGE)
    if result == 0:
        return True
    if ctypes.get_errno() in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False
    raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()), str(a))


def publish(staging: Path, target: Path) -> None:
    """Make the complete staging folder the cycle folder, replacing any earlier one atomically."""
    if target.exists():
        if not _exchange(staging, target):
            # Two renames: between them there is no cycle folder at all, never a partial one.
            aside = target.parent / f".{target.name}{ASIDE}{secrets.token_hex(4)}"
            os.rename(target, aside)
            os.rename(staging, target)
            staging = aside
        fsync_dir(target.parent)
        shutil.rmtree(staging, ignore_errors=True)
    else:
        os.rename(staging, target)
    fsync_dir(target.parent)


def remove_stale(out: Path, cycle: str) -> list[Path]:
    """Staging or set-aside folders an interrupted run of this cycle left behind."""
    removed = []
    for path in sorted(out.glob(f".{cycle}.*")):
        rest = path.name[len(cycle) + 1 :]
        if path.is_dir() and (rest.startswith(STAGING) or rest.startswith(ASIDE)):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


class _OutLock:
    """An exclusive lock on OUT, so two batches never publish into the same folder at once."""

    def __init__(self, out: Path):
        self.out = out
        self.fd: int | None = None

    def __enter__(self) -> _OutLock:
        self.fd = os.open(self.out, os.O_RDONLY | os.O_DIRECTORY)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self.fd)
            raise BadRequest(
                f"{self.out}: another docgen batch is writing into this folder; "
                "wait for it to finish, or choose another --out."
            ) from None
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)


# ------------------------------------------------------------------------------ rendering


@dataclass(frozen=True)
class RenderedDocument:
    """One document of one packet, as written into the staging folder."""

    subject: str
    name: str
    files: dict[str, str]  # format -> path relative to the cycle folder
    entries: dict[str, dict[str, Any]]  # path -> {sha256, bytes}
    key_facts: list[str]
    problems: list[DocProblem]


def render_and_read_back(
    loaded: LoadedFacts, doc: str, subject: str, stage: str, formats: Iterable[str] = FORMATS
) -> tuple[str, dict[str, bytes], list[str], list[DocProblem]]:
    """Render one document to each format, read each back, and apply the DOC-* rules."""
    from docgen import render
    from docgen.docx_writer import html_to_docx

    html = render.render_html(loaded, doc, subject, stage)
    meta = render.document_meta(loaded, doc, subject, stage)
    facts_wanted = [str(fact) for fact in render.key_facts(loaded, doc, subject, stage)]
    outputs: dict[str, bytes] = {}
    for fmt in formats:
        if fmt == "pdf":
            outputs["pdf"] = render.html_to_pdf(html, meta)
        elif fmt == "docx":
            outputs["docx"] = html_to_docx(html, meta)
        elif fmt == "html":
            outputs["html"] = html.encode("utf-8")
    # With neither PDF nor DOCX (render --to html), the rules read the HTML's own text.
    problems = check_rendered(
        subject,
        doc,
        pdf=outputs.get("pdf"),
        docx=outputs.get("docx"),
        key_facts=facts_wanted,
        html=html,
        approved_by=getattr(loaded.facts, "drafted_clauses_approved_by", None),
    )
    return html, outputs, facts_wanted, problems


_WORKER: dict[str, Any] = {}


def _init_worker(loaded: LoadedFacts, stage: str, staging: str) -> None:
    _WORKER.update(loaded=loaded, stage=stage, staging=Path(staging))


def _render_packet(subject: str, documents: list[str]) -> list[RenderedDocument]:
    """In a worker: every document of one packet, rendered, read back and written to staging."""
    loaded, stage, staging = _WORKER["loaded"], _WORKER["stage"], _WORKER["staging"]
    folder = staging / subject
    folder.mkdir(exist_ok=True)
    rendered = []
    for doc in documents:
        _, outputs, facts_wanted, problems = render_and_read_back(loaded, doc, subject, stage)
        files, entries = {}, {}
        for fmt in FORMATS:
            relative = f"{subject}/{doc}.{fmt}"
            entries[relative] = write_file(staging / relative, outputs[fmt], sync=False)
            files[fmt] = relative
        rendered.append(RenderedDocument(subject, doc, files, entries, facts_wanted, problems))
    return rendered


def packets_of(loaded: LoadedFacts, stage: str) -> list[tuple[str, list[str]]]:
    """Each subject with its documents, in the order `documents_for` gives them."""
    from docgen.render import documents_for

    packets: dict[str, list[str]] = {}
    for subject, doc in documents_for(loaded.facts, stage):
        packets.setdefault(subject, []).append(doc)
    return list(packets.items())


def _pause_hook(done: int) -> None:
    if os.environ.get(PAUSE_AFTER_ENV) == str(done):
        print(f"test hook: paused after packet {done}", file=sys.stderr, flush=True)
        time.sleep(float(os.environ.get(PAUSE_SECONDS_ENV, "60")))


def render_packets(
    loaded: LoadedFacts,
    stage: str,
    staging: Path,
    packets: list[tuple[str, list[str]]],
    workers: int,
    progress: ProgressSink | None = None,
) -> list[RenderedDocument]:
    """Render every packet over a process pool (workers fork from here, sharing loaded modules)."""
    if not packets:
        return []
    import docgen.docx_writer  # noqa: F401  (imported once here; forked workers inherit them)
    import docgen.render  # noqa: F401

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    results: dict[str, list[RenderedDocument]] = {}
    workers = max(1, min(workers, len(packets) or 1))
    with ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=_init_worker,
        initargs=(loaded, stage, str(staging)),
    ) as pool:
        pending = {pool.submit(_render_packet, subject, docs): subject for subject, docs in packets}
        if progress:
            progress.start(len(packets))
        done_count = 0
        try:
            while pending:
                done, _ = wait(pending, return_when=FIRST_EXCEPTION)
                for future in done:
                    subject = pending.pop(future)
                    results[subject] = future.result()
                    done_count += 1
                    if progress:
                        progress.advance(subject)
                    _pause_hook(done_count)
        except BrokenProcessPool as error:
            raise RenderError(
                "a worker process died while rendering (out of memory, or killed); nothing was "
                "written. Run the batch again, with --workers 1 if memory is short."
            ) from error
        except BaseException:
            for future in pending:
                future.cancel()
            raise
    return [document for subject, _ in packets for document in results[subject]]


# ------------------------------------------------------------------------------ findings


def _doc_findings(loaded: LoadedFacts, problems: list[DocProblem], head: str) -> list[Finding]:
    """DOC-* problems as checker findings. DOC-DRAFTED-CLAUSE is one warning per document name,
    not one per director: the same drafted clauses sit in every copy."""
    from docgen.checker import get_rule

    findings = []
    drafted: dict[str, list[str]] = {}
    for problem in problems:
        if problem.rule == "DOC-DRAFTED-CLAUSE":
            drafted.setdefault(problem.document, []).append(problem.subject)
            continue
        findings.append(
            get_rule(problem.rule).finding(
                problem.subject, f"{problem.subject}/{problem.document}", problem.message
            )
        )
    for document, subjects in drafted.items():
        count = len(subjects)
        # The fact that clears this warning is drafted_clauses_approved_by: point at it.
        file, line = loaded.source.locate(("drafted_clauses_approved_by",))
        remedy = "Have counsel review the drafted clauses (marked in the DOCX), then " + (
            "set drafted_clauses_approved_by in the facts file."
            if "drafted_clauses_approved_by" in type(loaded.facts).model_fields
            else f"record the approval; a {loaded.facts.kind} file has no "
            "drafted_clauses_approved_by field yet."
        )
        findings.append(
            get_rule("DOC-DRAFTED-CLAUSE").finding(
                head,
                "drafted_clauses_approved_by",
                f"{document} ({count} cop{'ies' if count != 1 else 'y'}) carries clauses docgen "
                "drafted for gaps in the source form, not yet approved by counsel",
                remedy=remedy,
                file=file,
                line=line,
            )
        )
    return findings


def portable_report(report: Report, extra: Iterable[Finding] = ()) -> Report:
    """The report as issued: file names without folders (no absolute path in an issued file)."""
    from docgen.findings import Report

    def base(name: str) -> str:
        return Path(name).name if name else name

    findings = [dataclasses.replace(f, file=base(f.file)) for f in (*report.findings, *extra)]
    facts = dataclasses.replace(report.facts, file=base(report.facts.file))
    return Report.build(facts, report.as_of, report.stage, findings, report.subjects, report.names)


def dumps(data: Any) -> bytes:
    return (json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


# ------------------------------------------------------------------------------ the batch


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
        "templates_sha256": templates_sha256(),
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
        )
    return {
        "manifest_format": MANIFEST_FORMAT,
        "docgen_version": __version__,
        "templates_sha256": templates_sha256(),
        "kind": loaded.facts.kind,
        "cycle": cycle,
        "stage": stage,
        "as_of": as_of.isoformat(),
        "facts": {"file": Path(loaded.source.file).name, "sha256": loaded.sha256},
        "drafted_clauses_approved_by": getattr(loaded.facts, "drafted_clauses_approved_by", None),
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
    from docgen.checker import resolve_stage, run_checks
    from docgen.loader import load_facts

    loaded = load_facts(facts_path)
    stage = resolve_stage(loaded.facts.kind, stage)  # grant cycle: grant; RRP: enrollment
    report = run_checks(loaded, as_of, stage)
    if report.errors:
        raise IssueRefusedByFindings(portable_report(report))
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise BadRequest(
            f"--out {out}: is a file, not a folder. Name a folder for the issued packets."
        )
    cycle = cycle_name(loaded.facts)
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
    from docgen.checker import get_rule

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
    from docgen.checker import subjects_of

    with _OutLock(out):
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
        staging = out / f".{cycle}{STAGING}{secrets.token_hex(4)}"
        staging.mkdir()
        try:
            rendered = render_packets(
                loaded, stage, staging, packets, workers or default_workers(), progress
            )
            head = subjects_of(loaded.facts)[0][0]
            problems = [p for document in rendered for p in document.problems]
            issued = portable_report(report, _doc_findings(loaded, problems, head))
            if issued.errors:
                raise IssueRefusedByFindings(issued, stage_of_refusal="documents")
            report_entries = {
                "check-report.json": write_file(
                    staging / "check-report.json", dumps(issued.to_json_dict()), sync=False
                ),
                "check-report.html": write_file(
                    staging / "check-report.html", issued.to_html().encode("utf-8"), sync=False
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


# ------------------------------------------------------------------------------ one document


@dataclass
class RenderResult:
    path: Path
    document: str
    subject: str
    fmt: str
    bytes: int
    warnings: list[Finding]


def render_one(
    facts_path: str | Path,
    doc: str,
    subject: str,
    fmt: str,
    output: str | Path,
    *,
    stage: str | None = None,
    as_of: date,
) -> RenderResult:
    """`docgen render`: one document, after the same checks as a batch, written atomically.

    Refuses (exit 1, nothing written) on any error finding in the facts file, as `batch` does:
    a single document must not escape the review its packet would get. A PDF or DOCX is
    cross-checked against the other format (DOC-FORMAT-MISMATCH), so both are rendered.
    """
    from docgen.checker import run_checks, subjects_of
    from docgen.loader import load_facts
    from docgen.render import DOCUMENTS, documents_for

    if fmt not in ("pdf", "docx", "html"):
        raise BadRequest(f"--to {fmt}: expected pdf, docx or html.")
    from docgen.checker import resolve_stage

    loaded = load_facts(facts_path)
    stage = resolve_stage(loaded.facts.kind, stage)
    if doc not in DOCUMENTS:
        raise BadRequest(
            f"--doc {doc}: no such document. Documents: {', '.join(sorted(DOCUMENTS))}."
        )
    subjects, _ = subjects_of(loaded.facts)
    if subject not in subjects[1:]:
        raise BadRequest(
            f"--for {subject}: no director or participant with that id in {loaded.source.file}. "
            f"Ids: {', '.join(subjects[1:]) or '(none)'}."
        )
    issued_to_subject = [d for s, d in documents_for(loaded.facts, stage) if s == subject]
    if doc not in issued_to_subject:
        raise BadRequest(
            f"--doc {doc} --for {subject}: docgen does not issue this document to {subject} "
            f"at stage {stage}; at that stage {subject} gets: "
            f"{', '.join(issued_to_subject) or 'no documents'}."
        )
    report = run_checks(loaded, as_of, stage)
    if report.errors:
        raise IssueRefusedByFindings(portable_report(report))
    formats = ("html",) if fmt == "html" else FORMATS
    _, outputs, _, problems = render_and_read_back(loaded, doc, subject, stage, formats)
    head = subjects[0]
    issued = portable_report(report, _doc_findings(loaded, problems, head))
    if issued.errors:
        raise IssueRefusedByFindings(issued, stage_of_refusal="documents")
    data = outputs[fmt]
    output = Path(output)
    write_file_atomically(output, data)
    return RenderResult(output, doc, subject, fmt, len(data), list(issued.warnings))
