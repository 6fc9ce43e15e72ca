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

import hashlib
import json
import shutil
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import Any

from docgen.checker.runner import run_checks, subjects_of
from docgen.core.drafts import DRAFTS_MANIFEST, Drafts, Refusal
from docgen.core.errors import LoadError, Problem
from docgen.core.findings import Finding
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


def _only(
    drafts: Drafts, only: tuple[str, ...], earlier: dict[str, dict[str, bytes]]
) -> tuple[Drafts, dict[str, dict[str, bytes]]]:
    """The drafts of the subjects ``only`` names (without regard to case), and the other
    subjects' earlier drafts, kept as they are; an id naming no subject drafted is refused."""
    wanted = {name.casefold() for name in only}
    known = {s.subject.casefold() for s in drafts.subjects}
    unknown = sorted(name for name in only if name.casefold() not in known)
    if unknown:
        raise BadRequest(
            f"--only {', '.join(unknown)}: no {drafts.noun} to draft for "
            f"{'this id' if len(unknown) == 1 else 'these ids'} (the drafts are for "
            f"{', '.join(s.subject for s in drafts.subjects) or 'no one'})."
        )
    chosen = tuple(s for s in drafts.subjects if s.subject.casefold() in wanted)
    refused = tuple(r for r in drafts.refused if r.subject.casefold() in wanted)
    kept = {s: f for s, f in earlier.items() if s.casefold() not in wanted}
    return replace(drafts, subjects=chosen, refused=refused), kept


def _refused_error(loaded: Any, refused: tuple[Refusal, ...]) -> LoadError:
    problems = []
    for item in refused:
        file, line = loaded.source.locate(item.path)
        problems.append(Problem(str(file), line, item.path, item.message, None, item.fix))
    return LoadError(problems)


def _rejected(loaded: Any, kind: Any, as_of: date, only: tuple[str, ...]) -> list[Finding]:
    """The error findings of the kind's ``filing_draft_rules`` that stand against a draft this
    run would write: the filing system would reject it (EDGAR: a state code or CIK it does not
    take). With ``only``, those about the subjects named and those about a fact every draft
    reports (the issuer's CIK, the company's address), not another person's."""
    rules = set(kind.filing_draft_rules)
    report = run_checks(loaded, as_of, issuing=False)
    wanted = {name.casefold() for name in only}
    people = {ident.casefold() for ident in report.subjects[1:]}
    return [
        f
        for f in report.errors
        if f.rule in rules
        and (
            not only
            or f.subject.casefold() in wanted
            or f.subject.casefold() not in people
            or not f.path.startswith(("directors[", "participants["))
        )
    ]


def _rejected_error(loaded: Any, findings: list[Finding], only: tuple[str, ...]) -> LoadError:
    """One problem per finding, naming its rule and the person; nothing is drafted. The whole
    run is refused, as `docgen batch` refuses on an error: the drafts folder is one filing set,
    replaced whole, and a run that left a person out would look complete. A Form 4 is due two
    business days after the grant, so the message names the --only that drafts the others now
    (when the findings are each about one person, not a fact every draft reports)."""
    people, names = subjects_of(loaded.facts)
    blocked = {f.subject for f in findings}
    per_person = all(f.path.startswith(("directors[", "participants[")) for f in findings)
    rest = [p for p in people[1:] if p not in blocked]
    hint = ""
    if per_person and rest and not only:
        hint = (
            f" The others' drafts can be made now: docgen section16 {loaded.source.file} --out "
            f"OUT --only {','.join(rest)}."
        )
    problems = []
    for finding in findings:
        if finding.line:
            file, line = finding.file or str(loaded.source.file), finding.line
        else:
            file, line = loaded.source.locate(finding.path)
        problems.append(
            Problem(
                str(file),
                line,
                finding.path,
                f"{finding.rule} ({_label(names, finding.subject)}): "
                f"{finding.message.rstrip('.')}; EDGAR would reject the Form 4, so none is "
                "drafted while this error stands",
                None,
                finding.remedy + hint,
            )
        )
    return LoadError(problems)


def _label(names: dict[str, str], subject: str) -> str:
    name = names.get(subject)
    return f"{subject}, {name}" if name and name != subject else subject


def _earlier(cycle_dir: Path, name: str) -> dict[str, dict[str, bytes]]:
    """The drafts the cycle's folder ``name`` holds, by subject and file name, each checked
    against the SHA-256 its drafts-manifest.json records (an amendment is compared with them);
    none: empty."""
    folder = cycle_dir / name
    try:
        manifest = json.loads((folder / DRAFTS_MANIFEST).read_text(encoding="utf-8"))
        files = manifest["files"]
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise BadRequest(
            f"{folder / DRAFTS_MANIFEST}: cannot be read ({error}); a redraft compares each "
            "amendment with the drafts it lists. Restore it, or move the folder aside."
        ) from error
    found: dict[str, dict[str, bytes]] = {}
    for name, entry in sorted(files.items()):
        subject, _, file = name.partition("/")
        path = folder / name
        try:
            data = path.read_bytes()
        except OSError as error:
            raise BadRequest(
                f"{path}: listed in {DRAFTS_MANIFEST} but cannot be read ({error.strerror})."
            ) from error
        if hashlib.sha256(data).hexdigest() != entry.get("sha256"):
            raise BadRequest(
                f"{path}: changed since it was drafted (its SHA-256 is not the one "
                f"{DRAFTS_MANIFEST} records); an amendment is compared with it. Restore it, or "
                "move the folder aside."
            )
        found.setdefault(subject, {})[file] = data
    return found


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


def section16(
    facts_path: str | Path, out: str | Path, *, as_of: date, only: tuple[str, ...] = ()
) -> Section16Result:
    """Write every director's Form 4 draft for the grant in ``facts_path`` under ``out``;
    ``only``: these subjects' drafts only, the others' kept as the folder holds them."""
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
    rejected = _rejected(loaded, kind, as_of, only)
    if rejected:
        raise _rejected_error(loaded, rejected, only)
    cycle_dir = Path(out) / kind.cycle_name(facts)
    drafts = kind.filing_drafts(facts, as_of, lambda name: _earlier(cycle_dir, name))
    kept: dict[str, dict[str, bytes]] = {}
    if only:
        drafts, kept = _only(drafts, only, _earlier(cycle_dir, drafts.folder))
    if drafts.refused:
        raise _refused_error(loaded, drafts.refused)
    grant_date = drafts.about.get("grant_date")
    if isinstance(grant_date, date) and as_of < grant_date:
        raise BadRequest(
            f"--as-of {as_of} is before the grant date {grant_date}: a Form 4 "
            "reports a grant once it is made. Draft on or after the grant date."
        )
    out_dir = Path(out)
    if not out_dir.is_dir():
        raise BadRequest(f"{out_dir}: no such folder. Create it first, or choose another --out.")
    rendered = {
        f"{subject}/{name}": data for subject, files in kept.items() for name, data in files.items()
    }
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
        notes.extend(f"No {drafts.noun} drafted: {why}." for why in drafts.left_out)
        notes.extend(drafts.notes)
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
