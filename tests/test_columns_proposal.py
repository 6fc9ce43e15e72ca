"""`docgen columns` proposes a block that means what it says when pasted (A24): a header with
what YAML reads as syntax or as another type (``:``, ``#``, quotes, a leading ``-``, ``{``, a line
break, ``yes``, ``null``, a number, a date, an invisible character) is quoted so the block loads
and maps that exact header; and a termination date is never proposed without its reason."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

from docgen.load import load_facts

SAMPLES = Path(__file__).parent.parent / "samples"
# The board roster's headers, each spelt with something YAML would otherwise read as syntax
ODD = {
    "Director": "Director: Name",
    "Preferred Salutation": '"Preferred" Salutation',
    "Mailing Address": "Mailing\nAddress",
    "Board Start Date": "{Board Start Date}",
    "Board End Date": "-Board End Date",
    "Committee": "Committee #",
    "Annual RSU Award": "# Annual RSU Award",
}
# Headers docgen does not read, each one YAML would read as something else or not see
OTHERS = ("yes", "No", "null", "~", "123", "1.5", "2026-01-01", "true", "Cost\u200bCenter",
          "Bad\u202eHead", "key: value", "[list]", "'q'", "a, b", "@home", "*star")  # fmt: skip


def _board_with_odd_headers(folder: Path) -> Path:
    with (SAMPLES / "workday" / "Board.csv").open(encoding="utf-8", newline="") as file:
        header, *rows = list(csv.reader(file))
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([ODD[name] for name in header] + list(OTHERS))
    for row in rows:
        writer.writerow(row + ["x"] * len(OTHERS))
    (folder / "workday" / "Odd.csv").write_text(out.getvalue(), encoding="utf-8")
    return folder / "workday" / "Odd.csv"


def test_a_proposed_block_loads_and_maps_each_exact_header(cli, tmp_path, monkeypatch):
    shutil.copytree(SAMPLES / "workday", tmp_path / "workday")
    shutil.copy(SAMPLES / "roster.csv", tmp_path / "roster.csv")
    _board_with_odd_headers(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = cli("columns", "workday/Odd.csv", "--kind", "director-rsu-grant")
    assert result.exit_code == 0, result.stderr
    block = result.stdout
    assert "\u200b" not in block and "\u202e" not in block  # escapes, which YAML reads back
    text = (SAMPLES / "director-grant-2026-board.yaml").read_text(encoding="utf-8")
    text = text.split("\ncolumns:\n", 1)[0].replace("workday/Board.csv", "workday/Odd.csv")
    (tmp_path / "odd.yaml").write_text(text + "\n" + block, encoding="utf-8")
    odd = load_facts(tmp_path / "odd.yaml").facts
    board = load_facts(SAMPLES / "director-grant-2026-board.yaml").facts
    assert [d.model_dump() for d in odd.directors] == [d.model_dump() for d in board.directors]
