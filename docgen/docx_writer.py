"""DOCX from the rendered HTML: the PDF's text in real Word styles, for counsel to redline.

The HTML a template produced is parsed with the standard library's ``html.parser`` and mapped to
python-docx: ``h1.title`` -> Title, ``p.subtitle`` -> Subtitle, ``h2`` -> Heading 1, ``h3`` ->
Heading 2, paragraphs -> justified body text, enumerated lists -> hanging-indent list paragraphs,
tables -> Word tables (the signature block is a borderless table), form fields -> check boxes and
underlined blanks. Clauses drafted for gaps in the source form (``data-provenance="drafted"``)
carry a Word comment. The file is reproducible: core properties, comment dates and zip entry
times come from the facts, never the clock.
"""

from __future__ import annotations

import functools
import io
import re
import zipfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from html.parser import HTMLParser
from typing import TYPE_CHECKING, Any

from docgen.errors import RenderError

if TYPE_CHECKING:
    from docgen.render import DocumentMeta

DRAFTED_COMMENT = (
    "Drafted by docgen: the source form lacks this clause. It was drafted from the form's own "
    'words (DESIGN.md, "Gaps in the source forms") and needs counsel\'s approval.'
)
COMMENT_AUTHOR = "docgen"

_VOID = {"br", "input", "meta", "link", "img", "hr", "col", "wbr"}
_BLOCK_CONTAINERS = {"section", "header", "footer", "div", "main", "article", "tbody", "thead"}
_SPACE = re.compile(r"[ \t\r\n\f]+")


# ------------------------------------------------------------------------------ HTML tree


@dataclass
class Node:
    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Node | str] = field(default_factory=list)

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    @property
    def drafted(self) -> bool:
        return self.attrs.get("data-provenance") == "drafted"

    def elements(self, tag: str | None = None) -> list[Node]:
        return [c for c in self.children if isinstance(c, Node) and (tag is None or c.tag == tag)]

    def find(self, tag: str) -> Node | None:
        for child in self.children:
            if isinstance(child, Node):
                if child.tag == tag:
                    return child
                found = child.find(tag)
                if found is not None:
                    return found
        return None


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document")
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: (v if v is not None else "") for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in _VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: (v if v is not None else "") for k, v in attrs})
        self.stack[-1].children.append(node)

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self.stack) - 1, 0, -1):
            if self.stack[index].tag == tag:
                del self.stack[index:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse_html(html: str) -> Node:
    """The HTML as a small tree of :class:`Node` (text is unescaped: ``&lt;b&gt;`` -> ``<b>``)."""
    builder = _TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder.root


# ------------------------------------------------------------------------------ the writer


@dataclass
class _RunStyle:
    bold: bool = False
    italic: bool = False
    underline: bool = False


class _Writer:
    def __init__(self, meta: DocumentMeta) -> None:
        from docx import Document

        self.meta = meta
        self.document = Document(io.BytesIO(_styled_template()))
        self.style_ids = {style.name: style.style_id for style in self.document.styles}
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
            start = len(container.paragraphs)
            if "page-two" in node.classes and tag == "section":
                self._page_break_before = True
            self.blocks(node, container)
            if node.drafted:
                self._comment(container.paragraphs[start:])
            return
        if tag == "h1":
            self.paragraph(node, container, "Title")
        elif tag == "h2":
            self.paragraph(node, container, "Heading 1")
        elif tag in ("h3", "h4"):
            self.paragraph(node, container, "Heading 2")
        elif tag == "p":
            style = _paragraph_style(node)
            if style == "Subtitle" and self._last_style in ("Subtitle", "Subtitle Second"):
                style = "Subtitle Second"  # the plan's name under the company's, in italics
            self.paragraph(node, container, style)
        elif tag in ("ol", "ul"):
            style = "Election Choice" if "choices" in node.classes else "Enumerated Clause"
            items = node.elements("li")
            made = [self.paragraph(item, container, style, enum_tab=True) for item in items]
            if node.drafted:
                self._comment(made)
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
        _trim(paragraph)
        if node.drafted:
            self._comment([paragraph])
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
        for r, row in enumerate(rows):
            for c, cell_node in enumerate(row.elements()):
                cell = table.cell(r, c)
                paragraph = cell.paragraphs[0]
                if signature:
                    self.signature_cell(cell_node, cell)
                else:
                    self.set_style(paragraph, "Table Text")
                    style = _RunStyle(bold=cell_node.tag == "th")
                    if cell_node.tag == "th":
                        _shade(cell)
                    self.inline(cell_node, paragraph, style)
                    _trim(paragraph)
                made.extend(cell.paragraphs)
        if signature:
            _no_borders(table)
        else:
            _fit_table(table, width)
            spacer = container.add_paragraph()
            self.set_style(spacer, "Table Spacer")
        if node.drafted:
            self._comment(made)

    def signature_cell(self, node: Node, cell: Any) -> None:
        """A signature-block cell: the line (filled or blank) above its small label."""
        line = cell.paragraphs[0]
        self.set_style(line, "Signature Line")
        for part in node.elements("span"):
            if "field" in part.classes:
                self.inline(part, line, _RunStyle())
                _trim(line)
            elif "label" in part.classes:
                label = cell.add_paragraph()
                self.set_style(label, "Signature Label")
                self.inline(part, label, _RunStyle())
                _trim(label)

    def set_style(self, paragraph: Any, name: str) -> None:
        """Apply a paragraph style by its id (python-docx's lookup by name scans every style)."""
        paragraph._p.style = self.style_ids[name]

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
            else:
                start = len(paragraph.runs)
                self.inline(child, paragraph, style)
                if child.drafted and len(paragraph.runs) > start:
                    self._comment_runs(paragraph.runs[start:])
            after_enum = "enum" in classes and (enum_tab or node.tag in ("h2", "h3", "p"))

    def run(self, paragraph: Any, text: str, style: _RunStyle) -> Any:
        run = paragraph.add_run(text)
        if style.bold:
            run.bold = True
        if style.italic:
            run.italic = True
        if style.underline:
            run.underline = True
        return run

    def form_field(self, node: Node, paragraph: Any) -> None:
        kind = node.attrs.get("type", "text")
        if kind in ("checkbox", "radio"):
            checked = "checked" in node.attrs
            _add_symbol(paragraph, "F0FE" if checked else "F0A8")
            paragraph.add_run("\u2002")  # an en space between the box and its label
        else:
            self.run(paragraph, "\u00a0" * 16, _RunStyle(underline=True))

    # -- comments -------------------------------------------------------------------------------

    def _comment(self, paragraphs: list[Any]) -> None:
        runs = [run for paragraph in paragraphs for run in paragraph.runs]
        if runs:
            self._comment_runs(runs)

    def _comment_runs(self, runs: list[Any]) -> None:
        comment = self.document.add_comment(
            runs, text=DRAFTED_COMMENT, author=COMMENT_AUTHOR, initials="DG"
        )
        comment._comment_elm.date = self.comment_date  # never the clock


@functools.cache
def _styled_template() -> bytes:
    """python-docx's blank document with docgen's page set-up and styles, built once."""
    from docx import Document

    document = Document()
    _set_up_page(document)
    _set_up_styles(document)
    _prune_styles(document)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def _prune_styles(document: Any) -> None:
    """Drop the blank template's hundred-odd table styles nobody uses (smaller, faster files)."""
    keep = {"TableNormal", "TableGrid"}
    root = document.styles.element
    for style in root.findall(_qn("w:style")):
        if style.get(_qn("w:type")) == "table" and style.get(_qn("w:styleId")) not in keep:
            root.remove(style)


def _paragraph_style(node: Node) -> str:
    classes = node.classes
    if "subtitle" in classes:
        return "Subtitle"
    if classes & {"letter-date", "addressee", "salutation", "director-line", "on-file"}:
        return "Letter Block"
    if classes & {"clause", "numbered"}:
        return "Clause"
    return "Body Text"


def _trim(paragraph: Any) -> None:
    """Drop leading and trailing spaces the HTML's line breaks left in the first and last runs."""
    runs = [run for run in paragraph.runs if run.text]
    if not runs:
        return
    runs[0].text = runs[0].text.lstrip(" ")
    runs[-1].text = runs[-1].text.rstrip(" ")


# ------------------------------------------------------------------------ page and styles


def _set_up_page(document: Any) -> None:
    from docx.shared import Inches

    for section in document.sections:
        section.page_width = Inches(8.5)
        section.page_height = Inches(11)
        section.left_margin = section.right_margin = Inches(1)
        section.top_margin = section.bottom_margin = Inches(1)
        section.footer_distance = Inches(0.5)
        footer = section.footer.paragraphs[0]
        footer.style = document.styles["Footer"]
        footer.alignment = 1  # centre
        footer.add_run("Page ")
        _add_field(footer, "PAGE", "1")
        footer.add_run(" of ")
        _add_field(footer, "NUMPAGES", "1")


def _set_up_styles(document: Any) -> None:
    from docx.enum.style import WD_STYLE_TYPE
    from docx.enum.text import WD_ALIGN_PARAGRAPH
    from docx.shared import Inches, Pt, RGBColor

    styles = document.styles
    black = RGBColor(0, 0, 0)
    face = "Times New Roman"  # metric-compatible with the PDF's Liberation Serif

    def font(style: Any, size: float, bold: bool | None = None, italic: bool | None = None) -> None:
        style.font.name = face
        style.font.size = Pt(size)
        style.font.color.rgb = black
        style.font.bold = bold
        style.font.italic = italic
        rpr = style.element.get_or_add_rPr()
        fonts = rpr.get_or_add_rFonts()
        for attr in ("w:ascii", "w:hAnsi", "w:cs", "w:eastAsia"):
            fonts.set(_qn(attr), face)
        for attr in ("w:asciiTheme", "w:hAnsiTheme", "w:cstheme", "w:eastAsiaTheme"):
            fonts.attrib.pop(_qn(attr), None)

    normal = styles["Normal"]
    font(normal, 11.5)
    normal.paragraph_format.space_after = Pt(9)
    normal.paragraph_format.space_before = Pt(0)
    normal.paragraph_format.line_spacing = 1.1
    normal.paragraph_format.widow_control = True

    title = styles["Title"]
    font(title, 14, bold=True)
    title.font.all_caps = True
    title.paragraph_format.alignment = WD_ALIGN_PARAGRAPH.CENTER
    title.paragraph_format.space_after = Pt(4)
    _remove_paragraph_borders(title)

    subtitle = styles["Subtitle"]
    font(subtitle, 11.5, bold=True, italic=False)
    subtitle.paragraph_format.alignment = WD_ALIGN_PARAGRAPH.CENTER
    subtitle.paragraph_format.space_after = Pt(2)
    for spacing in subtitle.element.get_or_add_rPr().findall(_qn("w:spacing")):
        spacing.getparent().remove(spacing)

    for name in ("Heading 1", "Heading 2"):
        heading = styles[name]
        font(heading, 11.5, bold=True, italic=False)
        heading.paragraph_format.space_before = Pt(12 if name == "Heading 1" else 9)
        heading.paragraph_format.space_after = Pt(6)
        heading.paragraph_format.keep_with_next = True
        heading.paragraph_format.tab_stops.add_tab_stop(Inches(0.5))

    def paragraph_style(name: str, base: str = "Normal") -> Any:
        style = styles.add_style(name, WD_STYLE_TYPE.PARAGRAPH)
        style.base_style = styles[base]
        style.quick_style = True
        return style

    second = paragraph_style("Subtitle Second", "Subtitle")
    font(second, 11.5, bold=False, italic=True)
    second.paragraph_format.space_after = Pt(18)

    spacer = paragraph_style("Table Spacer")
    font(spacer, 4)
    spacer.paragraph_format.space_after = Pt(6)

    body = styles["Body Text"]
    body.base_style = normal
    font(body, 11.5)
    body.paragraph_format.alignment = WD_ALIGN_PARAGRAPH.JUSTIFY
    body.paragraph_format.space_after = Pt(9)

    clause = paragraph_style("Clause", "Body Text")
    clause.paragraph_format.first_line_indent = Inches(0.5)
    clause.paragraph_format.tab_stops.add_tab_stop(Inches(0.8))

    enumerated = paragraph_style("Enumerated Clause", "List Paragraph")
    font(enumerated, 11.5)
    enumerated.paragraph_format.alignment = WD_ALIGN_PARAGRAPH.JUSTIFY
    enumerated.paragraph_format.left_indent = Inches(1)
    enumerated.paragraph_format.first_line_indent = Inches(-0.5)
    enumerated.paragraph_format.space_after = Pt(4)
    enumerated.paragraph_format.tab_stops.add_tab_stop(Inches(1))

    choice = paragraph_style("Election Choice", "List Paragraph")
    font(choice, 11.5)
    choice.paragraph_format.left_indent = Inches(0.75)
    choice.paragraph_format.first_line_indent = Inches(-0.5)
    choice.paragraph_format.space_after = Pt(8)
    choice.paragraph_format.tab_stops.add_tab_stop(Inches(0.75))

    letter = paragraph_style("Letter Block")
    letter.paragraph_format.alignment = WD_ALIGN_PARAGRAPH.LEFT
    letter.paragraph_format.space_after = Pt(14)

    table_text = paragraph_style("Table Text")
    table_text.paragraph_format.space_after = Pt(0)
    table_text.paragraph_format.alignment = WD_ALIGN_PARAGRAPH.LEFT

    signature_line = paragraph_style("Signature Line")
    signature_line.paragraph_format.space_before = Pt(18)
    signature_line.paragraph_format.space_after = Pt(0)
    _bottom_border(signature_line)

    label = paragraph_style("Signature Label")
    font(label, 9.5)
    label.paragraph_format.space_after = Pt(10)

    footer = styles["Footer"]
    font(footer, 9)


def _qn(name: str) -> str:
    from docx.oxml.ns import qn

    return qn(name)


def _remove_paragraph_borders(style: Any) -> None:
    ppr = style.element.get_or_add_pPr()
    for border in ppr.findall(_qn("w:pBdr")):
        ppr.remove(border)


def _bottom_border(style: Any) -> None:
    from docx.oxml import OxmlElement

    ppr = style.element.get_or_add_pPr()
    borders = OxmlElement("w:pBdr")
    bottom = OxmlElement("w:bottom")
    for key, value in (("w:val", "single"), ("w:sz", "6"), ("w:space", "1"), ("w:color", "000000")):
        bottom.set(_qn(key), value)
    borders.append(bottom)
    ppr.append(borders)


def _no_borders(table: Any) -> None:
    from docx.oxml import OxmlElement

    tbl_pr = table._tbl.tblPr
    borders = OxmlElement("w:tblBorders")
    for edge in ("top", "left", "bottom", "right", "insideH", "insideV"):
        element = OxmlElement(f"w:{edge}")
        element.set(_qn("w:val"), "nil")
        borders.append(element)
    tbl_pr.append(borders)


def _fit_table(table: Any, columns: int) -> None:
    """A data table: centred, 80% of the text width (as in the PDF), first column wider."""
    from docx.enum.table import WD_TABLE_ALIGNMENT
    from docx.shared import Inches

    table.alignment = WD_TABLE_ALIGNMENT.CENTER
    total = 6.5 * 0.8
    widths = [total * 0.55, total * 0.45] if columns == 2 else [total / columns] * columns
    table.autofit = False
    for column, width in zip(table.columns, widths, strict=False):
        column.width = Inches(width)
    for row in table.rows:
        for cell, width in zip(row.cells, widths, strict=False):
            cell.width = Inches(width)


def _shade(cell: Any) -> None:
    from docx.oxml import OxmlElement

    shading = OxmlElement("w:shd")
    shading.set(_qn("w:val"), "clear")
    shading.set(_qn("w:color"), "auto")
    shading.set(_qn("w:fill"), "F2F2F2")
    cell._tc.get_or_add_tcPr().append(shading)


def _add_field(paragraph: Any, instruction: str, shown: str) -> None:
    """A complex field (PAGE, NUMPAGES) Word and LibreOffice update when they lay out pages."""
    from docx.oxml import OxmlElement

    def fld_char(kind: str) -> Any:
        element = OxmlElement("w:fldChar")
        element.set(_qn("w:fldCharType"), kind)
        return element

    run = paragraph.add_run()
    run._r.append(fld_char("begin"))
    run = paragraph.add_run()
    text = OxmlElement("w:instrText")
    text.set(_qn("xml:space"), "preserve")
    text.text = f" {instruction} "
    run._r.append(text)
    run = paragraph.add_run()
    run._r.append(fld_char("separate"))
    paragraph.add_run(shown)
    run = paragraph.add_run()
    run._r.append(fld_char("end"))


def _add_symbol(paragraph: Any, char: str) -> None:
    """A Wingdings check box (w:sym): drawn by Word, not part of the paragraph's text."""
    from docx.oxml import OxmlElement

    run = paragraph.add_run()
    symbol = OxmlElement("w:sym")
    symbol.set(_qn("w:font"), "Wingdings")
    symbol.set(_qn("w:char"), char)
    run._r.append(symbol)


# ------------------------------------------------------------------------------ public API


def html_to_docx(html: str, meta: DocumentMeta) -> bytes:
    """A DOCX with the same text as the HTML, Word styles, and metadata from ``meta``."""
    root = parse_html(html)
    body = root.find("body")
    if body is None:
        raise RenderError("the rendered HTML has no <body>")
    writer = _Writer(meta)
    writer.blocks(body)
    document = writer.document
    # python-docx's blank template starts with one empty paragraph: drop it.
    first = document.paragraphs[0] if document.paragraphs else None
    if first is not None and not first.text and not first.runs:
        first._p.getparent().remove(first._p)
    _core_properties(document, meta)
    buffer = io.BytesIO()
    document.save(buffer)
    return _reproducible_zip(buffer.getvalue(), meta)


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


def _reproducible_zip(data: bytes, meta: DocumentMeta) -> bytes:
    """Rewrite the package with fixed entry times: python-docx stamps each entry with the clock."""
    stamp = (max(meta.modified.year, 1980), meta.modified.month, meta.modified.day, 0, 0, 0)
    source = zipfile.ZipFile(io.BytesIO(data))
    output = io.BytesIO()
    with zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            if item.filename in _DROPPED_PARTS:
                continue
            blob = source.read(item.filename)
            if item.filename in _PARTS_WITH_REFERENCES:
                blob = _drop_references(blob)
            info = zipfile.ZipInfo(item.filename, date_time=stamp)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            target.writestr(info, blob)
    return output.getvalue()


def _drop_references(blob: bytes) -> bytes:
    """Remove relationships and content types that point at the dropped parts."""
    text = blob.decode("utf-8")
    text = re.sub(rf'<Relationship [^>]*Target="[^"]*{_DROPPED_TARGETS}"[^>]*/>', "", text)
    text = re.sub(rf'<Override [^>]*PartName="/[^"]*{_DROPPED_TARGETS}"[^>]*/>', "", text)
    return text.encode("utf-8")


# ------------------------------------------------------------------------------ reading back


def text_of_docx(data: bytes) -> str:
    """The body text in document order (paragraphs and table cells), whitespace normalised."""
    from docx import Document
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    from docgen.render import normalise_text

    document = Document(io.BytesIO(data))
    parts: list[str] = []
    for block in document.iter_inner_content():
        if isinstance(block, Paragraph):
            parts.append(block.text)
        elif isinstance(block, Table):
            for row in block.rows:
                for cell in row.cells:
                    parts.extend(paragraph.text for paragraph in cell.paragraphs)
    return normalise_text("\n".join(parts))
