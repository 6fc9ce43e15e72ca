"""The finding about a company template's edit (issue 44): it cites only the section the edit
touched, never every clause the rule may concern, and its context is whole words, marked "…"
where it is cut short."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from docgen.checker.runner import run_checks
from docgen.core.redline import changes_only, redline
from docgen.load import load_facts

ROOT = Path(__file__).resolve().parent.parent
GRANT = ROOT / "samples" / "director-grant-2026.yaml"


def test_a_template_edit_cites_the_section_it_touched_only(cli, tmp_path):
    assert cli("templates", "--export", tmp_path / "forms").exit_code == 0
    exhibit = tmp_path / "forms" / "exhibit-i.html.j2"
    exhibit.write_text(
        exhibit.read_text(encoding="utf-8").replace(
            "You are not obligated to make", "You are not required to make", 1
        ),
        encoding="utf-8",
    )
    facts = tmp_path / "grant.yaml"
    text = GRANT.read_text(encoding="utf-8")
    facts.write_text(
        text.replace("directors_csv: null", "templates_dir: forms\ndirectors_csv: null")
    )
    report = run_checks(load_facts(facts), date(2026, 6, 1), "elections")
    (finding,) = [
        f
        for f in report.findings
        if f.rule == "DOC-DRAFTED-CLAUSE" and "template.exhibit-i" in f.message
    ]
    assert [str(c) for c in finding.citations] == ["Exhibit I, Section I"]
    assert "[-obligated-] {+required+}" in finding.message


def test_context_is_whole_words_marked_where_cut():
    before = "one two three four five six seven eight nine ten eleven twelve thirteen"
    after = before.replace("seven", "SEVEN")
    shown = changes_only(redline(before, after), context=3)
    assert shown == "… four five six [-seven-] {+SEVEN+} eight nine ten …"
    short = changes_only(redline("a b c", "a x c"), context=3)
    assert short == "a [-b-] {+x+} c"
