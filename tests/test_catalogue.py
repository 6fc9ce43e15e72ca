"""Meta-tests: every rule of the catalogue (docs/rules.md) is implemented, cited, explained and
tested; the catalogue is generated from the registry (tools/rule_reference.py) and is its one
pinned copy, so a rule added or a severity changed shows in review as a change to that file."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from checks import rrp_sources, rsu_sources, sources
from docgen.checker.cases import cases_dir, load_case_file
from docgen.checker.rules import all_rules, get_rule
from docgen.core.citations import authority
from docgen.core.rules import SourceText

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
DESIGN = ROOT / "docs" / "DESIGN.md"
SEEDS = ROOT / "docs" / "source-forms"
ROW = r"^\| \[?`?((?:RSU|RRP|DOC)-[A-Z0-9-]+)`?\]?(?:\(#[a-z0-9-]+\))? \| (error|warning|info) \|"
# Severities the design's Amendments change in prose, not in its tables: A9 makes
# DOC-DRAFTED-CLAUSE an error.
AMENDED = {"DOC-DRAFTED-CLAUSE": "error"}


def catalogue() -> dict[str, str]:
    """Rule id -> severity, as docs/rules.md's summary table gives them."""
    return dict(re.findall(ROW, RULES.read_text(encoding="utf-8"), re.M))


def _rule_reference():
    spec = importlib.util.spec_from_file_location(
        "rule_reference", ROOT / "tools" / "rule_reference.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_rule_catalogue_is_current():
    """docs/rules.md is generated from the registry; regenerate it when a rule changes."""
    assert RULES.read_text(encoding="utf-8") == _rule_reference().render(), (
        "run: .venv/bin/python tools/rule_reference.py"
    )


def test_the_design_s_tables_agree_with_the_catalogue():
    """Where DESIGN.md still tabulates rules, it gives each one the catalogue's severity (or the
    one its Amendments give in prose, which then say so)."""
    design = DESIGN.read_text(encoding="utf-8")
    rows = dict(re.findall(ROW, design, re.M))
    text = " ".join(design.split())
    for rule_id, severity in AMENDED.items():
        if rule_id in rows and rows[rule_id] != severity:
            assert f"{rule_id} is an `{severity}`" in text
            rows[rule_id] = severity
    assert {rule_id: CATALOGUE[rule_id] for rule_id in rows if rule_id in CATALOGUE} == rows


CATALOGUE = catalogue()
FACT_RULES = [rule_id for rule_id in CATALOGUE if not rule_id.startswith("DOC-")]


def test_the_catalogue_was_parsed():
    assert len(CATALOGUE) == len(all_rules()) >= 42


@pytest.mark.parametrize("rule_id", list(CATALOGUE))
def test_rule_is_implemented_with_its_catalogue_severity_and_a_citation(rule_id):
    entry = get_rule(rule_id)
    assert entry.severity == CATALOGUE[rule_id]
    assert entry.citations, f"{rule_id} cites nothing"
    assert entry.title and entry.explanation and entry.sources
    if not rule_id.startswith("DOC-"):
        assert entry.check is not None


def test_no_rule_outside_the_catalogue():
    assert {entry.id for entry in all_rules()} <= set(CATALOGUE)


@pytest.mark.parametrize("rule_id", FACT_RULES)
def test_rule_has_a_passing_and_a_failing_case(rule_id):
    path = cases_dir() / f"{rule_id}.yaml"
    assert path.is_file(), f"no tests/cases/{rule_id}.yaml"
    cases = load_case_file(path)
    assert any(rule_id in case.expect for case in cases), f"{rule_id}: no failing case"
    assert any(rule_id in case.absent for case in cases), f"{rule_id}: no passing case"


def _normalise(text: str) -> str:
    return " ".join(text.split())


SOURCES = {
    f"{module.__name__}.{name}": value
    for module in (sources, rsu_sources, rrp_sources)
    for name, value in vars(module).items()
    if isinstance(value, SourceText)
}


@pytest.mark.parametrize("name", [n for n, v in SOURCES.items() if v.quoted])
def test_quoted_source_text_is_in_the_seed_word_for_word(name):
    source = SOURCES[name]
    seed = authority(source.citation.authority).source_form
    assert seed, f"{name}: {source.citation.authority} has no source form to quote"
    assert _normalise(source.text) in _normalise((SEEDS / seed).read_text(encoding="utf-8"))


def test_no_source_text_is_written_twice():
    texts = [(s.citation, s.text) for s in SOURCES.values()]
    assert len(texts) == len(set(texts))


def test_citations_read_as_counsel_writes_them():
    from docgen.core.citations import Citation

    assert str(Citation("Plan", "2.03(a)")) == "Plan Section 2.03(a)"
    assert str(Citation("Code", "409A(a)(4)(B)(iii)")) == "Code 409A(a)(4)(B)(iii)"
    assert str(Citation("Treas. Reg.", "1.409A-2(a)(8)")) == "Treas. Reg. 1.409A-2(a)(8)"
    assert str(Citation("Notice", "F.3")) == "Notice F.3"
    assert str(Citation("Exhibit I", "Section III")) == "Exhibit I, Section III"
    assert str(Citation("Plan", "Beneficiary designation")) == "Plan, Beneficiary designation"
    with pytest.raises(ValueError):
        Citation("Plan Section", "2.03")


def test_a_doc_rule_builds_a_finding_for_verify():
    finding = get_rule("DOC-UNFILLED-BLANK").finding("jsmith", "notice.pdf", "a blank [____] left")
    assert (finding.rule, finding.severity, finding.subject) == (
        "DOC-UNFILLED-BLANK",
        "error",
        "jsmith",
    )
    assert finding.citations == get_rule("DOC-UNFILLED-BLANK").citations


def test_an_unknown_rule_is_a_clear_error():
    from docgen.checker.rules import UnknownRule

    with pytest.raises(UnknownRule) as caught:
        get_rule("RRP-PBC-LAET")
    assert caught.value.exit_code == 2
    assert "Did you mean RRP-PBC-LATE?" in str(caught.value)
