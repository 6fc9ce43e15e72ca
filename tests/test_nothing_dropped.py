"""Nothing a user wrote is dropped (issue 44): a roster-only `intake` records the printed name, the
date signed, how the form came and its SHA-256 in the roster's columns, so the on-file copy states
them and the same PDF taken in again is refused ("a form already recorded", README); `elect
--recorded-by/--signed-on` on the RRP are kept on the election recorded."""

from __future__ import annotations

import csv
import hashlib
import io
import shutil
from datetime import date
from pathlib import Path

from docgen.load import load_facts
from docgen.render import html as render
from docgen.render.readback import html_text
from tests.conftest import SAMPLES
from tests.fillers import pypdf_fill
from tests.readers import normalise


def _roster_grant(tmp_path: Path) -> Path:
    for name in ("director-grant-2026-roster.yaml", "roster.csv"):
        shutil.copy(SAMPLES / name, tmp_path / name)
    return tmp_path / "director-grant-2026-roster.yaml"


def _exhibit(facts: Path, who: str, values: dict[str, str], tmp_path: Path) -> Path:
    blank = render.render_document(load_facts(facts), "exhibit-i", who, "elections", "pdf")
    form = tmp_path / f"{who}.pdf"
    form.write_bytes(pypdf_fill(blank, values))
    return form


def _intake(cli, facts: Path, form: Path, on: str):
    return cli("intake", facts, form, "--received-on", on, "--as-of", on)


BCOLE = {"pay_on": "separation", "printed_name": "BENJAMIN COLE", "date_signed": "2026-06-19"}


def test_a_roster_only_intake_keeps_the_signature_block_and_the_forms_sha256(cli, tmp_path):
    facts = _roster_grant(tmp_path)
    form = _exhibit(facts, "bcole", BCOLE, tmp_path)
    result = _intake(cli, facts, form, "2026-06-22")
    assert result.exit_code == 0, result.stdout + result.stderr
    (election,) = load_facts(facts).facts.director("bcole").elections
    assert (election.printed_name, election.signed_on, election.received_as) == (
        "BENJAMIN COLE",
        date(2026, 6, 19),
        "pdf",
    )
    assert election.form_sha256 == hashlib.sha256(form.read_bytes()).hexdigest()
    rows = {
        row["id"]: row for row in csv.DictReader(io.StringIO((tmp_path / "roster.csv").read_text()))
    }
    assert rows["bcole"]["election_printed_name"] == "BENJAMIN COLE"
    assert rows["bcole"]["election_signed_on"] == "2026-06-19"
    # The on-file copy states what the form said, not "Not on record".
    out = tmp_path / "bcole.html"
    shown = cli(
        "render", facts, "--doc", "exhibit-i", "--for", "bcole", "--to", "html", "-o", out,
        "--as-of", "2026-06-23",
    )  # fmt: skip
    assert shown.exit_code == 0, shown.stdout + shown.stderr
    words = normalise(html_text(out.read_text(encoding="utf-8")))
    assert "Signed on June 19, 2026" in words
    assert "BENJAMIN COLE Printed Name" in words
    assert "Not on record" not in words


def test_the_same_pdf_taken_in_again_is_refused(cli, tmp_path):
    facts = _roster_grant(tmp_path)
    form = _exhibit(facts, "bcole", BCOLE, tmp_path)
    assert _intake(cli, facts, form, "2026-06-22").exit_code == 0
    roster = (tmp_path / "roster.csv").read_bytes()
    again = _intake(cli, facts, form, "2026-06-23")
    assert again.exit_code == 2, again.stdout
    assert "this form is already recorded (this very file" in " ".join(again.stderr.split())
    assert (tmp_path / "roster.csv").read_bytes() == roster


ELECT = (
    "--salary-percent", "8", "--signed-on", "2025-12-09", "--recorded-by", "R. Benefits",
    "--received-on", "2025-12-11", "--as-of", "2025-12-11",
)  # fmt: skip


def test_rrp_elect_keeps_recorded_by_and_signed_on_in_the_facts_file(cli, tmp_path):
    facts = tmp_path / "rrp.yaml"
    shutil.copy(SAMPLES / "rrp-2026.yaml", facts)
    result = cli("elect", facts, "--for", "e1006", *ELECT)
    assert result.exit_code in (0, 1), result.stdout + result.stderr
    election = load_facts(facts).facts.participant("e1006").elections[-1]
    assert (election.percent, election.recorded_by, election.signed_on) == (
        8,
        "R. Benefits",
        date(2025, 12, 9),
    )
    assert (election.received_as, election.recorded_on) == ("paper", date(2025, 12, 11))


def test_rrp_elect_keeps_recorded_by_and_signed_on_in_elections_csv(cli, tmp_path):
    shutil.copytree(SAMPLES / "hris", tmp_path / "hris")
    shutil.copy(SAMPLES / "rrp-2026-hris.yaml", tmp_path)
    facts = tmp_path / "rrp-2026-hris.yaml"
    result = cli("elect", facts, "--for", "e1006", *ELECT)
    assert result.exit_code in (0, 1), result.stdout + result.stderr
    rows = list(
        csv.DictReader(io.StringIO((tmp_path / "hris/elections.csv").read_text("utf-8-sig")))
    )
    mine = [row for row in rows if row["participant_id"] == "e1006"][-1]
    assert (mine["signed_on"], mine["recorded_by"], mine["received_as"]) == (
        "2025-12-09",
        "R. Benefits",
        "paper",
    )


def test_rrp_roster_only_elect_keeps_them_in_the_row(cli, tmp_path):
    shutil.copy(SAMPLES / "rrp-2026-roster.yaml", tmp_path)
    shutil.copy(SAMPLES / "participants.csv", tmp_path)
    facts = tmp_path / "rrp-2026-roster.yaml"
    result = cli(
        "elect", facts, "--for", "BW1002", "--salary-percent", "12", "--signed-on", "2025-11-30",
        "--recorded-by", "R. Benefits", "--received-on", "2025-12-01", "--as-of", "2025-12-02",
    )  # fmt: skip
    assert result.exit_code in (0, 1), result.stdout + result.stderr
    (election,) = load_facts(facts).facts.participant("BW1002").elections
    assert (election.signed_on, election.recorded_by, election.received_as) == (
        date(2025, 11, 30),
        "R. Benefits",
        "paper",
    )
