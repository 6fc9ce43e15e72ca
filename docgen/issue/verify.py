"""`docgen verify`: an issued stage folder, every stage folder of a cycle folder, or one issued PDF
on its own, signed or not (DESIGN.md, "Signed documents").

A stage folder holds exactly the files its manifest lists, and nothing else: a symbolic link,
a folder the manifest does not need (an empty one too), a FIFO, socket or device is a change, and
is never followed or opened. A manifest path must name a file inside the folder (no absolute
path, no ``..``); any other is refused and never read. A cycle folder holds its stage folders side
by side (docgen.issue.layout); each is checked against its own manifest. ``returned/`` holds what
people sent back and is never checked.

One PDF, away from its folder, carries ``docgen-record.json`` (docgen.issue.record). docgen loads
the facts in it as a one-subject facts file, makes the document again, as issued on the record's
as-of date, and compares: byte for byte when the installed docgen and templates are the ones the
record names, else the text only (another version may lay the same words out differently, and
says so). When its stage folder is reachable, its manifest says whether a later re-issue replaced
it.

A signed PDF: the company's certification is read and judged (docgen.issue.signature_check), then
the revision it signed is compared with what docgen makes from the record it carries. It verifies
(exit 0) only when the signature is intact, nothing the certification forbids changed after it,
the certificate chains to the trust anchor when one is named, and the signed revision is what
docgen makes. An unsigned file is checked against its own record, and said to prove nothing about
who made it; with ``--trust`` it fails, as nothing in it can be checked against a trust anchor.
"""

from __future__ import annotations

import difflib
import hashlib
import io
import json
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from docgen import __version__
from docgen.core.documents import IssuedCopy
from docgen.core.errors import DocgenError, LoadError, RenderError, VerifyFailed
from docgen.core.safe_open import NotARegularFile, TooLarge, read_regular
from docgen.core.text import normalise
from docgen.issue.changes import folder_changes
from docgen.issue.docrules import check_rendered
from docgen.issue.folder import read_issued
from docgen.issue.history import canonical
from docgen.issue.layout import MANIFEST_NAME, RETURNED, SENT_LOG, SUPERSEDED
from docgen.issue.manifest import Manifest, read
from docgen.issue.record import RECORD_NAME, Record, RecordUnreadable, read_record
from docgen.issue.reports import templates_sha256
from docgen.issue.sent_log import log_changes
from docgen.issue.signature_check import (
    Certification,
    CertificationUnreadable,
    certification,
    read_trust,
)
from docgen.kinds import get_kind
from docgen.kinds.registry import UnknownKind
from docgen.load import load_facts
from docgen.render.copy import resolve
from docgen.render.pdf import html_to_pdf, renderer
from docgen.render.readback import docx_text, pdf_reader_notes, pdf_text

# ---------------------------------------------------------------- a stage folder


@dataclass
class FolderCheck:
    """What `docgen verify` found: each change as (relative file, what is wrong)."""

    folder: Path
    manifest: Manifest
    changes: list[tuple[str, str]] = field(default_factory=list)
    files_checked: int = 0
    documents_checked: int = 0
    signed_checked: int = 0  # with --trust: the PDFs whose certification chains to it
    trust_anchor: str | None = None


class FolderChanged(VerifyFailed):
    """A stage folder that no longer is what was issued (exit 1), with what `docgen verify`
    found in it."""

    def __init__(self, message: str, check: FolderCheck):
        super().__init__(message)
        self.check = check


def verify_folder(
    folder: str | Path, anchors: list | None = None, anchor_name: str | None = None
) -> FolderCheck:
    """`docgen verify DIR`: hashes against the manifest, then the DOC-* rules over every document,
    then (``anchors``: `--trust CA.pem`) every PDF's certification against the company's CA.

    Raises NotAnIssuedFolder (exit 2) for a folder docgen did not issue and VerifyFailed (exit 1)
    carrying the FolderCheck when anything changed; returns the FolderCheck when intact.
    """
    folder = Path(folder)
    manifest = read(folder)
    check = FolderCheck(folder, manifest)
    found = folder_changes(folder, manifest)
    check.changes.extend((change.name, change.message) for change in found.changes)
    check.files_checked = len(manifest.files)
    broken = {name for name, _ in check.changes}
    for packet in manifest.packets:
        if packet.unreadable:
            check.changes.append((MANIFEST_NAME, "changed: a packet entry docgen did not write"))
            continue
        for document in packet.documents:
            contents: dict[str, bytes | None] = {"pdf": None, "docx": None}
            for fmt, reader in (("pdf", pdf_text), ("docx", docx_text)):
                name = document.files.get(fmt)
                # Read back only regular files the manifest lists inside the folder, never
                # through a link.
                if name not in found.readable:
                    continue
                try:
                    data = read_issued(folder / name)
                except OSError:
                    continue
                try:
                    reader(data)
                except Exception as error:  # a damaged file: report it, keep verifying the rest
                    if name not in broken:
                        check.changes.append((name, f"unreadable as {fmt.upper()}: {error}"))
                    continue
                contents[fmt] = data
            check.documents_checked += 1
            issued = IssuedCopy(
                packet.subject, document.name, tuple(document.key_facts), document.return_part
            )
            for problem in check_rendered(issued, pdf=contents["pdf"], docx=contents["docx"]):
                where = (
                    document.files.get("pdf")
                    or document.files.get("docx")
                    or f"{packet.subject}/{document.name}"
                )
                check.changes.append((where, f"{problem.rule}: {problem.message}"))
    if anchors:
        _check_signers(folder, manifest, found.readable, anchors, anchor_name, check)
    # The send log, when anything was sent: as recorded, and each attachment as issued.
    check.changes.extend((SENT_LOG, problem) for problem in log_changes(folder, manifest))
    if check.changes:
        raise FolderChanged(
            "\n".join(f"{name}: {what}" for name, what in check.changes)
            + f"\n{folder}: {len(check.changes)} change{'s' if len(check.changes) != 1 else ''} "
            "since it was issued; do not send these documents. "
            "Re-issue them with `docgen batch` (it renders again when a folder has changed).",
            check,
        )
    return check


def _check_signers(
    folder: Path,
    manifest: Manifest,
    readable: frozenset[str],
    anchors: list,
    anchor_name: str | None,
    check: FolderCheck,
) -> None:
    """With `--trust`: every PDF the manifest lists must be certified by a key that chains to
    the company's CA, its certification holding; an unsigned one is reported (nothing in it can
    be checked against the CA), as `docgen verify FILE.pdf --trust` reports it."""
    check.trust_anchor = anchor_name
    for name in sorted(n for n in manifest.files if n.lower().endswith(".pdf")):
        if name not in readable:
            continue  # already reported as changed or missing
        try:
            data = read_issued(folder / name)
            signed = certification(data, anchors, anchor_name)
        except CertificationUnreadable as error:
            check.changes.append((name, f"signed, but {error}"))
            continue
        except OSError:
            continue
        if signed is None:
            check.changes.append(
                (
                    name,
                    f"not signed: nothing in it says who made it, so --trust {anchor_name} "
                    "cannot be checked",
                )
            )
        elif signed.problems:
            check.changes.append((name, "; ".join(signed.problems)))
        else:
            check.signed_checked += 1


# ---------------------------------------------------------------- a cycle folder


class StagesChanged(VerifyFailed):
    """Stage folders of a cycle folder that no longer are what was issued (exit 1), with what
    `docgen verify` found in each stage folder (intact or not)."""

    def __init__(self, message: str, checks: list[FolderCheck]):
        super().__init__(message)
        self.checks = checks


def stage_folders(cycle_dir: Path) -> list[Path]:
    """The stage folders of a cycle folder, by name."""
    return sorted(
        path
        for path in cycle_dir.iterdir()
        if path.is_dir()
        and not path.name.startswith(".")
        and path.name != RETURNED
        and (path / MANIFEST_NAME).is_file()
    )


def verify_issued(path: str | Path, trust: str | Path | None = None) -> list[FolderCheck]:
    """Verify a stage folder, or every stage folder of a cycle folder.

    Raises NotAnIssuedFolder (exit 2) for a folder docgen did not issue (with how to move a
    first-release folder into place) and StagesChanged (a VerifyFailed, exit 1), carrying every
    FolderCheck in ``checks``, when anything changed; returns the FolderChecks when all are intact.
    """
    path = Path(path)
    anchors = read_trust(trust)
    named = str(trust) if trust is not None else None
    if not path.is_dir() or (path / MANIFEST_NAME).exists():
        return [verify_folder(path, anchors, named)]
    stages = stage_folders(path)
    if not stages:
        return [verify_folder(path)]  # says it is not an issued folder
    checks: list[FolderCheck] = []
    failed: list[str] = []
    for stage in stages:
        try:
            checks.append(verify_folder(stage, anchors, named))
        except FolderChanged as changed:
            checks.append(changed.check)
            failed.append(str(changed))
    if failed:
        raise StagesChanged("\n".join(failed), checks)
    return checks


# ---------------------------------------------------------------- one PDF, by its record


# An unsigned document proves nothing about who made it: anyone with docgen can edit the record
# and make the PDF again (DESIGN.md, "Signed documents").
UNSIGNED_PROVES_NOTHING = (
    "It is not signed, so this proves nothing about who made it: anyone with docgen can make a "
    "file that carries its own record. Only the company's certification (batch --sign) can say "
    "the company issued it."
)


class NotAnIssuedFile(DocgenError):
    """`docgen verify FILE.pdf` named no file. Exit code 2."""


@dataclass
class FileCheck:
    """What `docgen verify FILE.pdf` found."""

    path: Path
    record: Record
    compared: str  # "bytes", or "text" when this docgen or its templates are not the record's
    notes: list[str] = field(default_factory=list)  # why only the text was compared
    differences: list[str] = field(default_factory=list)
    standing: str = ""  # current, superseded, or not knowable alone (standing, below)

    @property
    def summary(self) -> str:
        record = self.record.data
        # The digest of the facts the file itself carries (its packet's slice), as the manifest's
        # packet inputs hold it: never the cycle's facts-file digest the record merely names,
        # which nothing in an unsigned file binds to the facts it carries.
        own = hashlib.sha256(canonical(record["facts"])).hexdigest()
        what = (
            f"{record['document']} for {record['subject']}, {record['cycle']}, stage "
            f"{record['stage']}; the facts it carries have SHA-256 {own[:12]}…, to compare "
            f"with its packet's inputs (facts_sha256) in its stage folder's {MANIFEST_NAME}"
        )
        after = f" {self.standing}" if self.standing else ""
        if self.compared == "bytes":
            return (
                f"{self.path}: consistent with the record it carries: docgen "
                f"{self.record.version} makes these very bytes from its facts as of "
                f"{record['as_of']} ({what}). {UNSIGNED_PROVES_NOTHING}{after}"
            )
        return (
            f"{self.path}: consistent with the record it carries: the same text as docgen "
            f"{__version__} makes from the facts docgen {self.record.version} made it from on "
            f"{record['as_of']} ({what}). "
            + " ".join([*self.notes, UNSIGNED_PROVES_NOTHING])
            + after
        )


class CopyNotShown(VerifyFailed):
    """A document not shown to be the one docgen (or, signed, the company) issued (exit 1): the
    reasons, and what `docgen verify` found (None when it could not make the document again to
    compare, or the document is signed)."""

    def __init__(self, message: str, reasons: list[str], check: FileCheck | None):
        super().__init__(message)
        self.reasons = reasons
        self.check = check


def _not_shown(
    path: Path, reasons: list[str], check: FileCheck | None = None, issuer: str = "docgen"
) -> CopyNotShown:
    """Each reason on its own line, then what to do instead; ``issuer``: who the copy is not
    shown to come from (the company, when it is signed)."""
    return CopyNotShown(
        "\n".join(f"{path}: {reason}" for reason in reasons)
        + f"\n{path}: not shown to be the document {issuer} issued; do not rely on this copy. "
        "Ask for the copy in the issued folder (docgen verify DIR checks it there).",
        reasons,
        check,
    )


def _load_record_facts(record: Record) -> object:
    """The record's facts, through the same loader as any facts file (one subject in it).

    A record comes from a file anyone could have made, so its facts may name no file to read
    beside them (a roster): docgen wrote the people into the record itself."""
    facts = record.data["facts"]
    if facts.get("kind") != record.data["kind"]:
        raise RecordUnreadable(
            f"its facts are of kind {facts.get('kind')!r}, not {record.data['kind']!r}"
        )
    if facts.get("templates_dir") is not None:
        # The company's own templates are not in the record: the document cannot be made again
        # from it alone, so it is not verified here (its issued folder's manifest holds them).
        raise RecordUnreadable(
            f"it was made with the company's own templates (templates_dir: "
            f"{facts['templates_dir']!r}), which a record does not carry, so it cannot be made "
            "again from the record alone; check its issued folder with `docgen verify DIR`"
        )
    roster = get_kind(record.data["kind"]).roster
    if roster is not None and facts.get(roster.field) is not None:
        raise RecordUnreadable(
            f"its facts name a file to read ({roster.field}: {facts[roster.field]!r}); docgen "
            "writes a record's people into it"
        )
    with tempfile.TemporaryDirectory(prefix="docgen-verify-") as folder:
        path = Path(folder) / RECORD_NAME
        path.write_text(json.dumps(record.data["facts"], indent=2), encoding="utf-8")
        return load_facts(path)


def _remake(record: Record) -> bytes:
    loaded = _load_record_facts(record)
    doc, subject, stage, as_of = record.document, record.subject, record.stage, record.as_of
    copy = resolve(loaded, doc, subject, stage, as_of)
    return html_to_pdf(copy.html, copy.meta, (record.embedded(),))


def _lines(data: bytes) -> list[str]:
    """The document's lines of text, each with its spaces collapsed, blank lines left out."""
    lines = (" ".join(line.replace("\u2060", "").split()) for line in pdf_text(data).splitlines())
    return [line for line in lines if line]


def _text_differences(issued: bytes, remade: bytes) -> list[str]:
    """The first place the words differ, quoted from both, or nothing when they agree."""
    try:
        ours = _lines(issued)
    except Exception as error:  # a damaged PDF: pypdf's errors are of many classes
        return [f"text: unreadable ({error})"]
    theirs = _lines(remade)
    if normalise("\n".join(ours)) == normalise("\n".join(theirs)):
        return []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, ours, theirs).get_opcodes():
        if tag != "equal":
            says = " / ".join(ours[i1:i2][:2]) or "(nothing)"
            makes = " / ".join(theirs[j1:j2][:2]) or "(nothing)"
            return [f'text differs: the file says "{says}"; docgen makes "{makes}" from its record']
    return ["text differs"]


def _annotation_kinds(data: bytes) -> Counter[tuple[int, str]]:
    """Each page's annotations by kind (/Link, /Widget, /Stamp...), counted."""
    from pypdf import PdfReader

    found: Counter[tuple[int, str]] = Counter()
    reader = PdfReader(io.BytesIO(data))
    for number, page in enumerate(reader.pages, start=1):
        for annotation in page.get("/Annots") or []:
            kind = annotation.get_object().get("/Subtype")
            found[(number, str(kind))] += 1
    return found


def _added_annotations(issued: bytes, remade: bytes) -> list[str]:
    """Annotations the file has that the document docgen makes has not (a stamp, a note drawn
    over a page): they change what a reader sees though not the text, so they are reported
    whatever version made the file (issue 44)."""
    try:
        added = _annotation_kinds(issued) - _annotation_kinds(remade)
    except Exception as error:  # a damaged PDF: pypdf's errors are of many classes
        return [f"annotations: unreadable ({error})"]
    return [
        f"page {page} has {count} {kind[1:] if kind.startswith('/') else kind} annotation"
        f"{'s' if count != 1 else ''} the document docgen makes from its record does not have"
        for (page, kind), count in sorted(added.items())
    ]


def _where_bytes_differ(issued: bytes, remade: bytes) -> str:
    if len(issued) != len(remade):
        return f"{len(issued):,} bytes; docgen makes {len(remade):,}"
    offsets = [i for i, (a, b) in enumerate(zip(issued, remade, strict=True)) if a != b]
    count = len(offsets)
    where = f"first at offset {offsets[0]:,}"
    return f"{count:,} byte{'s' if count != 1 else ''} of {len(issued):,}, {where}"


MAX_ISSUED_BYTES = 50 * 1024 * 1024  # an issued document, fonts and record in it: under 1 MB


def read_issued_pdf(path: Path) -> bytes:
    """The file, never more than ``MAX_ISSUED_BYTES`` of it (a 2 GB file is refused unread)."""
    try:
        return read_regular(path, limit=MAX_ISSUED_BYTES)
    except TooLarge:
        raise NotAnIssuedFile(
            f"{path}: larger than {MAX_ISSUED_BYTES:,} bytes, far more than any document docgen "
            "issues (under 1 MB); it is not one. Name an issued PDF."
        ) from None
    except NotARegularFile:
        raise NotAnIssuedFile(f"{path}: not a regular file. Name an issued PDF.") from None
    except OSError as error:
        raise NotAnIssuedFile(f"{path}: cannot be read ({error.strerror}).") from None


def verify_file(path: str | Path, data: bytes | None = None) -> FileCheck:
    """`docgen verify FILE.pdf`: re-make the document from the record it carries and compare.

    Returns the FileCheck when intact; raises VerifyFailed (exit 1) saying what differs (text,
    record or version) and NotAnIssuedFile (exit 2) when there is no such file. ``data``: the
    document to compare instead of the file's bytes (a signed file's signed revision, or the
    bytes :func:`verify_pdf` has read already).
    """
    path = Path(path)
    if not path.is_file():
        raise NotAnIssuedFile(
            f"{path}: no such file. Name an issued PDF, like "
            "OUT/<cycle>/<stage>/<id>/notice.pdf, or an issued folder."
        )
    issued = read_issued_pdf(path) if data is None else data
    with pdf_reader_notes() as reading:
        try:
            record = read_record(issued)
        except RecordUnreadable as error:
            reasons = [f"cannot be verified on its own: {error}.", *reading.summary()]
            raise _not_shown(path, reasons) from None
        check = FileCheck(path, record, "bytes")
        _compare(check, issued)
    if check.differences:
        raise _not_shown(path, [*check.notes, *check.differences, *reading.summary()], check)
    check.standing = standing(path, issued)
    return check


def _compare(check: FileCheck, issued: bytes) -> None:
    """Make the document again from its record and note every way the file differs."""
    record = check.record
    if record.version != __version__:
        check.notes.append(
            f"It was made by docgen {record.version}; this is docgen {__version__}, so the text "
            "is compared, not the bytes."
        )
    elif record.data["renderer"] != renderer():
        check.notes.append(
            f"It was printed by {record.data['renderer']}; this docgen prints with {renderer()}, "
            "so the text is compared, not the bytes."
        )
    elif record.data["templates_sha256"] != templates_sha256():
        check.notes.append(
            "It was made with other templates than these (templates SHA-256 "
            f"{record.data['templates_sha256'][:12]}…, installed {templates_sha256()[:12]}…), "
            "so the text is compared, not the bytes."
        )
    if check.notes:
        check.compared = "text"
    try:
        remade = _remake(record)
    except (RecordUnreadable, UnknownKind) as error:
        check.differences.append(f"record: {error.args[0] if error.args else error}.")
        return
    except LoadError as error:
        problems = "; ".join(f"{p.path}: {p.what}" for p in error.problems)
        check.differences.append(
            f"record: its facts do not load in docgen {__version__} ({problems}); "
            f"verify it with docgen {record.version}."
        )
        return
    except RenderError as error:
        check.differences.append(f"record: docgen cannot make the document from it ({error}).")
        return
    if check.compared == "bytes" and remade == issued:
        return
    check.differences.extend(_text_differences(issued, remade))
    check.differences.extend(_added_annotations(issued, remade))
    if check.compared == "text":
        return
    if record.raw != record.to_bytes():
        check.differences.append(
            f"record: its {RECORD_NAME} is not as docgen {record.version} wrote it (edited)"
        )
    if not check.differences:
        check.differences.append(
            f"bytes differ ({_where_bytes_differ(issued, remade)}) though the text and the "
            "record are as docgen makes them: its metadata, structure, fonts or fields "
            "were altered"
        )


# ---------------------------------------------------------------- still the current copy


def _stage_folder(path: Path) -> Path | None:
    """The nearest folder above ``path`` (at most four levels: stage/superseded/n/subject/)
    that holds a manifest."""
    for folder in list(path.resolve().parents)[:4]:
        if folder.parent.name == SUPERSEDED:
            continue  # superseded/<n>/ keeps the manifest of the issue it replaced
        if (folder / MANIFEST_NAME).is_file():
            return folder
    return None


def standing(path: Path, data: bytes) -> str:
    """One sentence: current, replaced (by which re-issue, when), or not knowable from here."""
    digest = hashlib.sha256(data).hexdigest()
    folder = _stage_folder(path)
    if folder is None:
        return (
            "Whether a later re-issue replaced it cannot be known from the file alone: its "
            f"stage folder (with its {MANIFEST_NAME}) is not beside it. Check that folder with "
            "`docgen verify DIR`, or ask for the copy in it."
        )
    try:
        manifest = read(folder)
    except Exception as error:  # the folder's own problem, reported by `docgen verify DIR`
        return f"Its stage folder {folder} could not be read ({error}); check it with verify DIR."
    for reissue in manifest.superseded:
        for replaced in reissue.files:
            if replaced.sha256 == digest:
                return (
                    f"SUPERSEDED: re-issue {reissue.n} of {folder} on {reissue.as_of} replaced "
                    f"this copy; the current copy is {folder / replaced.was}. Do not rely "
                    "on this one."
                )
    current = [name for name, entry in manifest.files.items() if entry.sha256 == digest]
    if current:
        return f"It is the current copy in {folder} ({current[0]}, as its {MANIFEST_NAME} lists)."
    return (
        f"Its stage folder {folder} does not list this file's SHA-256, current or superseded; "
        "check the folder with `docgen verify DIR`."
    )


# ---------------------------------------------------------------- a signed PDF


@dataclass
class SignedFileCheck:
    """What `docgen verify FILE.pdf` found in a signed file that verifies."""

    path: Path
    certification: Certification
    made: FileCheck | None  # the signed revision compared with docgen's remake
    # None: made with the company's own templates, which its record does not carry; then only
    # the certification (chaining to --trust) says what it is.
    record: Record | None = None

    @property
    def summary(self) -> str:
        if self.made is None:
            return self._certified_only()
        check, record = self.certification, self.made.record.data
        trust = (
            f"its certificate chains to the trust anchor {check.trust_anchor}"
            if check.trusted
            else "its certificate was not checked against a trust anchor (name the company's "
            "CA with --trust CA.pem to know the signer is the company)"
        )
        after = (
            "nothing changed after signing"
            if check.changes is None
            else f"after signing: {check.changes}, which the certification allows"
        )
        compared = "these very bytes" if self.made.compared == "bytes" else "the same text"
        return (
            f"{self.path}: {check.describe()}. The signature is intact; {after}; {trust}. "
            f"The revision it signed is what docgen makes from the record it carries: "
            f"{compared} ({record['document']} for {record['subject']}, {record['cycle']}, "
            f"stage {record['stage']}, as of {record['as_of']})."
            + ("" if self.made.compared == "bytes" else " " + " ".join(self.made.notes))
        )

    def _certified_only(self) -> str:
        check = self.certification
        record = self.record.data if self.record is not None else {}
        what = (
            f"{record.get('document')} for {record.get('subject')}, {record.get('cycle')}, stage "
            f"{record.get('stage')}, as of {record.get('as_of')}"
        )
        return (
            f"{self.path}: {check.describe()}. The signature is intact; nothing changed after "
            f"signing that the certification forbids; chain: {check.signer} <- {check.issuer}, "
            f"which chains to the trust anchor {check.trust_anchor}. It was made with the "
            f"company's own templates ({what}), which its record does not carry, so docgen did "
            "not make it again to compare: the company's certification is what says these are "
            "the bytes the company issued. `docgen verify DIR` compares it with its stage "
            "folder."
        )


def _company_templates(data: bytes) -> Record | None:
    """The record of a document made with the company's own templates (None for any other, or
    when it has no readable record: verify_file says why)."""
    try:
        record = read_record(data)
    except RecordUnreadable:
        return None
    facts = record.data.get("facts")
    if isinstance(facts, dict) and facts.get("templates_dir") is not None:
        return record
    return None


def _refused(path: Path, reasons: list[str]) -> CopyNotShown:
    return _not_shown(path, reasons, issuer="the company")


def verify_pdf(path: str | Path, trust: str | Path | None = None) -> FileCheck | SignedFileCheck:
    """One issued PDF: its certification judged when signed, and the document compared with
    what docgen makes from its record. Raises CopyNotShown (a VerifyFailed, exit 1) with every
    reason."""
    path = Path(path)
    if not path.is_file():
        return verify_file(path)  # says there is no such file (exit 2)
    anchors = read_trust(trust)
    data = read_issued_pdf(path)  # never more than an issued document can be
    try:
        check = certification(data, anchors, str(trust) if trust else None)
    except CertificationUnreadable as error:
        raise _refused(path, [f"signed, but {error}"]) from None
    if check is None:
        if trust is not None:
            raise _refused(
                path,
                [
                    f"not signed: nothing in it says who made it, so --trust {trust} cannot be "
                    "checked (it is only consistent with the record it carries, if that)"
                ],
            )
        return verify_file(path, data)
    reasons = [f"{check.describe()}.", *check.problems]
    if check.unsigned is None:
        raise _refused(path, [*reasons, "the signature covers no document docgen made"])
    own = _company_templates(check.unsigned)
    if own is not None and check.trusted and not check.problems:
        # The company's templates are not in the record: the remake is impossible, but the
        # certification, chaining to the company's CA, says the company issued these bytes.
        return SignedFileCheck(path, check, None, own)
    try:
        made = verify_file(path, data=check.unsigned)
    except CopyNotShown as error:
        said = (f"the revision it signed: {reason}" for reason in error.reasons)
        raise _refused(path, [*reasons, *said]) from None
    if check.problems:
        raise _refused(path, reasons)
    return SignedFileCheck(path, check, made)
