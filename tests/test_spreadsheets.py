"""The company's spreadsheets as they are (A24): exports read through a columns: block with no
script, the same facts from a workbook as from its CSV, cells named as a spreadsheet names them,
and `docgen columns` proposing a block with every guess's reason."""

from __future__ import annotations

import csv
import shutil
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from docgen.checker.runner import run_checks
from docgen.core.cells import cell_name
from docgen.core.errors import LoadError
from docgen.load import load_facts
from tests.workbooks import openpyxl, write_workbook  # the tests' writer of workbooks only

SAMPLES = Path(__file__).parent.parent / "samples"
GOLDEN = Path(__file__).parent / "golden" / "columns"


def _people(path: Path) -> dict[str, dict]:
    facts = load_facts(path).facts
    return {p.id: p.model_dump(mode="json") for p in facts.participants}


@pytest.mark.parametrize("sample", ["rrp-2026-workday.yaml", "rrp-2026-portal.yaml"])
def test_the_exports_give_the_facts_of_the_hris_csvs(sample: str):
    """samples/workday holds the people and forms of samples/hris in a Workday report's (and, in
    rrp-2026-portal.yaml, a benefits portal's) own columns: through the columns: blocks every
    fact is the same, save what only the export has (addresses) and what a Y/N flag answers
    (one determination), the time of day the portal adds to a submission, each worker's own
    Pay Frequency (the HRIS CSVs pay everyone on plan.pay_schedule), and, in
    rrp-2026-workday.yaml, base pay read as the annual rate it is (the HRIS CSVs give pay paid in
    the year, the same rate for these people, all employed the whole year)."""
    exported = _people(SAMPLES / sample)
    hris = _people(SAMPLES / "rrp-2026-hris.yaml")
    assert list(exported) == list(hris)
    for person_id, person in exported.items():
        theirs = hris[person_id]
        frequency = "semimonthly" if person_id == "e1007" else "biweekly"
        assert (person.pop("pay_frequency"), theirs.pop("pay_frequency")) == (frequency, None)
        rate, _ = person.pop("annual_rate"), theirs.pop("annual_rate")
        if sample == "rrp-2026-workday.yaml":
            bonus = Decimal(theirs["bonus_compensation"] or "0")
            assert Decimal(rate) == Decimal(theirs.pop("compensation")) - bonus
            assert person.pop("compensation") is None
        assert person.pop("address")[1] == "Richmond, VA 23220"
        theirs.pop("address")
        flag = person.pop("key_employee_on")
        given = theirs.pop("key_employee_on")
        assert flag == (["2024-12-31"] if "2024-12-31" in given else [])
        assert person == theirs, person_id


def test_the_workday_export_is_checked_as_the_hris_csvs_are():
    as_of = date(2025, 12, 1)
    for name in ("rrp-2026-workday.yaml", "rrp-2026-portal.yaml", "rrp-2026-hris.yaml"):
        loaded = load_facts(SAMPLES / name)
        report = run_checks(loaded, as_of)
        assert [f.rule for f in report.findings] == []


@pytest.fixture
def workday_xlsx(tmp_path: Path) -> Path:
    """The portal sample with its two exports as workbooks (typed cells in the HRIS's)."""
    folder = tmp_path / "workday"
    shutil.copytree(SAMPLES / "workday", folder)
    write_workbook(folder / "Workers.csv", folder / "Workers.xlsx", "Workers", typed=True)
    portal = folder / "portal-elections.csv"
    write_workbook(portal, folder / "Elections.xlsx", "Sheet1", typed=False)
    text = (SAMPLES / "rrp-2026-portal.yaml").read_text(encoding="utf-8")
    text = text.replace("workday/Workers.csv", "workday/Workers.xlsx")
    text = text.replace("workday/portal-elections.csv", "workday/Elections.xlsx")
    facts = tmp_path / "rrp-2026-portal.yaml"
    facts.write_text(text, encoding="utf-8")
    return facts


def test_a_workbook_gives_the_facts_and_findings_of_its_csv(workday_xlsx: Path):
    as_csv = load_facts(SAMPLES / "rrp-2026-portal.yaml")
    as_xlsx = load_facts(workday_xlsx)
    dumped = as_xlsx.facts.model_dump(mode="json")
    expected = as_csv.facts.model_dump(mode="json")
    for facts in (dumped, expected):
        for field in ("participants_csv", "elections_csv"):
            facts[field] = None  # the file names differ, and only they
    for mine, theirs in zip(dumped.pop("participants"), expected.pop("participants"), strict=True):
        assert mine == theirs
    assert dumped == expected
    as_of = date(2025, 12, 1)
    found = [(f.rule, f.subject) for f in run_checks(as_xlsx, as_of).findings]
    assert found == [(f.rule, f.subject) for f in run_checks(as_csv, as_of).findings]
    # Each fact's place is the sheet's cell: e1003's Hire Date is Workers!I4.
    file, line, column = as_xlsx.source.where("participants[2].hired_on")
    assert (file.endswith("workday/Workers.xlsx:Workers"), line, column) == (True, 4, 9)


def test_a_workbooks_bad_cell_is_named_as_a_spreadsheet_names_it(workday_xlsx: Path):
    book = openpyxl.load_workbook(workday_xlsx.parent / "workday" / "Workers.xlsx")
    book["Workers"]["G5"] = "maybe"  # Regular Employee of e1004
    book.save(workday_xlsx.parent / "workday" / "Workers.xlsx")
    with pytest.raises(LoadError) as refused:
        load_facts(workday_xlsx)
    (problem,) = refused.value.problems
    assert problem.file.endswith("workday/Workers.xlsx:Workers!G5")
    assert problem.line is None
    assert str(problem).endswith(
        "Workers.xlsx:Workers!G5: eligible_employee (column Regular Employee): expected yes "
        "(y, yes, true, x, 1) or no (n, no, false, 0) (got maybe). Correct the cell, or add the "
        "word to yes: or no: in the columns: block."
    )


def test_an_empty_cell_of_a_mapped_export_is_named_by_the_company_s_header(
    workday_xlsx: Path, tmp_path: Path
):
    """A required cell left empty in a file read through a columns: block is named as the file
    names its column (Legal Name, Deferral %), docgen's field beside it, in the workbook as in
    the CSV."""
    book = openpyxl.load_workbook(workday_xlsx.parent / "workday" / "Workers.xlsx")
    book["Workers"]["B5"] = None  # e1004's Legal Name
    book.save(workday_xlsx.parent / "workday" / "Workers.xlsx")
    with pytest.raises(LoadError) as refused:
        load_facts(workday_xlsx)
    (problem,) = refused.value.problems
    assert str(problem).endswith(
        "Workers.xlsx:Workers!5:5: participants[3].name: required field is missing. Fill in the "
        "row's Legal Name cell (name)."
    )
    folder = tmp_path / "csv"
    shutil.copytree(SAMPLES / "workday", folder / "workday")
    shutil.copy(SAMPLES / "rrp-2026-portal.yaml", folder)
    portal = folder / "workday" / "portal-elections.csv"
    lines = portal.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[2] = lines[2].replace(",5%,", ",,")  # e1002's Deferral %
    portal.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(LoadError) as refused:
        load_facts(folder / "rrp-2026-portal.yaml")
    (problem,) = refused.value.problems
    assert str(problem).endswith(
        "workday/portal-elections.csv:3: participants[1].elections[0].percent: required field is "
        "missing. Fill in the row's Deferral % cell (percent)."
    )


def test_a_named_sheet_that_is_not_there_is_refused_with_the_sheets_it_has(workday_xlsx: Path):
    text = workday_xlsx.read_text(encoding="utf-8")
    workday_xlsx.write_text(
        text.replace(
            "    date_order: month_first            #",
            "    sheet: Staff\n    date_order: month_first            #",
            1,
        ),
        encoding="utf-8",
    )
    with pytest.raises(LoadError) as refused:
        load_facts(workday_xlsx)
    assert [str(p).split(": ", 1)[1] for p in refused.value.problems] == [
        "sheet: no sheet named Staff. Its sheets: Workers. Name one in the columns: block's sheet:."
    ]


def test_an_unambiguous_us_date_is_read_and_an_ambiguous_one_refused(tmp_path: Path):
    shutil.copy(SAMPLES / "rrp-2026-roster.yaml", tmp_path / "facts.yaml")
    text = (tmp_path / "facts.yaml").read_text(encoding="utf-8")
    roster = next(
        line.split(":", 1)[1].split("#")[0].strip()
        for line in text.splitlines()
        if line.startswith("participants_csv:")
    )
    with (SAMPLES / roster).open(encoding="utf-8-sig", newline="") as file:
        header, first, *_ = list(csv.reader(file))
    at = header.index("hired_on")

    def with_hired_on(value: str) -> None:
        cells = list(first)
        cells[at] = value
        out = tmp_path / roster
        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("w", encoding="utf-8", newline="") as file:
            writer = csv.writer(file)
            writer.writerow(header)
            writer.writerow(cells)

    with_hired_on("11/26/2012")
    (person, *_) = load_facts(tmp_path / "facts.yaml").facts.participants
    assert person.hired_on == date(2012, 11, 26)
    with_hired_on("06/01/2009")
    with pytest.raises(LoadError) as refused:
        load_facts(tmp_path / "facts.yaml")
    assert [p.what for p in refused.value.problems] == [
        "an ambiguous date: month 6 day 1, or day 6 month 1"
    ]
    assert "date_order: month_first" in (refused.value.problems[0].fix or "")


def test_an_hris_header_gets_a_did_you_mean_naming_the_field(tmp_path: Path):
    (tmp_path / "w.csv").write_text("Worker ID,name,eligible_employee,compensation\n")
    (tmp_path / "f.yaml").write_text(
        "kind: rrp-plan-year\ncompany: {name: X}\nplan: {name: X Plan}\nplan_year: 2026\n"
        "participants_csv: w.csv\n"
    )
    with pytest.raises(LoadError) as refused:
        load_facts(tmp_path / "f.yaml")
    fixes = [p.fix for p in refused.value.problems if p.path == "column Worker ID"]
    assert fixes and fixes[0].startswith(
        "Did you mean id? Worker ID is what HRIS exports commonly call it: rename the column id, "
        "or read the file as exported through a columns: block"
    )


def test_docgen_columns_proposes_the_workday_block_with_its_reasons(cli, monkeypatch):
    monkeypatch.chdir(SAMPLES)
    result = cli("columns", "workday/Workers.csv", "--kind", "rrp-plan-year")
    assert result.exit_code == 0, result.stderr
    expected = GOLDEN / "workday-workers.txt"
    if not expected.exists():
        expected.parent.mkdir(parents=True, exist_ok=True)
        expected.write_text(result.stdout)
    assert result.stdout == expected.read_text()
    # What it cannot tell from the file is left for the user, never guessed.
    assert "    compensation: {column: Annual Base Pay, read: money, is: }" in result.stdout
    assert "FILL IN paid_in_year or annual_rate" in result.stdout


def test_docgen_columns_reads_the_portal_export_as_elections(cli, monkeypatch):
    monkeypatch.chdir(SAMPLES)
    result = cli(
        "columns", "workday/portal-elections.csv", "--kind", "rrp-plan-year", "--as", "elections"
    )
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "  elections_csv:" in lines
    assert "    participant_id: Employee ID" in lines
    assert "    date_order: month_first" in lines
    assert '    percent: {column: "Deferral %", read: percent}' in lines
    assert (
        "    kind: {column: Election Type, values: {Annual Bonus: bonus, Base Salary: salary, "
        "Performance Bonus: performance_based}}" in lines
    )


def test_a_proposed_block_with_fill_ins_is_refused_until_filled_in(cli, tmp_path, monkeypatch):
    """Pasting the block as printed: each FILL IN is empty, and the loader says what to give."""
    monkeypatch.chdir(SAMPLES)
    block = cli("columns", "workday/Workers.csv", "--kind", "rrp-plan-year").stdout
    shutil.copytree(SAMPLES / "workday", tmp_path / "workday")
    (tmp_path / "f.yaml").write_text(
        "kind: rrp-plan-year\ncompany: {name: X}\nplan: {name: X Plan}\nplan_year: 2026\n"
        "participants_csv: workday/Workers.csv\n" + block
    )
    with pytest.raises(LoadError) as refused:
        load_facts(tmp_path / "f.yaml")
    paths = sorted(p.path for p in refused.value.problems)
    assert paths == [
        "columns.participants_csv.compensation.is",
        "columns.participants_csv.key_employee_on.determined_on",
        "columns.participants_csv.termination_reason",
    ]
    (reason,) = [p for p in refused.value.problems if p.path.endswith("termination_reason")]
    assert (reason.what, reason.fix) == (
        "no header given",
        "Write the file's header for termination_reason after termination_reason:, or remove "
        "the line.",
    )


def _findings(path: Path, as_of: date) -> list[tuple[str, str]]:
    return [(f.rule, f.subject) for f in run_checks(load_facts(path), as_of).findings]


def test_a_board_roster_with_commas_and_no_ids_is_read_through_its_block(tmp_path: Path):
    """The secretary's board roster as kept (Director, Preferred Salutation, Mailing Address
    with commas, Board Start and End Date, Committee, Annual RSU Award; no id column): ids made
    by the stated rule, the end date a separation from service, the same findings as the
    roster in docgen's own columns."""
    board = load_facts(SAMPLES / "director-grant-2026-board.yaml").facts
    by_id = {d.id: d for d in board.directors}
    assert list(by_id) == ["kiran-patel", "hanna-muller", "benjamin-cole", "dana-ruiz"]
    assert by_id["kiran-patel"].address == ["12 Grove Avenue, Richmond, VA 23220"]
    assert by_id["hanna-muller"].salutation == "Ms. Müller"
    assert by_id["benjamin-cole"].units == 1225
    assert by_id["benjamin-cole"].first_eligible_on == date(2026, 6, 10)
    assert by_id["dana-ruiz"].settlement.separation_on == date(2026, 12, 31)
    assert by_id["kiran-patel"].settlement is None
    assert [e.filed_on for e in by_id["hanna-muller"].elections] == [date(2026, 6, 2)]
    as_of = date(2026, 6, 10)
    assert _findings(SAMPLES / "director-grant-2026-board.yaml", as_of) == _findings(
        SAMPLES / "director-grant-2026-roster.yaml", as_of
    )
    # The same roster as a workbook gives the same facts.
    folder = tmp_path / "workday"
    shutil.copytree(SAMPLES / "workday", folder)
    write_workbook(folder / "Board.csv", folder / "Board.xlsx", "Board", typed=True)
    text = (SAMPLES / "director-grant-2026-board.yaml").read_text(encoding="utf-8")
    (tmp_path / "board.yaml").write_text(
        text.replace("workday/Board.csv", "workday/Board.xlsx"), encoding="utf-8"
    )
    shutil.copy(SAMPLES / "roster.csv", tmp_path / "roster.csv")
    as_xlsx = load_facts(tmp_path / "board.yaml").facts
    assert [d.model_dump() for d in as_xlsx.directors] == [d.model_dump() for d in board.directors]
    assert _findings(tmp_path / "board.yaml", as_of) == _findings(
        SAMPLES / "director-grant-2026-board.yaml", as_of
    )


def test_a_termination_in_the_export_is_the_participants_termination(tmp_path: Path):
    """Termination Date and its reason are roster columns (Plan 1.30), the company's words for
    the reason mapped to the facts' by values:."""
    shutil.copytree(SAMPLES / "workday", tmp_path / "workday")
    workers = tmp_path / "workday" / "Workers.csv"
    with workers.open(encoding="utf-8", newline="") as file:
        header, *rows = list(csv.reader(file))
    at = header.index("Termination Date")
    header.append("Termination Reason")
    for row in rows:
        row.append("")
    rows[6][at], rows[6][-1] = "09/30/2026", "Retired"  # e1007
    rows[7][at], rows[7][-1] = "06/15/2026", "Resigned"  # e1008
    with workers.open("w", encoding="utf-8", newline="") as file:
        csv.writer(file).writerows([header, *rows])
    text = (SAMPLES / "rrp-2026-workday.yaml").read_text(encoding="utf-8")
    text = text.replace(
        "    terminated_on: {column: Termination Date, read: date}\n",
        "    terminated_on: {column: Termination Date, read: date}\n"
        "    termination_reason:\n"
        "      column: Termination Reason\n"
        "      values: {Retired: retirement, Resigned: other, Deceased: death}\n",
    )
    (tmp_path / "facts.yaml").write_text(text, encoding="utf-8")
    people = {p.id: p for p in load_facts(tmp_path / "facts.yaml").facts.participants}
    assert (people["e1007"].termination.on, people["e1007"].termination.reason) == (
        date(2026, 9, 30),
        "retirement",
    )
    assert people["e1008"].termination.reason == "other"
    assert people["e1001"].termination is None
    rows[7][-1] = "Laid off"
    with workers.open("w", encoding="utf-8", newline="") as file:
        csv.writer(file).writerows([header, *rows])
    with pytest.raises(LoadError) as refused:
        load_facts(tmp_path / "facts.yaml")
    assert [str(p) for p in refused.value.problems] == [
        f"{refused.value.problems[0].file}:9: termination_reason (column Termination Reason): a "
        "value the columns: block's values: does not list (it lists retired, resigned, deceased) "
        "(got Laid off). Add it to values: under termination_reason, or correct the cell."
    ]


def test_docgen_columns_proposes_ids_from_names_for_a_board_roster_without_them(cli, monkeypatch):
    monkeypatch.chdir(SAMPLES)
    result = cli("columns", "workday/Board.csv", "--kind", "director-rsu-grant")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "    id: {made_from: Director, rule: slug}" in lines
    assert lines[lines.index("    id: {made_from: Director, rule: slug}") - 1].startswith(
        "    # the file has no id column: ids made from names"
    )
    assert "    units: Annual RSU Award" in lines  # a count: "2,450" needs no reader
    assert "    separation_on: {column: Board End Date, read: date}" in lines
    assert "      - Committee" in lines


# Each export with problems its rules find put into it, so that the findings compared are real
# ones located in the export's cells: the sample, each CSV made a workbook (its sheet's name),
# the edits (file, text, replacement), and the day checked.
PARITY = {
    "a Workday export": (
        "rrp-2026-workday.yaml",
        {"Workers.csv": "Workers"},
        [  # not Eligible Employees (Plan 1.11), with elections on record
            (
                "Workers.csv",
                'Richmond,VA,23220,Y,"$500,000.00"',
                'Richmond,VA,23220,N,"$500,000.00"',
            ),
            (
                "Workers.csv",
                'Richmond,VA,23220,Y,"$400,000.00"',
                'Richmond,VA,23220,N,"$400,000.00"',
            ),
        ],
        date(2025, 12, 1),
    ),
    "a benefits portal's export": (
        "rrp-2026-portal.yaml",
        {"Workers.csv": "Workers", "portal-elections.csv": "Elections"},
        [  # over the 75% maximum (Plan 2.03(a)); made after the December 31 deadline (2.03(b))
            ("portal-elections.csv", "e1002,2026,Base Salary,5%", "e1002,2026,Base Salary,80%"),
            ("portal-elections.csv", "6%,11/30/2025", "6%,01/05/2026"),
        ],
        date(2026, 1, 15),
    ),
    "a board roster (commas in addresses, no ids)": (
        "director-grant-2026-board.yaml",
        {"Board.csv": "Board"},
        [  # service ended before the Grant Date: no grant (A27)
            ("Board.csv", "05/01/2014,12/31/2026", "05/01/2014,05/31/2026"),
        ],
        date(2026, 6, 24),
    ),
}


def _exports(folder: Path, sample: str, sheets: dict[str, str], edits, typed: bool | None) -> Path:
    """The sample in ``folder`` with its workday/ exports edited; ``typed`` None keeps them as
    CSVs, else each named one is saved as a workbook (typed or all text) and read from there."""
    shutil.copytree(SAMPLES / "workday", folder / "workday")
    shutil.copy(SAMPLES / "roster.csv", folder)
    for name, old, new in edits:
        path = folder / "workday" / name
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, (name, old)
        path.write_text(text.replace(old, new), encoding="utf-8")
    text = (SAMPLES / sample).read_text(encoding="utf-8")
    if typed is not None:
        for name, sheet in sheets.items():
            book = f"{sheet}.xlsx"
            write_workbook(folder / "workday" / name, folder / "workday" / book, sheet, typed)
            text = text.replace(f"workday/{name}", f"workday/{book}")
    (folder / sample).write_text(text, encoding="utf-8")
    return folder / sample


@pytest.mark.parametrize("typed", [True, False], ids=["typed cells", "text cells"])
@pytest.mark.parametrize("case", list(PARITY))
def test_an_exports_workbook_gives_the_same_facts_and_findings_as_its_csv(
    tmp_path: Path, case: str, typed: bool
):
    """The .xlsx of each export gives the facts its CSV gives, and the same findings, each
    naming the same cell the way a spreadsheet names it (``Workers.xlsx:Workers!G4`` for the
    CSV's line 4, column 7)."""
    sample, sheets, edits, as_of = PARITY[case]
    as_csv = load_facts(_exports(tmp_path / "csv", sample, sheets, edits, None))
    as_xlsx = load_facts(_exports(tmp_path / "xlsx", sample, sheets, edits, typed))
    mine, theirs = as_xlsx.facts.model_dump(mode="json"), as_csv.facts.model_dump(mode="json")
    for facts in (mine, theirs):
        for field in ("participants_csv", "directors_csv", "elections_csv"):
            facts.pop(field, None)  # the file names differ, and only they
    assert mine == theirs
    found_csv = run_checks(as_csv, as_of).findings
    found_xlsx = run_checks(as_xlsx, as_of).findings

    def place(finding, folder: Path) -> tuple[str, int | None, int | None]:
        return finding.file.removeprefix(f"{folder}/"), finding.line, finding.column

    in_exports = [f for f in found_csv if place(f, tmp_path / "csv")[0].startswith("workday/")]
    assert len(in_exports) == len(edits)  # each edit found, in its export's cell
    assert len(found_xlsx) == len(found_csv)
    workbook = {
        f"workday/{name}": f"workday/{sheet}.xlsx:{sheet}" for name, sheet in sheets.items()
    }
    for xlsx, csv_finding in zip(found_xlsx, found_csv, strict=True):
        same = ("rule", "severity", "subject", "path", "message", "remedy", "title", "citations")
        assert [getattr(xlsx, k) for k in same] == [getattr(csv_finding, k) for k in same]
        csv_place = place(csv_finding, tmp_path / "csv")
        xlsx_place = place(xlsx, tmp_path / "xlsx")
        if csv_place[0] in workbook:
            expected = cell_name(workbook[csv_place[0]], csv_place[1], csv_place[2])
            assert cell_name(*xlsx_place) == expected
            assert "!" in expected
        else:
            assert xlsx_place == csv_place
