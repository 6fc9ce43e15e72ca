"""`batch --only` at a later as-of judges the packets it issues; every other packet keeps the
verdict of its own issue in the stage's check report (DESIGN.md, "Stages and issued folders"; A20).
Through the CLI: the mid-year re-issue for one new hire that rewrote the report with an
RRP-FORM-ISSUED-AFTER-DEADLINE error for every December form."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
REPORT = Path("rrp-2026") / "enrollment" / "check-report.json"

NEW_HIRE = """\
  - id: {id}
    name: {name}
    eligible_employee: true
    compensation: "400000"
    hired_on: {day}
    first_eligible_on: {day}
    beneficiaries: [{{ name: Sam Haddad, relationship: spouse, percent: 100 }}]
    investments: {{ "Stable Value Fund": 100 }}
"""


def _facts(folder: Path, *hires: tuple[str, str, str]) -> Path:
    text = (ROOT / "samples" / "rrp-2026.yaml").read_text(encoding="utf-8")
    # e1001 without a beneficiary: a warning at the December issue, to see it kept as it was
    text = text.replace(
        "    beneficiaries: [{ name: Jamie Lee, relationship: child, percent: 100 }]"
        "   # Beneficiary designation\n",
        "",
        1,
    )
    added = "".join(NEW_HIRE.format(id=i, name=n, day=d) for i, n, d in hires)
    text = text.replace("participants:\n", "participants:\n" + added, 1)
    path = folder / "rrp-2026.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _report(out: Path) -> dict:
    return json.loads((out / REPORT).read_text(encoding="utf-8"))


def _of(report: dict, subject: str) -> list[dict]:
    return [f for f in report["findings"] if f["subject"] == subject]


@pytest.mark.slow
def test_only_at_a_later_as_of_keeps_the_earlier_packets_verdicts(cli, tmp_path):
    out = tmp_path / "out"
    facts = _facts(tmp_path)
    first = cli("batch", facts, "--out", out, "--as-of", "2025-12-01")
    assert first.exit_code == 0, first.output
    december = _report(out)
    kept_warning = _of(december, "e1001")
    assert [f["rule"] for f in kept_warning] == ["RRP-BENEFICIARY-MISSING"]
    assert december["summary"]["error"] == 0 and "judged_as_of" not in december

    # July: a new hire, first eligible July 1, has until July 31 (Plan 2.03(c)).
    _facts(tmp_path, ("n2001", "Noor Haddad", "2026-07-01"))
    july = cli("batch", facts, "--out", out, "--as-of", "2026-07-10", "--only", "n2001")
    assert july.exit_code == 0, july.output
    report = _report(out)
    assert report["as_of"] == "2026-07-10"
    assert not [f for f in report["findings"] if f["rule"] == "RRP-FORM-ISSUED-AFTER-DEADLINE"]
    assert report["summary"] == december["summary"]
    assert _of(report, "e1001") == kept_warning  # the December verdict, as it was written
    assert report["judged_as_of"]["e1001"] == "2025-12-01"
    assert report["judged_as_of"]["n2001"] == "2026-07-10"
    assert "not_issued" not in report
    manifest = json.loads((out / REPORT.parent / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["summary"]["error"] == 0
    assert cli("verify", out / REPORT.parent).exit_code == 0

    # August: another hire; the July packet keeps its July verdict, December's theirs.
    _facts(tmp_path, ("n2001", "Noor Haddad", "2026-07-01"), ("n2002", "Ari Cohen", "2026-08-03"))
    august = cli("batch", facts, "--out", out, "--as-of", "2026-08-20", "--only", "n2002")
    assert august.exit_code == 0, august.output
    report = _report(out)
    assert not [f for f in report["findings"] if f["rule"] == "RRP-FORM-ISSUED-AFTER-DEADLINE"]
    assert _of(report, "e1001") == kept_warning
    assert report["judged_as_of"]["e1001"] == "2025-12-01"
    assert report["judged_as_of"]["n2001"] == "2026-07-10"
    assert report["judged_as_of"]["n2002"] == "2026-08-20"


@pytest.mark.slow
def test_the_packet_issued_is_still_judged_as_of_its_own_issue(cli, tmp_path):
    """--only judges what it issues: a new hire's form issued after their own deadline is still
    refused, while the December packets stay as they were."""
    out = tmp_path / "out"
    facts = _facts(tmp_path)
    assert cli("batch", facts, "--out", out, "--as-of", "2025-12-01").exit_code == 0
    before = (out / REPORT).read_bytes()
    _facts(tmp_path, ("n2001", "Noor Haddad", "2026-07-01"))
    late = cli("batch", facts, "--out", out, "--as-of", "2026-08-03", "--only", "n2001")
    assert late.exit_code == 1, late.output
    assert "RRP-FORM-ISSUED-AFTER-DEADLINE" in late.output and "n2001" in late.output
    assert (out / REPORT).read_bytes() == before  # refused: nothing written


@pytest.mark.slow
def test_an_altered_report_is_judged_anew_and_says_so(cli, tmp_path):
    out = tmp_path / "out"
    facts = _facts(tmp_path)
    assert cli("batch", facts, "--out", out, "--as-of", "2025-12-01").exit_code == 0
    (out / REPORT).write_text("{}", encoding="utf-8")
    _facts(tmp_path, ("n2001", "Noor Haddad", "2026-07-01"))
    july = cli("batch", facts, "--out", out, "--as-of", "2026-07-10", "--only", "n2001")
    assert july.exit_code == 0, july.output
    assert "altered or unreadable" in july.output
    shutil.rmtree(out)


def test_every_rules_citation_reads_back_from_an_issued_report():
    from docgen.checker.rules import all_rules
    from docgen.core.citations import parse_citation

    citations = {citation for rule in all_rules() for citation in rule.citations}
    assert len(citations) > 20
    for citation in citations:
        assert parse_citation(str(citation)) == citation
