"""A template's wording as counsel reads it (docgen.core.wording), and the redline of one wording
against another (docgen.core.redline): blanks named, conditions and loops as lines, no template
syntax or markup; the SHA-256 is of that wording, so markup and spacing never void an approval
and a changed word always does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docgen.core.redline import as_text, changes_only, redline
from docgen.core.resources import overridable_templates, read_template
from docgen.core.wording import label, wording_of, wording_sha256

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "samples").glob("*.yaml"))


def test_blanks_are_named_by_readable_labels():
    assert label("grant_date") == "Grant Date"
    assert label("director.name") == "Director's name"
    assert label("loop.index") == "number"
    assert wording_of("<p>On {{ grant_date }}, {{ director.name }}.</p>") == (
        "On [Grant Date], [Director's name].\n"
    )


def test_conditions_and_loops_read_as_lines():
    template = (
        '<div class="x">{% if election %}<p>Filed on {{ election.filed_on | long_date }}.</p>'
        "{% elif not late %}<p>None.</p>{% else %}<p>Late.</p>{% endif %}"
        "<ol>{% for event in events %}<li>{{ event }}</li>{% endfor %}</ol></div>"
    )
    assert wording_of(template) == (
        "If [Election]:\n"
        "  Filed on [Election's filed on].\n"
        "Otherwise, if not [Late]:\n"
        "  None.\n"
        "Otherwise:\n"
        "  Late.\n"
        "For each [Event] of [Events]:\n"
        "  [Event]\n"
    )


def test_an_included_clause_and_a_fill_in_field_are_named():
    template = '{% include "clauses/notice.grant-summary.html.j2" %}<p><input name="x"> Date</p>'
    assert wording_of(template) == "[Clause notice.grant-summary]\n[____] Date\n"


@pytest.mark.parametrize(
    "edit",
    [
        lambda t: t.replace("<p>", '<p class="clause wide">'),
        lambda t: t.replace(" the ", "\n   the "),
        lambda t: t.replace("Company", "<strong>Company</strong>"),
        lambda t: t.replace("{% if x %}", "{%- if x -%}"),
        lambda t: t.replace("&amp;", "&#38;"),
        lambda t: "{# a comment #}\n" + t,
    ],
    ids=["attribute", "line-break", "emphasis", "whitespace-control", "entity", "comment"],
)
def test_a_markup_or_whitespace_edit_leaves_the_sha256(edit):
    template = (
        "<p>Paid by the Company &amp; its agent.</p>{% if x %}<p>Then the rest.</p>{% endif %}"
    )
    edited = edit(template)
    assert edited != template
    assert wording_sha256(wording_of(edited)) == wording_sha256(wording_of(template))


@pytest.mark.parametrize(
    "old, new",
    [("Paid", "Owed"), ("the Company", "the Companies"), ("{% if x %}", "{% if y %}")],
)
def test_a_changed_word_always_changes_the_sha256(old, new):
    template = "<p>Paid by the Company.</p>{% if x %}<p>Then the rest.</p>{% endif %}"
    assert wording_sha256(wording_of(template.replace(old, new))) != wording_sha256(
        wording_of(template)
    )


def test_every_built_in_template_reads_without_template_syntax_or_markup():
    for name in overridable_templates():
        if not name.endswith(".html.j2"):
            continue
        wording = wording_of(read_template(name)[0])
        for syntax in ("{{", "{%", "{#", "<", "&amp;", "\t"):
            assert syntax not in wording, (name, syntax)


@pytest.mark.parametrize("sample", SAMPLES, ids=[s.name for s in SAMPLES])
def test_docgen_clauses_shows_no_template_syntax_in_any_wording(cli, sample):
    data = json.loads(cli("clauses", sample, "--format", "json").stdout)
    assert data["clauses"]
    for clause in data["clauses"]:
        for syntax in ("{{", "{%", "<"):
            assert syntax not in clause["text"], (clause["id"], syntax)
    text = cli("clauses", sample).stdout
    wordings = [line for line in text.splitlines() if line.startswith("    | ")]
    assert wordings and not any(s in line for line in wordings for s in ("{{", "{%", "<"))


def test_the_redline_marks_the_changed_words_only():
    before = "Taxes will be withheld by the Company.\nNext line.\n"
    after = "Taxes will be grossed up and paid by the Company.\nNext line.\n"
    runs = redline(before, after)
    assert as_text(runs) == (
        "Taxes will be [-withheld-]{+grossed up and paid+} by the Company.\nNext line.\n"
    )
    assert (
        changes_only(runs) == "Taxes will be [-withheld-] {+grossed up and paid+} by the Company."
    )
    assert as_text(redline(before, before)) == before
