"""`docgen section16`: each director's Form 4 draft for the grant (DESIGN.md, "After the grant"),
as EDGAR ownership XML with a readable PDF, written whole or not at all:

  OUT/<grant id>/section16/
    drafts-manifest.json          every file's SHA-256 and size, the facts' SHA-256, the due date
    <director>/form4.xml, form4.pdf

The folder is built beside its place and swapped in in one step (docgen.issue.files.swap_in),
under the same lock on OUT a batch takes, so a reader sees the old drafts or the new, never a
mixture. A fact a draft needs and the file does not give is a load error naming its file:line
and field, each one, and nothing is written. What the drafts are is the kind's
(``Kind.filing_drafts``, ``Kind.filing_draft_gaps``); this module only writes them.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from docgen.core.drafts import DRAFTS_MANIFEST, Drafts
from docgen.core.errors import LoadError, Problem
from docgen.core.output import refuse_overwriting
from docgen.issue.files import BadRequest, OutLock, remove_stale, swap_in, sync_tree, write_file
from docgen.issue.layout import STAGING, beside
from docgen.kinds import DraftsFilings, kind_of
from docgen.load import load_facts
from docgen.render.drafts import print_draft


@dataclass(frozen=True)
class Section16Result:
    folder: Path
    noun: str  # what each draft is ("Form 4")
    count: int  # drafts written, one per subject
    due_on: date | None
    files: dict[str, dict[str, Any]]  # relative path -> {sha256, bytes}
    notes: list[str]


def _missing_error(loaded: Any, gaps: list[Any]) -> LoadError:
    problems = []
    for item in gaps:
        file, line = loaded.source.locate(item.path)
        problems.append(
            Problem(str(file), line, item.path, f"missing: {item.what}", None, item.fix)
        )
    return LoadError(problems)


def _manifest(loaded: Any, cycle: str, drafts: Drafts, files: dict[str, Any], on: date) -> bytes:
    about = {k: v.isoformat() if isinstance(v, date) else v for k, v in drafts.about.items()}
    data = {
        **about,
        "docgen": drafts.folder,
        "cycle": cycle,
        "drafted_on": on.isoformat(),
        "facts_sha256": loaded.sha256,
        "due_on": drafts.due_on.isoformat() if drafts.due_on else None,
        "files": files,
    }
    return (json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()


def section16(facts_path: str | Path, out: str | Path, *, as_of: date) -> Section16Result:
    """Write every director's Form 4 draft for the grant in ``facts_path`` under ``out``."""
    loaded = load_facts(facts_path)
    facts = loaded.facts
    kind = kind_of(facts)
    if not isinstance(kind, DraftsFilings):
        raise BadRequest(
            f"{loaded.source.file}: a {kind.title.lower()} file has no Section 16 filings to "
            "draft; `docgen section16` drafts each director's Form 4 for a grant."
        )
    gaps = kind.filing_draft_gaps(facts)
    if gaps:
        raise _missing_error(loaded, gaps)
    drafts = kind.filing_drafts(facts, as_of)
    grant_date = drafts.about.get("grant_date")
    if isinstance(grant_date, date) and as_of < grant_date:
        raise BadRequest(
            f"--as-of {as_of} is before the grant date {grant_date}: a Form 4 "
            "reports a grant once it is made. Draft on or after the grant date."
        )
    out_dir = Path(out)
    if not out_dir.is_dir():
        raise BadRequest(f"{out_dir}: no such folder. Create it first, or choose another --out.")
    rendered = {}
    for subject in drafts.subjects:
        for name, data in subject.files.items():
            rendered[f"{subject.subject}/{name}"] = data
        for printed in subject.printed:
            rendered[f"{subject.subject}/{printed.name}"] = print_draft(printed, subject)
    cycle = kind.cycle_name(facts)
    cycle_dir = out_dir / cycle
    # The drafts folder is replaced whole: never where the facts or their files are.
    refuse_overwriting(cycle_dir / drafts.folder, "--out", loaded.inputs, folder=True)
    with OutLock(out_dir):
        cycle_dir.mkdir(exist_ok=True)
        notes = [
            f"Removed {path}, left by an interrupted run."
            for path in remove_stale(cycle_dir, drafts.folder)
        ]
        staging = beside(cycle_dir, drafts.folder, STAGING)
        staging.mkdir()
        try:
            files = {}
            for name, data in sorted(rendered.items()):
                (staging / name).parent.mkdir(exist_ok=True)
                files[name] = write_file(staging / name, data, sync=False)
            manifest = _manifest(loaded, cycle, drafts, files, as_of)
            write_file(staging / DRAFTS_MANIFEST, manifest, sync=False)
            sync_tree(staging)
            replaced = swap_in(staging, cycle_dir / drafts.folder)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        if replaced is not None:
            shutil.rmtree(replaced, ignore_errors=True)
    folder = cycle_dir / drafts.folder
    return Section16Result(folder, drafts.noun, len(drafts.subjects), drafts.due_on, files, notes)
