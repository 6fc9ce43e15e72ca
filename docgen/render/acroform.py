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
(Chrome), poppler, MuPDF, pypdf, pdftk and qpdf all read the same way. It works on WeasyPrint's
own objects (pydyf's, references as ``b"12 0 R"``), in the finisher WeasyPrint calls before it
writes the file, so a form is written once: reading the written PDF back with pypdf, copying
every object and writing it again cost an eighth of WeasyPrint's own time for an RRP Deferral
Election Form (issue 27: README, "Speed", enrollment against raw WeasyPrint);
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

Only the standard library and pydyf (WeasyPrint's PDF writer) are used (and docgen's errors).
The format both this writer and the reader keep to (flags, identity keys, on-state names) is
docgen.render.form_format.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import pydyf

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
_REFERENCE = re.compile(rb"(\d+) 0 R")


# ------------------------------------------------------------------------------- repairing


def repair_form(
    pdf: Any, *, identity: Mapping[str, str], tooltips: Mapping[str, str] | None = None
) -> None:
    """WeasyPrint's fillable PDF (``pdf``, the pydyf PDF its finisher is given) made a clean
    AcroForm carrying ``identity``, in place, before it is written.

    ``identity`` must have exactly the keys of :data:`IDENTITY_KEYS` (``facts_sha256`` as 64
    lowercase hex digits). ``tooltips`` maps field names to their ``/TU``; a radio group without
    one is described from its options' own tooltips. Raises RenderError for a PDF with no form
    fields, or a form this module cannot make clean (the PDF is then not written at all).
    """
    check_identity(identity)
    tips = dict(tooltips or {})
    acro = pdf.catalog.get("AcroForm")
    if not isinstance(acro, dict) or not acro.get("Fields"):
        raise RenderError("a fillable form was asked for, but the PDF has no form fields")

    font = add_field_font(pdf)
    acro["DR"] = pydyf.Dictionary({"Font": pydyf.Dictionary({FONT[1:]: font})})
    acro["DA"] = pydyf.String(f"{FONT} {_number(DEFAULT_FONT_SIZE)} Tf 0 g")
    acro.pop("NeedAppearances", None)

    repairer = _Repairer(pdf, font, tips)
    top_level: list[bytes] = []
    seen: set[bytes] = set()
    for ref in _array(pdf, acro["Fields"], "/AcroForm /Fields"):
        top = _top_ancestor(pdf, ref)
        if top not in seen:
            seen.add(top)
            top_level.append(top)
    for ref in top_level:
        node = _dictionary(pdf, ref, "a form field")
        repairer.field(node, parent_ft=None, parent_name="", depth=0)
    acro["Fields"] = pydyf.Array(top_level)
    unused = sorted(set(tips) - repairer.names)
    if unused:
        raise RenderError(f"tooltips for fields the form does not have: {', '.join(unused)}")

    for key in IDENTITY_KEYS:
        pdf.info[INFO_KEYS[key][1:]] = pydyf.String(str(identity[key]))


def _reference(value: Any) -> int | None:
    """The object number ``value`` refers to, when it is a reference (``b"12 0 R"``)."""
    if isinstance(value, bytes):
        match = _REFERENCE.fullmatch(value)
        if match:
            return int(match.group(1))
    return None


def _resolve(pdf: Any, value: Any) -> Any:
    number = _reference(value)
    if number is None:
        return value
    return pdf.objects[number] if number < len(pdf.objects) else None


def _top_ancestor(pdf: Any, ref: Any) -> bytes:
    """The field at the root of ``ref``'s /Parent chain (what /AcroForm /Fields must list)."""
    if _reference(ref) is None:
        raise RenderError("an /AcroForm /Fields entry is not an indirect object")
    current = ref
    for _ in range(MAX_DEPTH):
        node = _dictionary(pdf, current, "a form field")
        if "Parent" not in node:
            return bytes(current)
        parent = node["Parent"]
        if _reference(parent) is None:
            raise RenderError("a form field's /Parent is not an indirect object")
        current = parent
    raise RenderError("form fields nest too deeply (a /Parent loop)")


def _dictionary(pdf: Any, value: Any, what: str) -> Any:
    """``value`` (followed, if it is a reference) as the dictionary the PDF must hold there."""
    resolved = _resolve(pdf, value)
    if not isinstance(resolved, dict):
        raise RenderError(f"{what} is not a dictionary")
    return resolved


def _array(pdf: Any, value: Any, what: str) -> list[Any]:
    """``value`` (followed, if it is a reference) as the array the PDF must hold there."""
    resolved = _resolve(pdf, value)
    if not isinstance(resolved, list):
        raise RenderError(f"{what} is not an array")
    return resolved


def _text(value: Any) -> str:
    """A string value as text (pydyf keeps a text string's ``str`` or ``bytes``)."""
    if isinstance(value, pydyf.String):
        value = value.string
    if isinstance(value, bytes):
        return value.decode("latin-1")
    return "" if value is None else str(value)


def _flags(node: Any) -> int:
    value = node.get("Ff", 0)
    return value if isinstance(value, int) else int(str(value))


def _number(value: float) -> str:
    return f"{value:.4f}".rstrip("0").rstrip(".")


def _real(value: float) -> bytes:
    """A number as the PDF writes it, to 1/10,000 of a point, never ``13.`` (pydyf's way with
    a float a hair off a whole number; qpdf passes it into its JSON as it is)."""
    return (_number(value) if value else "0").encode("ascii")


class _Repairer:
    def __init__(self, pdf: Any, font: bytes, tooltips: dict[str, str]):
        self.pdf = pdf
        self.font = font
        self.tooltips = tooltips
        self.names: set[str] = set()

    # -- fields

    def field(self, node: Any, parent_ft: Any, parent_name: str, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise RenderError("form fields nest too deeply (a /Kids loop)")
        part = _text(node.get("T"))
        name = f"{parent_name}.{part}" if parent_name and part else (part or parent_name)
        ft = node.get("FT", parent_ft)
        kids = [_dictionary(self.pdf, kid, "a form field") for kid in node.get("Kids", [])]
        widgets = [kid for kid in kids if "T" not in kid]
        if name in self.names:
            raise RenderError(f"the form has two fields named {name!r}")
        if ft == "/Btn" and _flags(node) & FF_RADIO:
            self.names.add(name)
            self.radio(node, name, kids)
            return
        subfields = [kid for kid in kids if "T" in kid]
        if subfields and widgets:
            raise RenderError(f"field {name!r} mixes widgets and sub-fields")
        for kid in subfields:
            self.field(kid, ft, name, depth + 1)
        if subfields:
            return
        self.names.add(name)
        if name in self.tooltips:
            node["TU"] = pydyf.String(self.tooltips[name])
        if ft in ("/Tx", "/Ch"):
            value = node.get("V")
            if not isinstance(value, list) and _text(value) != "":
                raise RenderError(f"field {name!r} already has a value: only blank forms are made")
            for widget in widgets or [node]:
                self.text_widget(widget)
        elif ft == "/Btn" and not _flags(node) & FF_PUSHBUTTON:
            for widget in widgets or [node]:
                self.normalise_rect(widget)
                self.add_off_appearance(widget)
        elif ft is None:
            raise RenderError(f"field {name!r} has no field type (/FT)")

    def radio(self, group: Any, name: str, widgets: list[Any]) -> None:
        """The group keeps /T, /FT, /Ff and /V; its kids become pure widgets (WeasyPrint gives
        each its own /T, /FT and /TU, which makes each a field of its own)."""
        if not widgets or any(kid.get("Subtype") != "/Widget" or "Kids" in kid for kid in widgets):
            raise RenderError(f"radio group {name!r} must have widgets as its only kids")
        options = [_text(option) for option in group.get("Opt", [])]
        exports: list[str] = []
        option_tips: list[str] = []
        renamed: dict[str, str] = {}  # old on-state (without "/") -> export value
        for widget in widgets:
            normal = _normal_appearances(self.pdf, widget)
            on = [str(key) for key in normal if str(key) != "Off"]
            if len(on) != 1:
                raise RenderError(f"radio group {name!r}: a widget needs exactly one on-state")
            state = on[0]
            export = export_name(state, options)
            if export in exports:
                raise RenderError(f"radio group {name!r} has the option {export!r} twice")
            if not export or export == "Off":
                raise RenderError(f"radio group {name!r} has an option without a name")
            exports.append(export)
            renamed[state] = export
            if "TU" in widget:
                option_tips.append(_text(widget["TU"]))
            self.rename_states(widget, state, export)
            for key in ("T", "FT", "TU", "Ff", "V", "DV", "Opt", "DA"):
                widget.pop(key, None)
            self.normalise_rect(widget)
            self.add_off_appearance(widget)
        current = group.get("V")
        current = current[1:] if isinstance(current, str) and current.startswith("/") else None
        value = renamed.get(current) if current is not None else None
        if value is None and current in exports:
            value = current
        for widget, export in zip(widgets, exports, strict=True):
            widget["AS"] = f"/{export}" if export == value else "/Off"
        group["V"] = f"/{value}" if value else "/Off"
        group.pop("Opt", None)
        flags = _flags(group) | FF_RADIO | FF_NO_TOGGLE_TO_OFF
        group["Ff"] = flags & ~FF_PUSHBUTTON
        tooltip = self.tooltips.get(name) or _group_tooltip(option_tips) or _text(group.get("TU"))
        if tooltip:
            group["TU"] = pydyf.String(tooltip)

    # -- widgets

    def text_widget(self, widget: Any) -> None:
        """The field font in /DA (at the size WeasyPrint chose) and an empty appearance."""
        self.normalise_rect(widget)
        old = _text(widget.get("DA"))  # WeasyPrint's: "/a1.0 gs 0 0 0 rg /OQCLEL 11 Tf"
        size_match = _FONT_SIZE.search(old)
        size = float(size_match.group(1)) if size_match else DEFAULT_FONT_SIZE
        colours = _COLOUR.findall(old)  # the text colour: /DA allows no graphics state (gs)
        colour = " ".join(colours[-1].split()) if colours else "0 g"
        widget["DA"] = pydyf.String(f"{FONT} {_number(size)} Tf {colour}")
        widget["F"] = int(widget.get("F", 0)) | ANNOT_PRINT
        width, height = _size(self.pdf, widget)
        stream = self.form_xobject(width, height, [b"/Tx BMC", b"EMC", b""], with_font=True)
        widget["AP"] = pydyf.Dictionary({"N": stream})

    def rename_states(self, widget: Any, old: str, new: str) -> None:
        appearances = _dictionary(self.pdf, widget.get("AP"), "a widget's appearances (/AP)")
        for kind in ("N", "D", "R"):
            states = _resolve(self.pdf, appearances.get(kind))
            if not isinstance(states, dict):
                continue
            renamed = pydyf.Dictionary()
            for key in sorted(states, key=str):
                renamed[new if str(key) == old else key] = states[key]
            appearances[kind] = renamed

    def add_off_appearance(self, widget: Any) -> None:
        normal = _normal_appearances(self.pdf, widget)
        if any(str(key) == "Off" for key in normal):
            return
        width, height = _size(self.pdf, widget)
        normal["Off"] = self.form_xobject(width, height, [], with_font=False)

    def normalise_rect(self, widget: Any) -> None:
        rect = [float(v) for v in _array(self.pdf, widget.get("Rect"), "a widget's /Rect")]
        if len(rect) != 4:
            raise RenderError("a widget's /Rect is not four numbers")
        x1, y1, x2, y2 = rect
        ordered = [min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)]
        widget["Rect"] = pydyf.Array(_real(value) for value in ordered)

    def form_xobject(
        self, width: float, height: float, content: list[bytes], *, with_font: bool
    ) -> bytes:
        resources = pydyf.Dictionary()
        if with_font:
            resources["Font"] = pydyf.Dictionary({FONT[1:]: self.font})
        stream = pydyf.Stream(
            list(content),
            {
                "Type": "/XObject",
                "Subtype": "/Form",
                "BBox": pydyf.Array([0, 0, _real(width), _real(height)]),
                "Resources": resources,
            },
        )
        self.pdf.add_object(stream)
        return stream.reference


def _normal_appearances(pdf: Any, widget: Any) -> Any:
    appearances = _resolve(pdf, widget.get("AP"))
    normal = _resolve(pdf, appearances.get("N")) if isinstance(appearances, dict) else None
    if not isinstance(normal, dict):
        raise RenderError("a button widget has no normal appearances (/AP /N)")
    return normal


def _size(pdf: Any, widget: Any) -> tuple[float, float]:
    x1, y1, x2, y2 = (float(v) for v in _array(pdf, widget.get("Rect"), "a widget's /Rect"))
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
