"""A third kind of facts, defined under tests/toykind with no edit to docgen/, runs through
validate, check, batch, calendar and explain like the built-in ones."""

from __future__ import annotations

import json
import sys

import pytest

from docgen.core.rules import unregister_rules
from docgen.kinds import register_kind, unregister_kind
from docgen.render.templating import environment

TOY = """\
kind: toy-performance-share
company: Example Widgets, Inc.
award_id: 2026-ps
awarded_on: 2026-03-01
accept_by: {accept_by}
holders:
  - {{id: ada, name: Ada Lovelace, shares: 1200}}
  - {{id: alan, name: Alan Turing, shares: 800}}
"""


@pytest.fixture
def toy(tmp_path):
    from tests import toykind

    register_kind(toykind.KIND)
    environment.cache_clear()  # the template folders now include the toy kind's
    yield lambda accept_by="2026-03-31": _write(tmp_path, accept_by)
    unregister_kind(toykind.NAME)
    unregister_rules(toykind.NAME)
    sys.modules.pop("tests.toykind.rules", None)
    environment.cache_clear()


def _write(folder, accept_by):
    path = folder / "award.yaml"
    path.write_text(TOY.format(accept_by=accept_by))
    return path


def test_validate_names_the_new_kind(toy, cli):
    result = cli("validate", toy())
    assert result.exit_code == 0, result.output
    assert "ok (toy-performance-share, 2 holders)" in result.stdout


def test_check_runs_the_new_kinds_rule_both_ways(toy, cli):
    clean = cli("check", toy(), "--as-of", "2026-03-01", "--format", "json")
    assert clean.exit_code == 0 and json.loads(clean.stdout)["summary"]["error"] == 0
    late = cli("check", toy("2026-02-01"), "--as-of", "2026-03-01", "--format", "json")
    assert late.exit_code == 1
    assert [f["rule"] for f in json.loads(late.stdout)["findings"]] == ["TOY-ACCEPT-BEFORE-AWARD"]


def test_batch_issues_the_new_kinds_documents_and_verify_reads_them(toy, cli, tmp_path):
    out = tmp_path / "out"
    result = cli("batch", toy(), "--out", out, "--as-of", "2026-03-01", "--workers", "1")
    assert result.exit_code == 0, result.output
    folder = out / "toy-2026-ps" / "award"  # the kind's own stage has its own folder
    assert sorted(p.name for p in (folder / "ada").iterdir()) == [
        "toy-letter.docx",
        "toy-letter.pdf",
    ]
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["kind"] == "toy-performance-share"
    assert cli("verify", folder).exit_code == 0


def test_calendar_lists_the_new_kinds_windows(toy, cli):
    result = cli("calendar", toy(), "--format", "csv", "--as-of", "2026-03-01")
    assert result.exit_code == 0, result.output
    assert "ada,Ada Lovelace,Award Letter,accept,,2026-03-31" in result.stdout


def test_explain_shows_the_new_kinds_rule(toy, cli):
    result = cli("explain", "TOY-ACCEPT-BEFORE-AWARD")
    assert result.exit_code == 0, result.output
    assert "Acceptance deadline before the award date" in result.stdout


def test_the_new_kind_cites_its_own_authority_and_takes_it_away(toy, cli):
    from docgen.core.citations import Citation
    from tests import toykind

    assert str(toykind.AWARD_LETTER.cite("Section 1")) == "Award Letter Section 1"
    assert "Award Letter Section 1" in cli("explain", "TOY-ACCEPT-BEFORE-AWARD").stdout
    unregister_kind(toykind.NAME)
    with pytest.raises(ValueError, match="unknown authority 'Award Letter'"):
        Citation("Award Letter", "Section 1")
    register_kind(toykind.KIND)  # the fixture unregisters it again


def test_a_rule_from_a_module_no_kind_lists_is_refused():
    from docgen.core.rules import rule

    with pytest.raises(ValueError, match="no registered kind lists"):
        rule("TOY-STRAY", title="t", severity="error", cites=[], explanation="e")(lambda c: ())


def test_the_new_kind_has_the_shared_fields_without_declaring_them(toy, cli, tmp_path):
    """clause_approvals and templates_dir come from KindFacts, and so does the refusal of the
    first release's drafted_clauses_approved_by; the toy's company is plain text."""
    from docgen.load import load_facts

    path = toy()
    folder = tmp_path / "templates"
    folder.mkdir()
    path.write_text(path.read_text() + "clause_approvals: []\ntemplates_dir: templates\n")
    loaded = load_facts(path)
    assert loaded.facts.company == "Example Widgets, Inc."
    assert loaded.templates_override == folder.resolve()
    path.write_text(path.read_text() + 'drafted_clauses_approved_by: "A. Counsel"\n')
    refused = cli("validate", path)
    assert refused.exit_code == 2
    assert "drafted_clauses_approved_by: is a field of docgen's first release" in refused.stderr


def test_a_kind_without_a_capability_is_refused_by_its_command(toy, cli, tmp_path):
    """The toy kind subclasses Kind[ToyAward] and no capability protocol: each command that
    needs one refuses its file, naming the kinds that have it."""
    from docgen.kinds import ComputesPlan, DraftsFilings, ExportsOCF, GrantsStockAwards, RunsPayroll
    from tests import toykind

    for capability in (ComputesPlan, RunsPayroll, GrantsStockAwards, ExportsOCF, DraftsFilings):
        assert not isinstance(toykind.KIND, capability)
    path = toy()
    compute = cli("compute", path)
    assert compute.exit_code == 2
    assert "a file of kind toy-performance-share has no arithmetic to compute" in compute.stderr
    assert "director-rsu-grant or rrp-plan-year" in compute.stderr
    payroll = cli("payroll", path)
    assert payroll.exit_code == 2 and "rrp-plan-year" in payroll.stderr
    drafts = cli("section16", path, "--out", tmp_path, "--as-of", "2026-03-02")
    assert drafts.exit_code == 2 and "has no Section 16 filings to draft" in drafts.stderr
    # The proxy asks the kind before it reads a company: the toy kind's company is plain text.
    proxy = cli("proxy", path, "--fiscal-year-end", "2026-12-31")
    assert proxy.exit_code == 2, proxy.stderr
    assert "grants no stock awards for the proxy" in proxy.stderr
    assert "Traceback" not in proxy.stderr
