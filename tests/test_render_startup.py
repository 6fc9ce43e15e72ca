"""What a process that renders does once before its first document (issue 27): it imports only
the kind it renders, it reads the field font of a form once (before a batch's workers fork), and
what it makes once is what it made a document at a time, byte for byte."""

from __future__ import annotations

import ast
import subprocess
import sys
import zlib
from pathlib import Path

from docgen.kinds import get_kind
from docgen.kinds.registry import BUILT_IN

ROOT = Path(__file__).resolve().parent.parent


def test_no_built_in_kind_brings_a_template_folder():
    """The templates' environment looks only at the kinds registered so far for extra template
    folders; that is right because no built-in kind brings one (they use templates/)."""
    assert BUILT_IN
    for name in BUILT_IN:
        assert get_kind(name).template_dirs == ()


def test_renderers_ready_for_a_grant_cycle_import_no_plan_kind():
    """A fresh process made ready to render a grant cycle (what a batch does before its workers
    fork: the stylesheet, its fonts, the DOCX template, the read-back) imports nothing of the
    RRP kind but the authorities the DOC rules cite."""
    probe = (
        "import sys\n"
        "from docgen.load import load_facts\n"
        "from docgen.issue.pool import _prepare\n"
        "_prepare(load_facts('samples/director-grant-2026.yaml'))\n"
        "print('MODULES', sorted(sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stdout.splitlines() if x.startswith("MODULES "))
    modules = set(ast.literal_eval(line.removeprefix("MODULES ")))
    assert "weasyprint" in modules and "docgen.kinds.director_rsu.kind" in modules
    # the RRP's authorities are cited by the DOC rules' sources, as `docgen check` imports them
    rrp = sorted(m for m in modules if m.startswith("docgen.kinds.rrp."))
    assert rrp == ["docgen.kinds.rrp.authorities"]


def test_the_field_fonts_streams_are_compressed_once_as_pypdf_compresses_them():
    """The field font's program and ToUnicode CMap are compressed once a process, to exactly the
    bytes pypdf's ``flate_encode(level=9)`` made of them in every form before (so an issued
    form's bytes did not change), and a prepared process compresses them no more."""
    from pypdf.generic import DecodedStreamObject

    from docgen.render import field_font

    font = field_font.field_font()
    for data in (font.program, field_font.to_unicode_cmap(font.to_unicode)):
        made = DecodedStreamObject()
        made.set_data(data)
        assert field_font.compressed(data) == made.flate_encode(level=9)._data
        assert zlib.decompress(field_font.compressed(data)) == data
    field_font.prepare()
    before = field_font.compressed.cache_info()
    import pydyf

    field_font.add_field_font(pydyf.PDF())
    after = field_font.compressed.cache_info()
    assert after.misses == before.misses and after.hits == before.hits + 2
