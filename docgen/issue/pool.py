"""Rendering a batch's packets over a process pool: each document rendered, read back, checked by
the DOC-* rules and written into the staging folder.

Workers never outlive their batch: each asks the kernel to kill it when the batch dies (Linux
PR_SET_PDEATHSIG) and watches its parent's pid besides, it closes its inherited copy of the
output folder's lock (so only the batch itself holds it, and the kernel frees it when the batch
dies), and it leaves Ctrl-C and SIGTERM to the batch, which stops its workers and cleans up.

Test-only hook: ``DOCGEN_TEST_PAUSE_AFTER=N`` makes a batch print a line to stderr and sleep
(``DOCGEN_TEST_PAUSE_SECONDS``, default 60) once N packets are rendered, so a test can kill it
at a known point. It changes nothing else and is not for production use.
"""

from __future__ import annotations

import ctypes
import hashlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Iterable
from concurrent.futures import FIRST_EXCEPTION, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass
from datetime import date
from pathlib import Path
from typing import Any, Protocol

from docgen.core.collector import frozen_for_workers
from docgen.core.documents import ISSUED_FORMATS
from docgen.core.errors import RenderError
from docgen.issue.docrules import DocProblem, check_rendered
from docgen.issue.files import close_inherited_locks, write_file
from docgen.issue.record import files_to_embed
from docgen.issue.signing import Signing
from docgen.kinds import kind_of
from docgen.load import LoadedFacts
from docgen.render.copy import Copy, resolve
from docgen.render.docx import prepare as prepare_docx
from docgen.render.field_font import prepare as prepare_field_font
from docgen.render.pdf import EmbeddedFile
from docgen.render.pdf import prepare as prepare_pdf
from docgen.render.readback import prepare as prepare_readback

PAUSE_AFTER_ENV = "DOCGEN_TEST_PAUSE_AFTER"
PAUSE_SECONDS_ENV = "DOCGEN_TEST_PAUSE_SECONDS"


class ProgressSink(Protocol):
    """What the command line shows while packets render."""

    def start(self, total: int) -> None: ...

    def advance(self, subject: str) -> None: ...


def default_workers() -> int:
    return max(1, min(2, os.cpu_count() or 1))


@dataclass(frozen=True)
class RenderedDocument:
    """One document of one packet, as written into the staging folder."""

    subject: str
    name: str
    files: dict[str, str]  # format -> path relative to the cycle folder
    entries: dict[str, dict[str, Any]]  # path -> {sha256, bytes}
    key_facts: list[str]
    problems: list[DocProblem]
    return_part: dict[str, Any] | None = None  # DOC-RETURN-PAGE's part, for `docgen verify`


def render_and_read_back(
    loaded: LoadedFacts,
    doc: str,
    subject: str,
    stage: str,
    formats: Iterable[str] = ISSUED_FORMATS,
    *,
    as_of: date,
    templates: str | None = None,
) -> tuple[str, dict[str, bytes], list[str], list[DocProblem]]:
    """Render one document to each format as issued on ``as_of``, read each back, and apply the
    DOC-* rules: (its HTML, each format's bytes, its key facts, the problems found)."""
    copy = resolve(loaded, doc, subject, stage, as_of)
    outputs, problems = render_copy(copy, formats, templates)
    return copy.html, outputs, list(copy.key_facts), problems


def render_copy(
    copy: Copy, formats: Iterable[str] = ISSUED_FORMATS, templates: str | None = None
) -> tuple[dict[str, bytes], list[DocProblem]]:
    """One copy in each format (a PDF that is not a fillable form carries its record, with
    ``templates`` as its templates' digest when given), read back and checked by the DOC-*
    rules. With neither PDF nor DOCX (render --to html), the rules read the HTML's own text."""
    outputs: dict[str, bytes] = {}
    for fmt in formats:
        embedded: tuple[EmbeddedFile, ...] = ()
        if fmt == "pdf":
            assert copy.as_of is not None  # an issued PDF is dated the day it is issued
            name, subject, stage, as_of = copy.name, copy.subject_id, copy.stage, copy.as_of
            embedded = files_to_embed(
                copy.loaded, name, subject, stage, as_of, copy.meta, copy.html, templates
            )
        outputs[fmt] = copy.in_format(fmt, embedded)
    problems = check_rendered(copy, pdf=outputs.get("pdf"), docx=outputs.get("docx"))
    return outputs, problems


_WORKER: dict[str, Any] = {}
_PR_SET_PDEATHSIG = 1
WATCH_PARENT_SECONDS = 0.5


def _prepare(loaded: LoadedFacts) -> None:
    """The renderers imported, the stylesheet parsed, its fonts configured and the DOCX template
    built: once per process."""
    prepare_pdf(loaded.templates_override)
    prepare_docx()
    prepare_readback()


def _orphaned() -> None:
    """A worker whose batch has died ends at once, as the prctl above would end it: SIGKILL to
    itself (nothing of its half-made packet is worth finishing, and the batch that would collect
    it is gone)."""
    os.kill(os.getpid(), signal.SIGKILL)


def _die_with(parent: int) -> None:
    """In a worker: be killed when the batch process ``parent`` dies, however it dies."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass

    def watch() -> None:  # elsewhere, and should the parent have died before the prctl
        while os.getppid() == parent:
            time.sleep(WATCH_PARENT_SECONDS)
        _orphaned()

    if os.getppid() != parent:
        _orphaned()
    threading.Thread(target=watch, name="docgen-parent-watch", daemon=True).start()


def _init_worker(
    loaded: LoadedFacts,
    stage: str,
    staging: str,
    as_of: date,
    parent: int,
    templates: str | None,
    signing: Signing | None = None,
) -> None:
    # The batch handles Ctrl-C and SIGTERM (it stops the workers and removes its staging folder).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    close_inherited_locks()
    _die_with(parent)
    become_worker(loaded, stage, staging, as_of, templates, signing)


def become_worker(
    loaded: LoadedFacts,
    stage: str,
    staging: str,
    as_of: date,
    templates: str | None,
    signing: Signing | None = None,
) -> None:
    """What a worker holds to render packets, set up in this process (a worker, once it is
    tied to its batch)."""
    _WORKER.update(
        loaded=loaded,
        stage=stage,
        staging=Path(staging),
        as_of=as_of,
        templates=templates,
        signing=signing,
    )
    _prepare(loaded)  # done already where the worker forked from; not where it was spawned


def _render_packet(subject: str, documents: list[str]) -> list[RenderedDocument]:
    """In a worker: every document of one packet, rendered, read back and written to staging."""
    loaded, stage, staging = _WORKER["loaded"], _WORKER["stage"], _WORKER["staging"]
    as_of = _WORKER["as_of"]
    folder = staging / subject
    folder.mkdir(exist_ok=True)
    rendered = []
    for doc in documents:
        copy = resolve(loaded, doc, subject, stage, as_of)
        outputs, problems = render_copy(copy, templates=_WORKER["templates"])
        files, entries = {}, {}
        for fmt in ISSUED_FORMATS:
            relative = f"{subject}/{doc}.{fmt}"
            entries[relative] = _written(staging / relative, outputs[fmt], fmt, copy)
            files[fmt] = relative
        part = copy.return_part
        recorded = asdict(part) if part is not None else None
        facts_wanted = list(copy.key_facts)
        rendered.append(
            RenderedDocument(subject, doc, files, entries, facts_wanted, problems, recorded)
        )
    return rendered


def _written(path: Path, data: bytes, fmt: str, copy: Copy) -> dict[str, Any]:
    """One file of a document written to staging: a PDF certified with the company's key when
    the batch signs (its entry then also records the document as made, unsigned)."""
    signing: Signing | None = _WORKER.get("signing")
    if signing is None or fmt != "pdf":
        return write_file(path, data, sync=False)
    entry = write_file(path, signing.sign_pdf(data, fillable=copy.meta.fillable), sync=False)
    entry["unsigned"] = {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
    return entry


def packets_of(loaded: LoadedFacts, stage: str) -> list[tuple[str, list[str]]]:
    """Each subject with the documents the stage issues them, as their kind says
    (``Kind.packets``)."""
    return kind_of(loaded.facts).packets(loaded.facts, stage)


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
    *,
    as_of: date,
    templates: str | None = None,
    signing: Signing | None = None,
) -> list[RenderedDocument]:
    """Render every packet over a process pool (workers fork from here, sharing loaded modules).

    The pool's unit is the packet; with fewer packets than workers (a correction re-issues one)
    it is the document, so that the workers share even a single packet's documents."""
    if not packets:
        return []
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    tasks = packets
    if len(packets) < workers:
        tasks = [(subject, [doc]) for subject, docs in packets for doc in docs]
    workers = max(1, min(workers, len(tasks)))
    rendered: dict[tuple[str, str], RenderedDocument] = {}
    waiting = {subject: len(docs) for subject, docs in packets}  # documents still rendering
    _prepare(loaded)  # here, so that every worker forks with it done
    subject, documents = tasks[0]
    if resolve(loaded, documents[0], subject, stage, as_of).meta.fillable:
        prepare_field_font()  # a form's field font, read once here rather than in each worker
    if signing is not None:
        signing.prepare()
    before = set(multiprocessing.active_children())
    with (
        frozen_for_workers(),  # what the workers inherit, never scanned (docgen.core.collector)
        ProcessPoolExecutor(
            max_workers=workers,
            mp_context=context,
            initializer=_init_worker,
            initargs=(loaded, stage, str(staging), as_of, os.getpid(), templates, signing),
        ) as pool,
    ):
        pending = {pool.submit(_render_packet, subject, docs): subject for subject, docs in tasks}
        if progress:
            progress.start(len(packets))
        done_count = 0
        try:
            while pending:
                done, _ = wait(pending, return_when=FIRST_EXCEPTION)
                for future in done:
                    subject = pending.pop(future)
                    for document in future.result():
                        rendered[subject, document.name] = document
                        waiting[subject] -= 1
                    if waiting[subject]:
                        continue
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
            # Interrupted (Ctrl-C, SIGTERM) or failed: stop the workers now rather than let them
            # finish packets nobody will publish.
            pool.shutdown(wait=False, cancel_futures=True)
            for process in set(multiprocessing.active_children()) - before:
                process.kill()
            raise
    return [rendered[subject, doc] for subject, docs in packets for doc in docs]
