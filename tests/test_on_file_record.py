"""The on-file Exhibit I states what the Company received and how (DESIGN.md, "Drafted clauses
and counsel's approval"): the name as the director printed it, "Signed on DATE" from the form,
"Recorded from a paper form by NAME on DATE" for `docgen elect`; never a signature docgen did
not see, unless the facts record who saw it (signature_seen_by)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from docgen.render.readback import html_text
from tests.readers import normalise

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "director-grant-2026.yaml"
AS_OF = "2026-06-23"


def facts_copy(tmp_path: Path) -> Path:
    path = tmp_path / "cycle.yaml"
    path.write_text(SAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    return path


def on_file_copy(cli, facts: Path, tmp_path: Path, who: str = "tnguyen") -> str:
    out = tmp_path / f"{who}.html"
    done = cli(
        "render",
        facts,
        "--doc",
        "exhibit-i",
        "--for",
        who,
        "--to",
        "html",
        "-o",
        out,
        "--as-of",
        AS_OF,
    )
    assert done.exit_code == 0, done.stdout + done.stderr
    return normalise(html_text(out.read_text(encoding="utf-8")))


def test_a_paper_form_recorded_by_elect_says_so_and_claims_no_signature(cli, tmp_path):
    facts = facts_copy(tmp_path)
    recorded = cli(
        "elect",
        facts,
        "--for",
        "tnguyen",
        "--received-on",
        "2026-06-10",
        "--pay-on",
        "separation",
        "--printed-name",
        "THANH NGUYEN",
        "--signed-on",
        "2026-06-09",
        "--recorded-by",
        "P. Secretary",
        "--as-of",
        "2026-06-22",
    )
    assert recorded.exit_code == 0, recorded.stdout + recorded.stderr
    text = facts.read_text()
    assert "received_as: paper" in text and "recorded_by: P. Secretary" in text
    assert "recorded_on: 2026-06-22" in text and "printed_name: THANH NGUYEN" in text
    words = on_file_copy(cli, facts, tmp_path)
    assert (
        "Recorded from a paper form by P. Secretary on June 22, 2026; no signature seen by docgen"
        in words
    )
    assert "Signed on June 9, 2026" in words
    assert "THANH NGUYEN Printed Name" in words  # as the director printed it, not the facts' name
    assert not re.search("signature on file", words, re.IGNORECASE)


def test_an_elect_record_without_a_recorder_or_name_states_only_what_is_on_record(cli, tmp_path):
    facts = facts_copy(tmp_path)
    assert (
        cli(
            "elect",
            facts,
            "--for",
            "tnguyen",
            "--received-on",
            "2026-06-10",
            "--pay-on",
            "separation",
            "--as-of",
            "2026-06-22",
        ).exit_code
        == 0
    )
    words = on_file_copy(cli, facts, tmp_path)
    assert "Recorded from a paper form on June 22, 2026; no signature seen by docgen" in words
    assert "Not on record Date Signed" in words and "Not on record Printed Name" in words
    assert not re.search("signature on file|on file Date Signed", words, re.IGNORECASE)


def test_only_a_recorded_sighting_makes_the_copy_say_the_form_was_signed(cli, tmp_path):
    facts = facts_copy(tmp_path)
    text = facts.read_text()
    old = "    elections: []                         # no election: paid on the first anniversary\n"
    assert old in text
    facts.write_text(
        text.replace(
            old,
            "    elections:\n"
            "      - {grant_id: 2026-annual, filed_on: 2026-06-10, percent: 100, "
            "pay_on: separation, received_as: pdf, printed_name: Thanh Nguyen, "
            "signed_on: 2026-06-09, signature_seen_by: P. Secretary}\n",
        )
    )
    words = on_file_copy(cli, facts, tmp_path)
    assert "Signed; the signature was seen by P. Secretary" in words
    assert "Signed on June 9, 2026" in words


@pytest.mark.parametrize("who", ["jsmith", "mobrien", "rgarcia", "tnguyen"])
def test_no_sample_on_file_copy_claims_a_signature(cli, tmp_path, who):
    words = on_file_copy(cli, SAMPLE, tmp_path, who)
    assert not re.search("signature on file", words, re.IGNORECASE)
