"""DOCX from the rendered HTML: the PDF's text in real Word styles, for counsel to redline.

The HTML a template produced is parsed with the standard library's ``html.parser`` and mapped to
python-docx: ``h1.title`` -> Title, ``p.subtitle`` -> Subtitle, ``h2`` -> Heading 1, ``h3`` ->
Heading 2, paragraphs -> justified body text, enumerated lists -> hanging-indent list paragraphs,
tables -> Word tables (the signature block is a borderless table), form fields -> check boxes and
underlined blanks. The issued file carries no comments. A review copy for counsel (``review``)
carries one Word comment per drafted clause (the element marked ``data-clause``), with that
clause's own rationale and approval status, under a line saying it is not for issue. The file is
reproducible: core properties, comment dates and zip entry times come from the facts, never the
clock.
"""

from __future__ import annotations

import functools
import io
import re
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from docgen.core.documents import DocumentMeta
from docgen.core.errors import RenderError
from docgen.render.docx_redline import Change, RedlineWriter
from docgen.render.docx_style_sheet import HOUSE_TYPE_SIZE
from docgen.render.docx_styles import (
    add_symbol,
    blank_document,
    fit_table,
    no_borders,
    paragraph_style,
    set_paragraph_style,
    set_run_format,
    set_text,
    shade,
    trim,
)
from docgen.render.html_tree import Node, parse_html

COMMENT_AUTHOR = "docgen"
REVIEW_BANNER = (
    "Review copy for counsel, not for issue. Each clause docgen drafted where the source form is "
    "silent carries a comment: its id, why it reads as it does, and whether counsel has approved "
    "its present wording."
)

_BLOCK_CONTAINERS = {"section", "header", "footer", "div", "main", "article", "tbody", "thead"}
_SPACE = re.compile(r"[ \t\r\n\f]+")


@dataclass
class _RunStyle:
    bold: bool = False
    italic: bool = False
    underline: bool = False


class _Writer:
    def __init__(self, meta: DocumentMeta, review: dict[str, str] | None = None) -> None:
        self.meta = meta
        self.review = review  # clause id -> its comment; None: the issued file, no comments
        self.commented: set[str] = set()
        size = meta.type_size or HOUSE_TYPE_SIZE
        self.document = blank_document(size)
        self.style_ids = _style_ids(size)
        self.comment_date = datetime(
            meta.modified.year, meta.modified.month, meta.modified.day, tzinfo=UTC
        )

    # -- blocks -------------------------------------------------------------------------------

    def blocks(self, node: Node, container: Any = None) -> None:
        container = container if container is not None else self.document
        for child in node.children:
            if not isinstance(child, Node):
                continue
            self.block(child, container)

    def block(self, node: Node, container: Any) -> None:
        tag = node.tag
        if tag in ("head", "style", "script", "title"):
            return
        if tag in ("html", "body", "#document") or tag in _BLOCK_CONTAINERS:
            # (counting the container's paragraphs makes an object for each: only for a comment)
            start = len(container.paragraphs) if self._commentable(node) else None
            if "page-two" in node.classes and tag == "section":
                self._page_break_before = True
            self.blocks(node, container)
            if start is not None:
                self._comment(node, container.paragraphs[start:])
            return
        if tag == "h1":
            self.paragraph(node, container, "Title")
        elif tag == "h2":
            self.paragraph(node, container, "Heading 1")
        elif tag in ("h3", "h4"):
            self.paragraph(node, container, "Heading 2")
        elif tag == "p":
            style = paragraph_style(node)
            if style == "Subtitle" and self._last_style in ("Subtitle", "Subtitle Second"):
                style = "Subtitle Second"  # the plan's name under the company's, in italics
            self.paragraph(node, container, style)
        elif tag in ("ol", "ul"):
            style = "Election Choice" if "choices" in node.classes else "Enumerated Clause"
            items = node.elements("li")
            made = [self.paragraph(item, container, style, enum_tab=True) for item in items]
            self._comment(node, made)
        elif tag == "table":
            self.table(node, container)
        else:
            self.paragraph(node, container, "Normal")

    _page_break_before = False
    _last_style = ""

    def paragraph(self, node: Node, container: Any, style: str, enum_tab: bool = False) -> Any:
        paragraph = container.add_paragraph()
        self.set_style(paragraph, style)
        self._last_style = style
        if self._page_break_before:
            paragraph.paragraph_format.page_break_before = True
            self._page_break_before = False
        self.inline(node, paragraph, _RunStyle(), enum_tab=enum_tab)
        trim(paragraph)
        self._comment(node, [paragraph])
        return paragraph

    def table(self, node: Node, container: Any) -> None:
        rows = [row for body in [node, *node.elements()] for row in body.elements("tr")]
        if not rows:
            return
        width = max(len(row.elements()) for row in rows)
        table = container.add_table(rows=len(rows), cols=width)
        signature = "signature" in node.classes
        table.style = self.document.styles["Table Grid"] if not signature else None
        made: list[Any] = []
        for table_row, row in zip(table.rows, rows, strict=True):
            for cell, cell_node in zip(table_row.cells, row.elements(), strict=False):
                paragraph = cell.paragraphs[0]
                if signature:
                    self.signature_cell(cell_node, cell)
                else:
                    self.set_style(paragraph, "Table Text")
                    style = _RunStyle(bold=cell_node.tag == "th")
                    if cell_node.tag == "th":
                        shade(cell)
                    self.inline(cell_node, paragraph, style)
                    trim(paragraph)
                made.extend(cell.paragraphs)
        if signature:
            no_borders(table)
        else:
            fit_table(table, width)
            spacer = container.add_paragraph()
            self.set_style(spacer, "Table Spacer")
        self._comment(node, made)

    def signature_cell(self, node: Node, cell: Any) -> None:
        """A signature-block cell: the line (filled or blank) above its small label."""
        line = cell.paragraphs[0]
        self.set_style(line, "Signature Line")
        for part in node.elements("span"):
            if "field" in part.classes:
                self.inline(part, line, _RunStyle())
                trim(line)
            elif "label" in part.classes:
                label = cell.add_paragraph()
                self.set_style(label, "Signature Label")
                self.inline(part, label, _RunStyle())
                trim(label)

    def set_style(self, paragraph: Any, name: str) -> None:
        """Apply a paragraph style by its id (python-docx's lookup by name scans every style)."""
        set_paragraph_style(paragraph, self.style_ids[name])

    # -- inline -------------------------------------------------------------------------------

    def inline(self, node: Node, paragraph: Any, style: _RunStyle, enum_tab: bool = False) -> None:
        after_enum = False
        for child in node.children:
            if isinstance(child, str):
                text = _SPACE.sub(" ", child)
                if after_enum and text.startswith(" "):
                    paragraph.add_run("\t")
                    text = text[1:]
                after_enum = False
                if text:
                    self.run(paragraph, text, style)
                continue
            tag = child.tag
            classes = child.classes
            if tag == "br":
                paragraph.add_run().add_break()
            elif tag == "input":
                self.form_field(child, paragraph)
                after_enum = False
                continue
            elif tag in ("strong", "b", "th"):
                self.inline(child, paragraph, _RunStyle(True, style.italic, style.underline))
            elif tag in ("em", "i"):
                self.inline(child, paragraph, _RunStyle(style.bold, True, style.underline))
            elif tag == "u" or "caption" in classes or "filled" in classes:
                self.inline(child, paragraph, _RunStyle(style.bold, style.italic, True))
            elif "blank-line" in classes:
                self.run(paragraph, "\u00a0" * 16, _RunStyle(underline=True))
            elif self._commentable(child):
                start = len(paragraph.runs)
                self.inline(child, paragraph, style)
                self._comment_runs(child, paragraph.runs[start:])
            else:
                self.inline(child, paragraph, style)
            after_enum = "enum" in classes and (enum_tab or node.tag in ("h2", "h3", "p"))

    def run(self, paragraph: Any, text: str, style: _RunStyle) -> Any:
        run = paragraph.add_run()
        set_text(run, text)
        set_run_format(run, style.bold, style.italic, style.underline)
        return run

    def form_field(self, node: Node, paragraph: Any) -> None:
        kind = node.attrs.get("type", "text")
        if kind in ("checkbox", "radio"):
            checked = "checked" in node.attrs
            add_symbol(paragraph, "F0FE" if checked else "F0A8")
            paragraph.add_run("\u2002")  # an en space between the box and its label
        else:
            self.run(paragraph, "\u00a0" * 16, _RunStyle(underline=True))

    # -- comments -------------------------------------------------------------------------------

    def _commentable(self, node: Node) -> str | None:
        """The drafted clause ``node`` holds, when this review copy has yet to comment on it."""
        clause = node.attrs.get("data-clause") if node.drafted else None
        if self.review is None or not clause or clause in self.commented:
            return None
        return clause

    def _comment(self, node: Node, paragraphs: list[Any]) -> None:
        if self._commentable(node):
            self._comment_runs(node, [run for paragraph in paragraphs for run in paragraph.runs])

    def _comment_runs(self, node: Node, runs: list[Any]) -> None:
        """In a review copy, one comment on the words of each drafted clause."""
        clause = self._commentable(node)
        if clause is None or self.review is None or not runs:
            return
        self.commented.add(clause)
        text = self.review.get(clause) or f"Drafted clause {clause}: not in docgen's registry."
        comment = self.document.add_comment(runs, text=text, author=COMMENT_AUTHOR, initials="DG")
        comment._comment_elm.date = self.comment_date  # never the clock

    def banner(self, note: str | None = None) -> None:
        paragraph = self.document.add_paragraph()
        self.set_style(paragraph, "Normal")
        self.run(paragraph, REVIEW_BANNER + (f" {note}" if note else ""), _RunStyle(bold=True))


@functools.cache
def _style_ids(size: float) -> dict[str, str]:
    """Each style's id by name, the same in every document made from the styled template."""
    return {style.name: style.style_id for style in blank_document(size).styles}


# ------------------------------------------------------------------------------ public API


def html_to_docx(
    html: str,
    meta: DocumentMeta,
    review: dict[str, str] | None = None,
    changes: Sequence[Change] = (),
    review_note: str | None = None,
) -> bytes:
    """A DOCX with the same text as the HTML, Word styles, and metadata from ``meta``.

    ``review`` (clause id -> comment) makes a review copy for counsel: a line saying so, then
    the document with one comment per drafted clause, then ``changes``, each changed wording as
    tracked changes (docgen.render.docx_redline). Without it, the issued file: no comments.
    ``review_note`` is said after the review copy's first line (why it could not yet issue).
    """
    root = parse_html(html)
    body = root.find("body")
    if body is None:
        raise RenderError("the rendered HTML has no <body>")
    writer = _Writer(meta, review)
    if review is not None:
        writer.banner(review_note)
    writer.blocks(body)
    if review is not None:
        RedlineWriter(writer, writer.comment_date).write(changes)
    document = writer.document
    # python-docx's blank template starts with one empty paragraph: drop it.
    first = document.paragraphs[0] if document.paragraphs else None
    if first is not None and not first.text and not first.runs:
        first._p.getparent().remove(first._p)
    _core_properties(document, meta)
    _current_word(document)
    return _reproducible_package(document, meta)


# Word 2013 and later (compatibilityMode 15); python-docx's blank template says 14 (Word 2010),
# which makes current Word open every document in Compatibility Mode.
COMPATIBILITY_MODE = "15"


def _current_word(document: Any) -> None:
    from docx.oxml.ns import qn

    for setting in document.settings.element.iter(qn("w:compatSetting")):
        if setting.get(qn("w:name")) == "compatibilityMode":
            setting.set(qn("w:val"), COMPATIBILITY_MODE)


def _fit(text: str, limit: int = 255) -> str:
    """Core properties hold at most 255 characters (a very long name is shortened, with "…")."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _core_properties(document: Any, meta: DocumentMeta) -> None:
    stamp = datetime(meta.created.year, meta.created.month, meta.created.day)
    modified = datetime(meta.modified.year, meta.modified.month, meta.modified.day)
    props = document.core_properties
    props.title = _fit(meta.title)
    props.author = _fit(meta.author)
    props.subject = _fit(meta.subject)
    props.keywords = _fit(", ".join(meta.keywords))
    props.comments = "Made by docgen from the facts file; the same facts give the same file."
    props.last_modified_by = _fit(meta.author)
    props.category = "Plan document"
    props.language = meta.language
    props.revision = 1
    props.created = stamp
    props.modified = modified
    props.last_printed = modified


# Parts of python-docx's blank template a legal document does not need: a thumbnail of an empty
# page, and a second 400 KB copy of the styles for Word 2010.
_DROPPED_PARTS = {"docProps/thumbnail.jpeg", "word/stylesWithEffects.xml"}
_PARTS_WITH_REFERENCES = {"[Content_Types].xml", "_rels/.rels", "word/_rels/document.xml.rels"}
_DROPPED_TARGETS = r"(?:docProps/thumbnail\.jpeg|stylesWithEffects\.xml)"


def _reproducible_package(document: Any, meta: DocumentMeta) -> bytes:
    """The DOCX as ``Document.save`` writes it, its zip written again: every entry stamped with
    the document's date (python-docx stamps each with the clock), without the dropped parts."""
    saved = io.BytesIO()
    document.save(saved)
    stamp = (max(meta.modified.year, 1980), meta.modified.month, meta.modified.day, 0, 0, 0)
    written = io.BytesIO()
    with (
        zipfile.ZipFile(saved) as source,
        zipfile.ZipFile(written, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        for name in source.namelist():
            if name in _DROPPED_PARTS:
                continue
            blob = source.read(name)
            if name in _PARTS_WITH_REFERENCES:
                blob = _drop_references(blob)
            info = zipfile.ZipInfo(name, date_time=stamp)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            target.writestr(info, blob)
    return written.getvalue()


def _drop_references(blob: bytes) -> bytes:
    """Remove relationships and content types that point at the dropped parts."""
    text = blob.decode("utf-8")
    text = re.sub(rf'<Relationship [^>]*Target="[^"]*{_DROPPED_TARGETS}"[^>]*/>', "", text)
    text = re.sub(rf'<Override [^>]*PartName="/[^"]*{_DROPPED_TARGETS}"[^>]*/>', "", text)
    return text.encode("utf-8")


# ------------------------------------------------------------------------------ reading back


def prepare() -> None:
    """Build the styled template and its style table now, once (a batch worker, before its first
    document)."""
    _style_ids(HOUSE_TYPE_SIZE)
