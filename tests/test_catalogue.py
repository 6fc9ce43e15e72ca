"""Meta-tests: every rule of DESIGN.md's catalogue is implemented, cited, explained and tested."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from checks import rrp_sources, rsu_sources, sources
from docgen.check.cases import cases_dir, load_case_file
from docgen.check.rules import all_rules, get_rule
from docgen.core.citations import authority
from docgen.core.rules import SourceText

DESIGN = Path(__file__).resolve().parent.parent / "docs" / "DESIGN.md"
SEEDS = Path(__file__).resolve().parent.parent / "docs" / "source-forms"
# The catalogue as of DESIGN.md's writing (id: severity), for a checkout without shared/ beside it.
_WARNINGS = {"RSU-VESTING-UNDER-12-MONTHS", "RRP-NO-PLAN-COMPENSATION", "RRP-BENEFICIARY-MISSING",
             "RRP-KEY-EMPLOYEE-UNDETERMINED"}  # fmt: skip
# Severities the Amendments change in prose, not in a table: DESIGN.md, "Drafted clauses and
# counsel's approval", makes DOC-DRAFTED-CLAUSE an error.
AMENDED = {"DOC-DRAFTED-CLAUSE": "error"}
_INFO = {"RSU-ELECTION-INEFFECTIVE", "RRP-ELECTION-INEFFECTIVE"}
PINNED = {
    rule_id: "info" if rule_id in _INFO else "warning" if rule_id in _WARNINGS else "error"
    for rule_id in (
        "RSU-ELECTION-LATE RSU-DEADLINE-AFTER-GRANT RSU-ELECTION-409A-TIMING "
        "RSU-VESTING-UNDER-12-MONTHS RSU-ELECTION-PARTIAL RSU-ELECTION-AFTER-IRREVOCABLE "
        "RSU-ELECTION-OTHER-GRANT RSU-ELECTION-EMPLOYEE-DIRECTOR RSU-PAY-DATE-BEFORE-VESTING "
        "RSU-DEFAULT-PAYMENT-BEFORE-VESTING RSU-FORM-ISSUED-AFTER-DEADLINE "
        "RSU-SPECIFIED-EMPLOYEE-DELAY RSU-DELIVERY-WINDOW RSU-GRANT-PACKET-BEFORE-DEADLINE "
        "RSU-ELECTION-FUTURE RRP-DEFERRAL-OVER-MAX "
        "RRP-DEFERRAL-INCREMENT RRP-ELECTION-LATE RRP-FIRST-YEAR-LATE RRP-NOT-NEWLY-ELIGIBLE "
        "RRP-FIRST-YEAR-PRIOR-SERVICES RRP-PBC-LATE RRP-PBC-NOT-QUALIFIED RRP-PBC-SERVICE-GAP "
        "RRP-NOT-PARTICIPANT RRP-NO-PLAN-COMPENSATION RRP-INVESTMENT-ALLOCATION "
        "RRP-BENEFICIARY-MISSING RRP-KEY-EMPLOYEE-PAYMENT RRP-PAYMENT-WINDOW DOC-UNFILLED-BLANK "
        "DOC-FACT-ABSENT DOC-FORMAT-MISMATCH DOC-DRAFTED-CLAUSE "
        # the RRP's new rules (DESIGN.md, "Rule catalogue")
        "RRP-ELECTION-FUTURE RRP-FORM-ISSUED-AFTER-DEADLINE RRP-BENEFICIARY-SHARES "
        "RRP-LIMIT-OVERRIDE RRP-KEY-EMPLOYEE-UNDETERMINED "
        # DESIGN.md, "The election loop" (issue 11)
        "RSU-ELECTION-INEFFECTIVE RRP-ELECTION-INEFFECTIVE DOC-RETURN-PAGE"
    ).split()
}


def catalogue() -> dict[str, str]:
    """Rule id -> severity, parsed from DESIGN.md's tables (or the pinned list)."""
    if not DESIGN.is_file():
        return dict(PINNED)
    rows = re.findall(
        r"^\| ((?:RSU|RRP|DOC)-[A-Z0-9-]+) \| (error|warning|info) \|",
        DESIGN.read_text(encoding="utf-8"),
        re.M,
    )
    return {**dict(rows), **{rule: sev for rule, sev in AMENDED.items() if rule in dict(rows)}}


def test_the_amendments_say_what_amended_pins():
    text = " ".join(DESIGN.read_text(encoding="utf-8").split())
    assert "DOC-DRAFTED-CLAUSE is an `error`" in text


CATALOGUE = catalogue()
FACT_RULES = [rule_id for rule_id in CATALOGUE if not rule_id.startswith("DOC-")]


def test_the_catalogue_was_parsed():
    assert len(CATALOGUE) >= len(PINNED)
    assert set(PINNED) <= set(CATALOGUE)


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
    from docgen.check.rules import UnknownRule

    with pytest.raises(UnknownRule) as caught:
        get_rule("RRP-PBC-LAET")
    assert caught.value.exit_code == 2
    assert "Did you mean RRP-PBC-LATE?" in str(caught.value)


def test_pinned_catalogue_matches_design():
    assert catalogue() == PINNED
