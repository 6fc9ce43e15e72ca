"""The DOCX's page and Word styles (Title, Heading 1, body text, list paragraphs, the footer with
its PAGE field), set in the document's own type size, and the table and symbol helpers the writer
uses."""

from __future__ import annotations

import functools
import io
import re
from typing import Any

from docgen.render.html_tree import Node

# The house type size, print.css's ``html { font-size }``; a document may set its own
# (DocumentSpec.type_size: Exhibit I and the RRP form are two-page forms set at 10.5 pt).
HOUSE_TYPE_SIZE = 11.5
# A document set below the house size is a form that must keep to its pages: its paragraphs are
# spaced tighter too, two thirds of the house spacing, as print.css spaces it (6 pt, not 9 pt).
FORM_SPACING = 2 / 3


@functools.cache
def styled_template(type_size: float = HOUSE_TYPE_SIZE) -> bytes:
    """python-docx's blank document with docgen's page set-up and styles for body text of
    ``type_size`` points, built once per size."""
    from docx import Document

    document = Document()
    _set_up_page(document)
    _set_up_styles(document, type_size)
    _prune_styles(document)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


@functools.cache
def _template_package(type_size: float) -> Any:
    """The styled template's parts as read from its zip (python-docx's PackageReader: bytes that
    each document parses into its own objects)."""
    from docx.opc.pkgreader import PackageReader

    return PackageReader.from_file(io.BytesIO(styled_template(type_size)))


def blank_document(type_size: float = HOUSE_TYPE_SIZE) -> Any:
    """A new python-docx Document made from the styled template: ``Document(template)``, without
    unzipping the template again for each document."""
    from docx.opc.package import Unmarshaller
    from docx.opc.part import PartFactory
    from docx.package import Package

    package = Package()
    Unmarshaller.unmarshal(_template_package(type_size), package, PartFactory)
    return package.main_document_part.document


def _prune_styles(document: Any) -> None:
    """Drop the blank template's hundred-odd table styles nobody uses (smaller, faster files)."""
    keep = {"TableNormal", "TableGrid"}
    root = document.styles.element
    for style in root.findall(_qn("w:style")):
        if style.get(_qn("w:type")) == "table" and style.get(_qn("w:styleId")) not in keep:
            root.remove(style)


def paragraph_style(node: Node) -> str:
    classes = node.classes
    if "subtitle" in classes:
        return "Subtitle"
    if classes & {"letter-date", "addressee", "salutation", "director-line", "on-file"}:
        return "Letter Block"
    if classes & {"clause", "numbered"}:
        return "Clause"
    return "Body Text"


@functools.cache
def _run_content() -> Any:
    """python-docx's XPath for a run's text (``CT_R.text``), compiled once: lxml compiles the
    expression anew for each call python-docx makes with it."""
    from docx.oxml.ns import nsmap
    from lxml import etree

    return etree.XPath("w:br | w:cr | w:noBreakHyphen | w:ptab | w:t | w:tab", namespaces=nsmap)


def run_text(run: Any) -> str:
    """``run.text``: each child's text as python-docx gives it (a tab, a line break, ...)."""
    return "".join(str(element) for element in _run_content()(run._r))


def trim(paragraph: Any) -> None:
    """Drop leading and trailing spaces the HTML's line breaks left in the first and last runs."""
    runs = paragraph.runs  # each run's text read once
    first = next(((run, text) for run in runs if (text := run_text(run))), None)
    if first is None:
        return
    last = next((run, text) for run in reversed(runs) if (text := run_text(run)))
    if first[1].startswith(" "):
        set_text(first[0], first[1].lstrip(" "))
        if last[0] is first[0]:
            last = (first[0], first[1].lstrip(" "))
    if last[1].endswith(" "):
        set_text(last[0], last[1].rstrip(" "))


def set_paragraph_style(paragraph: Any, style_id: str) -> None:
    """``paragraph._p.style = style_id``. A new paragraph gets its ``<w:pPr><w:pStyle/></w:pPr>``
    built directly: the same XML as python-docx's setter, without its search for where the
    schema puts each element."""
    p = paragraph._p
    if p.pPr is not None:
        p.style = style_id
        return
    from docx.oxml import OxmlElement

    properties = OxmlElement("w:pPr")
    properties.append(OxmlElement("w:pStyle", {_qn("w:val"): style_id}))
    p.insert(0, properties)


def set_run_format(run: Any, bold: bool, italic: bool, underline: bool) -> None:
    """``run.bold = run.italic = run.underline = True`` for those asked, on a new run: the XML
    python-docx writes (``<w:b/>``, ``<w:i/>``, ``<w:u w:val="single"/>``, in the schema's
    order), built directly."""
    if not (bold or italic or underline):
        return
    from docx.oxml import OxmlElement

    properties = OxmlElement("w:rPr")
    if bold:
        properties.append(OxmlElement("w:b"))
    if italic:
        properties.append(OxmlElement("w:i"))
    if underline:
        properties.append(OxmlElement("w:u", {_qn("w:val"): "single"}))
    run._r.insert(0, properties)


_BREAKS = re.compile(r"[\t\r\n]")


def set_text(run: Any, text: str) -> None:
    """``run.text = text``: the same XML, without python-docx's walk over every character (to
    find tabs and line breaks, which become elements of their own) when the text has none. A
    DOCX spent a quarter of its time there."""
    if _BREAKS.search(text):
        run.text = text
        return
    element = run._r
    if len(element) > (element.rPr is not None):
        element.clear_content()
    if text:
        element.add_t(text)


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


def _set_up_styles(document: Any, size: float) -> None:
    from docx.enum.style import WD_STYLE_TYPE
    from docx.enum.text import WD_ALIGN_PARAGRAPH
    from docx.shared import Inches, Pt, RGBColor

    factor = FORM_SPACING if size < HOUSE_TYPE_SIZE else 1.0

    def space(points: float) -> Any:
        """A space between paragraphs: the house's, or a form's tighter one."""
        return Pt(points * factor)

    styles = document.styles
    black = RGBColor(0, 0, 0)
    face = "Times New Roman"  # metric-compatible with the PDF's Liberation Serif

    def font(
        style: Any, points: float, bold: bool | None = None, italic: bool | None = None
    ) -> None:
        style.font.name = face
        style.font.size = Pt(points)
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
    font(normal, size)
    normal.paragraph_format.space_after = space(9)
    normal.paragraph_format.space_before = space(0)
    normal.paragraph_format.line_spacing = 1.1
    normal.paragraph_format.widow_control = True

    title = styles["Title"]
    font(title, 14, bold=True)
    title.font.all_caps = True
    title.paragraph_format.alignment = WD_ALIGN_PARAGRAPH.CENTER
    title.paragraph_format.space_after = space(4)
    _remove_paragraph_borders(title)

    subtitle = styles["Subtitle"]
    font(subtitle, size, bold=True, italic=False)
    subtitle.paragraph_format.alignment = WD_ALIGN_PARAGRAPH.CENTER
    subtitle.paragraph_format.space_after = space(2)
    for spacing in subtitle.element.get_or_add_rPr().findall(_qn("w:spacing")):
        spacing.getparent().remove(spacing)

    for name in ("Heading 1", "Heading 2"):
        heading = styles[name]
        font(heading, size, bold=True, italic=False)
        heading.paragraph_format.space_before = space(12 if name == "Heading 1" else 9)
        heading.paragraph_format.space_after = space(6)
        heading.paragraph_format.keep_with_next = True
        heading.paragraph_format.tab_stops.add_tab_stop(Inches(0.5))

    def paragraph_style(name: str, base: str = "Normal") -> Any:
        style = styles.add_style(name, WD_STYLE_TYPE.PARAGRAPH)
        style.base_style = styles[base]
        style.quick_style = True
        return style

    second = paragraph_style("Subtitle Second", "Subtitle")
    font(second, size, bold=False, italic=True)
    second.paragraph_format.space_after = space(18)

    spacer = paragraph_style("Table Spacer")
    font(spacer, 4)
    spacer.paragraph_format.space_after = space(6)

    body = styles["Body Text"]
    body.base_style = normal
    font(body, size)
    body.paragraph_format.alignment = WD_ALIGN_PARAGRAPH.JUSTIFY
    body.paragraph_format.space_after = space(9)

    clause = paragraph_style("Clause", "Body Text")
    clause.paragraph_format.first_line_indent = Inches(0.5)
    clause.paragraph_format.tab_stops.add_tab_stop(Inches(0.8))

    enumerated = paragraph_style("Enumerated Clause", "List Paragraph")
    font(enumerated, size)
    enumerated.paragraph_format.alignment = WD_ALIGN_PARAGRAPH.JUSTIFY
    enumerated.paragraph_format.left_indent = Inches(1)
    enumerated.paragraph_format.first_line_indent = Inches(-0.5)
    enumerated.paragraph_format.space_after = space(4)
    enumerated.paragraph_format.tab_stops.add_tab_stop(Inches(1))

    choice = paragraph_style("Election Choice", "List Paragraph")
    font(choice, size)
    choice.paragraph_format.left_indent = Inches(0.75)
    choice.paragraph_format.first_line_indent = Inches(-0.5)
    choice.paragraph_format.space_after = space(8)
    choice.paragraph_format.tab_stops.add_tab_stop(Inches(0.75))

    letter = paragraph_style("Letter Block")
    letter.paragraph_format.alignment = WD_ALIGN_PARAGRAPH.LEFT
    letter.paragraph_format.space_after = space(14)

    table_text = paragraph_style("Table Text")
    table_text.paragraph_format.space_after = space(0)
    table_text.paragraph_format.alignment = WD_ALIGN_PARAGRAPH.LEFT

    signature_line = paragraph_style("Signature Line")
    signature_line.paragraph_format.space_before = space(18)
    signature_line.paragraph_format.space_after = space(0)
    _bottom_border(signature_line)

    label = paragraph_style("Signature Label")
    font(label, 9.5)
    label.paragraph_format.space_after = space(10)

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


def no_borders(table: Any) -> None:
    from docx.oxml import OxmlElement

    tbl_pr = table._tbl.tblPr
    borders = OxmlElement("w:tblBorders")
    for edge in ("top", "left", "bottom", "right", "insideH", "insideV"):
        element = OxmlElement(f"w:{edge}")
        element.set(_qn("w:val"), "nil")
        borders.append(element)
    tbl_pr.append(borders)


def fit_table(table: Any, columns: int) -> None:
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


def shade(cell: Any) -> None:
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


def add_symbol(paragraph: Any, char: str) -> None:
    """A Wingdings check box (w:sym): drawn by Word, not part of the paragraph's text."""
    from docx.oxml import OxmlElement

    run = paragraph.add_run()
    symbol = OxmlElement("w:sym")
    symbol.set(_qn("w:font"), "Wingdings")
    symbol.set(_qn("w:char"), char)
    run._r.append(symbol)
