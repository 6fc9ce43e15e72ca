"""Reading a returned, filled docgen form: its identity and one clear answer per field, or the
problems that make an answer unclear (never a guess). The form's structure is described in
docgen.render.acroform, its format in docgen.render.form_format."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any, cast

from pypdf import PdfReader
from pypdf.errors import DependencyError, LimitReachedError, PyPdfError
from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject, NameObject

from docgen.core.errors import DocgenError
from docgen.render.form_format import (
    FF_PUSHBUTTON,
    FF_RADIO,
    IDENTITY_KEYS,
    INFO_KEYS,
    MAX_DEPTH,
    SHA256,
    export_name,
)
from docgen.render.readback import pdf_reader_notes


class NotAForm(DocgenError, ValueError):
    """The PDF is not a docgen form that can be read back: not a PDF, no form fields (a scan or a
    printed copy), or no docgen identity. Exit code 2 (nothing is recorded)."""


@dataclass(frozen=True, order=True)
class FormProblem:
    """Something in a returned form that cannot be read as one clear answer."""

    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.field}: {self.message}" if self.field else self.message


@dataclass(frozen=True)
class FormContents:
    """What a returned form says.

    ``identity`` has the keys of :data:`IDENTITY_KEYS`; ``values`` maps every field's full name
    to its value: the text typed, the export name of the chosen option of a radio group, or
    ``None`` when the field is blank (or cannot be read as one answer: see ``problems``).
    """

    identity: dict[str, str]
    values: dict[str, str | None]
    problems: list[FormProblem] = field(default_factory=list)
    tooltips: dict[str, str] = field(default_factory=dict)  # field name -> its /TU, what it is for


# --------------------------------------------------------------------------------- reading


def read_form(pdf: bytes, identity_from: bytes | None = None) -> FormContents:
    """The identity and field values of a returned form, with anything that is not one clear
    answer listed in ``problems`` (and read as ``None``). Raises NotAForm for a file that is not
    a PDF, has no form fields (a scan, a printed copy) or carries no docgen identity.
    ``identity_from``: the form as the company certified it, whose identity is the form's (a
    fill appended as an update may write no /Info; docgen.intake.certified)."""
    with pdf_reader_notes() as notes:  # pypdf's warnings on a damaged file: in the message
        try:
            return _read_form(pdf, identity_from)
        except NotAForm as error:
            raise NotAForm("; ".join([str(error), *notes.messages])) from None


def _read_form(pdf: bytes, identity_from: bytes | None = None) -> FormContents:
    if b"%PDF-" not in pdf[:1024]:  # where readers look for the header (ISO 32000-2, 7.5.2)
        raise NotAForm("not a PDF file (a PDF begins with %PDF-, and this file does not)")
    try:
        reader = PdfReader(io.BytesIO(pdf))
        # Saved with "restrict editing" (an owner password only), a form opens without a
        # password and is read (AES through the cryptography package); one that asks for a
        # password to open is refused, never guessed at.
        if reader.is_encrypted and not reader.decrypt(""):
            raise NotAForm(
                "the PDF asks for a password to open it: ask for a copy saved without one "
                "(restricting editing is fine; a password to open is not)"
            )
        _page_tree(reader)
        root = cast(DictionaryObject, reader.trailer["/Root"].get_object())
        acro = root.get("/AcroForm")
        acro = acro.get_object() if acro is not None else None
        fields = acro.get("/Fields") if isinstance(acro, DictionaryObject) else None
        if not fields:
            raise NotAForm(
                "the PDF has no form fields: a scanned or printed copy cannot be read back; "
                "record it by hand, or ask for the filled PDF"
            )
        certified = PdfReader(io.BytesIO(identity_from)) if identity_from else reader
        identity = _read_identity(certified)
        fields_reader = _Reader()
        values, problems = fields_reader.read(fields)
    except NotAForm:
        raise
    except LimitReachedError as error:  # pypdf's limits on what a PDF may make it read
        raise NotAForm(
            f"the PDF is larger inside than any form docgen issues ({error}): it is not a form "
            "docgen sent"
        ) from None
    except DependencyError as error:  # an encryption this installation cannot undo
        raise NotAForm(f"the PDF is encrypted in a way docgen cannot read here ({error})") from None
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise NotAForm(f"not a readable PDF ({error})") from error
    if identity.get("facts_sha256") and not SHA256.match(identity["facts_sha256"]):
        problems.append(FormProblem("", "the form's facts SHA-256 is not 64 hex digits"))
    return FormContents(
        identity=identity,
        values=values,
        problems=sorted(problems),
        tooltips=fields_reader.tooltips,
    )


def _page_tree(reader: PdfReader) -> None:
    """The pages, counted once here: a page tree that contains itself (a /Kids naming its own
    node) is refused as not a form docgen sent, before anything else walks it (the checks of
    what the form carries, its text) and ends in an error no one can act on (issue 44)."""
    try:
        count = len(reader.pages)
    except RecursionError:
        count = -1
    except PyPdfError as error:
        # pypdf 7 says "Detected cyclic page references"; pypdf 6 recursed until its own
        # bound, "Maximum recursion depth reached during page flattening"
        words = str(error).lower()
        if "cycl" not in words and "recursion depth" not in words:
            raise
        count = -1
    if count < 1:
        raise NotAForm(
            "its page tree contains itself (a page list that names its own node) or has no "
            "pages: it is not a form docgen sent"
        )


def _read_identity(reader: PdfReader) -> dict[str, str]:
    info: Any = reader.metadata or {}
    identity: dict[str, str] = {}
    for key in IDENTITY_KEYS:
        value = info.get(INFO_KEYS[key])
        if value is not None and str(value).strip():
            identity[key] = str(value)
    missing = [INFO_KEYS[key][1:] for key in IDENTITY_KEYS if key not in identity]
    if missing:
        raise NotAForm(
            "the PDF has form fields but not docgen's identity (no "
            + ", ".join(missing)
            + " in its document information): it was not issued by docgen, or was re-saved by "
            "a program that dropped it"
        )
    return identity


MAX_FIELDS = 2_000  # fields and widgets: the RRP form, the largest, has under a hundred


class _Reader:
    def __init__(self) -> None:
        self.found: dict[str, list[str | None]] = {}
        self.tooltips: dict[str, str] = {}
        self.problems: list[FormProblem] = []
        self.visited: set[int] = set()
        self.count = 0  # fields and widgets read so far

    def read(self, fields: Any) -> tuple[dict[str, str | None], list[FormProblem]]:
        for ref in fields:
            self.node(ref, parent_ft=None, parent_ff=0, parent_name="", depth=0)
        values: dict[str, str | None] = {}
        for name, found in self.found.items():
            if len(found) > 1:
                distinct = sorted({str(v) for v in found})
                if len(distinct) > 1:
                    self.problems.append(
                        FormProblem(
                            name,
                            f"appears {len(found)} times with different values "
                            f"({', '.join(distinct)})",
                        )
                    )
                    values[name] = None
                    continue
                self.problems.append(FormProblem(name, f"appears {len(found)} times"))
            values[name] = found[0]
        return values, self.problems

    def node(self, ref: Any, parent_ft: Any, parent_ff: int, parent_name: str, depth: int) -> None:
        self.count += 1
        if self.count > MAX_FIELDS:
            raise NotAForm(
                f"the PDF has more than {MAX_FIELDS:,} form fields and widgets; a docgen form "
                "has a few dozen: it is not a form docgen sent"
            )
        node = ref.get_object()
        if not isinstance(node, DictionaryObject) or depth > MAX_DEPTH:
            self.problems.append(FormProblem(parent_name, "a form field that cannot be read"))
            return
        part = str(node.get("/T", ""))
        name = f"{parent_name}.{part}" if parent_name and part else (part or parent_name)
        if isinstance(ref, IndirectObject):
            if ref.idnum in self.visited:
                self.problems.append(
                    FormProblem(name, "the form lists this field more than once (a loop)")
                )
                return
            self.visited.add(ref.idnum)
        ft = node.get("/FT", parent_ft)
        ff = int(node.get("/Ff", parent_ff))
        kids = list(node.get("/Kids", []))
        subfields = [kid for kid in kids if "/T" in kid.get_object()]
        widgets = [kid.get_object() for kid in kids if "/T" not in kid.get_object()]
        for kid in subfields:
            self.node(kid, ft, ff, name, depth + 1)
        if subfields and not widgets:
            return  # a field only by its name's prefix: its kids hold the values
        if ft == "/Btn" and ff & FF_PUSHBUTTON:
            return  # a push button has no value
        if ft == "/Sig":
            return  # the company's certification (batch --sign), not an answer on the form
        if "/TU" in node:
            self.tooltips.setdefault(name, str(node["/TU"]))
        widgets = widgets or [node]  # a field merged with its one widget
        if ft == "/Btn":
            value = self.button(name, node, widgets, radio=bool(ff & FF_RADIO))
        else:
            value = self.text(name, node.get("/V"))
        self.found.setdefault(name, []).append(value)

    def text(self, name: str, value: Any) -> str | None:
        if value is None:
            return None
        value = value.get_object() if isinstance(value, IndirectObject) else value
        if isinstance(value, ArrayObject):
            value = "\n".join(str(item) for item in value)
        if not isinstance(value, str):
            self.problems.append(FormProblem(name, "its value is not text"))
            return None
        return value if value.strip() else None

    def button(
        self, name: str, node: DictionaryObject, widgets: list[DictionaryObject], radio: bool
    ) -> str | None:
        options = [str(option) for option in node.get("/Opt", [])]
        exports: list[str] = []
        marked: list[str] = []
        for widget in widgets:
            appearances = widget.get("/AP")
            normal = appearances.get_object().get("/N") if appearances is not None else None
            normal = normal.get_object() if normal is not None else None
            states = [key[1:] for key in normal if key != "/Off"] if normal else []
            if len(states) != 1:
                self.problems.append(FormProblem(name, "an option has no single on-state"))
                continue
            state = states[0]
            export = export_name(state, options)
            exports.append(export)
            appearance = widget.get("/AS")
            if isinstance(appearance, NameObject) and str(appearance)[1:] == state:
                marked.append(export)
        raw = node.get("/V")
        value = _name_value(raw)
        if value is not None and value not in exports:
            value = export_name(value, options)
        kind = "option" if radio else "box"
        if value is not None and value not in exports:
            self.problems.append(
                FormProblem(
                    name,
                    f"its value {value!r} is none of its {kind}s ({', '.join(exports) or '-'})",
                )
            )
            return None
        distinct = sorted(set(marked))
        if value is None and not distinct:
            return None
        if value is None:
            self.problems.append(
                FormProblem(
                    name,
                    f"{', '.join(distinct)} is shown marked but the field's value is Off: "
                    "ask for the form to be filled again",
                )
            )
            return None
        if distinct != [value]:
            shown = ", ".join(distinct) or "nothing"
            self.problems.append(
                FormProblem(
                    name,
                    f"its value is {value!r} but {shown} is shown marked: "
                    "ask for the form to be filled again",
                )
            )
            return None
        return value


def _name_value(raw: Any) -> str | None:
    """A button's /V as a plain name: a Name, or the text some fillers write ("/date")."""
    if raw is None:
        return None
    raw = raw.get_object() if isinstance(raw, IndirectObject) else raw
    text = str(raw)
    if isinstance(raw, NameObject) or text.startswith("/"):
        text = text[1:]
    return None if text in ("", "Off") else text
