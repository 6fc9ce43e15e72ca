"""Dated IRS parameters: strict files, every value sourced, lookups by year, no silent reuse."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from docgen import parameters
from docgen.errors import ParameterError
from docgen.resources import parameters_dir

NAMES = [
    "irs_401a17_compensation_limit",
    "irs_415c_annual_additions_limit",
    "irs_416i_key_employee_officer_threshold",
    "irs_402g_elective_deferral_limit",
]
REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference" / "irs-limits.md"


def _reference_table() -> dict[int, list[int]]:
    rows = {}
    for line in REFERENCE.read_text().splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells and cells[0].isdigit():
            rows[int(cells[0])] = [int(c.replace(",", "")) for c in cells[1:5]]
    return rows


@pytest.mark.skipif(not REFERENCE.exists(), reason="shared/reference not beside the checkout")
@pytest.mark.parametrize("column", range(4))
def test_values_match_the_reference_table(column):
    table = _reference_table()
    assert set(table) == set(range(2009, 2027))
    for year, figures in table.items():
        assert parameters.value(NAMES[column], year) == figures[column], year


@pytest.mark.parametrize("name", NAMES)
def test_every_value_has_a_source(name):
    parameter = parameters.parameter(name)
    assert sorted(parameter.values) == list(range(2009, 2027))
    for year in parameter.values:
        reference = parameter.reference(year)
        assert reference.title and reference.href.startswith("https://")


def test_the_plan_and_design_pin_two_figures():
    assert parameters.value("irs_401a17_compensation_limit", 2016) == Decimal(265000)
    assert parameters.value("irs_401a17_compensation_limit", 2026) == Decimal(360000)


def test_a_year_without_a_figure_names_the_year():
    with pytest.raises(
        ParameterError, match="no published Code 401\\(a\\)\\(17\\) figure for 2027"
    ):
        parameters.value("irs_401a17_compensation_limit", 2027)


def test_a_misplaced_reference_key_is_an_error(tmp_path):
    (tmp_path / "limit.yaml").write_text(
        "description: d\ncitation: c\nunit: USD\nperiod: calendar year\nvalues:\n"
        "  2026:\n    value: 1\n  reference:\n    title: t\n    href: https://x\n"
    )
    with pytest.raises(ParameterError):
        parameters.all_parameters(tmp_path)


def test_an_unknown_key_in_a_value_is_an_error(tmp_path):
    (tmp_path / "limit.yaml").write_text(
        "description: d\ncitation: c\nunit: USD\nperiod: calendar year\nvalues:\n"
        "  2026:\n    value: 1\n    refrence: {title: t, href: 'https://x'}\n"
    )
    with pytest.raises(ParameterError, match="refrence"):
        parameters.all_parameters(tmp_path)


def test_the_shipped_folder_holds_only_these_files():
    assert sorted(p.stem for p in parameters_dir().glob("*.yaml")) == sorted(NAMES)


def test_facts_limit_overrides_for_unpublished_year(samples, tmp_path):
    from docgen.loader import load_facts

    text = (samples / "rrp-2026.yaml").read_text()
    path = tmp_path / "rrp-2027.yaml"
    path.write_text(
        text.replace("plan_year: 2026 ", "plan_year: 2027 ").replace(
            "compensation_limit: null", 'compensation_limit: "370000"'
        )
    )
    facts = load_facts(path).facts
    assert parameters.compensation_limit(facts) == Decimal(370000)
