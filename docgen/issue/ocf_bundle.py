"""`docgen export-ocf`: one cycle as an Open Cap Format 1.2.0 bundle (DESIGN.md, "After the
grant"; docs/ocf-export.md). The kind makes the objects (``Kind.ocf_cycle``); here they are laid
out in OCF's files (an ``OCF_MANIFEST_FILE`` listing each object file with its MD5), validated
before anything is written (each object against its own object type's vendored schema, each file
against its file type's, every reference resolved, every MD5 in the manifest checked against the
bytes in the archive), and written as one zip, atomically and reproducibly (sorted entries, fixed
timestamps and modes). The elections OCF cannot express go beside them in docgen-elections.json,
validated against docgen's own schema."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Iterable, Sequence
from datetime import date
from pathlib import Path
from typing import Any

from docgen.core.errors import DocgenError, LoadError, Problem
from docgen.core.ocf import OCF_VERSION, IssuedDocument, Json, OCFCycle
from docgen.core.output import check_target, write_atomically
from docgen.issue import ocf_schemas
from docgen.issue.folder import read_issued
from docgen.issue.layout import MANIFEST_NAME
from docgen.issue.manifest import NotAnIssuedFolder, read
from docgen.kinds import ExportsOCF
from docgen.load import LoadedFacts, load_facts
from docgen.load.offering import kind_offering
from docgen.load.source import parse_path

MANIFEST = "Manifest.ocf.json"
ELECTIONS = "docgen-elections.json"
# The manifest's list of files, the file's name, its file_type and the OCFCycle field it holds.
LAYOUT = (
    ("stakeholders_files", "Stakeholders.ocf.json", "OCF_STAKEHOLDERS_FILE", "stakeholders"),
    ("stock_classes_files", "StockClasses.ocf.json", "OCF_STOCK_CLASSES_FILE", "stock_classes"),
    ("stock_plans_files", "StockPlans.ocf.json", "OCF_STOCK_PLANS_FILE", "stock_plans"),
    ("vesting_terms_files", "VestingTerms.ocf.json", "OCF_VESTING_TERMS_FILE", "vesting_terms"),
    ("transactions_files", "Transactions.ocf.json", "OCF_TRANSACTIONS_FILE", "transactions"),
    ("documents_files", "Documents.ocf.json", "OCF_DOCUMENTS_FILE", "documents"),
)
EMPTY_LISTS = ("stock_legend_templates_files", "valuations_files")  # required, none to list
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest a zip entry can hold: the same bytes every time


class BundleInvalid(DocgenError):
    """The bundle does not validate against OCF 1.2.0 (or its references do not resolve):
    nothing was written. Exit code 2."""


def export(path: Path, output: Path, as_of: date, issued: Path | None) -> dict[str, Any]:
    """Write ``path``'s cycle as an OCF bundle at ``output``; ``issued``: the issued stage
    folder (or the cycle folder, or OUT) whose Notices it lists as Documents. Returns what was
    written, for the command to say."""
    check_target(output, "cycle.ocf.zip")
    loaded = load_facts(path)
    kind = kind_offering(loaded, "has_ocf", "no Open Cap Format export")
    assert isinstance(kind, ExportsOCF)  # kind_offering refused any other
    cycle_name = kind.cycle_name(loaded.facts)
    documents: list[IssuedDocument] = []
    notes = []
    if issued is not None:
        documents, issued_from = issued_documents(issued, cycle_name, kind.ocf_stage)
        if issued_from != loaded.sha256:
            notes.append(
                f"The Notices listed as Documents were issued from facts with SHA-256 "
                f"{issued_from}; this bundle is made from {loaded.path.name}, SHA-256 "
                f"{loaded.sha256} (the facts changed after the Notices were issued)."
            )
    try:
        cycle = kind.ocf_cycle(loaded.facts, as_of, documents)
    except LoadError as error:
        raise LoadError(_located(error.problems, loaded)) from None
    cycle.comments.extend(notes)
    files = bundle_files(cycle)
    data = zipped(files)
    check_archive(data)
    write_atomically(output, data)
    return {
        "files": sorted(files),
        "documents": len(cycle.documents),
        "cycle": cycle_name,
        "notes": notes,
    }


def _located(problems: Iterable[Problem], loaded: LoadedFacts) -> list[Problem]:
    """A kind's problems placed in the facts file (the kind knows the field, not the line)."""
    placed = []
    for problem in problems:
        line = loaded.source.line_of(parse_path(problem.path)) if problem.path else None
        placed.append(
            Problem(
                problem.file or loaded.source.file,
                problem.line or line,
                problem.path,
                problem.what,
                problem.got,
                problem.fix,
            )
        )
    return placed


# ------------------------------------------------------------------ the issued Notices


def stage_folder(issued: Path, cycle: str, stage: str) -> Path:
    """The issued stage folder: ``issued`` itself, or ``issued/<stage>`` (a cycle folder), or
    ``issued/<cycle>/<stage>`` (the OUT a batch issued into)."""
    for folder in (issued, issued / stage, issued / cycle / stage):
        if (folder / MANIFEST_NAME).is_file():
            return folder
    raise NotAnIssuedFolder(
        f"{issued}: no issued {stage} stage of cycle {cycle} in it. Name the folder `docgen "
        f"batch` wrote, like out/{cycle}/{stage}, or the out folder that holds it."
    )


def issued_documents(issued: Path, cycle: str, stage: str) -> tuple[list[IssuedDocument], str]:
    """Every PDF document of the issued stage, with its MD5, each file first checked against the
    SHA-256 its manifest records (a file changed since it was issued is refused); and the
    SHA-256 of the facts the stage was issued from."""
    folder = stage_folder(issued, cycle, stage)
    manifest = read(folder)
    if manifest.cycle != cycle or (manifest.stage is not None and manifest.stage != stage):
        raise NotAnIssuedFolder(
            f"{folder}: the {manifest.stage} stage of cycle {manifest.cycle}, not the {stage} "
            f"stage of cycle {cycle} the facts describe. Name that cycle's {stage} folder."
        )
    found = []
    for packet in manifest.packets:
        for document in packet.documents:
            name = document.files.get("pdf")
            if name is None:
                continue
            entry = manifest.files.get(name)
            data = read_issued(folder / name)
            if entry is None or entry.sha256 != hashlib.sha256(data).hexdigest():
                raise NotAnIssuedFolder(
                    f"{folder / name}: not the file the manifest records as issued. Run "
                    f"`docgen verify {folder}` to see what changed."
                )
            md5 = hashlib.md5(data, usedforsecurity=False).hexdigest()
            found.append(IssuedDocument(packet.subject, document.name, f"./{name}", md5))
    return found, manifest.facts.sha256


# ------------------------------------------------------------------ the bundle's files


def _text(data: Json) -> bytes:
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _md5(data: bytes) -> str:
    return hashlib.md5(data, usedforsecurity=False).hexdigest()


def bundle_files(cycle: OCFCycle) -> dict[str, bytes]:
    """The bundle's files by name, validated: BundleInvalid lists every problem found."""
    problems = _object_problems(cycle) + _reference_problems(cycle)
    files: dict[str, bytes] = {}
    manifest: Json = {
        "ocf_version": OCF_VERSION,
        "file_type": "OCF_MANIFEST_FILE",
        "issuer": cycle.issuer,
        "as_of": cycle.as_of.isoformat(),
        # From the as-of date, never the clock: the same facts and date give the same bundle.
        "generated_at": f"{cycle.as_of.isoformat()}T00:00:00Z",
        "comments": list(cycle.comments),
    }
    for key, name, file_type, field in LAYOUT:
        items = getattr(cycle, field)
        if not items and key == "documents_files":
            continue
        content: Json = {"file_type": file_type, "items": items}
        problems += [f"{name}: {e}" for e in _file_errors(file_type, content)]
        files[name] = _text(content)
        manifest[key] = [{"filepath": f"./{name}", "md5": _md5(files[name])}]
    for key in EMPTY_LISTS:
        manifest[key] = []
    problems += [f"{MANIFEST}: {e}" for e in _file_errors("OCF_MANIFEST_FILE", manifest)]
    problems += [
        f"{ELECTIONS}: {e}"
        for e in ocf_schemas.errors(ocf_schemas.elections_validator(), cycle.beside)
    ]
    if problems:
        raise BundleInvalid(
            "the Open Cap Format bundle does not validate against OCF "
            f"{OCF_VERSION}; nothing was written:\n" + "\n".join(f"  {p}" for p in problems)
        )
    files[ELECTIONS] = _text(cycle.beside)
    files[MANIFEST] = _text(manifest)
    return files


def _file_errors(file_type: str, content: Json) -> list[str]:
    return ocf_schemas.errors(ocf_schemas.validator(ocf_schemas.FILES[file_type]), content)


def _objects(cycle: OCFCycle) -> list[tuple[str, Json]]:
    named = [(MANIFEST, cycle.issuer)]
    for _, name, _, field in LAYOUT:
        named.extend((name, item) for item in getattr(cycle, field))
    return named


def _object_problems(cycle: OCFCycle) -> list[str]:
    """Each object against its own object type's schema."""
    problems = []
    for name, item in _objects(cycle):
        kind = item.get("object_type")
        where = f"{name}: {kind} {item.get('id')}"
        schema = ocf_schemas.OBJECTS.get(str(kind))
        if schema is None:
            problems.append(f"{where}: no OCF object type docgen writes")
            continue
        problems += [
            f"{where}: {e}" for e in ocf_schemas.errors(ocf_schemas.validator(schema), item)
        ]
    return problems


def _reference_problems(cycle: OCFCycle) -> list[str]:
    """Every id is unique and every reference resolves: stakeholder_id, security_id, the plan,
    the class, the vesting terms and their conditions, and a Document's related objects."""
    problems = []
    ids: dict[str, str] = {}
    for name, item in _objects(cycle):
        key = str(item.get("id"))
        if key in ids:
            problems.append(f"{name}: id {key} is also the id of a {ids[key]}")
        ids[key] = str(item.get("object_type"))
    of_type = {t: {k for k, v in ids.items() if v == t} for t in set(ids.values())}
    issued = {
        t["security_id"]: t
        for t in cycle.transactions
        if t.get("object_type") == "TX_EQUITY_COMPENSATION_ISSUANCE"
    }
    conditions = {
        terms.get("id"): {c.get("id") for c in terms.get("vesting_conditions", [])}
        for terms in cycle.vesting_terms
    }

    def want(where: str, field: str, value: Any, kinds: Sequence[str]) -> None:
        if value is not None and not any(value in of_type.get(k, ()) for k in kinds):
            problems.append(f"{where}: {field} {value} names no {' or '.join(kinds)} in the bundle")

    for name, item in _objects(cycle):
        where = f"{name}: {item.get('object_type')} {item.get('id')}"
        want(where, "stakeholder_id", item.get("stakeholder_id"), ["STAKEHOLDER"])
        want(where, "stock_plan_id", item.get("stock_plan_id"), ["STOCK_PLAN"])
        want(where, "vesting_terms_id", item.get("vesting_terms_id"), ["VESTING_TERMS"])
        for stock_class in [item.get("stock_class_id"), *item.get("stock_class_ids", [])]:
            want(where, "stock_class_id", stock_class, ["STOCK_CLASS"])
        security = item.get("security_id")
        if security is not None and security not in issued:
            problems.append(f"{where}: security_id {security} names no issuance in the bundle")
        condition = item.get("vesting_condition_id")
        if condition is not None and security in issued:
            terms = issued[security].get("vesting_terms_id")
            if condition not in conditions.get(terms, set()):
                problems.append(f"{where}: vesting_condition_id {condition} is not in {terms}")
        for related in item.get("related_objects", []):
            want(where, "related object", related.get("object_id"), [related.get("object_type")])
    for subject in cycle.beside.get("subjects", []):
        where = f"{ELECTIONS}: {subject.get('director_id')}"
        want(where, "stakeholder_id", subject.get("stakeholder_id"), ["STAKEHOLDER"])
        if subject.get("security_id") not in issued:
            problems.append(f"{where}: security_id {subject.get('security_id')} names no issuance")
    return problems


# ------------------------------------------------------------------ the archive


def zipped(files: dict[str, bytes]) -> bytes:
    """The files as one zip: entries sorted by name, each with the same time and mode."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3
            info.external_attr = 0o644 << 16
            archive.writestr(info, files[name], compresslevel=9)
    return buffer.getvalue()


def check_archive(data: bytes) -> None:
    """Read the archive back: every file the manifest lists is in it with the MD5 it records."""
    problems = []
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        names = set(archive.namelist())
        manifest = json.loads(archive.read(MANIFEST))
        for key, _, _, _ in LAYOUT:
            for listed in manifest.get(key, []):
                name = listed["filepath"].removeprefix("./")
                if name not in names:
                    problems.append(f"{MANIFEST}: {name} is listed but not in the archive")
                elif _md5(archive.read(name)) != listed["md5"]:
                    problems.append(f"{MANIFEST}: {name}'s MD5 is not the one listed")
    if problems:
        raise BundleInvalid(
            "the OCF archive does not hold what its manifest lists:\n" + "\n".join(problems)
        )
