"""Intake that records what it can and says why it refused the rest (issue 24), through the CLI:
a multi-form intake records every valid form and refuses the others, each with its reason
(exit 2); `--accept-name REASON` accepts a printed name the name comparison refuses, the reason
recorded beside the filing (``name_accepted``), round-tripping in YAML, JSON and CSV."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from docgen.load import load_facts
from docgen.render import html as render
from tests.fillers import pypdf_fill

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
DAY = ["--received-on", "2026-06-22", "--as-of", "2026-06-22"]


@pytest.fixture
def grant(tmp_path: Path) -> Path:
    shutil.copy(SAMPLES / "director-grant-2026.yaml", tmp_path / "grant.yaml")
    return tmp_path / "grant.yaml"


def _form(facts: Path, director: str, values: dict[str, str], name: str) -> Path:
    blank = render.render_document(load_facts(facts), "exhibit-i", director, "elections", "pdf")
    path = facts.parent / name
    path.write_bytes(
        pypdf_fill(blank, {"date_signed": "2026-06-19", **values}) if values else blank
    )
    return path


def test_a_refused_form_in_a_three_form_intake_records_the_other_two(cli, grant):
    good = _form(
        grant, "tnguyen", {"pay_on": "separation", "printed_name": "Thanh Nguyen"}, "a.pdf"
    )
    blank = _form(grant, "sjohnson-ames", {}, "b.pdf")
    also = _form(
        grant,
        "ebrooks",
        {"pay_on": "date", "pay_date_date": "2031-06-30", "printed_name": "Evelyn Brooks"},
        "c.pdf",
    )
    result = cli("intake", grant, good, blank, also, *DAY)
    assert result.exit_code == 2, result.stdout + result.stderr
    errors = " ".join(result.stderr.split())
    assert "b.pdf: the form is blank" in errors
    assert "1 form refused and not recorded; the others were recorded." in errors
    assert "Recorded" in result.stdout and "a.pdf" in result.stdout and "c.pdf" in result.stdout
    facts = load_facts(grant).facts
    assert [e.pay_on for e in facts.director("tnguyen").elections] == ["separation"]
    assert [e.pay_on for e in facts.director("ebrooks").elections] == ["date"]
    assert facts.director("sjohnson-ames").elections == []
    # taken in again, the recorded two are refused as already on record, the blank as blank
    again = cli("intake", grant, good, blank, also, *DAY)
    assert again.exit_code == 2
    assert load_facts(grant).facts.model_dump() == facts.model_dump()


def test_a_form_the_facts_cannot_hold_is_refused_and_the_others_recorded(cli, tmp_path):
    """Refused when the filings are prepared (a roster row that already holds an election),
    not when the form is read: the others are still recorded."""
    shutil.copy(SAMPLES / "director-grant-2026-roster.yaml", tmp_path / "grant.yaml")
    shutil.copy(SAMPLES / "roster.csv", tmp_path)
    grant = tmp_path / "grant.yaml"
    full = _form(grant, "kpatel", {"pay_on": "separation", "printed_name": "Kiran Patel"}, "k.pdf")
    fine = _form(grant, "bcole", {"pay_on": "separation", "printed_name": "Benjamin Cole"}, "b.pdf")
    result = cli("intake", grant, full, fine, *DAY)
    assert result.exit_code == 2, result.stdout + result.stderr
    assert "kpatel's roster row already holds an Exhibit I election" in " ".join(
        result.stderr.split()
    )
    facts = load_facts(grant).facts
    assert [e.pay_on for e in facts.director("bcole").elections] == ["separation"]
    assert len(facts.director("kpatel").elections) == 1


def test_two_forms_for_one_director_refuse_both_and_record_the_rest(cli, grant):
    first = _form(
        grant, "tnguyen", {"pay_on": "separation", "printed_name": "Thanh Nguyen"}, "1.pdf"
    )
    second = _form(
        grant,
        "tnguyen",
        {"pay_on": "date", "pay_date_date": "2030-07-01", "printed_name": "Thanh Nguyen"},
        "2.pdf",
    )
    other = _form(
        grant, "ebrooks", {"pay_on": "separation", "printed_name": "Evelyn Brooks"}, "3.pdf"
    )
    result = cli("intake", grant, first, second, other, *DAY)
    assert result.exit_code == 2
    errors = " ".join(result.stderr.split())
    assert "a second form for tnguyen in this intake (the first: " in errors
    assert "not recorded: another form for tnguyen is in this intake" in errors
    facts = load_facts(grant).facts
    assert facts.director("tnguyen").elections == []
    assert [e.pay_on for e in facts.director("ebrooks").elections] == ["separation"]


ELECT = ["elect", "--for", "tnguyen", "--pay-on", "separation", "--printed-name", "Tan Nguyen"]


def _elect(cli, facts: Path, *more: str):
    return cli(ELECT[0], facts, *ELECT[1:], *more, *DAY)


def test_accept_name_records_a_refused_printed_name_with_its_reason(cli, grant):
    refused = _elect(cli, grant)
    assert refused.exit_code == 2
    assert "reads 'Tan Nguyen', but the form was issued to Thanh Nguyen" in refused.stderr
    no_reason = _elect(cli, grant, "--accept-name", " ")
    assert no_reason.exit_code == 2 and "--accept-name: gives no reason" in no_reason.stderr
    reason = "the name he signs with; confirmed by phone with the director"
    accepted = _elect(cli, grant, "--accept-name", reason)
    assert accepted.exit_code == 0, accepted.stdout + accepted.stderr
    (election,) = load_facts(grant).facts.director("tnguyen").elections
    assert (election.printed_name, election.name_accepted) == ("Tan Nguyen", reason)
    assert f"name_accepted: {reason}" in grant.read_text(encoding="utf-8")


def test_accept_name_on_intake_and_a_name_that_matches_needs_none(cli, grant):
    wrong = _form(grant, "tnguyen", {"pay_on": "separation", "printed_name": "Tan Nguyen"}, "t.pdf")
    right = _form(
        grant, "ebrooks", {"pay_on": "separation", "printed_name": "Evelyn Brooks"}, "e.pdf"
    )
    result = cli("intake", grant, wrong, right, "--accept-name", "signs so", *DAY)
    assert result.exit_code == 0, result.stdout + result.stderr
    facts = load_facts(grant).facts
    assert facts.director("tnguyen").elections[0].name_accepted == "signs so"
    assert facts.director("ebrooks").elections[0].name_accepted is None


def test_accept_name_round_trips_in_json_and_csv(cli, tmp_path):
    data = YAML(typ="safe", pure=True).load((SAMPLES / "director-grant-2026.yaml").read_text())
    facts = tmp_path / "grant.json"
    facts.write_text(json.dumps(data, indent=2, default=str, ensure_ascii=False) + "\n")
    assert _elect(cli, facts, "--accept-name", "maiden name").exit_code == 0
    written = json.loads(facts.read_text())
    tnguyen = next(d for d in written["directors"] if d["id"] == "tnguyen")
    assert tnguyen["elections"][0]["name_accepted"] == "maiden name"
    assert load_facts(facts).facts.director("tnguyen").elections[0].name_accepted == "maiden name"

    csv_folder = tmp_path / "csv"
    csv_folder.mkdir()
    text = (SAMPLES / "director-grant-2026.yaml").read_text(encoding="utf-8")
    grant = csv_folder / "grant.yaml"
    grant.write_text(
        text.replace("\ndirectors:", "\nelections_csv: elections.csv\ndirectors:", 1),
        encoding="utf-8",
    )
    (csv_folder / "elections.csv").write_text("director_id,grant_id,filed_on,percent,pay_on\n")
    assert _elect(cli, grant, "--accept-name", "maiden name").exit_code == 0
    rows = (csv_folder / "elections.csv").read_text().splitlines()
    assert rows[0].endswith(",name_accepted,recorded_on")
    assert "Tan Nguyen" in rows[1] and "maiden name" in rows[1]
    assert load_facts(grant).facts.director("tnguyen").elections[0].name_accepted == "maiden name"


def test_accept_name_is_refused_for_a_form_without_a_printed_name(cli, tmp_path):
    shutil.copy(SAMPLES / "rrp-2026.yaml", tmp_path)
    facts = tmp_path / "rrp-2026.yaml"
    before = facts.read_bytes()
    result = cli(
        "elect",
        facts,
        "--for",
        "e1016",
        "--salary-percent",
        "5",
        "--accept-name",
        "x",
        "--received-on",
        "2025-12-01",
        "--as-of",
        "2025-12-01",
    )
    assert result.exit_code == 2
    assert "the rrp-election form has no printed name to accept" in result.stderr
    assert facts.read_bytes() == before
