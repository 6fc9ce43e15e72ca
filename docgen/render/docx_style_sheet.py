"""The DOCX's style sheet as data: the page, the type, and each Word style's font, spacing,
indents and borders, in the order docgen.render.docx_styles writes them into the template.

The values mirror print.css, so the Word file counsel redlines reads like the PDF. Sizes are in
points, indents and page measures in inches. The order of the styles, and of each style's
paragraph settings, is the order their XML is written: python-docx puts elements in the schema's
order, but a ``w:spacing`` element's attributes in the order they are set, and the issued DOCX
files are pinned byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# The house type size, print.css's ``html { font-size }``; a document may set its own
# (DocumentSpec.type_size: Exhibit I and the RRP form are two-page forms set at 10.5 pt).
HOUSE_TYPE_SIZE = 11.5
# A document set below the house size is a form that must keep to its pages: its paragraphs are
# spaced tighter too, half the house spacing, so that a word processor's layout (LibreOffice's
# line heights and table rows run taller than the PDF's) keeps the RRP form, with long names and
# addresses, on its two pages as the PDF does (issue 25).
FORM_SPACING = 1 / 2

FACE = "Times New Roman"  # metric-compatible with the PDF's Liberation Serif
COLOUR = "000000"

# A paragraph setting is python-docx's ParagraphFormat attribute of that name: ``space_before``
# and ``space_after`` in points (tightened on a form, FORM_SPACING), ``left_indent`` and
# ``first_line_indent`` in inches (negative: a hanging indent), ``line_spacing`` a multiple of
# the line, ``alignment`` "left", "center" or "justify", ``keep_with_next`` and
# ``widow_control`` on or off.
Setting = tuple[str, float | bool | str]


@dataclass(frozen=True)
class Page:
    """US Letter with one-inch margins; the footer reads "Page N of M" half an inch from the
    bottom edge."""

    width: float = 8.5
    height: float = 11
    margin: float = 1
    footer_distance: float = 0.5


@dataclass(frozen=True)
class Font:
    """A style's type: ``FACE`` in ``COLOUR``, at ``size`` points (None: the document's type
    size); bold and italic set on or off, or None to take the base style's."""

    size: float | None = None
    bold: bool | None = None
    italic: bool | None = None


@dataclass(frozen=True)
class Style:
    """One paragraph style: python-docx's own (``added=False``: Normal, Title, Body Text...),
    changed, or one docgen adds, based on ``base``."""

    name: str
    font: Font | None = None  # None: the font is left as the template has it
    paragraph: tuple[Setting, ...] = ()  # in the order written
    added: bool = False
    base: str | None = None  # the style it is based on (an added style's is Normal by default)
    all_caps: bool = False
    tab_stop: float | None = None  # inches
    borders: Literal["kept", "removed", "bottom rule"] = "kept"
    drop_character_spacing: bool = False  # the template's letter-spacing of the Subtitle


def settings(**values: float | bool | str) -> tuple[Setting, ...]:
    """Paragraph settings in the order written (keyword arguments keep their order)."""
    return tuple(values.items())


PAGE = Page()

# The footer's text and the fields between its pieces: "Page ", PAGE, " of ", NUMPAGES.
FOOTER = (("Page ", "PAGE"), (" of ", "NUMPAGES"))
FOOTER_STYLE = "Footer"

STYLES: tuple[Style, ...] = (
    Style(
        "Normal",
        Font(),
        settings(space_after=9, space_before=0, line_spacing=1.1, widow_control=True),
    ),
    Style(
        "Title",
        Font(14, bold=True),
        settings(alignment="center", space_after=4),
        all_caps=True,
        borders="removed",
    ),
    Style(
        "Subtitle",
        Font(bold=True, italic=False),
        settings(alignment="center", space_after=2),
        drop_character_spacing=True,
    ),
    Style(
        "Heading 1",
        Font(bold=True, italic=False),
        settings(space_before=12, space_after=6, keep_with_next=True),
        tab_stop=0.5,
    ),
    Style(
        "Heading 2",
        Font(bold=True, italic=False),
        settings(space_before=9, space_after=6, keep_with_next=True),
        tab_stop=0.5,
    ),
    Style(
        "Subtitle Second",
        Font(bold=False, italic=True),
        settings(space_after=18),
        added=True,
        base="Subtitle",
    ),
    Style("Table Spacer", Font(4), settings(space_after=6), added=True),
    Style(
        "Body Text",
        Font(),
        settings(alignment="justify", space_after=9),
        base="Normal",
    ),
    Style(
        "Clause",
        paragraph=settings(first_line_indent=0.5),
        added=True,
        base="Body Text",
        tab_stop=0.8,
    ),
    Style(
        "Enumerated Clause",
        Font(),
        settings(alignment="justify", left_indent=1, first_line_indent=-0.5, space_after=4),
        added=True,
        base="List Paragraph",
        tab_stop=1,
    ),
    Style(
        "Election Choice",
        Font(),
        settings(left_indent=0.75, first_line_indent=-0.5, space_after=8),
        added=True,
        base="List Paragraph",
        tab_stop=0.75,
    ),
    Style("Letter Block", paragraph=settings(alignment="left", space_after=14), added=True),
    Style("Table Text", paragraph=settings(space_after=0, alignment="left"), added=True),
    Style(
        "Signature Line",
        paragraph=settings(space_before=12, space_after=0),
        added=True,
        borders="bottom rule",
    ),
    Style("Signature Label", Font(9.5), settings(space_after=4), added=True),
    Style(FOOTER_STYLE, Font(9)),
)

# The rule under a signature line: w:bottom's attributes, in the order written.
BOTTOM_RULE = (("w:val", "single"), ("w:sz", "6"), ("w:space", "1"), ("w:color", "000000"))

# Which style a paragraph of the HTML takes, by its classes: the first entry that shares a class
# with it, else BODY_STYLE.
CLASS_STYLES: tuple[tuple[frozenset[str], str], ...] = (
    (frozenset({"subtitle"}), "Subtitle"),
    (
        frozenset({"letter-date", "addressee", "salutation", "director-line", "on-file"}),
        "Letter Block",
    ),
    (frozenset({"clause", "numbered"}), "Clause"),
)
BODY_STYLE = "Body Text"

# Tables: python-docx's table styles docgen keeps (the blank template's hundred-odd others are
# dropped); a data table is centred, 80% of the text width as in the PDF, its first column of
# two the wider; a shaded cell is filled light grey.
KEPT_TABLE_STYLES = frozenset({"TableNormal", "TableGrid"})
TEXT_WIDTH = PAGE.width - 2 * PAGE.margin
DATA_TABLE_WIDTH = 0.8
TWO_COLUMN_SHARES = (0.55, 0.45)
SHADE_FILL = "F2F2F2"
CHECK_BOX_FONT = "Wingdings"
