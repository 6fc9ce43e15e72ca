"""The XML helpers that write the DOCX: the style sheet (docgen.render.docx_style_sheet) made
into the template's page and Word styles, set in the document's own type size, and the
paragraph, run, table and symbol helpers the writer uses."""

from __future__ import annotations

import functools
import io
import re
from typing import Any

from docgen.render import docx_style_sheet as sheet
from docgen.render.html_tree import Node


@functools.cache
def styled_template(type_size: float = sheet.HOUSE_TYPE_SIZE) -> bytes:
    """python-docx's blank document with docgen's page set-up and styles for body text of
    ``type_size`` points, built once a process: the blank document without the table styles
    nobody uses (first, so that each style added is looked for among fewer), then the page
    set-up and the style sheet's styles."""
    from docx import Document

    document = Document()
    _prune_styles(document)
    _set_up_page(document)
    _set_up_styles(document, type_size)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def blank_document(type_size: float = sheet.HOUSE_TYPE_SIZE) -> Any:
    """A new python-docx Document made from the styled template."""
    from docx import Document

    return Document(io.BytesIO(styled_template(type_size)))


def _prune_styles(document: Any) -> None:
    """Drop the blank template's hundred-odd table styles nobody uses (smaller, faster files)."""
    keep = sheet.KEPT_TABLE_STYLES
    root = document.styles.element
    for style in root.findall(_qn("w:style")):
        if style.get(_qn("w:type")) == "table" and style.get(_qn("w:styleId")) not in keep:
            root.remove(style)


def paragraph_style(node: Node) -> str:
    """The style of an HTML paragraph, by its classes (the style sheet's CLASS_STYLES)."""
    classes = node.classes
    for marks, style in sheet.CLASS_STYLES:
        if classes & marks:
            return style
    return sheet.BODY_STYLE


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
        section.page_width = Inches(sheet.PAGE.width)
        section.page_height = Inches(sheet.PAGE.height)
        section.left_margin = section.right_margin = Inches(sheet.PAGE.margin)
        section.top_margin = section.bottom_margin = Inches(sheet.PAGE.margin)
        section.footer_distance = Inches(sheet.PAGE.footer_distance)
        footer = section.footer.paragraphs[0]
        footer.style = document.styles[sheet.FOOTER_STYLE]
        footer.alignment = 1  # centre
        for text, field in sheet.FOOTER:
            footer.add_run(text)
            _add_field(footer, field, "1")


def _set_up_styles(document: Any, size: float) -> None:
    """Each style of the style sheet written into ``document`` for body text of ``size`` points,
    in the sheet's order."""
    factor = sheet.FORM_SPACING if size < sheet.HOUSE_TYPE_SIZE else 1.0
    for style in sheet.STYLES:
        _write_style(document.styles, style, size, factor)


def _write_style(styles: Any, style: sheet.Style, size: float, factor: float) -> None:
    """One style: its font, its paragraph settings in order, its tab stop and borders."""
    from docx.enum.style import WD_STYLE_TYPE
    from docx.shared import Inches

    if style.added:
        written = styles.add_style(style.name, WD_STYLE_TYPE.PARAGRAPH)
        written.base_style = styles[style.base or "Normal"]
        written.quick_style = True
    else:
        written = styles[style.name]
        if style.base is not None:
            written.base_style = styles[style.base]
    if style.font is not None:
        _write_font(written, style.font, size)
    if style.all_caps:
        written.font.all_caps = True
    paragraph_format = written.paragraph_format
    for setting, value in style.paragraph:
        setattr(paragraph_format, setting, _paragraph_value(setting, value, factor))
    if style.tab_stop is not None:
        paragraph_format.tab_stops.add_tab_stop(Inches(style.tab_stop))
    if style.drop_character_spacing:
        for spacing in written.element.get_or_add_rPr().findall(_qn("w:spacing")):
            spacing.getparent().remove(spacing)
    if style.borders == "removed":
        _remove_paragraph_borders(written)
    elif style.borders == "bottom rule":
        _bottom_border(written)


def _paragraph_value(setting: str, value: float | bool | str, factor: float) -> Any:
    """A setting's value as python-docx takes it: a space in points (a form's tighter), an
    indent in inches, an alignment by name."""
    # WD_PARAGRAPH_ALIGNMENT, not its alias WD_ALIGN_PARAGRAPH: a type checker takes an alias
    # for a type, and indexing it for a type argument.
    from docx.enum.text import WD_PARAGRAPH_ALIGNMENT
    from docx.shared import Inches, Pt

    if setting in ("space_before", "space_after"):
        return Pt(float(value) * factor)
    if setting in ("left_indent", "first_line_indent"):
        return Inches(float(value))
    if setting == "alignment":
        return WD_PARAGRAPH_ALIGNMENT[str(value).upper()]
    return value


def _write_font(style: Any, font: sheet.Font, size: float) -> None:
    """The face in every script (no theme fonts), its size, colour, bold and italic."""
    from docx.shared import Pt, RGBColor

    style.font.name = sheet.FACE
    style.font.size = Pt(font.size if font.size is not None else size)
    style.font.color.rgb = RGBColor.from_string(sheet.COLOUR)
    style.font.bold = font.bold
    style.font.italic = font.italic
    rpr = style.element.get_or_add_rPr()
    fonts = rpr.get_or_add_rFonts()
    for attr in ("w:ascii", "w:hAnsi", "w:cs", "w:eastAsia"):
        fonts.set(_qn(attr), sheet.FACE)
    for attr in ("w:asciiTheme", "w:hAnsiTheme", "w:cstheme", "w:eastAsiaTheme"):
        fonts.attrib.pop(_qn(attr), None)


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
    for key, value in sheet.BOTTOM_RULE:
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
    total = sheet.TEXT_WIDTH * sheet.DATA_TABLE_WIDTH
    if columns == 2:
        widths = [total * share for share in sheet.TWO_COLUMN_SHARES]
    else:
        widths = [total / columns] * columns
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
    shading.set(_qn("w:fill"), sheet.SHADE_FILL)
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
    symbol.set(_qn("w:font"), sheet.CHECK_BOX_FONT)
    symbol.set(_qn("w:char"), char)
    run._r.append(symbol)
