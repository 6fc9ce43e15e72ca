"""Reading issued documents back: the DOC-* rules over their text, and `docgen verify` of a folder.

The predicates here are pure functions over text, so each rule is testable without rendering.
Text is compared after *whitespace normalisation*: Unicode NFKC (a PDF's "ﬁ" ligature reads back
as "fi"), soft hyphens and zero-width characters dropped, then every run of whitespace removed.
Removing whitespace outright (rather than collapsing it to one space) is deliberate: pypdf
reconstructs spaces from glyph positions and can split or join words at a line end, while a
difference in any visible character still shows.
"""

from __future__ import annotations

import functools
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


@functools.lru_cache(maxsize=16)  # each read-back text is compared several times
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


def check_rendered(
    subject: str,
    document: str,
    *,
    pdf: bytes | None,
    docx: bytes | None,
    key_facts: list[str],
    html: str | None = None,
    approved_by: str | None = None,
) -> list[DocProblem]:
    """Read a rendered document's PDF and DOCX back and apply every DOC-* rule.

    A document is only called wrong after its PDF has also been read by pypdf's own extractor.
    """

    docx_reading = docx_text(docx) if docx is not None else None

    def run(pdf_reading: str | None) -> list[DocProblem]:
        return check_document(
            subject,
            document,
            pdf_text=pdf_reading,
            docx_text=docx_reading,
            key_facts=key_facts,
            html=html,
            approved_by=approved_by,
        )

    problems = run(pdf_text(pdf) if pdf is not None else None)
    if pdf is not None and any(p.rule != "DOC-DRAFTED-CLAUSE" for p in problems):
        problems = run(pdf_text(pdf, thorough=True))
    return problems


# ----------------------------------------------------------------------------- reading back


# Reading a PDF back. pypdf's extract_text costs about as much as WeasyPrint took to print the
# page (it parses every operator in Python), which would make verifying dearer than rendering.
# WeasyPrint writes text one way only: Type0 fonts with Identity-H encoding and a ToUnicode map,
# shown by hex-string TJ/Tj operators positioned with Tm. So docgen reads those operators with
# pypdf's own objects (fonts, decompressed content) and a scan of the content stream, and falls
# back to pypdf's extract_text for any page it cannot account for: a font of another kind, a code
# missing from the map, or a text operator it did not read. And before a document is declared
# wrong on the strength of the fast reading, check_rendered reads the PDF again with pypdf.
_TEXT_OPERATORS = re.compile(
    rb"(-?[\d.]+)\s+(-?[\d.]+)\s+Tm\b"  # text matrix: a new line when its y changes
    rb"|/([^\s/\[\]<>()%]+)\s+-?[\d.]+\s+Tf\b"  # font selection
    rb"|\[([^\]]*)\]\s*TJ\b"  # glyph runs with kerning
    rb"|<([0-9a-fA-F]*)>\s*Tj\b"
)
_SHOW_OPERATORS = re.compile(rb"T[jJ]\b|[)>\]]\s*['\"]")
_HEX_RUN = re.compile(rb"<([0-9a-fA-F]*)>")
_GLYPH = re.compile(rb"[0-9a-fA-F]{4}")
_ODD_RUN = re.compile(rb"<(?:[0-9a-fA-F]{4})*[0-9a-fA-F]{1,3}>")
_BFCHAR = re.compile(rb"beginbfchar(.*?)endbfchar", re.S)
_BFRANGE = re.compile(rb"beginbfrange(.*?)endbfrange", re.S)
_CHAR_PAIR = re.compile(rb"<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>")
_RANGE = re.compile(rb"<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(<[0-9a-fA-F]+>|\[[^\]]*\])")
_HEX = re.compile(rb"<([0-9a-fA-F]+)>")
# The running footer WeasyPrint prints from the stylesheet's @page rule; the DOCX has it in a
# Word footer (a PAGE field), outside the body text compared.
PAGE_FOOTER = re.compile(r"^\s*Page \d+ of \d+\s*$", re.MULTILINE)


class _NotWeasyPrintText(Exception):
    """A page the fast reader cannot account for; pypdf's extract_text reads it instead."""


def _utf16(hex_digits: bytes) -> str:
    return bytes.fromhex(hex_digits.decode("ascii")).decode("utf-16-be")


def _to_unicode(font: Any) -> dict[bytes, str]:
    """The font's glyph codes, as the 4 hex digits a content stream writes them, to text."""
    if font.get("/Subtype") != "/Type0" or font.get("/Encoding") != "/Identity-H":
        raise _NotWeasyPrintText
    if "/ToUnicode" not in font:
        raise _NotWeasyPrintText
    data = font["/ToUnicode"].get_object().get_data()
    table: dict[int, str] = {}
    for block in _BFCHAR.findall(data):
        for code, text in _CHAR_PAIR.findall(block):
            table[int(code, 16)] = _utf16(text)
    for block in _BFRANGE.findall(data):
        for low, high, target in _RANGE.findall(block):
            first, last = int(low, 16), int(high, 16)
            if target.startswith(b"["):
                for offset, text in enumerate(_HEX.findall(target)):
                    table[first + offset] = _utf16(text)
                continue
            base = bytes.fromhex(target[1:-1].decode("ascii"))
            start = int.from_bytes(base[-2:], "big")
            for offset in range(last - first + 1):
                unit = (start + offset).to_bytes(2, "big")
                table[first + offset] = (base[:-2] + unit).decode("utf-16-be")
    by_digits: dict[bytes, str] = {}
    for code, text in table.items():
        by_digits[b"%04x" % code] = text
        by_digits[b"%04X" % code] = text
    return by_digits


def _weasyprint_page_text(page: Any, known: dict[Any, dict[bytes, str]]) -> str:
    resources = page.get("/Resources") or {}
    fonts = {}
    for name, font in (resources.get("/Font") or {}).items():
        key = getattr(font, "idnum", None) or id(font)  # pages share their fonts' objects
        if key not in known:
            known[key] = _to_unicode(font.get_object())
        fonts[str(name)[1:]] = known[key]
    contents = page.get_contents()
    data = contents.get_data() if contents is not None else b""
    parts: list[str] = []
    table: dict[bytes, str] | None = None
    line: bytes | None = None
    shown = 0
    for match in _TEXT_OPERATORS.finditer(data):
        if match.group(2) is not None:
            if line is not None and match.group(2) != line:
                parts.append("\n")
            line = match.group(2)
        elif match.group(3) is not None:
            table = fonts.get(match.group(3).decode("latin-1"))
            if table is None:
                raise _NotWeasyPrintText
        else:
            shown += 1
            run = match.group(4) if match.group(4) is not None else b"<" + match.group(5) + b">"
            if table is None:
                raise _NotWeasyPrintText
            if b"(" in run:
                raise _NotWeasyPrintText  # a literal string: not how WeasyPrint writes text
            if _ODD_RUN.search(run):
                raise _NotWeasyPrintText  # a one-byte code
            digits = b"".join(_HEX_RUN.findall(run))
            try:
                parts.extend(map(table.__getitem__, _GLYPH.findall(digits)))
            except KeyError:
                raise _NotWeasyPrintText from None
    if shown != len(_SHOW_OPERATORS.findall(data)):
        raise _NotWeasyPrintText
    return "".join(parts)


def pdf_text(data: bytes, *, thorough: bool = False) -> str:
    """The text of a PDF, page after page, without the running "Page N of M" footers.

    Fast for what WeasyPrint writes (see above); ``thorough`` uses pypdf's extract_text only.
    """
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    pages = []
    known_fonts: dict[Any, dict[bytes, str]] = {}
    for page in reader.pages:
        text = None
        if not thorough:
            try:
                text = _weasyprint_page_text(page, known_fonts)
            except _NotWeasyPrintText:
                text = None
        if text is None:
            text = page.extract_text() or ""
        pages.append(PAGE_FOOTER.sub("", text))
    return "\n".join(pages)


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
            contents: dict[str, bytes | None] = {"pdf": None, "docx": None}
            for fmt, reader in (("pdf", pdf_text), ("docx", docx_text)):
                name = files.get(fmt)
                if name is None or not (folder / name).is_file():
                    continue
                data = (folder / name).read_bytes()
                try:
                    reader(data)
                except Exception as error:  # a damaged file: report it, keep verifying the rest
                    if name not in broken:
                        check.changes.append((name, f"unreadable as {fmt.upper()}: {error}"))
                    continue
                contents[fmt] = data
            check.documents_checked += 1
            for problem in check_rendered(
                packet["subject"],
                document["name"],
                pdf=contents["pdf"],
                docx=contents["docx"],
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
            "Re-issue them with `docgen batch` (it renders again when a folder has changed)."
        )
        error.check = check  # type: ignore[attr-defined]
        raise error
    return check
