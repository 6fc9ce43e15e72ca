"""What a batch's refusal and its report say about who stops it (issue 44, from the trial): the
people named are the ones whose errors stop it, --hold is offered only for a packet there is,
`--hold A,B` holds both, an issued batch's HTML report never says "Nothing may be issued", and
within each subject errors are listed before warnings."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from docgen.checker.report_html import render_report_html
from docgen.checker.runner import run_checks
from docgen.load import load_facts
from tests.test_batch import GRANT_AS_OF, write_cycle

ROOT = Path(__file__).resolve().parent.parent
ELECTIONS = ROOT / "samples" / "problems" / "rrp-elections.yaml"


def late(*indexes: int):
    def edit(data):
        for index in indexes:
            data["directors"][index]["elections"][0]["filed_on"] = "2026-06-23"

    return edit


def test_hold_takes_a_comma_separated_list(samples, tmp_path, cli):
    facts = write_cycle(tmp_path, samples, directors=3, edit=late(2))
    out = tmp_path / "out"
    result = cli("batch", facts, "--out", out, "--as-of", GRANT_AS_OF, "--hold", "mobrien,rgarcia")
    assert result.exit_code == 0, result.output
    stage = out / "2026-annual" / "grant"
    assert (stage / "jsmith").is_dir()
    assert not (stage / "rgarcia").exists() and not (stage / "mobrien").exists()


def test_a_refusal_never_offers_to_hold_someone_with_no_packet(cli, tmp_path):
    result = cli("batch", ELECTIONS, "--out", tmp_path / "out", "--as-of", "2026-12-07")
    assert result.exit_code == 1, result.output
    said = " ".join(result.stderr.split()) + " ".join(result.stdout.split())
    # e2007 is not a Participant: it gets no documents, so --hold e2007 would be refused.
    assert "--hold e2007" not in said
    assert "The errors about e2007 stop it: that person gets no documents at stage" in said
    assert "The other errors concern e2001," in said
    assert "They concern" not in said


def test_an_issued_report_never_says_nothing_may_be_issued(tmp_path):
    loaded = load_facts(ELECTIONS)
    report = run_checks(loaded, date(2026, 12, 7), "enrollment")
    assert report.errors
    assert "Nothing may be issued" in render_report_html(report)
    issued = render_report_html(report, held=("e2001",), issued=True)
    assert "Nothing may be issued" not in issued
    assert "Issued without the packet of" in issued


def test_a_subjects_errors_come_before_its_warnings(tmp_path):
    report = run_checks(load_facts(ELECTIONS), date(2026, 12, 7), "enrollment")
    by_subject: dict[str, list[str]] = {}
    for finding in report.findings:
        by_subject.setdefault(finding.subject, []).append(finding.severity)
    mixed = [s for s, severities in by_subject.items() if len(set(severities)) > 1]
    assert mixed  # the sample has a subject with both
    rank = {"error": 0, "warning": 1, "info": 2}
    for subject in mixed:
        severities = by_subject[subject]
        assert severities == sorted(severities, key=rank.__getitem__), subject
