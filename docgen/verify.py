"""Reading issued documents back: the DOC-* rules over their text, and `docgen verify` of a folder.

The predicates here are pure functions over text, so each rule is testable without rendering.
Text is compared after *whitespace normalisation*: Unicode NFKC (a PDF's "ﬁ" ligature reads back
as "fi"), soft hyphens and zero-width characters dropped, then every run of whitespace removed.
Removing whitespace outright (rather than collapsing it to one space) is deliberate: pypdf
reconstructs spaces from glyph positions and can split or join words at a line end, while a
difference in any visible character still shows.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import unicodedata
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from docgen.errors import DocgenError, VerifyFailed

MANIFEST_NAME = "manifest.json"
MANIFEST_FORMAT = 1

# DOC-UNFILLED-BLANK: the blanks the seed forms carry ("[_________, 20__]", "[NAME/ADDRESS]",
# "Dear [NAME]", "the [____] anniversary", "###-###-####"), plus a template tag that was never
# rendered. A bare run of underscores is NOT a blank: it is a signature line on Exhibit I.
UNFILLED_BLANKS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("[____", re.compile(r"\[\s*_{2,}")),
    ("20__", re.compile(r"(?<!\d)(?:19|20)__")),
    ("[NAME", re.compile(r"\[(?:NAME|ADDRESS|DATE|TITLE|COMPANY|AMOUNT|NUMBER)\b[^\]]{0,40}\]?")),
    ("###-###-####", re.compile(r"#{3}\s*-\s*#{3}\s*-\s*#{4}")),
    ("$____", re.compile(r"\$\s*_{2,}")),
    ("template tag", re.compile(r"\{\{|\}\}|\{%|%\}")),
)

_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"))
_WHITESPACE = re.compile(r"\s+")


def normalise(text: str) -> str:
    """Text with every difference that is not content removed (see the module docstring)."""
    text = unicodedata.normalize("NFKC", text).translate(_INVISIBLE)
    return _WHITESPACE.sub("", text)


def _excerpt(text: str, start: int, end: int, width: int = 30) -> str:
    before = text[max(0, start - width) : start]
    after = text[end : end + width]
    return _WHITESPACE.sub(" ", f"{before}{text[start:end]}{after}").strip()


# ----------------------------------------------------------------------------- the DOC-* rules


def unfilled_blanks(text: str) -> list[str]:
    """DOC-UNFILLED-BLANK: each blank left in ``text``, as an excerpt showing where it is."""
    found: list[tuple[int, str]] = []
    for label, pattern in UNFILLED_BLANKS:
        for match in pattern.finditer(text):
            found.append(
                (match.start(), f'{label} in "…{_excerpt(text, match.start(), match.end())}…"')
            )
    return [excerpt for _, excerpt in sorted(found)]


def absent_facts(text: str, key_facts: list[str]) -> list[str]:
    """DOC-FACT-ABSENT: the key facts (name, grant date, units, ...) not found in ``text``."""
    haystack = normalise(text)
    return [fact for fact in key_facts if normalise(fact) not in haystack]


def format_mismatch(pdf_text: str, docx_text: str) -> str | None:
    """DOC-FORMAT-MISMATCH: None when PDF and DOCX carry the same text, else where they part."""
    pdf, docx = normalise(pdf_text), normalise(docx_text)
    if pdf == docx:
        return None
    at = next(
        (i for i, (a, b) in enumerate(zip(pdf, docx, strict=False)) if a != b),
        min(len(pdf), len(docx)),
    )
    return (
        f'the texts part after "{pdf[max(0, at - 40) : at]}": '
        f'PDF reads "{pdf[at : at + 40]}", DOCX reads "{docx[at : at + 40]}" '
        f"(spaces removed; {len(pdf)} vs {len(docx)} characters)"
    )


_DRAFTED = re.compile(r"""data-provenance\s*=\s*["']?drafted\b""")


def has_drafted_clauses(html: str) -> bool:
    """DOC-DRAFTED-CLAUSE (with no approval on file): the HTML carries a clause docgen drafted."""
    return _DRAFTED.search(html) is not None


@dataclass(frozen=True)
class DocProblem:
    """One DOC-* rule broken by one document (the caller turns it into a checker Finding)."""

    rule: str
    subject: str
    document: str
    message: str


def check_document(
    subject: str,
    document: str,
    *,
    pdf_text: str | None,
    docx_text: str | None,
    key_facts: list[str],
    html: str | None = None,
    approved_by: str | None = None,
) -> list[DocProblem]:
    """Every DOC-* rule over one document's read-back text; a format that was not made is None."""
    problems: list[DocProblem] = []
    texts = {"PDF": pdf_text, "DOCX": docx_text}
    if html is not None and pdf_text is None and docx_text is None:
        texts = {"HTML": html_text(html)}
    for label, text in texts.items():
        if text is None:
            continue
        for blank in unfilled_blanks(text):
            problems.append(
                DocProblem(
                    "DOC-UNFILLED-BLANK", subject, document, f"{label}: unfilled blank {blank}"
                )
            )
        for fact in absent_facts(text, key_facts):
            problems.append(
                DocProblem(
                    "DOC-FACT-ABSENT", subject, document, f'{label}: key fact "{fact}" is missing'
                )
            )
    if pdf_text is not None and docx_text is not None:
        difference = format_mismatch(pdf_text, docx_text)
        if difference:
            problems.append(DocProblem("DOC-FORMAT-MISMATCH", subject, document, difference))
    if html is not None and approved_by is None and has_drafted_clauses(html):
        problems.append(
            DocProblem(
                "DOC-DRAFTED-CLAUSE",
                subject,
                document,
                "carries clauses docgen drafted for gaps in the source form, not yet approved "
                "by counsel (set drafted_clauses_approved_by once counsel has reviewed them)",
            )
        )
    return problems


# ----------------------------------------------------------------------------- reading back


def pdf_text(data: bytes) -> str:
    """The text of a PDF, page after page, as pypdf reads it back."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    return "\n".join(page.extract_text() or "" for page in reader.pages)


def docx_text(data: bytes) -> str:
    """The text of a DOCX body in document order: paragraphs, table cells and content controls."""
    from docx import Document
    from docx.oxml.ns import qn

    body = Document(io.BytesIO(data)).element.body
    text_tag, tab_tag, breaks = qn("w:t"), qn("w:tab"), {qn("w:br"), qn("w:cr")}
    paragraphs = []
    for paragraph in body.iter(qn("w:p")):
        parts = []
        for node in paragraph.iter():
            if node.tag == text_tag:
                parts.append(node.text or "")
            elif node.tag == tab_tag:
                parts.append("\t")
            elif node.tag in breaks:
                parts.append("\n")
        paragraphs.append("".join(parts))
    return "\n".join(paragraphs)


class _TextOnly(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("style", "script", "head"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "script", "head") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def html_text(html: str) -> str:
    """The visible text of an HTML document (no head, styles or scripts)."""
    parser = _TextOnly()
    parser.feed(html)
    parser.close()
    return " ".join(parser.parts)


# ----------------------------------------------------------------------------- `docgen verify`


class NotAnIssuedFolder(DocgenError):
    """`docgen verify DIR` was pointed at something that is not an issued folder. Exit code 2."""


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def read_manifest(folder: Path) -> dict[str, Any]:
    """The manifest of an issued folder; NotAnIssuedFolder when there is none that docgen wrote."""
    manifest_path = folder / MANIFEST_NAME
    if not folder.is_dir():
        raise NotAnIssuedFolder(
            f"{folder}: no such folder. Name a folder `docgen batch` wrote, like out/2026-annual."
        )
    if not manifest_path.is_file():
        raise NotAnIssuedFolder(
            f"{folder}: not an issued folder (it has no {MANIFEST_NAME}). "
            "Name the cycle folder `docgen batch` wrote, like out/2026-annual."
        )
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise NotAnIssuedFolder(
            f"{manifest_path}: not a manifest docgen wrote ({error})."
        ) from None
    if (
        not isinstance(manifest, dict)
        or manifest.get("manifest_format") != MANIFEST_FORMAT
        or not isinstance(manifest.get("files"), dict)
        or not isinstance(manifest.get("packets"), list)
    ):
        raise NotAnIssuedFolder(
            f"{manifest_path}: not a manifest docgen wrote (format {MANIFEST_FORMAT} expected)."
        )
    return manifest


@dataclass
class FolderCheck:
    """What `docgen verify` found: each change as (relative file, what is wrong)."""

    folder: Path
    manifest: dict[str, Any]
    changes: list[tuple[str, str]] = field(default_factory=list)
    files_checked: int = 0
    documents_checked: int = 0

    @property
    def intact(self) -> bool:
        return not self.changes


def compare_hashes(folder: Path, manifest: dict[str, Any]) -> list[tuple[str, str]]:
    """Every file missing, altered or added since the manifest was written."""
    changes: list[tuple[str, str]] = []
    listed: dict[str, dict[str, Any]] = manifest["files"]
    for name in sorted(listed):
        expected = listed[name]
        path = folder / name
        if not path.is_file():
            changes.append((name, "missing: the manifest lists it but it is not in the folder"))
            continue
        size = path.stat().st_size
        digest = sha256_file(path)
        if digest != expected.get("sha256"):
            changes.append(
                (
                    name,
                    f"changed: SHA-256 {digest[:12]}… differs from the manifest's "
                    f"{str(expected.get('sha256'))[:12]}… "
                    f"({expected.get('bytes')} bytes issued, {size} now)",
                )
            )
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if path.is_file() and name != MANIFEST_NAME and name not in listed:
            changes.append((name, "added: not listed in the manifest"))
    return changes


def verify_folder(folder: str | Path) -> FolderCheck:
    """`docgen verify DIR`: hashes against the manifest, then the DOC-* rules over every document.

    Raises NotAnIssuedFolder (exit 2) for a folder docgen did not issue and VerifyFailed (exit 1)
    carrying the FolderCheck when anything changed; returns the FolderCheck when intact.
    """
    folder = Path(folder)
    manifest = read_manifest(folder)
    check = FolderCheck(folder, manifest)
    check.changes.extend(compare_hashes(folder, manifest))
    check.files_checked = len(manifest["files"])
    broken = {name for name, _ in check.changes}
    for packet in manifest["packets"]:
        for document in packet.get("documents", []):
            files = document.get("files", {})
            texts: dict[str, str | None] = {"pdf": None, "docx": None}
            for fmt, reader in (("pdf", pdf_text), ("docx", docx_text)):
                name = files.get(fmt)
                if name is None or not (folder / name).is_file():
                    continue
                try:
                    texts[fmt] = reader((folder / name).read_bytes())
                except Exception as error:  # a damaged file: report it, keep verifying the rest
                    if name not in broken:
                        check.changes.append((name, f"unreadable as {fmt.upper()}: {error}"))
                    texts[fmt] = None
            check.documents_checked += 1
            for problem in check_document(
                packet["subject"],
                document["name"],
                pdf_text=texts["pdf"],
                docx_text=texts["docx"],
                key_facts=list(document.get("key_facts", [])),
            ):
                where = (
                    files.get("pdf")
                    or files.get("docx")
                    or f"{packet['subject']}/{document['name']}"
                )
                check.changes.append((where, f"{problem.rule}: {problem.message}"))
    if check.changes:
        error = VerifyFailed(
            "\n".join(f"{name}: {what}" for name, what in check.changes)
            + f"\n{folder}: {len(check.changes)} change{'s' if len(check.changes) != 1 else ''} "
            "since it was issued; do not send these documents. "
            "Re-issue them with `docgen batch --force`."
        )
        error.check = check  # type: ignore[attr-defined]
        raise error
    return check
