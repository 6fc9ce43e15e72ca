"""The company's own exports are read and never written (A24): a workbook, or a file read through
a columns: block (a layout docgen does not own). `intake`, `elect`, `decide` and `approve` write
a filing for a person listed in one to the CSV of filings the facts name and say that the
export was not written; where the facts name no CSV of docgen's own for it, the filing is
refused with the fix (the field to name and the CSV's first line), and nothing is written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from docgen.load import load_facts
from docgen.render import html as render
from tests.fillers import pypdf_fill
from tests.workbooks import write_workbook

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
RRP_DAY = ["--received-on", "2025-12-10", "--as-of", "2025-12-10"]
GRANT_DAY = ["--received-on", "2026-06-22", "--as-of", "2026-06-22"]


@pytest.fixture(autouse=True)
def _in_tmp_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Messages name files as given, relative to the folder the command runs in."""
    monkeypatch.chdir(tmp_path)


def _bytes(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def _in(tmp_path: Path, sample: str, replace: dict[str, str] | None = None) -> Path:
    return _copy(tmp_path, sample, replace)


def _said(result) -> str:
    return " ".join((result.stdout + result.stderr).split())


def _copy(tmp_path: Path, sample: str, replace: dict[str, str] | None = None) -> Path:
    """The sample and its workday/ folder in tmp_path; each export named in ``replace`` saved as
    a workbook (typed cells, as Workday saves it) and the facts pointed at it."""
    folder = tmp_path / "workday"
    shutil.copytree(SAMPLES / "workday", folder)
    text = (SAMPLES / sample).read_text(encoding="utf-8")
    for csv_name, xlsx_name in (replace or {}).items():
        write_workbook(folder / csv_name, folder / xlsx_name, Path(xlsx_name).stem, typed=True)
        text = text.replace(f"workday/{csv_name}", f"workday/{xlsx_name}")
    facts = tmp_path / sample
    facts.write_text(text, encoding="utf-8")
    return Path(sample)  # as a user in the folder names it


def _without_line(facts: Path, starts: str) -> None:
    lines = facts.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = [line for line in lines if not line.startswith(starts)]
    assert len(kept) == len(lines) - 1
    facts.write_text("".join(kept), encoding="utf-8")


# ------------------------------------------------------------------ the RRP: a Workday roster


@pytest.mark.parametrize("roster", ["Workers.csv", "Workers.xlsx"])
def test_elect_for_a_person_in_an_hris_export_goes_to_elections_csv_and_says_so(
    cli, tmp_path, roster
):
    facts = _copy(
        tmp_path,
        "rrp-2026-workday.yaml",
        {"Workers.csv": "Workers.xlsx"} if roster.endswith(".xlsx") else {},
    )
    folder = tmp_path / "workday"
    before = _bytes(folder)
    result = cli("elect", facts, "--for", "e1006", "--salary-percent", "8", *RRP_DAY)
    assert result.exit_code == 0, _said(result)
    assert f"Not written: workday/{roster}, the company's own export" in _said(result)
    assert "so the record is in workday/elections.csv" in _said(result)
    after = _bytes(folder)
    assert after.pop("elections.csv") != before.pop("elections.csv")
    assert after == before  # the export (and every other file) byte for byte
    e1006 = load_facts(facts).facts.participant("e1006")
    assert (e1006.elections[-1].kind, e1006.elections[-1].percent) == ("salary", 8)


def test_decide_for_a_person_in_a_workbook_roster_writes_elections_csv_and_says_so(cli, tmp_path):
    facts = _copy(tmp_path, "rrp-2026-workday.yaml", {"Workers.csv": "Workers.xlsx"})
    folder = tmp_path / "workday"
    before = _bytes(folder)
    result = cli(
        "decide", facts, "--for", "e1002", "--ineffective", "--reason", "late", "--by", "A. C."
    )
    assert result.exit_code == 0, _said(result)
    assert "Not written: workday/Workers.xlsx, the company's own export" in _said(result)
    after = _bytes(folder)
    assert after.pop("elections.csv") != before.pop("elections.csv")
    assert after == before
    (election,) = load_facts(facts).facts.participant("e1002").elections
    decided = (election.status, election.reason, election.decided_by)
    assert decided == ("ineffective", "late", "A. C.")


def test_elect_with_a_workbook_roster_and_no_elections_csv_is_refused_naming_the_field(
    cli, tmp_path
):
    facts = _copy(tmp_path, "rrp-2026-workday.yaml", {"Workers.csv": "Workers.xlsx"})
    _without_line(facts, "elections_csv:")
    before = _bytes(tmp_path / "workday"), facts.read_bytes()
    result = cli("elect", facts, "--for", "e1006", "--salary-percent", "8", *RRP_DAY)
    assert result.exit_code == 2, _said(result)
    said = _said(result)
    assert "e1006 is listed in workday/Workers.xlsx, the company's own export" in said
    assert "the facts name no elections_csv for the elections docgen records" in said
    assert "Name a CSV of docgen's own columns in the facts' elections_csv" in said
    assert "first line participant_id,plan_year,kind,percent,made_on" in said
    assert "nothing was written" in said
    assert (_bytes(tmp_path / "workday"), facts.read_bytes()) == before


# ------------------------------------------------------------------ the RRP: a portal export


@pytest.mark.parametrize("portal", ["portal-elections.csv", "portal-elections.xlsx"])
@pytest.mark.parametrize("command", ["elect", "decide"])
def test_the_benefits_portals_export_of_elections_is_never_written(cli, tmp_path, portal, command):
    """elections_csv names the portal's export (read through its columns: block): a new
    election, or a decision about one in it, would be a row of the portal's layout; refused,
    naming the field and how to name a CSV of docgen's own, and nothing is written."""
    replace = {"portal-elections.csv": portal} if portal.endswith(".xlsx") else {}
    facts = _copy(tmp_path, "rrp-2026-portal.yaml", replace)
    before = _bytes(tmp_path / "workday"), facts.read_bytes()
    if command == "elect":
        result = cli("elect", facts, "--for", "e1006", "--salary-percent", "8", *RRP_DAY)
        person = "e1006"
    else:
        result = cli(
            "decide", facts, "--for", "e1002", "--ineffective", "--reason", "late", "--by", "A"
        )
        person = "e1002"
    assert result.exit_code == 2, _said(result)
    said = _said(result)
    assert (
        f"{person}'s elections would be written into workday/{portal}, which the facts' "
        "elections_csv names: the company's own export" in said
    )
    assert f"Record it in the system that exports workday/{portal} and export it again" in said
    assert "or make elections_csv a CSV of docgen's own columns (its first line: " in said
    assert "nothing was written" in said
    assert (_bytes(tmp_path / "workday"), facts.read_bytes()) == before


def test_approve_with_the_portal_export_writes_the_facts_file_only(cli, tmp_path):
    facts = _copy(tmp_path, "rrp-2026-portal.yaml")
    text = facts.read_text(encoding="utf-8")
    start = text.index("  - clause: rrp-election.participant-lines")
    end = text.index("  - clause: rrp-election.i-when-to-file")
    facts.write_text(text[:start] + text[end:], encoding="utf-8")
    before = _bytes(tmp_path / "workday")
    result = cli(
        "approve", facts, "--wording", "rrp-election.participant-lines", "--by", "A. Counsel"
    )
    assert result.exit_code == 0, _said(result)
    assert "rrp-election.participant-lines" in facts.read_text(encoding="utf-8")
    assert _bytes(tmp_path / "workday") == before


# ------------------------------------------------------------------ directors: a board roster


def _exhibit_i(facts: Path, director: str, printed: str) -> Path:
    blank = render.render_document(load_facts(facts), "exhibit-i", director, "elections", "pdf")
    path = facts.parent / f"{director}.pdf"
    path.write_bytes(
        pypdf_fill(
            blank, {"date_signed": "2026-06-19", "pay_on": "separation", "printed_name": printed}
        )
    )
    return path


@pytest.mark.slow
def test_intake_for_a_director_in_a_board_workbook_goes_to_elections_csv(cli, tmp_path):
    facts = _copy(tmp_path, "director-grant-2026-board.yaml", {"Board.csv": "Board.xlsx"})
    shutil.copy(SAMPLES / "roster.csv", tmp_path / "roster.csv")
    form = _exhibit_i(facts, "benjamin-cole", "Benjamin Cole")
    before = _bytes(tmp_path / "workday")
    result = cli("intake", facts, form, *GRANT_DAY)
    assert result.exit_code == 0, _said(result)
    said = _said(result)
    assert "Not written: workday/Board.xlsx, the company's own export" in said
    assert "so the record is in workday/board-elections.csv" in said
    after = _bytes(tmp_path / "workday")
    assert after.pop("board-elections.csv") != before.pop("board-elections.csv")
    assert after == before
    cole = load_facts(facts).facts.director("benjamin-cole")
    assert [e.pay_on for e in cole.elections] == ["separation"]


@pytest.mark.slow
def test_intake_for_a_director_in_a_board_workbook_without_elections_csv_is_refused(cli, tmp_path):
    facts = _copy(tmp_path, "director-grant-2026-board.yaml", {"Board.csv": "Board.xlsx"})
    _without_line(facts, "elections_csv:")
    shutil.copy(SAMPLES / "roster.csv", tmp_path / "roster.csv")
    form = _exhibit_i(facts, "benjamin-cole", "Benjamin Cole")
    before = _bytes(tmp_path / "workday"), facts.read_bytes()
    result = cli("intake", facts, form, *GRANT_DAY)
    assert result.exit_code == 2, _said(result)
    said = _said(result)
    assert "benjamin-cole is listed in workday/Board.xlsx, the company's own export" in said
    assert "Name a CSV of docgen's own columns in the facts' elections_csv" in said
    assert (_bytes(tmp_path / "workday"), facts.read_bytes()) == before


@pytest.mark.parametrize("command", ["decide", "elect"])
def test_a_form_of_a_person_whose_elections_are_in_a_workbook_never_reaches_the_roster(
    cli, tmp_path, command
):
    """samples/rrp-2026-hris.yaml with its elections kept as a workbook: a person's forms there
    are placed by their workbook (whose places name the sheet too, ``elections.xlsx:elections``),
    so a decision or a new form is refused as a write into the workbook, and the roster
    (docgen's own columns, which docgen does write) is not given an election it never held."""
    shutil.copytree(SAMPLES / "hris", tmp_path / "hris")
    folder = tmp_path / "hris"
    write_workbook(folder / "elections.csv", folder / "elections.xlsx", "elections", False)
    text = (SAMPLES / "rrp-2026-hris.yaml").read_text(encoding="utf-8")
    Path("hris.yaml").write_text(text.replace("hris/elections.csv", "hris/elections.xlsx"))
    before = _bytes(tmp_path / "hris"), Path("hris.yaml").read_bytes()
    if command == "decide":
        decision = ("--ineffective", "--reason", "late", "--by", "A")
        result = cli("decide", "hris.yaml", "--for", "e1002", *decision)
    else:
        result = cli("elect", "hris.yaml", "--for", "e1002", "--salary-percent", "8", *RRP_DAY)
    assert result.exit_code == 2, _said(result)
    assert "e1002's elections would be written into hris/elections.xlsx" in _said(result)
    assert (_bytes(tmp_path / "hris"), Path("hris.yaml").read_bytes()) == before
