"""`docgen section16`: each director's Form 4 draft for the grant (DESIGN.md, "After the grant"),
as EDGAR ownership XML with a readable PDF, written whole or not at all:

  OUT/<grant id>/section16/
    manifest.json                 every file's SHA-256 and size, the facts' SHA-256, the due date
    <director>/form4.xml, form4.pdf

The folder is built beside its place and swapped in in one step (docgen.issue.files.swap_in),
under the same lock on OUT a batch takes, so a reader sees the old drafts or the new, never a
mixture. A fact a draft needs and the file does not give is a load error naming its file:line
and field, each one, and nothing is written.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from docgen.core.errors import LoadError, Problem
from docgen.issue.files import BadRequest, OutLock, remove_stale, swap_in, sync_tree, write_file
from docgen.issue.layout import MANIFEST_NAME, STAGING, beside
from docgen.kinds.director_rsu import NAME as DIRECTOR_RSU
from docgen.kinds.director_rsu.form4 import Form4Draft, draft, missing_facts
from docgen.load import load_facts
from docgen.render.form4_pdf import form4_pdf
from docgen.render.form4_xml import form4_xml

FOLDER = "section16"
XML_NAME = "form4.xml"
PDF_NAME = "form4.pdf"


@dataclass(frozen=True)
class Section16Result:
    folder: Path
    drafts: list[Form4Draft]
    files: dict[str, dict[str, Any]]  # relative path -> {sha256, bytes}
    notes: list[str]


def _missing_error(loaded: Any) -> LoadError | None:
    missing = missing_facts(loaded.facts)
    if not missing:
        return None
    problems = []
    for item in missing:
        file, line = loaded.source.locate(item.path)
        problems.append(
            Problem(str(file), line, item.path, f"missing: {item.what}", None, item.fix)
        )
    return LoadError(problems)


def _manifest(loaded: Any, drafts: list[Form4Draft], files: dict[str, Any], on: date) -> bytes:
    first = drafts[0] if drafts else None
    data = {
        "docgen": "section16",
        "cycle": loaded.facts.grant.id,
        "drafted_on": on.isoformat(),
        "facts_sha256": loaded.sha256,
        "grant_date": loaded.facts.grant.grant_date.isoformat(),
        "form4_due": first.due.isoformat() if first and first.due else None,
        "form4_table": loaded.facts.company.form4_table,
        "files": files,
    }
    return (json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()


def section16(facts_path: str | Path, out: str | Path, *, as_of: date) -> Section16Result:
    """Write every director's Form 4 draft for the grant in ``facts_path`` under ``out``."""
    loaded = load_facts(facts_path)
    if loaded.kind != DIRECTOR_RSU:
        raise BadRequest(
            f"{loaded.source.file}: a {loaded.kind} file has no Section 16 filings; "
            "`docgen section16` drafts Form 4s for a director RSU grant's facts file."
        )
    problem = _missing_error(loaded)
    if problem is not None:
        raise problem
    facts = loaded.facts
    if as_of < facts.grant.grant_date:
        raise BadRequest(
            f"--as-of {as_of} is before the grant date {facts.grant.grant_date}: a Form 4 "
            "reports a grant once it is made. Draft on or after the grant date."
        )
    out_dir = Path(out)
    if not out_dir.is_dir():
        raise BadRequest(f"{out_dir}: no such folder. Create it first, or choose another --out.")
    drafts = [draft(facts, director, as_of) for director in facts.directors]
    rendered = {}
    for item in drafts:
        xml = form4_xml(item)
        rendered[f"{item.subject}/{XML_NAME}"] = xml
        rendered[f"{item.subject}/{PDF_NAME}"] = form4_pdf(item, xml)
    cycle_dir = out_dir / facts.grant.id
    with OutLock(out_dir):
        cycle_dir.mkdir(exist_ok=True)
        notes = [
            f"Removed {path}, left by an interrupted run."
            for path in remove_stale(cycle_dir, FOLDER)
        ]
        staging = beside(cycle_dir, FOLDER, STAGING)
        staging.mkdir()
        try:
            files = {}
            for name, data in sorted(rendered.items()):
                (staging / name).parent.mkdir(exist_ok=True)
                files[name] = write_file(staging / name, data, sync=False)
            write_file(staging / MANIFEST_NAME, _manifest(loaded, drafts, files, as_of), sync=False)
            sync_tree(staging)
            replaced = swap_in(staging, cycle_dir / FOLDER)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        if replaced is not None:
            shutil.rmtree(replaced, ignore_errors=True)
    return Section16Result(cycle_dir / FOLDER, drafts, files, notes)
