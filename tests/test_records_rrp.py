"""The RRP's spreadsheets are its records (A20, issue 24), through the CLI: a returned Deferral
Election Form of a participant kept in ``participants_csv`` lands in the CSV row (and in
``elections_csv``, ``beneficiaries_csv``, ``allocations_csv`` when the facts name them), every
other byte of every file kept, a byte-order mark, CRLF and quoted cells too; the CSVs of filings
load strictly and every fact in them is located at its file and line."""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import pytest

from docgen.core.errors import LoadError
from docgen.load import load_facts
from docgen.render import html as render
from tests.fillers import pypdf_fill

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
BOM = b"\xef\xbb\xbf"
FORM = {
    "salary_percent": "7",
    "allocation_1": "60",
    "allocation_3": "40",
    "beneficiary_1": "Dana Rivers",
    "relationship_1": "spouse",
    "share_1": "100",
    "date_signed": "2025-12-08",
}


@pytest.fixture
def hris(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)  # files are shown relative to the folder docgen runs in
    shutil.copy(SAMPLES / "rrp-2026-hris.yaml", tmp_path)
    shutil.copytree(SAMPLES / "hris", tmp_path / "hris")
    return tmp_path / "rrp-2026-hris.yaml"


def _form(facts: Path, participant: str, values: dict[str, str], name: str = "") -> Path:
    blank = render.render_document(
        load_facts(facts), "rrp-election", participant, "enrollment", "pdf"
    )
    path = facts.parent / (name or f"{participant}.pdf")
    path.write_bytes(pypdf_fill(blank, values))
    return path


def _intake(cli, facts: Path, *forms: Path, received: str = "2025-12-10"):
    return cli("intake", facts, *forms, "--received-on", received, "--as-of", received)


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def _removed_and_added(before: bytes, after: bytes) -> tuple[list[bytes], list[bytes]]:
    """The lines taken out and the lines put in, every other line (with its ending) kept."""
    old, new = _lines(before), _lines(after)
    kept = [line for line in old if line in new]
    assert [line for line in new if line in old] == kept  # the others in their order
    return [line for line in old if line not in new], [line for line in new if line not in old]


def test_the_hris_sample_validates_checks_clean_and_issues_its_forms(cli, hris):
    loaded = load_facts(hris)
    assert len(loaded.facts.participants) == 12
    assert set(loaded.records) == {"elections_csv", "beneficiaries_csv", "allocations_csv"}
    result = cli("check", hris, "--as-of", "2025-12-01")
    assert result.exit_code == 0, result.stdout
    assert "0 errors, 0 warnings, 0 info" in result.stdout
    out = hris.parent / "out"
    batch = cli("batch", hris, "--out", out, "--as-of", "2025-12-01")
    assert batch.exit_code == 0, batch.stdout + batch.stderr
    assert (out / "rrp-2026" / "enrollment" / "e1016" / "rrp-election.pdf").is_file()


def test_the_hris_sample_holds_what_the_yaml_sample_holds(hris):
    """Every field of an election, a Beneficiary and an allocation round-trips through the
    CSVs: the HRIS sample's participants are the YAML sample's, field for field (a
    performance period, a revocation, an election superseded by a later one). The HRIS also
    gives each bonus's pay day (bonus_paid_on, for its pay schedule), which the YAML sample,
    having no schedule, leaves out."""
    from_csv = {
        p.id: p.model_dump(exclude={"bonus_paid_on"}) for p in load_facts(hris).facts.participants
    }
    assert {p.id for p in load_facts(hris).facts.participants if p.bonus_paid_on} == {
        "e1003",
        "e1005",
        "e1008",
        "e1009",
    }
    from_yaml = {
        p.id: p.model_dump(exclude={"bonus_paid_on"})
        for p in load_facts(SAMPLES / "rrp-2026.yaml").facts.participants
        if p.id in from_csv
    }
    assert from_csv == from_yaml
    kinds = {e["kind"] for p in from_csv.values() for e in p["elections"]}
    assert kinds == {"salary", "bonus", "performance_based"}
    assert any(e["revoked_on"] for p in from_csv.values() for e in p["elections"])


def test_a_returned_form_lands_in_the_csvs_every_other_byte_kept(cli, hris):
    folder = hris.parent / "hris"
    before = {path.name: path.read_bytes() for path in folder.iterdir()}
    yaml_before = hris.read_bytes()
    form = _form(hris, "e1016", FORM)
    result = _intake(cli, hris, form)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert hris.read_bytes() == yaml_before
    after = {path.name: path.read_bytes() for path in folder.iterdir()}
    assert after["participants.csv"] == before["participants.csv"]
    for name in after:
        assert after[name].startswith(BOM)
        assert after[name].count(b"\r\n") == after[name].count(b"\n")  # CRLF kept, and used
    sha = __import__("hashlib").sha256(form.read_bytes()).hexdigest()
    assert _removed_and_added(before["elections.csv"], after["elections.csv"]) == (
        [],
        # how the form came and the date signed, kept (issue 44)
        [f"e1016,2026,salary,7,2025-12-10,,,,,,,,{sha},pdf,2025-12-08,,\r\n".encode()],
    )
    assert _removed_and_added(before["beneficiaries.csv"], after["beneficiaries.csv"]) == (
        [b"e1016,Kendall Moreau,child,100,\r\n"],
        [b"e1016,Dana Rivers,spouse,100,\r\n"],
    )
    assert _removed_and_added(before["allocations.csv"], after["allocations.csv"]) == (
        [b"e1016,S&P 500 Index Fund,100\r\n"],
        [b"e1016,Stable Value Fund,60\r\n", b"e1016,S&P 500 Index Fund,40\r\n"],
    )
    participant = load_facts(hris).facts.participant("e1016")
    assert participant.elections[-1].form_sha256 == sha
    assert dict(participant.investments) == {"Stable Value Fund": 60, "S&P 500 Index Fund": 40}
    assert [b.name for b in participant.beneficiaries] == ["Dana Rivers"]
    # status reads the new record
    status = cli("status", hris, "--as-of", "2025-12-10", "--format", "json")
    assert status.exit_code == 0 and "e1016" in status.stdout


def test_a_roster_participant_s_form_lands_in_the_roster_row_bom_crlf_and_quotes_kept(
    cli, tmp_path
):
    """participants_csv alone (no CSV of filings): the salary and bonus election go into the
    participant's row; the file keeps its byte-order mark, CRLF, quoted cells (a multi-line
    address, "$448,500") and every other row byte for byte."""
    shutil.copy(SAMPLES / "rrp-2026-roster.yaml", tmp_path)
    text = (
        (SAMPLES / "participants.csv").read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    )
    roster = tmp_path / "participants.csv"
    roster.write_bytes(BOM + text)
    facts = tmp_path / "rrp-2026-roster.yaml"
    form = _form(
        facts, "BW1002", {"salary_percent": "12", "bonus_percent": "5", "date_signed": "2025-12-01"}
    )
    result = _intake(cli, facts, form, received="2025-12-02")
    assert result.exit_code == 0, result.stdout + result.stderr
    # The form's SHA-256, how it came and the date signed are kept beside each election, in
    # columns added at the end of the header (issue 44); every other line byte for byte.
    sha = hashlib.sha256(form.read_bytes()).hexdigest().encode()
    header = text.split(b"\r\n", 1)[0] + b"\r\n"
    kept = b",%s,pdf,2025-12-01" % sha
    assert _removed_and_added(BOM + text, roster.read_bytes()) == (
        [BOM + header, b'Henrico, VA 23229",yes,"395,000",,2016-01-11,,,,,,\r\n'],
        [
            BOM
            + header[:-2]
            + b",salary_form_sha256,salary_received_as,salary_signed_on,bonus_form_sha256,"
            b"bonus_received_as,bonus_signed_on\r\n",
            b'Henrico, VA 23229",yes,"395,000",,2016-01-11,,,12,2025-12-02,5,2025-12-02'
            + kept
            + kept
            + b"\r\n",
        ],
    )
    assert roster.read_bytes().startswith(BOM + b"id,name,")
    elections = load_facts(facts).facts.participant("BW1002").elections
    assert [(e.kind, e.percent) for e in elections] == [("salary", 12), ("bonus", 5)]


def test_without_the_csvs_a_roster_row_refuses_what_it_cannot_hold(cli, tmp_path):
    shutil.copy(SAMPLES / "rrp-2026-roster.yaml", tmp_path)
    shutil.copy(SAMPLES / "participants.csv", tmp_path)
    facts = tmp_path / "rrp-2026-roster.yaml"
    before = (tmp_path / "participants.csv").read_bytes()
    second = cli(
        "elect",
        facts,
        "--for",
        "BW1001",
        "--received-on",
        "2025-12-01",
        "--as-of",
        "2025-12-02",
        "--salary-percent",
        "12",
    )
    assert second.exit_code == 2
    message = " ".join(second.stderr.split())
    assert "BW1001's roster row already holds a salary election" in message
    assert (
        "Name a CSV for them in the facts' elections_csv field, created with the first line "
        "participant_id,plan_year,kind,percent,made_on," in message
    )
    assert "the election on the row and this one are then recorded there" in message
    beneficiary = cli(
        "elect",
        facts,
        "--for",
        "BW1002",
        "--received-on",
        "2025-12-01",
        "--as-of",
        "2025-12-02",
        "--beneficiary",
        "Pat Chen;spouse;100",
    )
    assert beneficiary.exit_code == 2
    assert "in the facts' beneficiaries_csv field" in " ".join(beneficiary.stderr.split())
    assert (tmp_path / "participants.csv").read_bytes() == before


def test_a_second_election_moves_the_roster_row_s_election_into_elections_csv(cli, tmp_path):
    """A roster participant whose election is in the row's columns, and whose next form goes
    to elections_csv: both are recorded there, in order, and the row's election cells are
    emptied (a person's elections are in one place)."""
    text = (SAMPLES / "rrp-2026-roster.yaml").read_text(encoding="utf-8")
    facts = tmp_path / "rrp.yaml"
    facts.write_text(
        text.replace(
            "participants_csv: participants.csv",
            "participants_csv: participants.csv\nelections_csv: elections.csv",
        ),
        encoding="utf-8",
    )
    shutil.copy(SAMPLES / "participants.csv", tmp_path)
    (tmp_path / "elections.csv").write_text("participant_id,plan_year,kind,percent,made_on\n")
    before = load_facts(facts).facts.participant("BW1000").elections
    result = cli(
        "elect",
        facts,
        "--for",
        "BW1000",
        "--received-on",
        "2025-12-01",
        "--as-of",
        "2025-12-02",
        "--salary-percent",
        "12",
    )
    assert result.exit_code == 0, result.stdout + result.stderr
    assert (tmp_path / "elections.csv").read_text() == (
        "participant_id,plan_year,kind,percent,made_on,received_as,recorded_on\n"
        "BW1000,2026,salary,10,2025-11-14,,\n"
        "BW1000,2026,salary,12,2025-12-01,paper,2025-12-02\n"  # a paper form, recorded when
    )
    row = (tmp_path / "participants.csv").read_text().split("\n")[3]
    assert row.endswith("2025-12-31,,,,")  # the row's salary cells emptied
    after = load_facts(facts).facts.participant("BW1000").elections
    assert [e.model_dump() for e in after[:1]] == [e.model_dump() for e in before]
    assert [(e.percent, e.made_on.isoformat()) for e in after] == [
        (10, "2025-11-14"),
        (12, "2025-12-01"),
    ]


def _with(hris: Path, name: str, text: str) -> None:
    (hris.parent / "hris" / name).write_bytes(BOM + text.replace("\n", "\r\n").encode())


def _problems(hris: Path) -> list[str]:
    with pytest.raises(LoadError) as refused:
        load_facts(hris)
    return [str(problem) for problem in refused.value.problems]


def test_a_csv_of_filings_loads_strictly_each_problem_at_its_file_and_line(hris):
    _with(
        hris,
        "elections.csv",
        "participant_id,plan_year,kind,percentt,made_on\ne1001,2025,salary,10,2024-12-10\n",
    )
    (problem,) = _problems(hris)
    assert problem.startswith("hris/elections.csv:1: column percentt: unknown column")
    assert "Did you mean percent?" in problem
    _with(
        hris,
        "elections.csv",
        "participant_id,plan_year,kind,percent,made_on\n"
        "e1001,2025,salary,10,2024-12-10\n"
        "e1099,2025,salary,10,2024-12-10\n"
        "e1002,2026,salary,ten,2025-11-28\n",
    )
    problems = _problems(hris)
    assert any(
        p.startswith("hris/elections.csv:3: elections_csv[1].participant_id: no participant e1099")
        for p in problems
    ), problems
    assert any(
        p.startswith("hris/elections.csv:4: participants[1].elections[0].percent") for p in problems
    ), problems


def test_a_list_given_in_two_places_is_a_load_error(hris):
    text = hris.read_text(encoding="utf-8")
    hris.write_text(
        text.replace(
            "participants_csv: hris/participants.csv",
            "participants_csv: hris/participants.csv\nparticipants:\n"
            "  - id: y1\n    name: Yael Cohen\n    eligible_employee: true\n"
            '    compensation: "400000"\n'
            "    elections: [{ kind: salary, plan_year: 2026, percent: 5, made_on: 2025-11-28 }]",
        ),
        encoding="utf-8",
    )
    _with(
        hris,
        "elections.csv",
        "participant_id,plan_year,kind,percent,made_on\ny1,2026,salary,6,2025-11-29\n",
    )
    (problem,) = _problems(hris)
    assert problem.startswith("hris/elections.csv:2: participants[0].elections: y1's elections")
    assert "are in elections_csv and also in rrp-2026-hris.yaml" in problem
    _with(
        hris,
        "allocations.csv",
        "participant_id,fund,percent\ne1001,Bond Index Fund,50\ne1001,Bond Index Fund,50\n",
    )
    problems = _problems(hris)
    assert any("e1001's Bond Index Fund is given twice" in p for p in problems), problems


def test_facts_in_the_csvs_are_located_in_them(hris):
    loaded = load_facts(hris)
    source = loaded.source
    index = [p.id for p in loaded.facts.participants].index("e1003")
    assert source.locate(("participants", index, "elections", 1, "percent")) == (
        "hris/elections.csv",
        5,
    )
    assert source.locate(("participants", index, "beneficiaries", 0, "name"))[0] == (
        "hris/beneficiaries.csv"
    )
    assert source.locate(("participants", index, "investments", "Stable Value Fund"))[0] == (
        "hris/allocations.csv"
    )


def test_a_person_s_list_stays_where_it_is(cli, tmp_path):
    """With beneficiaries_csv named, a participant whose Beneficiaries the facts file lists gets
    the new designation there; one with none on record gets rows in the CSV."""
    text = (SAMPLES / "rrp-2026.yaml").read_text(encoding="utf-8")
    facts = tmp_path / "rrp.yaml"
    facts.write_text(
        text.replace("\nparticipants:", "\nbeneficiaries_csv: beneficiaries.csv\nparticipants:", 1),
        encoding="utf-8",
    )
    header = "participant_id,name,relationship,percent,contingent\n"
    (tmp_path / "beneficiaries.csv").write_text(header)
    day = ["--received-on", "2025-12-01", "--as-of", "2025-12-01"]
    kept = cli("elect", facts, "--for", "e1001", "--beneficiary", "Sam Lee;spouse;100", *day)
    assert kept.exit_code == 0, kept.stdout + kept.stderr
    assert (tmp_path / "beneficiaries.csv").read_text() == header
    assert "Sam Lee" in facts.read_text(encoding="utf-8")
    facts.write_text(
        re.sub(
            r"\n    beneficiaries: \[\{ ?name: Sam Lee[^\n]*", "", facts.read_text("utf-8"), count=1
        ),
        encoding="utf-8",
    )
    assert not load_facts(facts).facts.participant("e1001").beneficiaries
    moved = cli("elect", facts, "--for", "e1001", "--beneficiary", "Jo Lee;child;100", *day)
    assert moved.exit_code == 0, moved.stdout + moved.stderr
    assert (tmp_path / "beneficiaries.csv").read_text() == header + "e1001,Jo Lee,child,100,\n"
    assert [b.name for b in load_facts(facts).facts.participant("e1001").beneficiaries] == [
        "Jo Lee"
    ]


def test_a_csv_another_facts_file_is_writing_refuses_the_filing_whole(cli, hris):
    """Two facts files may name one CSV, and each run holds only its own facts file's lock: a
    CSV being written by another run (its flock held) refuses this filing whole, nothing
    written, and the next run, once the other has finished, records it."""
    import fcntl
    import os

    folder = hris.parent / "hris"
    before = {path.name: path.read_bytes() for path in folder.iterdir()}
    yaml_before = hris.read_bytes()
    args = ("elect", hris, "--for", "e1006", "--salary-percent", "8")
    args += ("--received-on", "2025-12-11", "--as-of", "2025-12-11")
    other = os.open(folder / "elections.csv", os.O_RDONLY)
    try:
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        result = cli(*args)
    finally:
        os.close(other)
    assert result.exit_code == 2, result.stdout + result.stderr
    said = " ".join((result.stdout + result.stderr).split())
    assert "hris/elections.csv: another docgen run is recording into this file" in said
    assert "nothing was written" in said
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == before
    assert hris.read_bytes() == yaml_before
    again = cli(*args)
    assert again.exit_code == 0, again.stdout + again.stderr
    assert b"e1006,2026,salary,8,2025-12-11" in (folder / "elections.csv").read_bytes()


def test_each_problem_in_a_csv_of_filings_names_the_line_its_cell_starts_on(hris):
    """Rows read from one line of the file (read without searching their cells for line
    breaks), rows whose cell spans lines and a blank line: each problem names the line its
    cell starts on, a cell after a cell of several lines the line below (A20)."""
    _with(
        hris,
        "beneficiaries.csv",
        "participant_id,name,relationship,percent,contingent\n"
        'e1001,"Jamie\nLee",child,x,\n'  # lines 2-3
        "e1002,Taylor Alvarez,spouse,y,\n"  # line 4, then a blank line 5
        "\n"
        'e1003,Drew Okafor,"spouse\n\nex",100,maybe\n'  # lines 6-8
        "e1004,Sam Ortiz,spouse,z,\n",  # line 9
    )
    problems = [" ".join(problem.split()) for problem in _problems(hris)]
    expected = [
        "hris/beneficiaries.csv:2: beneficiaries_csv[0].name: a line break inside the cell",
        "hris/beneficiaries.csv:3: participants[0].beneficiaries[0].percent:",
        "hris/beneficiaries.csv:4: participants[1].beneficiaries[0].percent:",
        "hris/beneficiaries.csv:6: beneficiaries_csv[2].relationship: a line break inside",
        "hris/beneficiaries.csv:8: participants[2].beneficiaries[0].contingent:",
        "hris/beneficiaries.csv:9: participants[3].beneficiaries[0].percent:",
    ]
    for start in expected:
        assert any(problem.startswith(start) for problem in problems), (start, problems)


def test_an_allocation_row_without_its_fund_is_refused_at_its_row(hris):
    """A fund is the name an allocation is kept under: a row with none was kept under no name
    (a message about ``investments.None`` at another row's line), and two such rows for one
    person stopped the load with an internal error."""
    _with(
        hris,
        "allocations.csv",
        "participant_id,fund,percent\ne1001,Stable Value Fund,50\ne1001,,30\ne1001,,20\n",
    )
    assert _problems(hris) == [
        f"hris/allocations.csv:{line}: allocations_csv[{index}].fund: the fund of e1001's row "
        "is empty. Write the fund's name in the fund column."
        for line, index in ((3, 1), (4, 2))
    ]


def test_a_row_of_filings_without_its_person_s_id_says_the_id_is_empty(hris):
    """A row whose participant_id is empty names no one: it is said so at its row, not as a
    search for a participant called None."""
    _with(
        hris,
        "beneficiaries.csv",
        "participant_id,name,relationship,percent\n"
        "e1001,Sam Ortiz,spouse,100\n"
        ",Lee Ortiz,child,50\n",
    )
    assert _problems(hris) == [
        "hris/beneficiaries.csv:3: beneficiaries_csv[1].participant_id: the row's participant_id "
        "is empty. Write the id of the participant the row is for."
    ]


def test_an_empty_cell_a_row_needs_is_named_by_its_column(hris):
    """A field a row must give, left empty, is said as the cell to fill in, by the column that
    holds it (a performance period's end is the performance_end column), not as a YAML key to
    add under a path."""
    text = (hris.parent / "hris" / "elections.csv").read_text(encoding="utf-8-sig")
    header = text.splitlines()[0]
    _with(
        hris,
        "elections.csv",
        header + "\n" + "e1001,2026,performance_based,5,2025-11-20,2026-01-01,,2025-12-01\n",
    )
    assert _problems(hris) == [
        "hris/elections.csv:2: participants[0].elections[0].performance_period.end: required "
        "field is missing. Fill in the row's performance_end cell."
    ]
