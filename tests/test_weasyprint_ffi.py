"""WeasyPrint's C declarations from tables kept on the machine (docgen.render.weasyprint_ffi):
the same PDF bytes as the ordinary import, kept by the first import, refused when they do not
match, never executed, and nothing kept when the cache is off or cannot be written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest

from docgen.core import kept_files
from docgen.render import weasyprint_ffi as kept

WEASYPRINT_FFI = find_spec("weasyprint.text.ffi").origin

# One document with text in several scripts, bold and italic, and form fields: the library
# calls a packet makes (Pango layout, HarfBuzz shaping and subsetting, fontconfig).
RENDER = """
import hashlib, json, sys
from docgen.render.weasyprint_import import weasyprint
module = weasyprint()
import weasyprint.text.ffi as ffi_module
html = ('<html><head><style>@page {size: A5} body {font-family: serif}</style></head><body>'
        '<h1>Notice of Restricted Stock Unit Grant</h1>'
        '<p>Nguyễn Łukasz Đặng: 1,234 units, <b>vested</b> <i>on</i> 2026-06-23.</p>'
        '<form><input type=text name=a><input type=radio name=r value=1>'
        '<input type=checkbox name=c></form></body></html>')
pdf = module.HTML(string=html).write_pdf(pdf_forms=True, pdf_identifier=b'0' * 16)
print(json.dumps({'ffi': type(ffi_module.ffi).__name__,
                  'sha256': hashlib.sha256(pdf).hexdigest(), 'size': len(pdf)}))
"""


def _render(cache: str | Path) -> dict:
    env = {**os.environ, "DOCGEN_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", RENDER], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def _kept_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("weasyprint-ffi-*.py")) if folder.exists() else []


@pytest.fixture(scope="module")
def ordinary() -> dict:
    return _render(kept_files.OFF)


def test_the_declarations_are_read_from_weasyprints_source_without_running_it():
    text = kept.declarations(WEASYPRINT_FFI)
    assert text is not None
    assert "pango_layout_new" in text and "FcPatternCreate" in text


def test_a_source_with_no_single_literal_cdef_gives_no_declarations(tmp_path):
    two = tmp_path / "two.py"
    two.write_text("ffi.cdef('int a(void);')\nffi.cdef('int b(void);')\n", encoding="utf-8")
    built = tmp_path / "built.py"
    built.write_text("ffi.cdef(TEXT + 'int b(void);')\n", encoding="utf-8")
    assert kept.declarations(str(two)) is None
    assert kept.declarations(str(built)) is None
    assert kept.declarations(str(tmp_path / "missing.py")) is None


def test_the_first_import_keeps_the_tables_and_the_next_renders_the_same_bytes(tmp_path, ordinary):
    folder = tmp_path / "cache"
    first = _render(folder)
    assert first["ffi"] == "FFI"  # parsed, as WeasyPrint alone does
    (file,) = _kept_files(folder)
    assert file == kept.tables_file(folder, kept.declarations(WEASYPRINT_FFI))
    assert not list(folder.glob(".*partial"))
    second = _render(folder)
    assert second["ffi"] == "PrebuiltFFI"
    assert ordinary["ffi"] == "FFI"
    assert first["sha256"] == second["sha256"] == ordinary["sha256"]
    assert _kept_files(folder) == [file]


def test_off_keeps_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("DOCGEN_CACHE_DIR", "off")
    assert kept_files.cache_folder() is None
    monkeypatch.delenv("DOCGEN_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert kept_files.cache_folder() == tmp_path / "docgen"


def test_a_cache_that_cannot_be_written_keeps_nothing_and_renders_the_same(tmp_path, ordinary):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")
    done = _render(blocked / "cache")
    assert done["ffi"] == "FFI"
    assert done["sha256"] == ordinary["sha256"]
    assert blocked.read_text(encoding="utf-8") == "not a folder"


def _plant(folder: Path, body: str, header: bool = True) -> Path:
    text = kept.declarations(WEASYPRINT_FFI)
    path = kept.tables_file(folder, text)
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text((kept._header(text) if header else "") + body, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "body, header",
    [
        ("ffi = _cffi_backend.FFI('x', _version=0x2601, _types=b'\\x00\\x01'", True),  # cut
        ("ffi = _cffi_backend.FFI('x', _types=b'not tables')\n", True),  # not cffi's
        ("import _cffi_backend\nffi = _cffi_backend.FFI('x')\n", False),  # another's file
    ],
    ids=["cut-short", "not-tables", "no-header"],
)
def test_a_damaged_file_is_not_used_and_is_replaced(tmp_path, ordinary, body, header):
    folder = tmp_path / "cache"
    path = _plant(folder, body, header)
    done = _render(folder)
    assert done["ffi"] == "FFI"
    assert done["sha256"] == ordinary["sha256"]
    assert path.read_text(encoding="utf-8").startswith(
        kept._header(kept.declarations(WEASYPRINT_FFI))
    )
    assert _render(folder)["ffi"] == "PrebuiltFFI"


def test_a_planted_file_is_read_as_literals_never_run(tmp_path, ordinary):
    folder = tmp_path / "cache"
    marker = tmp_path / "ran"
    _plant(
        folder, f"ffi = _cffi_backend.FFI(__import__('pathlib').Path({str(marker)!r}).touch())\n"
    )
    done = _render(folder)
    assert not marker.exists()
    assert done["ffi"] == "FFI" and done["sha256"] == ordinary["sha256"]


def test_the_kept_ffi_refuses_other_declarations(tmp_path):
    folder = tmp_path / "cache"
    assert _render(folder)["ffi"] == "FFI"
    text = kept.declarations(WEASYPRINT_FFI)
    ffi = kept.prebuilt(folder, text)
    assert ffi is not None
    ffi.cdef(text)  # the text its tables were made from: a check, nothing parsed
    with pytest.raises(kept.StaleDeclarations):
        ffi.cdef(text + "\nint another(void);")
    with pytest.raises(kept.StaleDeclarations):
        ffi.cdef(text, override=True)
    assert kept.prebuilt(folder, text + " ") is None  # other text: another file, none kept


def test_stale_declarations_at_import_fall_back_to_the_ordinary_import(tmp_path, ordinary):
    """WeasyPrint's cdef text differing from what its source read said (as if the file changed
    between the two) makes the kept FFI refuse; the import is then the ordinary one."""
    folder = tmp_path / "cache"
    _render(folder)
    script = (
        "from docgen.render import weasyprint_ffi as kept\n"
        "original = kept.prebuilt\n"
        "def prebuilt(folder, text):\n"
        "    ffi = original(folder, text)\n"
        "    check = type(ffi).cdef\n"
        "    type(ffi).cdef = lambda self, csource, **kw: check(self, csource + ' ', **kw)\n"
        "    return ffi\n"
        "kept.prebuilt = prebuilt\n" + RENDER
    )
    env = {**os.environ, "DOCGEN_CACHE_DIR": str(folder)}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["ffi"] == "FFI"
    assert result["sha256"] == ordinary["sha256"]


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="owners and modes")
def test_a_file_others_may_write_is_not_used(tmp_path):
    folder = tmp_path / "cache"
    assert _render(folder)["ffi"] == "FFI"
    text = kept.declarations(WEASYPRINT_FFI)
    path = kept.tables_file(folder, text)
    assert kept.prebuilt(folder, text) is not None
    path.chmod(0o666)
    assert kept.prebuilt(folder, text) is None
    path.chmod(0o644)
    assert kept.prebuilt(folder, text) is not None
