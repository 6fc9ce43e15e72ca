"""WeasyPrint's presentational-hints stylesheet is parsed when first used
(docgen.render.weasyprint_hints): a docgen render never parses it, and a document rendered with
presentational hints gets them exactly as with WeasyPrint imported the ordinary way."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

from docgen.render import weasyprint_hints

ROOT = Path(__file__).resolve().parent.parent

# Attributes only the hints stylesheet gives a meaning: an aligned paragraph, a bordered table,
# a coloured font, a sized image box.
HINTED = (
    "<html><head><style>@page {size: A6} body {font-family: serif}</style></head><body>"
    '<p align="right">Right</p><center>Centred</center>'
    '<table border="3" cellpadding="6"><tr><td bgcolor="#ff0000">cell</td></tr></table>'
    '<font color="#00ff00" size="7">big green</font><hr size="9" noshade>'
    "</body></html>"
)

PROCESS = """
import hashlib, json, sys
if sys.argv[1] == "docgen":
    from docgen.render.weasyprint_import import weasyprint
    module = weasyprint()
else:
    import weasyprint as module
html = sys.argv[2]
hinted = sys.argv[3] == "hinted"
document = module.HTML(string=html).render(presentational_hints=hinted)
pdf = document.write_pdf(pdf_identifier=b"0" * 16)
boxes = []
def walk(box):
    boxes.append([type(box).__name__, round(box.position_x, 3), round(box.position_y, 3),
                  round(box.width or 0, 3), round(box.height or 0, 3)])
    for child in getattr(box, "children", []):
        walk(child)
walk(document.pages[0]._page_box)
import weasyprint.html as html_module
stylesheet = module.PH_STYLESHEET
print(json.dumps({
    "sha256": hashlib.sha256(pdf).hexdigest(),
    "boxes": boxes,
    "stand_in": type(stylesheet).__name__,
    "parsed": getattr(stylesheet, "parsed", None),
    "css_restored": html_module.CSS is module.CSS,
}))
"""


def _render(importer: str, hinted: bool, html: str = HINTED) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", PROCESS, importer, html, "hinted" if hinted else "plain"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_render_without_hints_never_parses_them():
    said = _render("docgen", hinted=False)
    assert said["stand_in"] == "DeferredStylesheet"
    assert said["parsed"] is False
    assert said["css_restored"]


def test_hints_asked_for_are_parsed_then_and_lay_out_as_weasyprint_alone_does():
    deferred = _render("docgen", hinted=True)
    ordinary = _render("ordinary", hinted=True)
    assert deferred["parsed"] is True
    assert ordinary["stand_in"] == "CSS"
    assert deferred["boxes"] == ordinary["boxes"]
    assert deferred["sha256"] == ordinary["sha256"]
    # and the hints did something: without them the layout differs
    assert _render("ordinary", hinted=False)["boxes"] != ordinary["boxes"]


def test_without_hints_the_pdf_is_the_ordinary_imports():
    assert _render("docgen", hinted=False)["sha256"] == _render("ordinary", hinted=False)["sha256"]


def test_the_stand_in_parses_once_and_answers_as_the_stylesheet():
    calls = []

    class Parsed:
        matcher = "the matcher"
        page_rules = ["a page rule"]

    def css(**kwargs):
        calls.append(kwargs)
        return Parsed()

    stand_in = weasyprint_hints.DeferredStylesheet(css, "p[align=right] {text-align: right}")
    assert not stand_in.parsed and calls == []
    assert stand_in.matcher == "the matcher"
    assert stand_in.page_rules == ["a page rule"]
    assert calls == [{"string": "p[align=right] {text-align: right}"}]
    assert stand_in.parsed


def test_dunder_lookups_are_not_a_use():
    import copy

    calls = []
    stand_in = weasyprint_hints.DeferredStylesheet(lambda **kwargs: calls.append(kwargs), "")
    assert not hasattr(stand_in, "__deepcopy__")
    copy.copy(stand_in)
    assert calls == []


def test_the_hints_text_is_weasyprints_own():
    from docgen.render.weasyprint_import import weasyprint

    weasyprint()
    import weasyprint.html as html_module

    text = weasyprint_hints._hints_text()
    assert text is not None and "align" in text
    assert (
        hashlib.sha256(text.encode()).digest() == hashlib.sha256(html_module.PH.encode()).digest()
    )
