"""`docgen proxy`: every column of the Director Compensation table (Regulation S-K Item 402(k)(2):
(ii) fees earned or paid in cash, (iii) stock awards, (iv) option awards, (vii) all other
compensation, (viii) total), the figures besides stock awards from `director_compensation`, and a
figure not given shown as missing, never as zero (DESIGN.md A27). Worked by hand below."""

from __future__ import annotations

import html.parser
from pathlib import Path

from tests.test_proxy import table

COMPENSATION = {
    "jsmith": (
        "    director_compensation:\n"
        '      - {fiscal_year_end: 2027-02-28, fees_earned_or_paid_in_cash: "95000", '
        'all_other_compensation: "1250.50", source: FY2027 fee register}\n'
    ),
    "rgarcia": (
        "    director_compensation:\n"
        '      - {fiscal_year_end: 2027-02-28, fees_earned_or_paid_in_cash: "80000", '
        'option_awards: "12000", source: FY2027 fee register}\n'
        '      - {fiscal_year_end: 2026-02-28, fees_earned_or_paid_in_cash: "1", '
        'all_other_compensation: "1", source: the year before}\n'
    ),
}


def with_compensation(samples: Path, tmp_path: Path) -> Path:
    text = (samples / "director-grant-2026.yaml").read_text(encoding="utf-8")
    for name, block in (
        ("Jane Q. Smith", COMPENSATION["jsmith"]),
        ("Roberto García", COMPENSATION["rgarcia"]),
    ):
        anchor = f"    name: {name}"
        start = text.index(anchor)
        end = text.index("\n", start) + 1
        text = text[:end] + block + text[end:]
    path = tmp_path / "director-grant-2026.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_sample_as_it_stands_every_column(cli, samples):
    """The sample gives no fees or other compensation: those cells and the total are empty
    (missing), never 0; no director has option awards recorded (the column is empty). Stock
    awards as tests/test_proxy.py works them: 2,450 x $45.10 = $110,495."""
    result = cli("proxy", samples / "director-grant-2026.yaml", "--fiscal-year-end", "2027-02-28")
    assert result.exit_code == 0, result.output
    smith = table(result.stdout)["jsmith"]
    assert {
        k: smith[k]
        for k in (
            "fees_earned_or_paid_in_cash_usd",
            "stock_awards_usd",
            "option_awards_usd",
            "all_other_compensation_usd",
            "total_usd",
            "unvested_units_at_fiscal_year_end",
            "vested_deferred_units_at_fiscal_year_end",
            "stock_awards_outstanding_at_fiscal_year_end",
            "compensation_source",
        )
    } == {
        "fees_earned_or_paid_in_cash_usd": "",
        "stock_awards_usd": "110495",
        "option_awards_usd": "",
        "all_other_compensation_usd": "",
        "total_usd": "",
        "unvested_units_at_fiscal_year_end": "2450.0000",
        "vested_deferred_units_at_fiscal_year_end": "0.0000",
        "stock_awards_outstanding_at_fiscal_year_end": "2450.0000",
        "compensation_source": "",
    }


def test_every_column_with_the_figures_given(cli, samples, tmp_path):
    """Jane Q. Smith: fees $95,000 + stock awards $110,495 + other $1,250.50 -> $1,251 (half a
    dollar up) = $206,746; an Option Awards column appears (Roberto García has $12,000 recorded)
    and hers is not given, so her total is not given either. Roberto García: $80,000 + $110,495
    + $12,000 options, other compensation not given: total not given. The other year's figures
    (fiscal year ending 2026-02-28) are not this table's."""
    facts = with_compensation(samples, tmp_path)
    result = cli("proxy", facts, "--fiscal-year-end", "2027-02-28")
    assert result.exit_code == 0, result.output
    rows = table(result.stdout)
    smith, garcia = rows["jsmith"], rows["rgarcia"]
    assert (smith["fees_earned_or_paid_in_cash_usd"], smith["all_other_compensation_usd"]) == (
        "95000",
        "1251",
    )
    assert (smith["option_awards_usd"], smith["total_usd"]) == ("", "")
    assert smith["compensation_source"] == "FY2027 fee register"
    assert (garcia["fees_earned_or_paid_in_cash_usd"], garcia["option_awards_usd"]) == (
        "80000",
        "12000",
    )
    assert (garcia["all_other_compensation_usd"], garcia["total_usd"]) == ("", "")


def test_a_total_when_every_column_is_given(cli, samples, tmp_path):
    """Without an Option Awards column (no director has one recorded), Jane Q. Smith's total is
    $95,000 + $110,495 + $1,251 = $206,746 (Item 402(k)(2)(viii))."""
    facts = with_compensation(samples, tmp_path)
    text = facts.read_text(encoding="utf-8").replace('option_awards: "12000", ', "")
    facts.write_text(text, encoding="utf-8")
    result = cli("proxy", facts, "--fiscal-year-end", "2027-02-28", "--format", "html")
    assert result.exit_code == 0, result.output
    cells: list[str] = []

    class Cells(html.parser.HTMLParser):
        def handle_data(self, data: str) -> None:
            cells.append(data.strip())

    Cells().feed(result.stdout)
    assert "Option Awards ($)" not in cells
    start = cells.index("Jane Q. Smith")
    assert cells[start + 1 : start + 6] == [
        "Source: FY2027 fee register",
        "95,000",
        "110,495",
        "1,251",
        "206,746",
    ]
    csv_rows = table(cli("proxy", facts, "--fiscal-year-end", "2027-02-28").stdout)
    assert csv_rows["jsmith"]["total_usd"] == "206746"
    # A director with no figures given: "not given", never 0.
    start = cells.index("Mary O'Brien")
    assert cells[start + 1 : start + 5] == ["not given", "110,495", "not given", "not given"]


def test_two_cycles_giving_different_figures_are_refused(cli, samples, tmp_path):
    first = with_compensation(samples, tmp_path)
    other_dir = tmp_path / "other"
    other_dir.mkdir()
    text = first.read_text(encoding="utf-8").replace('"95000"', '"96000"')
    text = text.replace("id: 2026-annual", "id: 2026-special", 1)
    second = other_dir / "special.yaml"
    second.write_text(text, encoding="utf-8")
    result = cli("proxy", first, second, "--fiscal-year-end", "2027-02-28")
    assert result.exit_code == 2
    assert (
        "Jane Q. Smith's fees, option awards or other compensation for the fiscal year "
        "differ" in " ".join(result.output.split())
    )
