"""The font a fillable form's fields are drawn in: DejaVu Serif, embedded as a composite font
(Type0, Identity-H) so that a name typed into a field draws with every letter (issue 25).

A filler (pdf.js, PDFium, pypdf, Acrobat) draws what is typed into a field in the font its
``/DA`` names, looked up in ``/AcroForm /DR``. Helvetica (the form's only field font until
issue 25) is a standard font in WinAnsiEncoding: a name outside it (Nguyễn, Łukasz, Đặng) came
out with letters missing. The field font is therefore embedded, and because a filler encodes
what the signer types, not what docgen printed, it must hold a glyph for every character a name
may hold: the fact model accepts any text that is not a control character (docgen.core.safe_text)
and an issued document refuses a letter no shipped font has (docgen.render.glyphs). So the whole
of DejaVu Serif is embedded, as shipped: the shipped font with the widest cover (Latin with
Vietnamese, Greek, Cyrillic, 3,400 characters). A subset keeping every glyph would be no
smaller to speak of (fontTools: 147 KB compressed against 212 KB, by dropping hinting) and cost
3.7 seconds of subsetting in every process that renders a form. The ten characters only
Liberation Serif has are currency and letterlike symbols (₣ ₤ ₧ ℅ ℓ ℮) and private-use ones,
not letters: typed into a field, a filler draws them in a font of its own (DESIGN.md,
"Fillable forms").

The font dictionaries are made from the font file alone, so forms stay reproducible.
"""

from __future__ import annotations

import functools
import io
import unicodedata
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FONT_FILE = "DejaVuSerif.ttf"
FONT_NAME = "DejaVuSerif"
_KEPT_OUT = ("Cc", "Cs", "Co", "Cn")  # controls, surrogates, private use, unassigned


@dataclass(frozen=True)
class FieldFont:
    """The field font's program, and what the PDF's font dictionaries need of it."""

    program: bytes  # the TrueType file as shipped (glyph id = CID: CIDToGIDMap /Identity)
    widths: tuple[int, ...]  # the advance of each glyph, in thousandths of an em
    to_unicode: dict[int, str]  # glyph id -> the character it draws (the lowest code point)
    bbox: tuple[int, int, int, int]
    ascent: int
    descent: int
    cap_height: int


def font_path() -> Path:
    """DejaVu Serif as shipped (under templates/fonts, where the stylesheet finds it)."""
    from docgen.core.resources import templates_dir

    return templates_dir() / "fonts" / FONT_FILE


@functools.cache
def field_font() -> FieldFont:
    """The field font, read once a process (see the module docstring for what it covers)."""
    from fontTools.ttLib import TTFont

    program = font_path().read_bytes()
    font = TTFont(io.BytesIO(program), lazy=True)
    order = font.getGlyphOrder()
    gid = {name: index for index, name in enumerate(order)}
    scale = 1000 / font["head"].unitsPerEm
    metrics = font["hmtx"].metrics
    widths = tuple(round(metrics[name][0] * scale) for name in order)
    to_unicode: dict[int, str] = {}
    for code, name in sorted(font.getBestCmap().items()):
        if unicodedata.category(chr(code)) not in _KEPT_OUT:
            to_unicode.setdefault(gid[name], chr(code))
    head = font["head"]
    return FieldFont(
        program=program,
        widths=widths,
        to_unicode=to_unicode,
        bbox=(
            round(head.xMin * scale),
            round(head.yMin * scale),
            round(head.xMax * scale),
            round(head.yMax * scale),
        ),
        ascent=round(font["hhea"].ascent * scale),
        descent=round(font["hhea"].descent * scale),
        cap_height=round(_cap_height(font) * scale),
    )


def prepare() -> None:
    """Read the field font and compress its streams now, once: a batch does it before its
    workers fork, when its documents are forms, so that no worker reads the font again."""
    font = field_font()
    compressed(font.program)
    compressed(_field_font_cmap())
    _widths_array()


def add_field_font(pdf: Any) -> bytes:
    """The field font's objects added to a pydyf PDF (WeasyPrint's, in its finisher); returns
    the Type0 font's reference."""
    import pydyf

    font = field_font()

    def stream(data: bytes, **entries: Any) -> bytes:
        # Compressed once a process (the font program's are 0.02 s a form: issue 27), written
        # as they are: pydyf adds the /Length.
        made = pydyf.Stream([compressed(data)], {**entries, "Filter": "/FlateDecode"})
        pdf.add_object(made)
        return made.reference

    program = stream(font.program, Length1=len(font.program))
    descriptor = pydyf.Dictionary(
        {
            "Type": "/FontDescriptor",
            "FontName": f"/{FONT_NAME}",
            "Flags": 32,  # nonsymbolic (PDF 32000-1, 9.8.2)
            "FontBBox": pydyf.Array(font.bbox),
            "ItalicAngle": 0,
            "Ascent": font.ascent,
            "Descent": font.descent,
            "CapHeight": font.cap_height,
            "StemV": 80,
            "FontFile2": program,
        }
    )
    pdf.add_object(descriptor)
    # The CIDFont is direct, inside /DescendantFonts: pypdf, drawing a field's value, puts the
    # CIDFont it resolves back into the array, which rewrites the Type0 font when the array held
    # a reference, and a certified form filled by pypdf would then change more than its fields.
    descendant = pydyf.Dictionary(
        {
            "Type": "/Font",
            "Subtype": "/CIDFontType2",
            "BaseFont": f"/{FONT_NAME}",
            "CIDSystemInfo": pydyf.Dictionary(
                {
                    "Registry": pydyf.String("Adobe"),
                    "Ordering": pydyf.String("Identity"),
                    "Supplement": 0,
                }
            ),
            "FontDescriptor": descriptor.reference,
            "DW": 1000,
            "W": _widths_array(),
            "CIDToGIDMap": "/Identity",
        }
    )
    type0 = pydyf.Dictionary(
        {
            "Type": "/Font",
            "Subtype": "/Type0",
            "BaseFont": f"/{FONT_NAME}",
            "Encoding": "/Identity-H",
            "DescendantFonts": pydyf.Array([descendant]),
            "ToUnicode": stream(_field_font_cmap()),
        }
    )
    pdf.add_object(type0)
    return type0.reference


@functools.cache
def _widths_array() -> bytes:
    """The CIDFont's /W, ``[0 [w0 w1 ...]]``: every glyph's width from glyph 0, written once a
    process (pydyf writes bytes as they are)."""
    return b"[0 [" + b" ".join(b"%d" % width for width in field_font().widths) + b"]]"


@functools.cache
def _field_font_cmap() -> bytes:
    return to_unicode_cmap(field_font().to_unicode)


@functools.lru_cache(maxsize=4)
def compressed(data: bytes) -> bytes:
    """``data`` compressed (zlib, level 9, as pypdf's ``flate_encode(level=9)`` would), once a
    process for each of the field font's two streams (the same bytes in every form)."""
    return zlib.compress(data, 9)


def to_unicode_cmap(mapping: dict[int, str]) -> bytes:
    """The ToUnicode CMap of an Identity-H font: two-byte codes (the glyph ids) to characters."""
    lines = [
        b"/CIDInit /ProcSet findresource begin",
        b"12 dict begin",
        b"begincmap",
        b"/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
        b"/CMapName /Adobe-Identity-UCS def",
        b"/CMapType 2 def",
        b"1 begincodespacerange",
        b"<0000> <FFFF>",
        b"endcodespacerange",
    ]
    items = sorted(mapping.items())
    for start in range(0, len(items), 100):  # at most 100 entries a block (PDF 32000-1 9.10.3)
        block = items[start : start + 100]
        lines.append(b"%d beginbfchar" % len(block))
        for code, char in block:
            utf16 = char.encode("utf-16-be").hex().upper().encode()
            lines.append(b"<%04X> <%s>" % (code, utf16))
        lines.append(b"endbfchar")
    lines += [b"endcmap", b"CMapName currentdict /CMap defineresource pop", b"end", b"end"]
    return b"\n".join(lines) + b"\n"


def _cap_height(font: Any) -> float:
    """The height of a capital: OS/2's when its version has it, else the top of "H"."""
    height = getattr(font["OS/2"], "sCapHeight", 0)
    if height:
        return float(height)
    glyph = font["glyf"][font.getBestCmap()[ord("H")]]
    return float(getattr(glyph, "yMax", 0) or font["hhea"].ascent)
