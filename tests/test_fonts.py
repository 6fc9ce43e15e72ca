"""Fonts (issue 25): every letter a document prints is in a font docgen ships (Liberation Serif,
and DejaVu Serif for what it lacks: Vietnamese), never a machine's fallback; a letter none has is
refused when the document is issued; the record names the fonts it was printed with."""

from __future__ import annotations

import hashlib
import io
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

from docgen.core.resources import templates_dir
from docgen.issue.record import read_record

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
SHIPPED = {"Docgen-Serif", "Docgen-Serif-Bold", "Docgen-Serif-Italic", "Docgen-Serif-Extended"}


def _facts(tmp_path: Path, name: str) -> Path:
    text = (SAMPLES / "director-grant-2026.yaml").read_text(encoding="utf-8")
    facts = tmp_path / "grant.yaml"
    facts.write_text(text.replace("name: Thanh Nguyen", f"name: {name}", 1), encoding="utf-8")
    return facts


def _batch(cli, facts: Path, out: Path):
    return cli("batch", facts, "--out", out, "--as-of", "2026-06-23", "--workers", "1")


def _fonts(pdf: bytes) -> set[str]:
    names = set()
    for page in PdfReader(io.BytesIO(pdf)).pages:
        for font in page["/Resources"].get("/Font", {}).values():
            names.add(str(font.get_object()["/BaseFont"]).split("+", 1)[-1])
    return names


@pytest.mark.slow  # renders documents or runs many cases: make test, not test-fast
def test_vietnamese_and_polish_names_print_in_shipped_fonts_only(cli, tmp_path):
    name = "Nguyễn Đặng Łukasz Żółć"
    out = tmp_path / "out"
    assert _batch(cli, _facts(tmp_path, name), out).exit_code == 0
    notice = out / "2026-annual" / "grant" / "tnguyen" / "notice.pdf"
    pdf = notice.read_bytes()
    assert _fonts(pdf) <= SHIPPED | {"Helvetica"}, _fonts(pdf)
    assert "Docgen-Serif-Extended" in _fonts(pdf)  # ễ and ặ: DejaVu Serif, shipped
    text = subprocess.run(
        ["pdftotext", str(notice), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert name in " ".join(text.split())


@pytest.mark.slow  # renders documents or runs many cases: make test, not test-fast
def test_a_letter_no_shipped_font_has_is_refused_at_issue(cli, tmp_path):
    out = tmp_path / "out"
    result = _batch(cli, _facts(tmp_path, "محمد Nguyen"), out)
    assert result.exit_code == 2, result.output
    message = " ".join(result.stderr.split())
    assert "no font docgen ships has ح U+062D ARABIC LETTER HAH" in message
    assert "in whatever font this machine has" in message and "Traceback" not in result.output
    assert not out.exists()


@pytest.mark.slow  # renders documents or runs many cases: make test, not test-fast
def test_the_record_names_the_fonts_the_document_was_printed_with(cli, tmp_path):
    out = tmp_path / "out"
    assert _batch(cli, SAMPLES / "director-grant-2026.yaml", out).exit_code == 0
    record = read_record((out / "2026-annual" / "grant" / "jsmith" / "notice.pdf").read_bytes())
    assert record.data["record_format"] == 2
    named = dict(item.split(" sha256:") for item in record.data["fonts"].split(", "))
    fonts = templates_dir() / "fonts"
    assert named == {
        path.name: hashlib.sha256(path.read_bytes()).hexdigest() for path in fonts.glob("*.ttf")
    }
