"""`docgen decide --signature-seen-by NAME` (A25): who saw the director's signature on an Exhibit I
is recorded by a command, not typed into YAML or a CSV cell, where the form is on record (the
facts file, the CSV of filings, a director's roster row), as intake writes; only then does the
on-file copy say the form was signed (docs/fact-files.md, signature_seen_by)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from docgen.load import load_facts
from tests.test_on_file_record import on_file_copy

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
AS_OF = "2026-06-23"
SEEN = ["--signature-seen-by", "P. Secretary", "--as-of", AS_OF]


def _said(result) -> str:
    return " ".join((result.stdout + result.stderr).split())


def _added_lines(before: str, after: str) -> list[str]:
    old = before.splitlines()
    return [line for line in after.splitlines() if line not in old]


def test_the_signature_seen_is_recorded_in_the_facts_file_and_the_copy_says_signed(cli, tmp_path):
    facts = Path(shutil.copy(SAMPLES / "director-grant-2026.yaml", tmp_path / "grant.yaml"))
    assert "Signed; the signature was seen by" not in on_file_copy(cli, facts, tmp_path, "jsmith")
    before = facts.read_text(encoding="utf-8")
    result = cli("decide", facts, "--for", "jsmith", *SEEN)
    assert result.exit_code == 0, _said(result)
    assert (
        "Recorded: jsmith (Jane Q. Smith), form 1 ((a) separation, received 2026-05-15): the "
        "director's signature seen by P. Secretary." in _said(result)
    )
    assert _added_lines(before, facts.read_text(encoding="utf-8")) == [
        "        signature_seen_by: P. Secretary"
    ]
    (election,) = load_facts(facts).facts.director("jsmith").elections
    assert election.signature_seen_by == "P. Secretary"
    assert election.status is None  # nothing else decided
    words = on_file_copy(cli, facts, tmp_path, "jsmith")
    assert "Signed; the signature was seen by P. Secretary" in words
    again = cli("decide", facts, "--for", "jsmith", *SEEN)
    assert again.exit_code == 0 and "Already on record" in _said(again)


def test_the_signature_seen_goes_to_the_row_of_elections_csv(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(SAMPLES / "workday", tmp_path / "workday")
    shutil.copy(SAMPLES / "director-grant-2026-board.yaml", tmp_path / "board.yaml")
    filings = tmp_path / "workday" / "board-elections.csv"
    before, board = filings.read_text(encoding="utf-8"), (tmp_path / "workday" / "Board.csv")
    board_bytes = board.read_bytes()
    result = cli("decide", "board.yaml", "--for", "hanna-muller", *SEEN)
    assert result.exit_code == 0, _said(result)
    after = filings.read_text(encoding="utf-8").splitlines()
    assert after[0] == before.splitlines()[0] + ",signature_seen_by"
    assert after[2] == "hanna-muller,2026-annual,2026-06-02,100,date,2029-06-30,P. Secretary"
    assert [after[1], *after[3:]] == [before.splitlines()[1], *before.splitlines()[3:]]
    assert board.read_bytes() == board_bytes  # the board's own roster, never written
    director = load_facts("board.yaml").facts.director("hanna-muller")
    assert director.elections[0].signature_seen_by == "P. Secretary"


def test_the_signature_seen_goes_to_the_directors_roster_row(cli, tmp_path):
    shutil.copy(SAMPLES / "roster.csv", tmp_path / "roster.csv")
    facts = Path(shutil.copy(SAMPLES / "director-grant-2026-roster.yaml", tmp_path / "g.yaml"))
    before = (tmp_path / "roster.csv").read_text(encoding="utf-8").splitlines()
    result = cli("decide", facts, "--for", "kpatel", *SEEN)
    assert result.exit_code == 0, _said(result)
    after = (tmp_path / "roster.csv").read_text(encoding="utf-8").splitlines()
    assert after[0] == before[0] + ",election_signature_seen_by"
    assert after[1] == before[1] + ",P. Secretary"
    assert after[2:] == before[2:]
    director = load_facts(facts).facts.director("kpatel")
    assert director.elections[0].signature_seen_by == "P. Secretary"


def test_a_decision_and_the_signature_seen_are_recorded_together(cli, tmp_path):
    facts = Path(shutil.copy(SAMPLES / "director-grant-2026.yaml", tmp_path / "grant.yaml"))
    result = cli(
        "decide", facts, "--for", "jsmith", "--ineffective", "--reason", "late",
        "--by", "C. Secretary", *SEEN,
    )  # fmt: skip
    assert result.exit_code == 0, _said(result)
    assert "not in effect, decided by C. Secretary: late; the director's signature seen by " \
        "P. Secretary." in _said(result)  # fmt: skip
    (election,) = load_facts(facts).facts.director("jsmith").elections
    assert (election.status, election.signature_seen_by) == ("ineffective", "P. Secretary")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (
            ["--signature-seen-by", " "],
            "--signature-seen-by: is empty: name who saw the director's signature on the form.",
        ),
        (
            ["--signature-seen-by", "P. Secretary\x07"],
            "--signature-seen-by: contains U+0007 (BEL)",
        ),
        (
            ["--signature-seen-by", "P. Secretary", "--reason", "late"],
            "--reason: is for a form decided not in effect (--ineffective). Add --ineffective, "
            "or leave --reason out.",
        ),
    ],
)
def test_a_bad_signature_seen_is_refused_with_nothing_written(cli, tmp_path, args, says):
    facts = Path(shutil.copy(SAMPLES / "director-grant-2026.yaml", tmp_path / "grant.yaml"))
    before = facts.read_bytes()
    result = cli("decide", facts, "--for", "jsmith", *args, "--as-of", AS_OF)
    assert result.exit_code == 2, _said(result)
    assert says in _said(result)
    assert "Traceback" not in result.output
    assert facts.read_bytes() == before


def test_an_rrp_form_has_no_signature_seen_by_and_is_refused(cli, tmp_path):
    shutil.copytree(SAMPLES / "hris", tmp_path / "hris")
    facts = Path(shutil.copy(SAMPLES / "rrp-2026-hris.yaml", tmp_path / "rrp.yaml"))
    before = (tmp_path / "hris" / "elections.csv").read_bytes(), facts.read_bytes()
    result = cli("decide", facts, "--for", "e1002", *SEEN)
    assert result.exit_code == 2, _said(result)
    assert "records no signature_seen_by" in _said(result)
    assert ((tmp_path / "hris" / "elections.csv").read_bytes(), facts.read_bytes()) == before
