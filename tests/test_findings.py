"""The Report: a stable order, the summary, exit codes, and the JSON contract's shape."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from docgen.core.citations import Citation
from docgen.core.findings import FactsInfo, Finding, Report

INFO = FactsInfo("facts.yaml", "director-rsu-grant", "0" * 64)


def finding(rule: str, subject: str, path: str, severity: str = "error") -> Finding:
    return Finding(
        rule, severity, subject, path, None, "m", (Citation("Code", "409A(a)(4)(B)(i)"),)
    )


def test_order_is_subject_in_file_order_then_natural_path_then_rule():
    findings = [
        finding("RSU-B", "zed", "directors[10].elections[0].filed_on"),
        finding("RSU-A", "zed", "directors[10].elections[0].filed_on"),
        finding("RSU-C", "amy", "directors[2].elections[10].percent"),
        finding("RSU-C", "amy", "directors[2].elections[2].percent"),
        finding("RSU-G", "2026-annual", "grant.election_deadline"),
    ]
    subjects = ["2026-annual", "zed", "amy"]
    report = Report.build(INFO, date(2026, 6, 1), "grant", findings, subjects)
    assert [(f.subject, f.path, f.rule) for f in report.findings] == [
        ("2026-annual", "grant.election_deadline", "RSU-G"),
        ("zed", "directors[10].elections[0].filed_on", "RSU-A"),
        ("zed", "directors[10].elections[0].filed_on", "RSU-B"),
        ("amy", "directors[2].elections[2].percent", "RSU-C"),
        ("amy", "directors[2].elections[10].percent", "RSU-C"),
    ]
    again = Report.build(INFO, date(2026, 6, 1), "grant", reversed(findings), subjects)
    assert again.findings == report.findings


def test_summary_and_exit_codes():
    warning_only = Report.build(
        INFO, date(2026, 6, 1), "grant", [finding("RRP-X", "p1", "a", "warning")], ["plan", "p1"]
    )
    assert warning_only.summary == {"error": 0, "warning": 1, "info": 0}
    assert warning_only.exit_code() == 0 and warning_only.exit_code(strict=True) == 1
    with_error = Report.build(INFO, date(2026, 6, 1), "grant", [finding("RRP-X", "p1", "a")], [])
    assert with_error.exit_code() == 1 and len(with_error.errors) == 1


def test_json_dict_has_the_contract_keys_and_string_citations():
    report = Report.build(INFO, date(2026, 6, 1), "elections", [finding("RSU-A", "d1", "p")], [])
    data = report.to_json_dict()
    assert data["facts"] == {"file": "facts.yaml", "kind": "director-rsu-grant", "sha256": "0" * 64}
    assert data["as_of"] == "2026-06-01" and data["stage"] == "elections"
    assert data["findings"][0]["citations"] == ["Code 409A(a)(4)(B)(i)"]
    assert list(data["findings"][0])[:7] == [
        "rule",
        "severity",
        "subject",
        "path",
        "line",
        "message",
        "citations",
    ]


@pytest.mark.parametrize(
    "sample",
    sorted(p.name for p in (Path(__file__).parent.parent / "samples").rglob("*.yaml")),
)
def test_every_sample_finding_is_a_sentence_its_remedy_can_follow(cli, sample):
    """Reports print a finding's message and then its remedy ("... is not approved by counsel
    Have counsel read ..." ran two sentences together): every message ends a sentence."""
    root = Path(__file__).parent.parent / "samples"
    path = next(root.rglob(sample))
    result = cli("check", path, "--as-of", "2026-06-23", "--format", "json")
    for finding in json.loads(result.stdout)["findings"]:
        assert finding["message"].rstrip().endswith((".", "?", "!")), finding
