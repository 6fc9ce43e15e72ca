"""The fact model checks form, not policy; round-trips; and the JSON Schema accepts every sample."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import jsonschema
import pytest
from pydantic import ValidationError
from ruamel.yaml import YAML

from docgen.api import json_schema
from docgen.core.errors import LoadError
from docgen.core.kind_facts import KindFacts
from docgen.kinds import all_kinds
from docgen.kinds.director_rsu.facts import DirectorGrantFacts
from docgen.kinds.rrp.facts import RRPPlanYearFacts
from docgen.load import load_facts

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_FILES = sorted((ROOT / "samples").glob("*.yaml")) + sorted(
    (ROOT / "samples" / "problems").glob("*.yaml")
)


def _edit(samples: Path, tmp_path: Path, name: str, old: str, new: str) -> Path:
    text = (samples / name).read_text()
    assert old in text, old
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1))
    return path


@pytest.mark.parametrize("percent", ["7.5", "80", "0", "100"])
def test_policy_is_not_form_percent_loads(samples, tmp_path, percent):
    """A 7.5% or 80% deferral is the checker's business: the model accepts it exactly."""
    path = _edit(samples, tmp_path, "rrp-2026.yaml", "percent: 10,", f"percent: {percent},")
    facts = load_facts(path).facts
    assert facts.participants[0].elections[0].percent == Decimal(percent)


def test_money_is_decimal_never_float(samples):
    facts = load_facts(samples / "director-grant-2026.yaml").facts
    assert facts.grant.fair_market_value == Decimal("45.10")
    assert isinstance(facts.grant.fair_market_value, Decimal)


def test_float_money_keeps_the_digits_written(samples, tmp_path):
    path = _edit(samples, tmp_path, "director-grant-2026.yaml", '"45.10"', "45.1")
    assert load_facts(path).facts.grant.fair_market_value == Decimal("45.1")


def test_models_are_frozen(samples):
    facts = load_facts(samples / "director-grant-2026.yaml").facts
    with pytest.raises(ValidationError):
        facts.grant.grant_date = None  # type: ignore[misc]


def test_plan_defaults_are_the_2017_restatement():
    facts = RRPPlanYearFacts.model_validate(
        {
            "kind": "rrp-plan-year",
            "company": {"name": "X"},
            "plan": {"name": "X Plan"},
            "plan_year": 2026,
        }
    )
    assert facts.plan.max_deferral_percent == 75
    assert facts.plan.match_rate_percent == 100
    assert facts.plan.match_cap_percent == 6
    assert facts.plan.compensation_limit is None


@pytest.mark.parametrize("sample", ["director-grant-2026.yaml", "rrp-2026.yaml"])
def test_round_trip_python_and_json(samples, sample):
    facts = load_facts(samples / sample).facts
    model = type(facts)
    assert model.model_validate(facts.model_dump()) == facts
    assert model.model_validate_json(facts.model_dump_json()) == facts


def test_json_facts_file_loads_like_yaml(samples, tmp_path):
    facts = load_facts(samples / "rrp-2026.yaml").facts
    path = tmp_path / "rrp.json"
    path.write_text(facts.model_dump_json(indent=2))
    again = load_facts(path)
    assert again.facts == facts
    lines = path.read_text().splitlines()
    for fact, text in [
        ("participants[3].elections[0].made_on", '"made_on": "2023-12-01"'),
        ("participants[27].payments[0].amount", '"amount": "61250.00"'),
        ("plan_year", '"plan_year": 2026'),
    ]:
        assert text in lines[again.source.line_of(fact) - 1], fact


def test_roster_and_inline_directors_combine(samples):
    loaded = load_facts(samples / "director-grant-2026-roster.yaml")
    assert [d.id for d in loaded.facts.directors] == ["kpatel", "hmueller", "bcole"]
    assert loaded.facts.directors[1].elections[0].grant_id == "2026-annual"
    # hmueller's address is one cell on two lines (Alt+Enter in Excel): bcole's row is line 5.
    assert loaded.facts.directors[1].address == ["8 Elm Street", "Alexandria VA 22314"]
    assert loaded.facts.directors[0].address == ["12 Grove Avenue", "Richmond VA 23220"]
    file, line = loaded.source.locate("directors[2].first_eligible_on")
    assert file.endswith("roster.csv") and line == 5


def test_lines_point_at_the_fact(samples):
    loaded = load_facts(samples / "director-grant-2026.yaml")
    lines = (samples / "director-grant-2026.yaml").read_text().splitlines()
    line = loaded.source.line_of("directors[2].elections[0].filed_on")
    assert lines[line - 1].strip().startswith("filed_on: 2026-06-01")


@pytest.fixture(scope="module")
def schema():
    return json_schema()


@pytest.mark.parametrize("sample", SAMPLE_FILES, ids=[p.name for p in SAMPLE_FILES])
def test_json_schema_validates_every_sample(schema, sample):
    data = YAML(typ="safe", pure=True).load(sample)
    jsonschema.validate(json.loads(json.dumps(data, default=str)), schema)


def test_json_schema_rejects_unknown_keys(schema):
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(
            {
                "kind": "rrp-plan-year",
                "company": {"name": "X"},
                "plan": {"name": "X Plan"},
                "plan_year": 2026,
                "typo": 1,
            },
            schema,
        )


def test_schema_command_prints_both_kinds(cli):
    result = cli("schema")
    assert result.exit_code == 0
    printed = json.loads(result.stdout)
    assert {"DirectorGrantFacts", "RRPPlanYearFacts"} <= set(printed["$defs"])


def test_load_error_is_a_value_error(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("kind: nope\n")
    with pytest.raises(ValueError):
        load_facts(path)
    with pytest.raises(LoadError):
        load_facts(path)


def test_validate_sample_succeeds(cli, samples):
    result = cli("validate", samples / "director-grant-2026.yaml")
    assert result.exit_code == 0
    assert "ok (director-rsu-grant, 10 directors)" in result.stdout


def test_models_listed_kinds():
    assert DirectorGrantFacts.model_fields["kind"].annotation.__args__ == ("director-rsu-grant",)


SHARED = ("clause_approvals", "templates_dir", "columns", "sending")


@pytest.mark.parametrize("kind", all_kinds(), ids=lambda kind: kind.name)
def test_every_kind_takes_the_shared_fields_from_one_base_model(kind):
    """kind, company, clause_approvals, templates_dir, columns and the retired field are
    KindFacts'; a
    kind's model declares only its own fields (and narrows kind and company)."""
    assert issubclass(kind.model, KindFacts)
    assert not set(SHARED) & set(vars(kind.model).get("__annotations__", {}))
    for name in SHARED:
        assert kind.model.model_fields[name].description == KindFacts.model_fields[name].description
    assert kind.retired_fields == {
        "drafted_clauses_approved_by": KindFacts.retired_fields["drafted_clauses_approved_by"]
    }


@pytest.mark.parametrize("kind", all_kinds(), ids=lambda kind: kind.name)
def test_the_schema_lists_a_kinds_fields_as_the_kind_orders_them(schema, kind):
    """pydantic puts the base model's fields first; the schema, the reference and a load error's
    "Allowed here" list them as each kind reads: its terms, the shared fields, then its people."""
    names = kind.model.documented_fields()
    assert sorted(names) == sorted(kind.model.model_fields)
    assert names[:2] == ["kind", "company"]
    at = names.index(kind.model.shared_fields_before)
    assert names[at - len(SHARED) : at] == list(SHARED)
    assert kind.roster is not None and kind.model.shared_fields_before == kind.roster.field
    assert list(schema["$defs"][kind.model.__name__]["properties"]) == names


def test_an_unknown_top_level_field_lists_the_allowed_ones_in_the_kinds_order(samples, tmp_path):
    path = _edit(samples, tmp_path, "rrp-2026.yaml", "plan_year:", "plan_yaer: 2026\nplan_year:")
    with pytest.raises(LoadError) as refused:
        load_facts(path)
    assert refused.value.problems[0].fix == (
        "Did you mean plan_year? Allowed here: kind, company, plan, plan_year, "
        "retirement_contribution_percent, payroll, clause_approvals, templates_dir, columns, "
        "sending, "
        "participants_csv, "
        "elections_csv, beneficiaries_csv, allocations_csv, participants."
    )


def test_fact_file_reference_is_current():
    """docs/fact-files.md is generated from the model; regenerate it when the model changes."""
    import importlib.util

    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location(
        "fact_reference", root / "tools" / "fact_reference.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert (root / "docs" / "fact-files.md").read_text() == module.render(), (
        "run: .venv/bin/python tools/fact_reference.py"
    )


# ------------------------------------------------------------ identity is never defaulted


@pytest.mark.parametrize(
    ("sample", "old", "field"),
    [
        ("director-grant-2026.yaml", "  name: CarMax, Inc.                      #", "company.name"),
        ("rrp-2026.yaml", "  name: CarMax, Inc.                     #", "company.name"),
        ("rrp-2026.yaml", "  name: CarMax, Inc. Retirement Restoration Plan\n", "plan.name"),
        ("director-grant-2026.yaml", "stock_plan: CarMax", "stock_plan"),
    ],
)
def test_a_facts_file_without_its_company_or_plan_name_is_refused(
    cli, samples, tmp_path, sample, old, field
):
    text = (samples / sample).read_text()
    assert old in text
    path = tmp_path / sample
    path.write_text(text.replace(old, "  # removed:" if old.startswith("  ") else "# stock_plan:"))
    result = cli("check", path, "--as-of", "2026-06-01")
    assert result.exit_code == 2
    assert f": {field}: required field is missing." in result.stderr
    assert "docgen never fills in another company's" in result.stderr


def test_the_report_names_each_plan_term_taken_by_default(cli, tmp_path):
    path = tmp_path / "rrp.yaml"
    path.write_text(
        "kind: rrp-plan-year\ncompany: {name: Example Co.}\n"
        "plan: {name: Example Co. Retirement Restoration Plan, max_deferral_percent: 50}\n"
        "plan_year: 2026\nparticipants: []\n"
    )
    report = json.loads(cli("check", path, "--as-of", "2025-12-01", "--format", "json").stdout)
    defaulted = {term["path"]: term for term in report["defaulted_terms"]}
    assert "plan.max_deferral_percent" not in defaulted  # the file sets it
    assert defaulted["plan.match_cap_percent"]["value"] == "6"
    assert "Section 3.04" in defaulted["plan.match_cap_percent"]["source"]
    assert defaulted["company.publicly_traded"]["value"] == "true"
    text = cli("check", path, "--as-of", "2025-12-01").stdout
    assert "Taken by default (not set in the facts file): plan.match_rate_percent = 100" in text
    html = cli("check", path, "--as-of", "2025-12-01", "--format", "html").stdout
    assert "Terms taken by default" in html and "<code>plan.retirement_age</code>" in html


def test_a_fact_path_is_written_from_its_names_and_indexes():
    from docgen.core.model import fact_path

    assert (
        fact_path("directors", 2, "elections", 0, "filed_on")
        == "directors[2].elections[0].filed_on"
    )
    assert fact_path("elections", 3) == "elections[3]"
    assert fact_path("participants", 1, "termination.on") == "participants[1].termination.on"
