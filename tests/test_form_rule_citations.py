"""A rule the Plan does not state is cited as docgen's (issue 44): RRP-BENEFICIARY-SHARES is
docgen's rule for the form it drafts (DESIGN.md, "Gaps in the source forms"); the Plan text it
quotes says nothing of shares, and the finding says so."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from docgen.checker.rules import get_rule
from docgen.checker.runner import run_checks
from docgen.load import load_facts

ROOT = Path(__file__).resolve().parent.parent


def test_beneficiary_shares_cites_docgens_form_rule_first():
    rule = get_rule("RRP-BENEFICIARY-SHARES")
    first = rule.citations[0]
    assert (first.authority, first.pinpoint) == ("DESIGN.md", "Gaps in the source forms")
    plan_quotes = [s.text for s in rule.sources if s.citation.authority != "DESIGN.md"]
    assert plan_quotes and not any("share" in text.lower() for text in plan_quotes)
    assert "docgen's form rule" in rule.explanation


def test_the_finding_says_it_is_docgens_form_rule():
    report = run_checks(
        load_facts(ROOT / "samples" / "problems" / "rrp-elections.yaml"),
        date(2026, 12, 7),
        "enrollment",
    )
    (finding,) = [f for f in report.findings if f.rule == "RRP-BENEFICIARY-SHARES"]
    assert "docgen's form rule (the Plan says nothing of shares)" in finding.message
