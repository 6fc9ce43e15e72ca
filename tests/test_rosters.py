"""Rosters from spreadsheets: the RRP's participants_csv beside the director roster, payroll ids,
money with commas, and addresses typed on several lines of one cell (Alt+Enter in Excel)."""

from __future__ import annotations

import json
from decimal import Decimal

from docgen.core.roster import csv_table
from docgen.load import load_facts


def test_the_participant_roster_sample_loads_as_payroll_wrote_it(cli, samples):
    result = cli("validate", samples / "rrp-2026-roster.yaml")
    assert result.exit_code == 0, result.stderr
    assert "ok (rrp-plan-year, 5 participants)" in result.stdout
    facts = load_facts(samples / "rrp-2026-roster.yaml").facts
    by_id = {p.id: p for p in facts.participants}
    assert list(by_id) == ["BW1000", "BW1001", "BW1002", "bw2040", "C.DAVIS_7"]
    avery = by_id["BW1000"]
    assert avery.address == ["12 Monument Avenue", "Apt. 4B", "Richmond, VA 23220"]
    assert avery.compensation == Decimal("512000.00")
    assert [d.isoformat() for d in avery.key_employee_on] == ["2025-12-31"]
    jordan = by_id["BW1001"]
    assert jordan.compensation == Decimal("448500")  # "$448,500"
    assert [(e.kind, e.plan_year, e.percent, e.made_on.isoformat()) for e in jordan.elections] == [
        ("salary", 2026, Decimal(6), "2025-11-20"),
        ("bonus", 2026, Decimal(20), "2025-11-20"),
    ]
    assert by_id["bw2040"].eligible_employee is True  # "Y"
    assert by_id["C.DAVIS_7"].eligible_employee is False  # "no"


def test_findings_about_roster_rows_point_at_the_csv_line(cli, samples):
    """Rows span several lines when an address cell does: each finding names its row's line."""
    result = cli(
        "check", samples / "rrp-2026-roster.yaml", "--as-of", "2025-12-01", "--format", "json"
    )
    assert result.exit_code == 0, result.output
    found = {
        f["subject"]: (f["file"], f["line"])
        for f in json.loads(result.stdout)["findings"]
        if f["rule"] == "RRP-BENEFICIARY-MISSING"
    }
    lines = (samples / "participants.csv").read_text(encoding="utf-8").splitlines()
    for subject, (file, line) in found.items():
        assert file.endswith("participants.csv")
        assert lines[line - 1].startswith(f"{subject},"), (subject, line)
    assert found["BW1001"][1] == 5  # after BW1000's three-line address (lines 2-4)


def test_key_employee_dates_in_one_cell(tmp_path, cli):
    (tmp_path / "people.csv").write_text(
        "id,name,eligible_employee,compensation,key_employee_on\n"
        'e1,Pat Lee,yes,"500,000","2024-12-31; 2025-12-31"\n'
    )
    (tmp_path / "rrp.yaml").write_text(
        "kind: rrp-plan-year\ncompany: {name: Example Corp.}\n"
        "plan: {name: Example Corp. Retirement Restoration Plan}\nplan_year: 2026\n"
        "participants_csv: people.csv\n"
    )
    assert cli("validate", tmp_path / "rrp.yaml").exit_code == 0
    (participant,) = load_facts(tmp_path / "rrp.yaml").facts.participants
    assert [d.isoformat() for d in participant.key_employee_on] == ["2024-12-31", "2025-12-31"]


def test_a_multi_line_address_cell_prints_as_address_lines_on_the_notice(cli, samples, tmp_path):
    target = tmp_path / "notice.html"
    result = cli(
        "render",
        samples / "director-grant-2026-roster.yaml",
        "--doc",
        "notice",
        "--for",
        "hmueller",
        "--to",
        "html",
        "-o",
        target,
        "--as-of",
        "2026-06-23",
    )
    assert result.exit_code == 0, result.output
    html = target.read_text()
    assert "Hanna Müller<br>8 Elm Street<br>Alexandria VA 22314</p>" in html


def test_the_rrp_form_carries_the_roster_address(cli, samples, tmp_path):
    target = tmp_path / "form.html"
    result = cli(
        "render",
        samples / "rrp-2026-roster.yaml",
        "--doc",
        "rrp-election",
        "--for",
        "BW1000",
        "--to",
        "html",
        "-o",
        target,
        "--as-of",
        "2025-12-01",
    )
    assert result.exit_code == 0, result.output
    assert "Avery Brooks<br>12 Monument Avenue<br>Apt. 4B<br>Richmond, VA 23220</p>" in (
        target.read_text()
    )


def test_an_unknown_id_is_answered_with_the_likely_one_and_a_short_list():
    """A Plan Year may name 10,000 participants: a message about an id that is not there lists
    the first dozen and counts the rest, after the id it most likely meant."""
    from docgen.core.errors import SHOWN_IDS, unknown_id_hint

    payroll = [f"e{n}" for n in range(10_000, 20_000)]
    hint = unknown_id_hint("E10007", payroll)
    assert hint.startswith("Did you mean e10007? Ids: e10000, e10001, ")
    assert hint.endswith(f", e{10_000 + SHOWN_IDS - 1}, and {10_000 - SHOWN_IDS:,} more.")
    assert unknown_id_hint("zz", ["jsmith", "rgarcia"]) == "Ids: jsmith, rgarcia."
    assert unknown_id_hint("jsmith", []) == "Ids: (none)."


def test_elect_for_someone_not_in_a_large_roster_does_not_list_everyone(cli, samples, tmp_path):
    result = cli(
        "elect",
        samples / "rrp-2026.yaml",
        "--for",
        "e9999",
        "--received-on",
        "2025-12-10",
        "--salary-percent",
        "10",
        "--as-of",
        "2025-12-10",
    )
    assert result.exit_code == 2
    message = " ".join(result.stderr.split())
    assert "--for: no participant e9999 in " in message and "more." in message
    assert len(message) < 600


def _cell_lines(row) -> list[int]:
    """The line each cell of a row as read starts on, as a message names it."""
    return [row.line_at(place) for place in range(len(row.cells))]


def test_each_cell_keeps_its_line_around_a_cell_of_several_lines_and_a_blank_line():
    """A row on one line is read without counting line breaks in its cells (the fast path of
    reading 10,000 rows); a row whose cell spans lines, and a blank line, still shift the lines
    of every cell after them."""
    text = 'id,address,name\r\na,"1 Main St\nRichmond",Ann\n\nb,x,Bob\nc,"y\r\nz\rw",Cy\n'
    table = csv_table(text, "r.csv")
    assert [(row.line, _cell_lines(row)) for row in table.rows] == [
        (2, [2, 2, 3]),
        (5, [5, 5, 5]),
        (6, [6, 6, 8]),
    ]


def test_each_cell_of_several_lines_moves_the_cells_after_it_by_its_own_breaks():
    """Two cells of one row holding line breaks: each cell starts on the line the breaks of the
    cells before it end on, an empty cell between them included."""
    text = 'id,address,email,name\nd,"p\nq",,"r\r\ns\nt"\ne,x,,y\n'
    table = csv_table(text, "r.csv")
    assert [(row.line, _cell_lines(row)) for row in table.rows] == [
        (2, [2, 2, 3, 3]),
        (6, [6, 6, 6, 6]),
    ]
