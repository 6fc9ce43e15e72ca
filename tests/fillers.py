"""Filling returned forms as their signers do: with pdf.js run as Firefox runs it (Node,
tools/pdfjs/fill_pdfjs.mjs: annotationStorage, then saveDocument) and with pypdf, as a script
would. tests/test_acroform.py and tests/test_intake.py fill with these.

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
