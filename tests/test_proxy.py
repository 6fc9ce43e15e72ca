"""`docgen proxy`: the Director Compensation table's stock award figures (Regulation S-K Item
402(k)), pinned by hand for the sample cycle and an earlier one, through the command line."""

from __future__ import annotations

import csv
import html.parser
import io
from datetime import date
from pathlib import Path

import pytest

from docgen.core.awards import fiscal_year, whole_dollars

FIXTURES = Path(__file__).parent / "fixtures" / "proxy"
EARLIER = FIXTURES / "director-grant-2025.yaml"


def table(text: str) -> dict[str, dict[str, str]]:
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows[-1]["name"] == "notes"
    return {row["director_id"]: row for row in rows[:-1]}


def test_the_sample_cycles_figures_pinned_by_hand(cli, samples):
    """The sample grant (2026-06-23, $45.10 a share) falls in the fiscal year ending 2027-02-28
    (2026-03-01 through 2027-02-28) and vests 2027-06-23, after it:
    - a full grant: 2,450 x $45.10 = $110,495.00 -> $110,495; 2,450 units outstanding;
    - Aisha Khan's pro-rated grant: 1,225 x $45.10 = $55,247.50 -> $55,248 (half a dollar up);
      1,225 units outstanding.
    No dividends are on record, so no dividend-equivalent units."""
    result = cli("proxy", samples / "director-grant-2026.yaml", "--fiscal-year-end", "2027-02-28")
    assert result.exit_code == 0, result.output
    rows = table(result.stdout)
    assert len(rows) == 10
    assert rows["jsmith"]["stock_awards_usd"] == "110495"
    assert rows["jsmith"]["stock_awards_outstanding_at_fiscal_year_end"] == "2450.0000"
    assert rows["akhan"]["stock_awards_usd"] == "55248"
    assert "1,225 units x $45.10 = $55,247.50" in rows["akhan"]["awards_in_fiscal_year"]
    assert rows["akhan"]["stock_awards_outstanding_at_fiscal_year_end"] == "1225.0000"
    notes = result.stdout.splitlines()[-1]
    assert "2026-03-01 through 2027-02-28" in notes
    assert "half a dollar up" in notes


def test_two_cycles_one_row_per_director(cli, samples):
    """With the 2025 cycle (2025-06-24, $40.25, vesting on the second anniversary, 2027-06-24):
    - its grant is before the fiscal year (2026-03-01 .. 2027-02-28): no Stock Awards from it;
    - Jane Smith's 1,000 units are unvested at 2027-02-28, with the dividend of 2026-01-15
      ($0.50 a share at a $42.00 Fair Market Value): 1,000 x 0.50 / 42 = 11.90476 -> 11.9048
      units (Notice E); the dividend of 2027-03-15 is after the year-end. Outstanding:
      1,011.9048 + 2,450 (2026) = 3,461.9048; Stock Awards $110,495 (2026 only).
    - RGarcia (an id differing only in case) is Roberto García's row: 999 x 0.50 / 42 =
      11.892857 -> 11.8929; 1,010.8929 + 2,450 = 3,460.8929; the two names are noted.
    - Ola Oldtimer separated 2026-01-31, before the Vesting Date: forfeited before the year-end
      and nothing granted in the year, so no row."""
    result = cli(
        "proxy",
        EARLIER,
        samples / "director-grant-2026.yaml",
        "--fiscal-year-end",
        "2027-02-28",
    )
    assert result.exit_code == 0, result.output
    rows = table(result.stdout)
    assert "oldtimer" not in rows
    smith = rows["jsmith"]
    assert smith["stock_awards_usd"] == "110495"
    assert smith["stock_awards_outstanding_at_fiscal_year_end"] == "3461.9048"
    assert "2025-annual: 1011.9048 units" in smith["outstanding_awards"]
    assert "11.9048 dividend-equivalent units" in smith["outstanding_awards"]
    assert "2025-annual" not in smith["awards_in_fiscal_year"]
    garcia = rows["rgarcia"]
    assert garcia["stock_awards_outstanding_at_fiscal_year_end"] == "3460.8929"
    assert garcia["name"] == "Roberto García"
    assert "in different cycles" in garcia["notes"]


def test_a_year_end_after_vesting_counts_vested_units_not_yet_settled(cli, samples):
    """Fiscal year ending 2027-06-30 (2026-07-01 .. 2027-06-30): nothing granted in the year. The
    2026 grant vested 2027-06-23 and the 2025 grant 2027-06-24, before the year-end, and no
    delivery is recorded: the units are vested but not settled, still outstanding stock awards
    (Item 402(k), Instruction to (2)(iii) and (iv); DESIGN.md A27), in the footnote's second
    part. Worked by hand (Notice E, four places, half up) for Jane Q. Smith's 2025 units:
    1,000 x 0.50 / 42.00 = 11.9048 (2026-01-15); 1,011.9048 x 0.50 / 44.00 = 11.49892 -> 11.4989
    (2027-03-15); 1,023.4037 vested but deferred, with the 2026 grant's 2,450: 3,473.4037, none
    unvested. The earlier reading counted none of them (an empty table)."""
    result = cli(
        "proxy", EARLIER, samples / "director-grant-2026.yaml", "--fiscal-year-end", "2027-06-30"
    )
    assert result.exit_code == 0, result.output
    rows = table(result.stdout)
    smith = rows["jsmith"]
    assert smith["stock_awards_usd"] == "0"
    assert smith["unvested_units_at_fiscal_year_end"] == "0.0000"
    assert smith["vested_deferred_units_at_fiscal_year_end"] == "3473.4037"
    assert smith["stock_awards_outstanding_at_fiscal_year_end"] == "3473.4037"
    assert "2025-annual: 1023.4037 units (vested on 2027-06-24" in smith["outstanding_awards"]
    assert rows["akhan"]["vested_deferred_units_at_fiscal_year_end"] == "1225.0000"
    assert "oldtimer" not in rows  # forfeited 2026-01-31: nothing outstanding


def test_settled_units_are_not_outstanding(cli, samples, tmp_path):
    """Aisha Khan's 1,225 units vested 2027-06-23; delivered 2027-06-30 (on the year-end) they
    are settled by then and leave the footnote; delivered 2027-07-01 they are still in it."""
    text = (samples / "director-grant-2026.yaml").read_text(encoding="utf-8")
    anchor = "    name: Aisha Khan\n"
    assert text.count(anchor) == 1
    for delivered, expected in (("2027-06-30", None), ("2027-07-01", "1225.0000")):
        facts = tmp_path / f"{delivered}.yaml"
        facts.write_text(
            text.replace(anchor, f"{anchor}    settlement: {{delivered_on: {delivered}}}\n"),
            encoding="utf-8",
        )
        result = cli("proxy", facts, "--fiscal-year-end", "2027-06-30")
        assert result.exit_code == 0, result.output
        rows = table(result.stdout)
        if expected is None:
            assert "akhan" not in rows
        else:
            assert rows["akhan"]["vested_deferred_units_at_fiscal_year_end"] == expected


def test_html_lists_each_award_and_the_notes(cli, samples, tmp_path):
    target = tmp_path / "proxy.html"
    result = cli(
        "proxy",
        EARLIER,
        samples / "director-grant-2026.yaml",
        "--fiscal-year-end",
        "2027-02-28",
        "--format",
        "html",
        "-o",
        target,
    )
    assert result.exit_code == 0, result.output
    text = target.read_text(encoding="utf-8")
    cells: list[str] = []

    class Cells(html.parser.HTMLParser):
        def handle_data(self, data: str) -> None:
            cells.append(data)

    Cells().feed(text)
    joined = "\n".join(cells)
    assert "CarMax, Inc.: Director Compensation" in joined
    assert "110,495" in joined
    assert "3461.9048" in joined
    assert "Mary O'Brien" in joined  # escaped in the file, read back as written
    assert "half a dollar up" in joined
    again = cli(
        "proxy",
        EARLIER,
        samples / "director-grant-2026.yaml",
        "--fiscal-year-end",
        "2027-02-28",
        "--format",
        "html",
    )
    assert again.stdout == text  # the same facts give the same bytes


def test_bad_inputs_are_refused_with_exit_2(cli, samples, tmp_path):
    target = tmp_path / "p.csv"
    result = cli(
        "proxy",
        EARLIER,
        EARLIER,
        samples / "rrp-2026.yaml",
        "--fiscal-year-end",
        "2027-02-28",
        "-o",
        target,
    )
    assert result.exit_code == 2
    assert "rrp-2026.yaml:" in result.stderr and "grants no stock awards" in result.stderr
    assert "cycle 2025-annual is also given" in result.stderr
    assert not target.exists()
    bad = cli("proxy", EARLIER, "--fiscal-year-end", "2027-02-30")
    assert bad.exit_code == 2
    assert "--fiscal-year-end: expected a date as YYYY-MM-DD" in bad.stderr


@pytest.mark.parametrize(
    ("end", "start"),
    [
        (date(2027, 2, 28), date(2026, 3, 1)),  # a month end: twelve whole months
        (date(2028, 2, 29), date(2027, 3, 1)),  # a leap day year-end
        (date(2029, 2, 28), date(2028, 3, 1)),  # not the leap day 2028-02-29
        (date(2026, 12, 31), date(2026, 1, 1)),
        (date(2026, 6, 15), date(2025, 6, 16)),  # not a month end: the day after a year before
        (date(2029, 2, 27), date(2028, 2, 28)),
    ],
)
def test_the_fiscal_year_on_its_boundaries(end, start):
    year = fiscal_year(end)
    assert year.start == start
    assert start in year and end in year
    assert date.fromordinal(start.toordinal() - 1) not in year
    assert date.fromordinal(end.toordinal() + 1) not in year


def test_grant_dates_on_the_fiscal_years_first_and_last_day(cli, tmp_path):
    """A grant on the first day of the year is in it; one on the day after the year-end is not
    (and is not outstanding at the year-end)."""
    text = EARLIER.read_text(encoding="utf-8")
    first = tmp_path / "first.yaml"
    first.write_text(text.replace("grant_date: 2025-06-24", "grant_date: 2026-03-01"))
    late = tmp_path / "late.yaml"
    late.write_text(
        text.replace("grant_date: 2025-06-24", "grant_date: 2027-03-01").replace(
            "id: 2025-annual", "id: 2027-late"
        )
    )
    result = cli("proxy", first, late, "--fiscal-year-end", "2027-02-28")
    assert result.exit_code == 0, result.output
    rows = table(result.stdout)
    # 1,000 x $40.25 = $40,250.00; 999 x $40.25 = $40,209.75 -> $40,210
    assert rows["jsmith"]["stock_awards_usd"] == "40250"
    assert rows["RGarcia"]["stock_awards_usd"] == "40210"  # as its last cycle writes the id
    assert "2027-late" not in rows["jsmith"]["awards_in_fiscal_year"]
    assert "2027-late: 0.0000 units (granted 2027-03-01" in rows["jsmith"]["outstanding_awards"]


def test_whole_dollars_rounds_half_up():
    from decimal import Decimal

    assert whole_dollars(Decimal("55247.50")) == 55248
    assert whole_dollars(Decimal("55247.49")) == 55247
    assert whole_dollars(Decimal("0.50")) == 1
