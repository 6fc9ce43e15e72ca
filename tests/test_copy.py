"""One rendered copy (docgen.render.copy) resolved once; its read-back (docgen.render.readback)
read thoroughly only when a rule finds a problem; a DOC rule is one decorated function."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from docgen.core.citations import Citation
from docgen.core.document_rules import EACH_TEXT, document_rule, unregister_document_rule
from docgen.core.documents import IssuedCopy
from docgen.core.errors import RenderError
from docgen.issue import docrules
from docgen.issue.pool import render_and_read_back
from docgen.kinds import Kind
from docgen.load import load_facts
from docgen.render import readback
from docgen.render.copy import resolve
from docgen.render.readback import ReadBack

ROOT = Path(__file__).resolve().parent.parent
GRANT = ROOT / "samples" / "director-grant-2026.yaml"
AS_OF = date(2026, 6, 23)


def _counting(monkeypatch, name: str) -> list[str]:
    calls: list[str] = []
    original = getattr(Kind, name)

    def counted(self, *args):
        calls.append(name)
        return original(self, *args)

    monkeypatch.setattr(Kind, name, counted)
    return calls


def test_one_copy_is_resolved_once_for_all_its_parts(monkeypatch):
    loaded = load_facts(GRANT)
    lookups = _counting(monkeypatch, "document")
    subjects = _counting(monkeypatch, "subject")
    html, outputs, facts, problems = render_and_read_back(
        loaded, "notice", "jsmith", "grant", ("html", "docx"), as_of=AS_OF
    )
    assert problems == []
    assert set(outputs) == {"html", "docx"} and html and facts
    assert (lookups, subjects) == (["document"], ["subject"])


def test_a_copy_computes_each_part_once():
    copy = resolve(load_facts(GRANT), "notice", "jsmith", "grant", AS_OF)
    assert copy.html is copy.html and copy.meta is copy.meta
    assert copy.meta.created == AS_OF and copy.key_facts == copy.key_facts
    assert copy.in_format("html") == copy.html.encode("utf-8")
    again = resolve(load_facts(GRANT), "notice", "jsmith", "grant", AS_OF)
    assert again.html == copy.html and again.html is not copy.html  # nothing shared


def test_resolving_says_why_there_is_no_such_copy():
    loaded = load_facts(GRANT)
    with pytest.raises(RenderError, match="no 'nobody' in the facts file"):
        resolve(loaded, "notice", "nobody", "grant")
    with pytest.raises(RenderError, match="unknown format 'rtf'"):
        resolve(loaded, "notice", "jsmith", "grant").in_format("rtf")


def test_the_pdf_is_read_thoroughly_only_when_a_rule_finds_a_problem(monkeypatch):
    loaded = load_facts(GRANT)
    copy = resolve(loaded, "notice", "jsmith", "grant", AS_OF)
    pdf = copy.pdf()
    readings: list[bool] = []
    original = readback.pdf_pages

    def counted(data, *, thorough=False):
        readings.append(thorough)
        return original(data, thorough=thorough)

    monkeypatch.setattr(readback, "pdf_pages", counted)
    assert docrules.check_rendered(copy, pdf=pdf, docx=copy.docx) == []
    assert readings == [False]
    readings.clear()
    missing = IssuedCopy("jsmith", "notice", ("a fact no Notice carries",))
    problems = docrules.check_rendered(missing, pdf=pdf, docx=None)
    assert readings == [False, True]
    assert [p.message for p in problems] == ['PDF: key fact "a fact no Notice carries" is missing']


def test_a_doc_rule_is_one_decorated_function():
    @document_rule(
        "DOC-TOY-SHOUTING",
        title="A toy rule: a text in capitals",
        severity="warning",
        cites=(Citation("DESIGN.md", "Rendered documents"),),
        explanation="Only for this test.",
        reads=EACH_TEXT,
    )
    def shouting(copy, text):
        return ["all capitals"] if text.isupper() else []

    try:
        copy = IssuedCopy("jsmith", "notice")
        found = docrules.check_document(copy, ReadBack(None, ["DEAR MS. SMITH"], "Dear", None))
        assert [(p.rule, p.message) for p in found] == [
            ("DOC-TOY-SHOUTING", "PDF: all capitals"),
            ("DOC-FORMAT-MISMATCH", found[1].message),
        ]
    finally:
        unregister_document_rule("DOC-TOY-SHOUTING")
    quiet = docrules.check_document(copy, ReadBack(None, ["X"], "X", None))
    assert quiet == []  # unregistered: the shouting text is no finding now
