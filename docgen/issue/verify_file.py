"""`docgen verify FILE.pdf`: one issued document checked on its own, away from its folder.

The PDF carries ``docgen-record.json`` (docgen.issue.record). docgen loads the facts in it as a
one-subject facts file, makes the document again, as issued on the record's as-of date, and
compares: byte for byte when the installed docgen and templates are the ones the record names,
else the text only (another version may lay the same words out differently, and says so).
"""

from __future__ import annotations

import difflib
import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from docgen import __version__
from docgen.core.errors import DocgenError, LoadError, RenderError, VerifyFailed
from docgen.core.safe_open import NotARegularFile, TooLarge, read_regular
from docgen.core.text import normalise
from docgen.issue.layout import MANIFEST_NAME
from docgen.issue.record import RECORD_NAME, Record, RecordUnreadable, read_record
from docgen.issue.reports import templates_sha256
from docgen.issue.verify_standing import standing
from docgen.kinds import get_kind
from docgen.kinds.registry import UnknownKind
from docgen.load import load_facts
from docgen.render.copy import resolve
from docgen.render.pdf import html_to_pdf, renderer
from docgen.render.readback import pdf_reader_notes, pdf_text

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
    standing: str = ""  # current, superseded, or not knowable alone (docgen.issue.verify_standing)

    @property
    def summary(self) -> str:
        record = self.record.data
        what = (
            f"{record['document']} for {record['subject']}, {record['cycle']}, stage "
            f"{record['stage']}; facts SHA-256 {record['facts_sha256'][:12]}… "
            f"as in its stage folder's {MANIFEST_NAME}"
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
    """A document not shown to be the one docgen issued (exit 1), with what `docgen verify`
    found (None when it could not make the document again to compare)."""

    def __init__(self, message: str, check: FileCheck | None):
        super().__init__(message)
        self.check = check


def _failed(path: Path, reasons: list[str], check: FileCheck | None = None) -> CopyNotShown:
    return CopyNotShown(
        "\n".join(f"{path}: {reason}" for reason in reasons)
        + f"\n{path}: not shown to be the document docgen issued; do not rely on this copy. "
        "Ask for the copy in the issued folder (docgen verify DIR checks it there).",
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
    document to compare instead of the file's bytes (a signed file's signed revision,
    docgen.issue.verify_signed).
    """
    path = Path(path)
    if not path.is_file():
        raise NotAnIssuedFile(
            f"{path}: no such file. Name an issued PDF, like "
            "out/2026-annual/grant/jsmith/notice.pdf, or an issued folder."
        )
    issued = read_issued_pdf(path) if data is None else data
    with pdf_reader_notes() as reading:
        try:
            record = read_record(issued)
        except RecordUnreadable as error:
            reasons = [f"cannot be verified on its own: {error}.", *reading.summary()]
            raise _failed(path, reasons) from None
        check = FileCheck(path, record, "bytes")
        _compare(check, issued)
    if check.differences:
        raise _failed(path, [*check.notes, *check.differences, *reading.summary()], check)
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
