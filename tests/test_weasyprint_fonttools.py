"""The fontTools subsetter and variable-font instancer WeasyPrint imports are imported when first
used (docgen.render.weasyprint_fonttools): a docgen render imports neither, and WeasyPrint,
when it does call them, calls the real ones."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from docgen.render.weasyprint_fonttools import _StandIn, deferred_fonttools

ROOT = Path(__file__).resolve().parent.parent
FONT = ROOT / "templates" / "fonts" / "DejaVuSerif.ttf"

RENDER = """
import io, sys
from docgen.render.pdf import prepare
from docgen.render.weasyprint_import import weasyprint
prepare()
import weasyprint.pdf.fonts as fonts
{before}
pdf = weasyprint().HTML(string="<p style='font-family: serif'>Deferred fontTools</p>").write_pdf()
from pypdf import PdfReader
print("TEXT", PdfReader(io.BytesIO(pdf)).pages[0].extract_text().strip())
print("SUBSET", "fontTools.subset" in sys.modules)
print("INSTANCER", "fontTools.varLib.instancer" in sys.modules)
{after}
"""


def _run(before: str = "", after: str = "") -> dict[str, str]:
    script = RENDER.format(before=textwrap.dedent(before), after=textwrap.dedent(after))
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr
    said = {}
    for line in done.stdout.splitlines():
        key, _, value = line.partition(" ")
        said[key] = value
    return said


def _harfbuzz_subsets() -> bool:
    from docgen.render.weasyprint_import import weasyprint

    weasyprint()
    from weasyprint.text.ffi import harfbuzz, harfbuzz_subset

    return bool(harfbuzz_subset) and bool(harfbuzz.hb_version_atleast(4, 1, 0))


def test_a_render_imports_neither_where_harfbuzz_subsets():
    if not _harfbuzz_subsets():
        pytest.skip("no HarfBuzz-Subset 4.1: WeasyPrint subsets with fontTools here")
    said = _run()
    assert said["TEXT"] == "Deferred fontTools"
    assert said["SUBSET"] == "False"
    assert said["INSTANCER"] == "False"


def test_without_harfbuzz_subset_weasyprint_subsets_with_the_real_fonttools():
    said = _run(
        before="fonts.harfbuzz_subset = None  # as on a machine without libharfbuzz-subset",
        after="""
        real = sys.modules["fontTools.subset"]
        same = fonts.subset.Options is real.Options
        print("REAL", type(real).__name__, hasattr(real, "__file__"), same)
        """,
    )
    assert said["TEXT"] == "Deferred fontTools"  # the subset font still prints the text
    assert said["SUBSET"] == "True"
    assert said["REAL"] == "module True True"


def test_the_instancer_weasyprint_calls_is_the_real_one():
    said = _run(
        after=f"""
        from fontTools.ttLib import TTFont
        try:
            fonts.instantiateVariableFont(TTFont({str(FONT)!r}), {{}})
        except ValueError as error:  # a static font: the real instancer's own refusal
            print("REFUSED", error)
        import fontTools.varLib.instancer as instancer
        print("SAME", fonts.instantiateVariableFont.__name__, type(instancer).__name__)
        """,
    )
    assert "fvar" in said["REFUSED"]
    assert said["SAME"] == "instantiateVariableFont module"


def test_an_import_after_weasyprint_gets_the_real_module():
    said = _run(
        after="""
        import importlib
        for name in ("fontTools.subset", "fontTools.varLib.instancer"):
            module = importlib.import_module(name)
            print(name, type(module).__name__, hasattr(module, "__file__"))
        """
    )
    assert said["fontTools.subset"] == "module True"
    assert said["fontTools.varLib.instancer"] == "module True"


def test_a_module_already_imported_is_left_as_it_is(monkeypatch):
    import fontTools.subset

    monkeypatch.setitem(sys.modules, "fontTools.varLib.instancer", fontTools.subset)
    with deferred_fonttools():
        assert sys.modules["fontTools.subset"] is fontTools.subset
        assert sys.modules["fontTools.varLib.instancer"] is fontTools.subset
    assert sys.modules["fontTools.subset"] is fontTools.subset


@pytest.fixture
def probe(tmp_path, monkeypatch):
    """A module of our own, not imported yet, deferred as the fontTools ones are (fontTools'
    subsetter cannot be imported twice in one process: it adds methods to fontTools' classes)."""
    (tmp_path / "deferred_probe.py").write_text(
        "VALUE = 42\n\ndef double(number):\n    return 2 * number\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "deferred_probe", raising=False)
    monkeypatch.setattr(
        "docgen.render.weasyprint_fonttools.DEFERRED", {"deferred_probe": ("double",)}
    )
    yield "deferred_probe"
    sys.modules.pop("deferred_probe", None)


def test_a_stand_in_used_during_the_import_brings_the_real_module(probe):
    with deferred_fonttools():
        stand_in = sys.modules[probe]
        assert isinstance(stand_in, _StandIn)
        assert stand_in.VALUE == 42  # asked for while it stands in: the real module is imported
        real = sys.modules[probe]
        assert real is not stand_in and not isinstance(real, _StandIn)
    assert sys.modules[probe] is real  # the real module stays


def test_a_stand_in_not_used_leaves_and_its_functions_call_the_real_ones(probe):
    with deferred_fonttools():
        from deferred_probe import double  # as WeasyPrint imports instantiateVariableFont
    assert probe not in sys.modules  # not used during the import: the stand-in has left
    assert double(21) == 42  # called later: the real module is imported and its function called
    assert sys.modules[probe].double is not double


def test_the_import_system_asking_for_dunder_names_imports_nothing(monkeypatch):
    monkeypatch.delitem(sys.modules, "fontTools.varLib.instancer", raising=False)
    stand_in = _StandIn("fontTools.varLib.instancer", ("instantiateVariableFont",))
    monkeypatch.setitem(sys.modules, "fontTools.varLib.instancer", stand_in)
    assert not hasattr(stand_in, "__path__")  # what `from X import name` asks a module first
    assert sys.modules["fontTools.varLib.instancer"] is stand_in
