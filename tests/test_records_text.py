"""A CSV of filings edited as text (A20): rows appended and removed, every other byte as written
(docgen.intake.roster_text), and a filing's item as the cells of its row and back
(docgen.core.record_rows)."""

from __future__ import annotations

import csv
import io
from datetime import date
from decimal import Decimal

import pytest

from docgen.core.record_rows import NoColumn, cells_of, item_of
from docgen.core.roster import read_rows
from docgen.intake.roster_text import RosterText
from docgen.kinds.rrp.records import ALLOCATIONS, ELECTIONS


def test_an_appended_row_ends_as_the_file_s_lines_do():
    crlf = RosterText("participant_id,fund,percent\r\ne1,Bond Index Fund,100\r\n")
    crlf.append({"participant_id": "e2", "fund": "Bond Index Fund", "percent": "50"})
    assert crlf.result() == (
        "participant_id,fund,percent\r\ne1,Bond Index Fund,100\r\ne2,Bond Index Fund,50\r\n"
    )
    unended = RosterText("participant_id,fund,percent\ne1,Bond Index Fund,100")
    unended.append({"participant_id": "e2", "fund": "S&P 500 Index Fund", "percent": "50"})
    assert unended.result() == (
        "participant_id,fund,percent\ne1,Bond Index Fund,100\ne2,S&P 500 Index Fund,50\n"
    )


def test_a_quote_all_export_gets_quoted_rows_and_a_cell_with_a_comma_is_quoted():
    text = '"participant_id","name","relationship","percent"\r\n"e1","Lee, Sam","spouse","100"\r\n'
    quoted = RosterText(text)
    quoted.append({"participant_id": "e2", "name": 'Ann "Nan" Ray', "percent": "100"})
    assert quoted.result() == text + '"e2","Ann ""Nan"" Ray","","100"\r\n'
    plain = RosterText("participant_id,name,percent\n")
    plain.append({"participant_id": "e2", "name": "Lee, Sam", "percent": "100"})
    assert plain.result() == 'participant_id,name,percent\ne2,"Lee, Sam",100\n'


def test_removing_a_row_takes_its_whole_record_even_across_lines():
    text = (
        'participant_id,name,percent\r\ne1,"Sam\r\nLee",50\r\ne2,Ann Ray,100\r\ne1,Pat Lee,50\r\n'
    )
    rows = RosterText(text)
    assert rows.rows_of("participant_id", "e1") == [1, 3]
    for number in rows.rows_of("participant_id", "e1"):
        rows.remove(number)
    rows.append({"participant_id": "e1", "name": "Jo Lee", "percent": "100"})
    assert rows.result() == "participant_id,name,percent\r\ne2,Ann Ray,100\r\ne1,Jo Lee,100\r\n"
    with pytest.raises(Exception, match="header"):
        rows.remove(0)


def test_a_column_the_file_lacks_is_added_at_the_end_of_its_header():
    rows = RosterText(
        "participant_id,plan_year,kind,percent,made_on\ne1,2026,salary,5,2025-11-28\n"
    )
    rows.append(
        {
            "participant_id": "e1",
            "plan_year": "2026",
            "kind": "salary",
            "percent": "6",
            "made_on": "2025-12-01",
            "form_sha256": "ab" * 32,
        }
    )
    assert rows.result() == (
        "participant_id,plan_year,kind,percent,made_on,form_sha256\n"
        "e1,2026,salary,5,2025-11-28\n"
        f"e1,2026,salary,6,2025-12-01,{'ab' * 32}\n"
    )


def test_an_election_s_cells_read_back_as_the_same_election():
    election = {
        "kind": "performance_based",
        "plan_year": 2026,
        "percent": Decimal("40"),
        "made_on": date(2025, 11, 14),
        "performance_period": {"start": date(2026, 1, 1), "end": date(2026, 12, 31)},
    }
    cells = cells_of(ELECTIONS, "e1009", election)
    assert cells == {
        "participant_id": "e1009",
        "plan_year": "2026",
        "kind": "performance_based",
        "percent": "40",
        "made_on": "2025-11-14",
        "performance_start": "2026-01-01",
        "performance_end": "2026-12-31",
    }
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(ELECTIONS.column_names))
    writer.writeheader()
    writer.writerow(cells)
    (row,), problems = read_rows(out.getvalue(), "e.csv", ELECTIONS.columns, "elections_csv", 0)
    assert problems == []
    item, lines = item_of(ELECTIONS, row)
    assert item["performance_period"] == {"start": "2026-01-01", "end": "2026-12-31"}
    column = list(ELECTIONS.column_names).index("performance_end") + 1
    assert lines[("performance_period", "end")] == (2, column)
    with pytest.raises(NoColumn, match="printed_name"):
        cells_of(ELECTIONS, "e1", {**election, "printed_name": "Pat One"})
    assert cells_of(ALLOCATIONS, "e1", {"fund": "Bond Index Fund", "percent": Decimal("12.5")}) == {
        "participant_id": "e1",
        "fund": "Bond Index Fund",
        "percent": "12.5",
    }
