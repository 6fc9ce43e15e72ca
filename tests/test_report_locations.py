"""Issue 24: findings located where their fact lives (a roster CSV's file, line and column) in
every report format and in `status`; the same finding for many people on one row; and
`check --min-severity`. Everything through the CLI."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"


@pytest.fixture
def late_in_roster(tmp_path) -> Path:
    """The roster sample with Kiran Patel's Exhibit I (roster.csv line 2, column 10,
    election_filed_on) filed after the deadline; Hanna Müller's row spans lines 3-4."""
    shutil.copy(SAMPLES / "director-grant-2026-roster.yaml", tmp_path / "grant.yaml")
    roster = (SAMPLES / "roster.csv").read_text(encoding="utf-8")
    row = "kpatel,Kiran Patel,Mr. Patel,12 Grove Avenue | Richmond VA 23220,false,false,,2450,"
    assert f"{row}2026-annual,2026-05-11," in roster
    roster = roster.replace(f"{row}2026-annual,2026-05-11,", f"{row}2026-annual,2026-06-23,")
    (tmp_path / "roster.csv").write_text(roster, encoding="utf-8", newline="")
    return tmp_path / "grant.yaml"


def _check(cli, facts, *args):
    return cli("check", facts, "--as-of", "2026-06-23", "--stage", "grant", *args)


def test_json_names_the_csv_its_line_and_column(cli, late_in_roster):
    result = _check(cli, late_in_roster, "--format", "json")
    assert result.exit_code == 1
    late = [f for f in json.loads(result.stdout)["findings"] if f["rule"] == "RSU-ELECTION-LATE"]
    assert late == [
        {
            **late[0],
            "subject": "kpatel",
            "path": "directors[0].elections[0].filed_on",
            "file": str(late_in_roster.parent / "roster.csv"),
            "line": 2,
            "column": 10,
        }
    ]
    # a finding in the facts file keeps its line, and has no column
    report = json.loads(result.stdout)
    assert all(
        f["column"] is None for f in report["findings"] if not f["file"].endswith("roster.csv")
    ), report["findings"]


def test_text_names_the_csv_not_the_facts_file(cli, late_in_roster):
    result = _check(cli, late_in_roster)
    assert result.exit_code == 1
    assert "Findings: " in result.stdout and "grant.yaml" in result.stdout
    row = next(line for line in result.stdout.splitlines() if "RSU-ELECTION-LATE" in line)
    assert row.rstrip().endswith("roster.csv:2:10 │"), row


def test_markdown_names_the_csv(cli, late_in_roster):
    result = _check(cli, late_in_roster, "--format", "md")
    row = next(line for line in result.stdout.splitlines() if "| RSU-ELECTION-LATE |" in line)
    assert row.endswith(r"| directors\[0\].elections\[0\].filed\_on (roster.csv:2:10) |"), row


def test_html_names_the_csv_line_and_column(cli, late_in_roster):
    result = _check(cli, late_in_roster, "--format", "html")
    assert (
        "<code>directors[0].elections[0].filed_on</code>, roster.csv line 2, column 10"
        in result.stdout
    )


def test_a_fact_in_the_facts_file_keeps_its_line(cli, late_in_roster):
    result = cli("check", late_in_roster, "--as-of", "2026-06-01", "--format", "md")
    row = next(line for line in result.stdout.splitlines() if "PACKET-BEFORE-DEADLINE" in line)
    assert row.endswith(r"| grant.election\_deadline (line 18) |"), row


def test_a_cell_after_a_multi_line_cell_is_on_its_own_line(cli, late_in_roster):
    """Hanna Müller's address cell spans lines 3 and 4; her election_filed_on is on line 4."""
    result = cli("check", late_in_roster, "--as-of", "2026-06-01", "--format", "json")
    future = [
        (f["subject"], Path(f["file"]).name, f["line"], f["column"])
        for f in json.loads(result.stdout)["findings"]
        if f["rule"] == "RSU-ELECTION-FUTURE"
    ]
    assert ("hmueller", "roster.csv", 4, 10) in future


def test_the_check_report_issued_into_the_stage_folder_names_the_csv(cli, late_in_roster, tmp_path):
    out = tmp_path / "out"
    result = cli(
        "batch",
        late_in_roster,
        "--as-of",
        "2026-06-23",
        "--stage",
        "grant",
        "--out",
        out,
        "--hold",
        "kpatel",
    )
    assert result.exit_code == 0, result.stdout + result.stderr
    reports = list(out.rglob("check-report.json"))
    assert reports, list(out.rglob("*"))
    found = json.loads(reports[0].read_text())["findings"]
    late = [f for f in found if f["rule"] == "RSU-ELECTION-LATE"]
    assert late and (late[0]["file"], late[0]["line"], late[0]["column"]) == ("roster.csv", 2, 10)
    html = (reports[0].parent / "check-report.html").read_text()
    assert "<code>directors[0].elections[0].filed_on</code>, roster.csv line 2, column 10" in html


# ------------------------------------------------------------------------ grouped findings


def _many_without_beneficiaries(tmp_path: Path, count: int) -> Path:
    """The RRP roster sample with ``count`` participants, none with a Beneficiary."""
    shutil.copy(SAMPLES / "rrp-2026-roster.yaml", tmp_path / "rrp.yaml")
    lines = ["id,name,eligible_employee,compensation,hired_on"]
    lines += [f'P{n:05d},Person {n},yes,"400,000.00",2015-01-05' for n in range(count)]
    (tmp_path / "participants.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return tmp_path / "rrp.yaml"


def test_the_same_warning_for_many_participants_is_one_row(cli, tmp_path):
    facts = _many_without_beneficiaries(tmp_path, 147)
    text = cli("check", facts, "--as-of", "2025-12-01", "--format", "text", "-o", tmp_path / "r")
    assert text.exit_code == 0, text.stdout + text.stderr
    report = (tmp_path / "r").read_text()
    assert report.count("RRP-BENEFICIARY-MISSING") == 1
    assert "147 participants" in report
    assert "P00000, P00001" in report and "P00146" in report
    assert len(report.splitlines()) < 100  # not 837 lines

    md = cli("check", facts, "--as-of", "2025-12-01", "--format", "md").stdout
    assert md.count("RRP-BENEFICIARY-MISSING") == 1 and "## 147 participants" in md

    html = cli("check", facts, "--as-of", "2025-12-01", "--format", "html").stdout
    assert html.count('<div class="rule">RRP-BENEFICIARY-MISSING</div>') == 1
    assert "The same finding for each of these 147" in html
    assert "P00146 (Person 146) (<code>participants[146].beneficiaries</code>" in html


def test_json_keeps_one_object_per_finding_and_adds_the_groups(cli, tmp_path):
    facts = _many_without_beneficiaries(tmp_path, 5)
    report = json.loads(cli("check", facts, "--as-of", "2025-12-01", "--format", "json").stdout)
    missing = [f for f in report["findings"] if f["rule"] == "RRP-BENEFICIARY-MISSING"]
    assert len(missing) == 5
    (group,) = [g for g in report["groups"] if g["rule"] == "RRP-BENEFICIARY-MISSING"]
    assert group["count"] == 5
    assert group["subjects"] == [f"P{n:05d}" for n in range(5)]
    assert [report["findings"][i] for i in group["findings"]] == missing


def test_two_people_with_the_same_finding_keep_their_own_rows(cli, tmp_path):
    facts = _many_without_beneficiaries(tmp_path, 2)
    report = json.loads(cli("check", facts, "--as-of", "2025-12-01", "--format", "json").stdout)
    assert report["groups"] == []
    cli("check", facts, "--as-of", "2025-12-01", "-o", tmp_path / "r")
    assert (tmp_path / "r").read_text().count("RRP-BENEFICIARY-MISSING") == 2


def test_different_words_are_different_rows():
    """Findings group only when their words are the same: a date that differs is another row."""
    from docgen.core.finding_groups import finding_groups, sections
    from docgen.core.findings import Finding

    def late(subject: str, on: str) -> Finding:
        return Finding("RSU-ELECTION-LATE", "error", subject, "p", 2, f"filed {on}", ())

    same = [late(s, "2026-06-23") for s in ("a", "b", "c")]
    assert [g.subjects for g in finding_groups(same)] == [("a", "b", "c")]
    assert [s.subject for s in sections(same)] == [None]
    differ = [late("a", "2026-06-23"), late("b", "2026-06-24"), late("c", "2026-06-23")]
    assert finding_groups(differ) == []
    assert [s.subject for s in sections(differ)] == ["a", "b", "c"]


# --------------------------------------------------------------------------- --min-severity

PROBLEMS = SAMPLES / "problems" / "rrp-elections.yaml"


def test_min_severity_error_shows_errors_only_and_counts_the_rest(cli):
    full = json.loads(cli("check", PROBLEMS, "--as-of", "2026-08-01", "--format", "json").stdout)
    assert full["summary"]["warning"] and full["summary"]["error"]
    result = cli("check", PROBLEMS, "--as-of", "2026-08-01", "--min-severity", "error")
    assert result.exit_code == 1  # the errors still decide
    assert "warning  " not in result.stdout
    left = full["summary"]["warning"] + full["summary"]["info"]
    assert f"; {left} findings below error left out (--min-severity)" in result.stdout
    shown = json.loads(
        cli(
            "check",
            PROBLEMS,
            "--as-of",
            "2026-08-01",
            "--min-severity",
            "error",
            "--format",
            "json",
        ).stdout
    )
    assert {f["severity"] for f in shown["findings"]} == {"error"}
    assert shown["summary"] == full["summary"]  # the summary counts every finding
    assert shown["left_out"] == {
        s: full["summary"][s] for s in ("warning", "info") if full["summary"][s]
    }
    assert shown["min_severity"] == "error"


def test_min_severity_leaves_the_exit_code_to_the_warnings_left_out(cli, tmp_path):
    facts = _many_without_beneficiaries(tmp_path, 1)
    args = ("check", facts, "--as-of", "2025-12-01", "--strict")
    assert cli(*args).exit_code == 1
    quiet = cli(*args, "--min-severity", "error")
    assert quiet.exit_code == 1  # --strict: the warning still fails the check
    assert "No findings at error or above." in quiet.stdout
    assert cli("check", facts, "--as-of", "2025-12-01", "--min-severity", "error").exit_code == 0


def test_min_severity_default_shows_everything(cli):
    everything = cli("check", PROBLEMS, "--as-of", "2026-08-01", "--format", "json").stdout
    info = cli(
        "check", PROBLEMS, "--as-of", "2026-08-01", "--format", "json", "--min-severity", "info"
    ).stdout
    assert json.loads(everything)["findings"] == json.loads(info)["findings"]
    assert json.loads(everything)["left_out"] == {}


def test_min_severity_refuses_another_word(cli):
    result = cli("check", PROBLEMS, "--min-severity", "errors")
    assert result.exit_code == 2


# ------------------------------------------------------------------------------- status


def test_status_csv_gives_each_row_its_file_and_line(cli, tmp_path):
    result = cli(
        "status", SAMPLES / "rrp-2026-roster.yaml", "--as-of", "2025-12-01", "--format", "csv"
    )
    assert result.exit_code == 0
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [(r["subject"], Path(r["file"]).name, r["line"]) for r in rows][:3] == [
        ("BW1000", "participants.csv", "2"),
        ("BW1001", "participants.csv", "5"),
        ("BW1002", "participants.csv", "7"),
    ]
    assert list(rows[0])[:10] == [
        "subject",
        "name",
        "sent_on",
        "returned",
        "returned_on",
        "election",
        "in_effect",
        "why_not",
        "deadline",
        "days_left",
    ]


def test_status_json_gives_each_row_its_file_and_line(cli):
    result = cli(
        "status", SAMPLES / "director-grant-2026.yaml", "--as-of", "2026-06-10", "--format", "json"
    )
    first = json.loads(result.stdout)["subjects"][0]
    assert first["file"].endswith("director-grant-2026.yaml") and isinstance(first["line"], int)


def test_status_keeps_names_whole(cli, tmp_path):
    shutil.copy(SAMPLES / "rrp-2026-roster.yaml", tmp_path / "rrp.yaml")
    roster = (SAMPLES / "participants.csv").read_text(encoding="utf-8")
    long_name = "José Ignacio Muñoz-Quiñones-Ibarrondo"
    (tmp_path / "participants.csv").write_text(
        roster.replace("Avery Brooks", long_name), encoding="utf-8", newline=""
    )
    result = cli("status", tmp_path / "rrp.yaml", "--as-of", "2025-12-01")
    assert result.exit_code == 0
    assert "Muñoz-Quiñones-Ibarrondo" in result.stdout, result.stdout
    for word in ("Avery", "Brooks", "Jordan", "Ellis", "Riley", "Chen"):
        if word in roster:
            assert word in result.stdout or word in ("Avery", "Brooks")


def test_the_places_a_reader_defers_are_filled_in_order_on_first_read():
    """A CSV's reader hands its cells' places to the source map as a filler, worked out only
    when a message asks (SourceMap.defer); fillers run once, in the order they came, so a later
    file's place of a fact stands as if each had been written at once."""
    from docgen.load.source import SourceMap

    source = SourceMap("facts.yaml", {("plan",): 3})
    ran: list[str] = []

    def roster(extra):
        ran.append("roster")
        extra[("participants", 0)] = ("roster.csv", 2)
        extra[("participants", 0, "elections")] = ("roster.csv", 2)

    def elections(extra):
        ran.append("elections")
        extra[("participants", 0, "elections")] = ("elections.csv", 5)
        extra[("participants", 0, "elections", 0, "percent")] = ("elections.csv", 5, 4)

    source.defer(roster)
    source.defer(elections)
    assert ran == []
    assert source.where(("participants", 0, "elections", 0, "percent")) == ("elections.csv", 5, 4)
    assert source.where(("participants", 0, "elections", 1)) == ("elections.csv", 5, None)
    assert source.where(("participants", 0, "name")) == ("roster.csv", 2, None)
    assert source.where(("plan", "pay_schedule")) == ("facts.yaml", 3, None)
    assert ran == ["roster", "elections"]


def test_each_filing_and_roster_cell_of_the_hris_sample_is_placed_at_its_cell():
    """Every fact read from the HRIS sample's roster and CSVs of filings is placed at its own
    file, line and column once a message asks, placed after the load as the load's reader read
    it (docgen.load.records, docgen.kinds.rrp.roster)."""
    import csv as csv_module

    from docgen.load import load_facts

    loaded = load_facts(SAMPLES / "rrp-2026-hris.yaml")
    folder = SAMPLES / "hris"
    checked = 0
    for name, into in (("elections.csv", "elections"), ("beneficiaries.csv", "beneficiaries")):
        with (folder / name).open(encoding="utf-8-sig", newline="") as handle:
            rows = list(csv_module.reader(handle))
        header, held = rows[0], {}
        for line, cells in enumerate(rows[1:], start=2):
            person = next(i for i, p in enumerate(loaded.facts.participants) if p.id == cells[0])
            position = held.setdefault(person, 0)
            held[person] += 1
            for column, (title, cell) in enumerate(zip(header, cells, strict=True), start=1):
                if title in ("percent", "made_on", "name") and cell.strip():
                    where = loaded.source.where(("participants", person, into, position, title))
                    assert where == (f"hris/{name}", line, column) or where[1:] == (line, column)
                    checked += 1
    with (folder / "participants.csv").open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv_module.reader(handle))
    for index in range(len(rows) - 1):
        column = rows[0].index("name") + 1
        assert loaded.source.where(("participants", index, "name"))[1:] == (index + 2, column)
        checked += 1
    assert checked > 10
