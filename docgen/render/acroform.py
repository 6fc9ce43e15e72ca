"""Fillable forms that survive real PDF readers: repair WeasyPrint's form, read a returned one.

WeasyPrint (``write_pdf(pdf_forms=True)``) turns each ``<input>`` into a form field, but the
result is read differently by every program that opens it (issue 11):

* a radio group's option widgets each carry their own ``/T``, ``/FT`` and ``/TU`` and are listed
  in ``/AcroForm /Fields`` as well as under the group, so the widgets are also fields
  (``pay_on.pay_on``): qpdf reports a loop, pdftk counts 10 fields for 7 widgets, pdf.js saves
  the choice where poppler and pypdf do not look;
* the on-states are ``/0``, ``/1``, ``/2``, meaningful only through ``/Opt``;
* every ``/DA`` names the embedded Type0 (Identity-H) subset of the page font, and
  ``NeedAppearances`` is true with no appearance streams: pdftk draws boxes for the digits it
  has no glyphs for, MuPDF falls back to a font that is not in ``/DR``.

:func:`repair_form` rewrites that output into a plain AcroForm that pdf.js (Firefox), PDFium
(Chrome), poppler, MuPDF, pypdf, pdftk and qpdf all read the same way;
:func:`docgen.render.form_reader.read_form` reads a returned form back (what ``docgen intake``
uses). Decisions, and why:

Radio groups
    One field (``/FT /Btn``, ``/Ff`` radio + no-toggle-to-off, ``/T``, one ``/TU`` for the
    group) whose ``/Kids`` are pure widgets (no ``/T``, ``/FT``, ``/TU``, ``/V``); only fields
    that have no parent are listed in ``/AcroForm /Fields``. Each widget's on-state is named by
    its export value (``/separation``, ``/date``, ``/earlier_of_separation_or_date``), so the
    field's ``/V`` *is* the answer and ``/Opt`` is dropped: no reader has to map indexes. Every
    widget gets an explicit, empty ``/Off`` appearance beside its on-state. A blank form has
    ``/V /Off`` on the group and ``/AS /Off`` on every widget.

Fonts and appearances
    Every ``/DA`` (and the form's default ``/DA``) names the one font in ``/AcroForm /DR``:
    DejaVu Serif, embedded as a composite font (Type0, Identity-H, with its ToUnicode map) with a
    glyph for every character a name may hold (docgen.render.field_font, issue 25), so a name
    typed into a field (Nguyễn, Łukasz, Đặng) is drawn with every letter by every filler, never
    in a machine's fallback font; Helvetica (WinAnsi only) dropped them. Its resource name is
    ``/Wingdings``: PDFium (Chrome) draws a character outside Windows-1252 in the ``/DA`` font
    only when that font's resource name is Wingdings, Wingdings2, Wingdings3 or Webdings
    (CPDF_BAFontMap: any other embedded font is taken as "ANSI" and such letters go to a font
    of the machine's); the name is only a key, the font is DejaVu Serif's. MuPDF draws typed
    text in fonts of its own, which it embeds. Every widget has an appearance stream (an empty
    ``/Tx BMC EMC`` for a blank text field, the dot and an empty ``/Off`` for a radio), and
    ``NeedAppearances`` is removed rather than left true: the blank form looks the same in every
    viewer, Acrobat does not "repair" an unchanged file and ask to save it on close, and each
    filler (pdf.js, PDFium, Acrobat, pypdf, pdftk) writes the appearance of the value it sets,
    as they all do when the flag is false.

Identity
    The form's identity (``document``, ``cycle``, ``subject``, ``facts_sha256``) is stored as
    document-level custom keys in the Info dictionary (``/DocgenDocument``, ``/DocgenCycle``,
    ``/DocgenSubject``, ``/DocgenFactsSHA256``): one place, read without guessing by pypdf
    (``metadata``), pdf.js (``getMetadata().info.Custom``), poppler (``pdfinfo -custom``), qpdf
    (``--json``), exiftool and Acrobat (Document Properties, Custom), and kept by the fillers' saves
    (pdf.js, Acrobat and PDFium save incrementally with the same ``/Info``; pypdf clones it). Not a
    hidden form field: DESIGN.md, "Fillable forms", makes the field names public and exact, a field
    is data the signer may edit or clear ("Reset form"), and it would show up in every field list
    and FDF export. Not XMP: these forms carry no XMP packet, and two copies could disagree.

Output is deterministic: the same input gives the same bytes (no clock, no random ids; the
``/ID`` and the Info dictionary are WeasyPrint's, plus the identity keys).

Only the standard library and pypdf are used (and docgen's errors). The format both this writer
and the reader keep to (flags, identity keys, on-state names) is docgen.render.form_format.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from typing import Any

from pypdf import PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    DecodedStreamObject,
    DictionaryObject,
    FloatObject,
    IndirectObject,
    NameObject,
    NumberObject,
    TextStringObject,
)

from docgen.core.errors import RenderError
from docgen.render.field_font import add_field_font
from docgen.render.form_format import (
    ANNOT_PRINT,
    FF_NO_TOGGLE_TO_OFF,
    FF_PUSHBUTTON,
    FF_RADIO,
    IDENTITY_KEYS,
    INFO_KEYS,
    MAX_DEPTH,
    check_identity,
    export_name,
)

FONT = "/Wingdings"  # DejaVu Serif: see "Fonts and appearances" above for the name
DEFAULT_FONT_SIZE = 10.0

_FONT_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s+Tf\b")
_COLOUR = re.compile(r"(?:(?:\d*\.?\d+\s+){3}rg|(?:\d*\.?\d+\s+){4}k|\d*\.?\d+\s+g)\b")


# ------------------------------------------------------------------------------- repairing


def repair_form(
    pdf: bytes, *, identity: Mapping[str, str], tooltips: Mapping[str, str] | None = None
) -> bytes:
    """WeasyPrint's fillable PDF rewritten as a clean AcroForm carrying ``identity``.

    ``identity`` must have exactly the keys of :data:`IDENTITY_KEYS` (``facts_sha256`` as 64
    lowercase hex digits). ``tooltips`` maps field names to their ``/TU``; a radio group without
    one is described from its options' own tooltips. Raises RenderError for a PDF with no form
    fields, or a form this module cannot make clean (it never writes a half-repaired form).
    """
    check_identity(identity)
    tips = dict(tooltips or {})
    reader = PdfReader(io.BytesIO(pdf))
    writer = PdfWriter(clone_from=reader)
    writer.pdf_header = reader.pdf_header
    acro = writer.root_object.get("/AcroForm")
    acro = acro.get_object() if acro is not None else None
    if not isinstance(acro, DictionaryObject) or not acro.get("/Fields"):
        raise RenderError("a fillable form was asked for, but the PDF has no form fields")

    font = add_field_font(writer)
    acro[NameObject("/DR")] = DictionaryObject(
        {NameObject("/Font"): DictionaryObject({NameObject(FONT): font})}
    )
    acro[NameObject("/DA")] = TextStringObject(f"{FONT} {_number(DEFAULT_FONT_SIZE)} Tf 0 g")
    if "/NeedAppearances" in acro:
        del acro["/NeedAppearances"]

    repairer = _Repairer(writer, font, tips)
    top_level: list[IndirectObject] = []
    seen: set[int] = set()
    for ref in _array(acro["/Fields"], "/AcroForm /Fields"):
        top = _top_ancestor(ref)
        if top.idnum not in seen:
            seen.add(top.idnum)
            top_level.append(top)
    for ref in top_level:
        repairer.field(_dictionary(ref, "a form field"), parent_ft=None, parent_name="", depth=0)
    acro[NameObject("/Fields")] = ArrayObject(top_level)
    unused = sorted(set(tips) - repairer.names)
    if unused:
        raise RenderError(f"tooltips for fields the form does not have: {', '.join(unused)}")

    writer.add_metadata({INFO_KEYS[key]: str(identity[key]) for key in IDENTITY_KEYS})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _top_ancestor(ref: Any) -> IndirectObject:
    """The field at the root of ``ref``'s /Parent chain (what /AcroForm /Fields must list)."""
    if not isinstance(ref, IndirectObject):
        raise RenderError("an /AcroForm /Fields entry is not an indirect object")
    current = ref
    for _ in range(MAX_DEPTH):
        node = _dictionary(current, "a form field")
        if "/Parent" not in node:
            return current
        parent = node.raw_get("/Parent")
        if not isinstance(parent, IndirectObject):
            raise RenderError("a form field's /Parent is not an indirect object")
        current = parent
    raise RenderError("form fields nest too deeply (a /Parent loop)")


def _dictionary(value: Any, what: str) -> DictionaryObject:
    """``value`` (followed, if it is a reference) as the dictionary the PDF must hold there."""
    resolved = value.get_object() if value is not None else None
    if not isinstance(resolved, DictionaryObject):
        raise RenderError(f"{what} is not a dictionary")
    return resolved


def _array(value: Any, what: str) -> ArrayObject:
    """``value`` (followed, if it is a reference) as the array the PDF must hold there."""
    resolved = value.get_object() if value is not None else None
    if not isinstance(resolved, ArrayObject):
        raise RenderError(f"{what} is not an array")
    return resolved


def _number(value: float) -> str:
    return f"{value:.4f}".rstrip("0").rstrip(".")


class _Repairer:
    def __init__(self, writer: PdfWriter, font: IndirectObject, tooltips: dict[str, str]):
        self.writer = writer
        self.font = font
        self.tooltips = tooltips
        self.names: set[str] = set()

    # -- fields

    def field(self, node: DictionaryObject, parent_ft: Any, parent_name: str, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise RenderError("form fields nest too deeply (a /Kids loop)")
        part = node.get("/T")
        name = f"{parent_name}.{part}" if parent_name and part else str(part or parent_name)
        ft = node.get("/FT", parent_ft)
        kids = [kid.get_object() for kid in node.get("/Kids", [])]
        widgets = [kid for kid in kids if "/T" not in kid]
        if name in self.names:
            raise RenderError(f"the form has two fields named {name!r}")
        if ft == "/Btn" and int(node.get("/Ff", 0)) & FF_RADIO:
            self.names.add(name)
            self.radio(node, name, kids)
            return
        subfields = [kid for kid in kids if "/T" in kid]
        if subfields and widgets:
            raise RenderError(f"field {name!r} mixes widgets and sub-fields")
        for kid in subfields:
            self.field(kid, ft, name, depth + 1)
        if subfields:
            return
        self.names.add(name)
        if name in self.tooltips:
            node[NameObject("/TU")] = TextStringObject(self.tooltips[name])
        if ft in ("/Tx", "/Ch"):
            value = node.get("/V")
            if value not in (None, "") and not isinstance(value, ArrayObject):
                raise RenderError(f"field {name!r} already has a value: only blank forms are made")
            for widget in widgets or [node]:
                self.text_widget(widget)
        elif ft == "/Btn" and not int(node.get("/Ff", 0)) & FF_PUSHBUTTON:
            for widget in widgets or [node]:
                self.normalise_rect(widget)
                self.add_off_appearance(widget)
        elif ft is None:
            raise RenderError(f"field {name!r} has no field type (/FT)")

    def radio(self, group: DictionaryObject, name: str, widgets: list[DictionaryObject]) -> None:
        """The group keeps /T, /FT, /Ff and /V; its kids become pure widgets (WeasyPrint gives
        each its own /T, /FT and /TU, which makes each a field of its own)."""
        if not widgets or any(
            kid.get("/Subtype") != "/Widget" or "/Kids" in kid for kid in widgets
        ):
            raise RenderError(f"radio group {name!r} must have widgets as its only kids")
        options = [str(option) for option in group.get("/Opt", [])]
        exports: list[str] = []
        option_tips: list[str] = []
        renamed: dict[str, str] = {}  # old on-state (without "/") -> export value
        for widget in widgets:
            normal = _normal_appearances(widget)
            on = [key for key in normal if key != "/Off"]
            if len(on) != 1:
                raise RenderError(f"radio group {name!r}: a widget needs exactly one on-state")
            state = on[0][1:]
            export = export_name(state, options)
            if export in exports:
                raise RenderError(f"radio group {name!r} has the option {export!r} twice")
            if not export or export == "Off":
                raise RenderError(f"radio group {name!r} has an option without a name")
            exports.append(export)
            renamed[state] = export
            if "/TU" in widget:
                option_tips.append(str(widget["/TU"]))
            self.rename_states(widget, state, export)
            for key in ("/T", "/FT", "/TU", "/Ff", "/V", "/DV", "/Opt", "/DA"):
                if key in widget:
                    del widget[key]
            self.normalise_rect(widget)
            self.add_off_appearance(widget)
        current = group.get("/V")
        value = renamed.get(str(current)[1:]) if isinstance(current, NameObject) else None
        if value is None and isinstance(current, NameObject) and str(current)[1:] in exports:
            value = str(current)[1:]
        for widget, export in zip(widgets, exports, strict=True):
            widget[NameObject("/AS")] = NameObject(f"/{export}" if export == value else "/Off")
        group[NameObject("/V")] = NameObject(f"/{value}" if value else "/Off")
        if "/Opt" in group:
            del group["/Opt"]
        flags = int(group.get("/Ff", 0)) | FF_RADIO | FF_NO_TOGGLE_TO_OFF
        group[NameObject("/Ff")] = NumberObject(flags & ~FF_PUSHBUTTON)
        tooltip = self.tooltips.get(name) or _group_tooltip(option_tips) or group.get("/TU")
        if tooltip:
            group[NameObject("/TU")] = TextStringObject(str(tooltip))

    # -- widgets

    def text_widget(self, widget: DictionaryObject) -> None:
        """The field font in /DA (at the size WeasyPrint chose) and an empty appearance."""
        self.normalise_rect(widget)
        old = str(widget.get("/DA", ""))  # WeasyPrint's: "/a1.0 gs 0 0 0 rg /OQCLEL 11 Tf"
        size_match = _FONT_SIZE.search(old)
        size = float(size_match.group(1)) if size_match else DEFAULT_FONT_SIZE
        colours = _COLOUR.findall(old)  # the text colour: /DA allows no graphics state (gs)
        colour = " ".join(colours[-1].split()) if colours else "0 g"
        widget[NameObject("/DA")] = TextStringObject(f"{FONT} {_number(size)} Tf {colour}")
        widget[NameObject("/F")] = NumberObject(int(widget.get("/F", 0)) | ANNOT_PRINT)
        width, height = _size(widget)
        stream = self.form_xobject(width, height, b"/Tx BMC\nEMC\n", with_font=True)
        widget[NameObject("/AP")] = DictionaryObject({NameObject("/N"): stream})

    def rename_states(self, widget: DictionaryObject, old: str, new: str) -> None:
        appearances = _dictionary(widget["/AP"], "a widget's appearances (/AP)")
        for kind in ("/N", "/D", "/R"):
            if kind not in appearances:
                continue
            states = appearances[kind].get_object()
            if not isinstance(states, DictionaryObject):
                continue
            renamed = DictionaryObject()
            for key in sorted(states):
                target = f"/{new}" if key == f"/{old}" else key
                renamed[NameObject(target)] = states.raw_get(key)
            appearances[NameObject(kind)] = renamed

    def add_off_appearance(self, widget: DictionaryObject) -> None:
        normal = _normal_appearances(widget)
        if "/Off" in normal:
            return
        width, height = _size(widget)
        normal[NameObject("/Off")] = self.form_xobject(width, height, b"", with_font=False)

    def normalise_rect(self, widget: DictionaryObject) -> None:
        rect = [float(v) for v in _array(widget["/Rect"], "a widget's /Rect")]
        x1, y1, x2, y2 = rect
        ordered = [min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)]
        if ordered != rect:
            widget[NameObject("/Rect")] = ArrayObject(FloatObject(v) for v in ordered)

    def form_xobject(self, width: float, height: float, content: bytes, *, with_font: bool):
        stream = DecodedStreamObject()
        stream[NameObject("/Type")] = NameObject("/XObject")
        stream[NameObject("/Subtype")] = NameObject("/Form")
        stream[NameObject("/BBox")] = ArrayObject(
            [NumberObject(0), NumberObject(0), FloatObject(width), FloatObject(height)]
        )
        resources = DictionaryObject()
        if with_font:
            resources[NameObject("/Font")] = DictionaryObject({NameObject(FONT): self.font})
        stream[NameObject("/Resources")] = resources
        stream.set_data(content)
        return self.writer._add_object(stream)


def _normal_appearances(widget: DictionaryObject) -> DictionaryObject:
    appearances = widget.get("/AP")
    normal = appearances.get_object().get("/N") if appearances is not None else None
    normal = normal.get_object() if normal is not None else None
    if not isinstance(normal, DictionaryObject):
        raise RenderError("a button widget has no normal appearances (/AP /N)")
    return normal


def _size(widget: DictionaryObject) -> tuple[float, float]:
    x1, y1, x2, y2 = (float(v) for v in _array(widget["/Rect"], "a widget's /Rect"))
    return abs(x2 - x1), abs(y2 - y1)


def _group_tooltip(option_tips: list[str]) -> str | None:
    """One tooltip for a radio group from its options' own: "Section III: X" and "Section III:
    Y" give "Section III: X, or Y" (the options lose their /TU with their field status)."""
    if not option_tips:
        return None
    prefixes = {tip.partition(": ")[0] for tip in option_tips if ": " in tip}
    if len(prefixes) == 1 and all(": " in tip for tip in option_tips):
        prefix = prefixes.pop() + ": "
        options = [tip.partition(": ")[2] for tip in option_tips]
    else:
        prefix, options = "", option_tips
    if len(options) == 1:
        return prefix + options[0]
    return prefix + ", ".join(options[:-1]) + ", or " + options[-1]
