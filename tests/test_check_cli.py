"""`docgen check`, `docgen rules`, `docgen explain`: formats, exit codes, and what they import."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.approvals import approve_all

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "sample, as_of, stage",
    [
        # As of the last filing on record (June 22): an earlier day makes it RSU-ELECTION-FUTURE.
        ("director-grant-2026.yaml", "2026-06-22", "elections"),
        ("director-grant-2026.yaml", "2026-06-23", "grant"),
        ("director-grant-2026-roster.yaml", "2026-06-22", "elections"),
        ("rrp-2026.yaml", "2025-12-01", "enrollment"),
        ("rrp-2026-year.yaml", "2026-12-31", "year"),
    ],
)
def test_the_samples_have_no_error_findings(cli, samples, sample, as_of, stage):
    result = cli("check", samples / sample, "--as-of", as_of, "--stage", stage, "--format", "json")
    report = json.loads(result.stdout)
    assert report["summary"]["error"] == 0, report["findings"]
    assert result.exit_code == 0


def test_json_follows_the_contract(cli, samples):
    result = cli(
        "check",
        samples / "problems" / "director-late-and-partial.yaml",
        "--as-of",
        "2026-07-01",
        "--format",
        "json",
    )
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert {"facts", "as_of", "summary", "findings"} <= set(report)
    assert report["as_of"] == "2026-07-01"
    assert set(report["facts"]) >= {"file", "kind", "sha256"}
    assert report["facts"]["kind"] == "director-rsu-grant"
    assert set(report["summary"]) == {"error", "warning", "info"}
    assert report["summary"]["error"] == sum(f["severity"] == "error" for f in report["findings"])
    late = next(f for f in report["findings"] if f["rule"] == "RSU-ELECTION-LATE")
    assert {"rule", "severity", "subject", "path", "line", "message", "citations"} <= set(late)
    assert late["subject"] == "late"
    assert late["path"] == "directors[0].elections[0].filed_on"
    text = (samples / "problems" / "director-late-and-partial.yaml").read_text().splitlines()
    assert "filed_on: 2026-06-23" in text[late["line"] - 1]
    assert late["citations"] == ["Notice F.3", "Exhibit I"]


def test_findings_come_in_file_order(cli, samples):
    result = cli(
        "check",
        samples / "problems" / "director-late-and-partial.yaml",
        "--as-of",
        "2026-07-01",
        "--format",
        "json",
    )
    # Every error before any warning (issue 44); within each severity, the cycle's own findings
    # (the seed text's undefined references, for counsel) first, then each person in file order.
    findings = json.loads(result.stdout)["findings"]
    severities = [f["severity"] for f in findings]
    assert severities == sorted(severities, key=["error", "warning", "info"].index)
    order = ["2026-annual", "late", "half", "carryover", "insider", "early-pay", "second-thoughts"]
    for severity in set(severities):
        subjects = [f["subject"] for f in findings if f["severity"] == severity]
        assert subjects == sorted(subjects, key=order.index), severity


def test_text_groups_by_director_and_ends_with_a_summary(cli, samples):
    result = cli(
        "check",
        samples / "problems" / "director-late-and-partial.yaml",
        "--as-of",
        "2026-07-01",
        env={"COLUMNS": "160"},
    )
    assert result.exit_code == 1
    assert "half (Hal Half)" in result.stdout
    assert "RSU-ELECTION-PARTIAL" in result.stdout
    assert "7 errors, 0 warnings, 1 info" in result.stdout


WARNING_ONLY = """\
kind: rrp-plan-year
company: {name: Example Co.}
plan: {name: Example Co. Retirement Restoration Plan, investment_options: [Stable Value Fund]}
plan_year: 2026
participants:
  - id: p1
    name: Pat One
    eligible_employee: true
    compensation: "500000"
    beneficiaries: []
    elections: [{kind: salary, plan_year: 2026, percent: 10, made_on: 2025-12-10}]
"""


def test_strict_fails_on_warnings(cli, tmp_path):
    path = tmp_path / "warn.yaml"
    path.write_text(WARNING_ONLY)
    approve_all(path)
    relaxed = cli("check", path, "--as-of", "2025-12-15")
    assert relaxed.exit_code == 0, relaxed.stdout
    assert "RRP-BENEFICIARY-MISSING" in relaxed.stdout
    assert cli("check", path, "--as-of", "2025-12-15", "--strict").exit_code == 1


def test_a_load_error_exits_2_with_file_and_line(cli, tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("kind: rrp-plan-year\ncompany: {name: X}\nplan_year: twenty\n")
    result = cli("check", path)
    assert result.exit_code == 2
    assert "bad.yaml:3" in result.stderr and "plan_year" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_a_bad_as_of_date_exits_2(cli, samples):
    result = cli("check", samples / "director-grant-2026.yaml", "--as-of", "2026-02-30")
    assert result.exit_code == 2
    assert "YYYY-MM-DD" in result.stderr


def test_markdown(cli, samples):
    result = cli(
        "check",
        samples / "problems" / "rrp-payments.yaml",
        "--as-of",
        "2027-01-15",
        "--format",
        "md",
    )
    assert result.stdout.startswith("# Compliance review:")
    assert "| error | RRP-KEY-EMPLOYEE-PAYMENT |" in result.stdout
    assert "Plan Section 4.01(b)" in result.stdout


def test_html_is_one_self_contained_escaped_page(cli, tmp_path, samples):
    source = (samples / "problems" / "director-late-and-partial.yaml").read_text()
    path = tmp_path / "evil.yaml"
    path.write_text(source.replace("name: Hal Half", 'name: "<script>alert(1)</script> & Sons"'))
    target = tmp_path / "report.html"
    result = cli("check", path, "--as-of", "2026-07-01", "--format", "html", "-o", target)
    assert result.exit_code == 1
    html = target.read_text()
    assert "<script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; Sons" in html
    assert "src=" not in html and "href=" not in html and "@import" not in html
    # Beside each finding, the text it rests on, quoted from the form.
    assert "I elect to defer the receipt of all (100%) of the Company Stock" in html
    assert "Exhibit I, Section III" in html
    assert html == cli("check", path, "--as-of", "2026-07-01", "--format", "html").stdout


def test_the_html_report_puts_the_findings_before_the_clauses_and_defaults(cli, samples):
    """Counsel reads first what decides whether anything may be issued."""
    result = cli(
        "check",
        samples / "problems" / "director-late-and-partial.yaml",
        "--as-of",
        "2026-06-23",
        "--format",
        "html",
    )
    headings = re.findall(r"<h2[^>]*>([^<]*)</h2>", result.stdout)
    # The errors' part first (issue 44: no warning above an error), each person in file order;
    # the cycle's own note for counsel, an info finding, in the last part.
    assert headings[:3] == ["Summary", "Errors: each stops an issue", "late (Lee Late)"]
    assert headings.index("For information") < headings.index("2026-annual (the grant)")
    assert headings.index("Drafted clauses for counsel's review") > headings.index(
        "second-thoughts (Sec Ond)"
    )


def test_output_to_a_missing_folder_exits_2_and_writes_nothing(cli, tmp_path, samples):
    target = tmp_path / "nowhere" / "report.json"
    result = cli(
        "check",
        samples / "director-grant-2026.yaml",
        "--as-of",
        "2026-06-01",
        "--format",
        "json",
        "-o",
        target,
    )
    assert result.exit_code == 2
    assert "Create it first" in result.stderr
    assert not target.parent.exists()


def test_rules_lists_the_catalogue(cli):
    from docgen.checker.rules import all_rules

    result = cli("rules")
    assert result.exit_code == 0
    for entry in all_rules():
        assert entry.id in result.stdout


def test_explain_shows_citations_source_text_and_examples(cli):
    result = cli("explain", "RRP-PBC-LATE")
    assert result.exit_code == 0
    assert (
        "Plan Section 2.03(b); Code 409A(a)(4)(B)(iii); Treas. Reg. 1.409A-2(a)(8)" in result.stdout
    )
    assert "six months before the end of the performance period" in " ".join(result.stdout.split())
    assert "A passing example:" in result.stdout and "-> no RRP-PBC-LATE finding" in result.stdout
    assert "-> error RRP-PBC-LATE (p1)" in result.stdout


def test_explain_works_for_every_rule(cli):
    from docgen.checker.rules import all_rules

    for entry in all_rules():
        result = cli("explain", entry.id)
        assert result.exit_code == 0, entry.id
        assert str(entry.citations[0]) in " ".join(result.stdout.split())
        if entry.applies_to != "document":
            assert f"-> no {entry.id} finding" in result.stdout, entry.id
            assert f" {entry.id} (" in result.stdout, entry.id


def test_explain_an_unknown_rule_exits_2(cli):
    result = cli("explain", "RRP-PBC-LAET")
    assert result.exit_code == 2
    assert "no rule RRP-PBC-LAET in the catalogue. Did you mean RRP-PBC-LATE?" in result.stderr


def test_check_never_imports_weasyprint_or_docx():
    probe = (
        "import sys\n"
        "from docgen.cli import main\n"
        "for fmt in ('text', 'json', 'md', 'html'):\n"
        "    sys.argv = ['docgen', 'check', 'samples/director-grant-2026.yaml', '--as-of',\n"
        "                '2026-06-01', '--format', fmt]\n"
        "    try:\n"
        "        main()\n"
        "    except SystemExit:\n"
        "        pass\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('weasyprint', 'docx'))\n"
        "print('HEAVY', heavy, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert "HEAVY []" in done.stderr, done.stderr


@pytest.mark.parametrize(
    ("sample", "as_of", "other"),
    [
        ("samples/director-grant-2026.yaml", "2026-06-23", "rrp"),
        ("samples/rrp-2026.yaml", "2025-12-01", "director_rsu"),
    ],
)
def test_check_imports_only_the_kind_it_reads(sample, as_of, other):
    """A fresh `docgen check` imports the kind of its file and that kind's rules: not the other
    kind (its model, rules or arithmetic), not its own arithmetic, no renderer (DESIGN.md,
    "Architecture")."""
    probe = (
        "import sys\n"
        "from docgen.cli import main\n"
        f"sys.argv = ['docgen', 'check', {sample!r}, '--as-of', {as_of!r}, '--format', 'json']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('MODULES', sorted(sys.modules), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    line = next(x for x in done.stderr.splitlines() if x.startswith("MODULES "))
    modules = set(ast.literal_eval(line.removeprefix("MODULES ")))
    own = "director_rsu" if other == "rrp" else "rrp"
    assert f"docgen.kinds.{own}.kind" in modules
    checks_prefix = {"rrp": "checks.rrp", "director_rsu": "checks.rsu"}
    unwanted = sorted(
        m
        for m in modules
        if m.startswith((f"docgen.kinds.{other}.", checks_prefix[other], "docgen.render"))
        and m not in (f"docgen.kinds.{other}.authorities", checks_prefix[other] + "_sources")
        or m.endswith(".arithmetic")
        or m.split(".")[0] in ("weasyprint", "docx", "pypdf")
    )
    assert unwanted == []
