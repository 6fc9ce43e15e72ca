"""Dated IRS parameters: strict files, every value sourced, lookups by year, no silent reuse."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from docgen.core import parameters
from docgen.core.errors import ParameterError
from docgen.core.resources import parameters_dir
from docgen.kinds.rrp.terms import compensation_limit

NAMES = ["irs_401a17_compensation_limit"]
ROOT = Path(__file__).resolve().parents[1]
REFERENCE = Path(__file__).resolve().parents[1] / "docs" / "reference" / "irs-limits.md"


def _reference_table() -> dict[int, list[int]]:
    rows = {}
    for line in REFERENCE.read_text().splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells and cells[0].isdigit():
            rows[int(cells[0])] = [int(c.replace(",", "")) for c in cells[1:5]]
    return rows


def test_values_match_the_reference_table():
    table = _reference_table()
    assert set(table) == set(range(2009, 2027))
    for year, figures in table.items():
        assert parameters.value("irs_401a17_compensation_limit", year) == figures[0], year


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


@pytest.mark.parametrize("path", sorted(parameters_dir().glob("*.yaml")), ids=lambda p: p.stem)
def test_every_parameter_file_has_a_reader(path):
    """A figure no code reads is a figure nobody checks: it has a reader, or it goes."""
    readers = [
        source
        for source in [*ROOT.glob("docgen/**/*.py"), *ROOT.glob("checks/*.py")]
        if f'"{path.stem}"' in source.read_text(encoding="utf-8")
    ]
    assert readers, f"{path.name}: no module reads it"


def test_facts_limit_overrides_for_unpublished_year(samples, tmp_path):
    from docgen.load import load_facts

    text = (samples / "rrp-2026.yaml").read_text()
    path = tmp_path / "rrp-2027.yaml"
    path.write_text(
        text.replace("plan_year: 2026 ", "plan_year: 2027 ").replace(
            "compensation_limit: null", 'compensation_limit: "370000"'
        )
    )
    facts = load_facts(path).facts
    assert compensation_limit(facts) == Decimal(370000)
