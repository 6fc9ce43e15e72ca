"""Filling returned forms as their signers do: with pdf.js run as Firefox runs it (Node,
tools/pdfjs/fill_pdfjs.mjs: annotationStorage, then saveDocument), with PDFium as Chrome does
(pypdfium2: a click, typed text), with MuPDF (pymupdf's widgets) and with pypdf, as a script
would (as docgen's tests always did, and at pypdf's defaults). tests/test_acroform.py,
tests/test_intake.py and tests/test_form_viewers.py fill with these.

pdf.js needs Node and ``npm ci --prefix tools/pdfjs``; .ci/run installs both. Without them the
tests that use it fail, saying so: they are never skipped.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter

JS = Path(__file__).resolve().parent.parent / "tools" / "pdfjs"


def node() -> str:
    found = shutil.which("node")
    if found is None:
        pytest.fail(
            "node is not installed: pdf.js fills the forms as Firefox does. Run .ci/run, or "
            "apt-get install nodejs npm && npm ci --prefix tools/pdfjs"
        )
    if not (JS / "node_modules" / "pdfjs-dist" / "package.json").is_file():
        pytest.fail("pdf.js is not installed: run npm ci --prefix tools/pdfjs (.ci/run does)")
    return found


def pdfjs(*args: str) -> str:
    result = subprocess.run(
        [node(), str(JS / "fill_pdfjs.mjs"), *args], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def pdfjs_fill(pdf: bytes, values: dict[str, str], tmp_path: Path) -> bytes:
    source, target, wanted = tmp_path / "blank.pdf", tmp_path / "filled.pdf", tmp_path / "v.json"
    source.write_bytes(pdf)
    wanted.write_text(json.dumps(values), encoding="utf-8")
    pdfjs("fill", str(source), str(target), str(wanted))
    return target.read_bytes()


def pdfjs_read(pdf: bytes, tmp_path: Path) -> dict:
    path = tmp_path / "read.pdf"
    path.write_bytes(pdf)
    return json.loads(pdfjs("read", str(path)))


def pypdf_fill(pdf: bytes, values: dict[str, str], *, incremental: bool = False) -> bytes:
    """Fill as a script would with pypdf: a radio option is given by its state name.
    ``incremental``: the fill appended as an update, as a certified form must be filled (pypdf
    then writes no /Info in the new trailer)."""
    if incremental:
        writer = PdfWriter(io.BytesIO(pdf), incremental=True)
    else:
        writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    fields = {name: (f"/{v}" if name == "pay_on" else v) for name, v in values.items()}
    writer.update_page_form_field_values(None, fields, auto_regenerate=False)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def pypdf_default_fill(pdf: bytes, values: dict[str, str]) -> bytes:
    """Fill as pypdf does at its defaults (auto_regenerate: NeedAppearances set, and pypdf's own
    appearance streams), the radio option given as its state name ("/date"): pypdf writes the
    group's /V as text either way, and sets /AS only when the name has its slash."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    fields = {name: (f"/{v}" if name == "pay_on" else v) for name, v in values.items()}
    writer.update_page_form_field_values(None, fields)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def mupdf_fill(pdf: bytes, values: dict[str, str]) -> bytes:
    """Fill with MuPDF (PyMuPDF's widgets, as mupdf-gl and SumatraPDF fill): each text widget's
    value set and its appearance made by MuPDF; a radio option turned on by its on-state."""
    import pymupdf

    document = pymupdf.open(stream=pdf, filetype="pdf")
    seen: set[str] = set()
    for page in document:
        for widget in page.widgets():
            name = widget.field_name
            if name not in values:
                continue
            if widget.field_type == pymupdf.PDF_WIDGET_TYPE_RADIOBUTTON:
                if widget.on_state() == values[name]:
                    widget.field_value = True
                    widget.update()
                    seen.add(name)
            else:
                widget.field_value = values[name]
                widget.update()
                seen.add(name)
    assert seen == set(values), f"MuPDF found no field for {sorted(set(values) - seen)}"
    return document.tobytes()


def _pdfium_text(function, *args) -> str:
    import ctypes

    import pypdfium2.raw as pdfium_c

    size = function(*args, None, 0)
    buffer = ctypes.create_string_buffer(size)
    function(*args, ctypes.cast(buffer, ctypes.POINTER(pdfium_c.FPDF_WCHAR)), size)
    return buffer.raw[: size - 2].decode("utf-16-le")


def pdfium_fill(pdf: bytes, values: dict[str, str]) -> bytes:
    """Fill with PDFium as Chrome's viewer does: a click on the chosen option, and for a text
    field focus, select all, type the value (FORM_ReplaceSelection), leave the field; then save."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    document = pdfium.PdfDocument(pdf)
    document.init_forms()
    form = document.formenv
    seen: set[str] = set()
    for index in range(len(document)):
        page = document[index]
        for number in range(pdfium_c.FPDFPage_GetAnnotCount(page)):
            annotation = pdfium_c.FPDFPage_GetAnnot(page, number)
            name = _pdfium_text(pdfium_c.FPDFAnnot_GetFormFieldName, form, annotation)
            if name in values:
                kind = pdfium_c.FPDFAnnot_GetFormFieldType(form, annotation)
                if kind == pdfium_c.FPDF_FORMFIELD_RADIOBUTTON:
                    export = _pdfium_text(
                        pdfium_c.FPDFAnnot_GetFormFieldExportValue, form, annotation
                    )
                    if export == values[name]:
                        rect = pdfium_c.FS_RECTF()
                        pdfium_c.FPDFAnnot_GetRect(annotation, rect)
                        x, y = (rect.left + rect.right) / 2, (rect.top + rect.bottom) / 2
                        pdfium_c.FORM_OnLButtonDown(form, page, 0, x, y)
                        pdfium_c.FORM_OnLButtonUp(form, page, 0, x, y)
                        seen.add(name)
                else:
                    pdfium_c.FORM_SetFocusedAnnot(form, annotation)
                    pdfium_c.FORM_SelectAllText(form, page)
                    typed = ctypes.create_string_buffer((values[name] + "\0").encode("utf-16-le"))
                    pdfium_c.FORM_ReplaceSelection(
                        form, page, ctypes.cast(typed, pdfium_c.FPDF_WIDESTRING)
                    )
                    pdfium_c.FORM_ForceToKillFocus(form)
                    seen.add(name)
            pdfium_c.FPDFPage_CloseAnnot(annotation)
    assert seen == set(values), f"PDFium found no field for {sorted(set(values) - seen)}"
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()
