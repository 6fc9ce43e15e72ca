"""Every error before any warning, across the whole report (issue 44, from the trial): in every
sample's report, as JSON, Markdown and HTML show it, no warning is listed above an error, and no
warning or error below an info finding."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
RANK = {"error": 0, "warning": 1, "info": 2}
# A day in the grant's election window and one after it: the sample problems' findings differ.
AS_OF = ("2026-06-23", "2026-07-01")


def _in_order(severities: list[str]) -> bool:
    ranks = [RANK[s] for s in severities]
    return ranks == sorted(ranks)


def _json_severities(cli, path: Path, as_of: str) -> list[str]:
    result = cli("check", path, "--as-of", as_of, "--format", "json")
    return [f["severity"] for f in json.loads(result.stdout)["findings"]]


@pytest.mark.parametrize(
    "sample", sorted(str(p.relative_to(SAMPLES)) for p in SAMPLES.rglob("*.yaml"))
)
def test_no_warning_is_listed_before_an_error(cli, sample):
    path = SAMPLES / sample
    for as_of in AS_OF:
        severities = _json_severities(cli, path, as_of)
        assert _in_order(severities), (as_of, severities)
        html = cli("check", path, "--as-of", as_of, "--format", "html").stdout
        shown = re.findall(r'<span class="sev (error|warning|info)">', html)
        assert shown and _in_order(shown) or not severities, (as_of, shown)
        markdown = cli("check", path, "--as-of", as_of, "--format", "md").stdout
        rows = re.findall(r"^\| (error|warning|info) \|", markdown, re.MULTILINE)
        assert _in_order(rows), (as_of, rows)


def test_a_persons_warning_waits_for_a_later_persons_error(cli):
    """The case the trial met: "specified" has an error and a warning, "slow" (after it in the
    file) an error; both errors come before the warning, and each person keeps file order."""
    path = SAMPLES / "problems" / "director-settlement.yaml"
    findings = json.loads(cli("check", path, "--as-of", "2026-06-23", "--format", "json").stdout)[
        "findings"
    ]
    shown = [(f["severity"], f["subject"]) for f in findings if f["severity"] != "info"]
    assert shown == [("error", "specified"), ("error", "slow"), ("warning", "specified")]
    markdown = cli("check", path, "--as-of", "2026-06-23", "--format", "md").stdout
    headings = [line for line in markdown.splitlines() if line.startswith("#")][1:]
    assert [h.split(" (")[0] for h in headings] == [
        "## Errors: each stops an issue",
        "### specified",
        "### slow",
        "## Warnings: matters for judgment",
        "### specified",
        "## For information",
        "### 2026-annual",
    ]


def test_the_workspace_s_findings_screen_lists_them_as_the_reports_do(tmp_path):
    """`docgen serve`'s Findings screen groups as the reports group (issue 41): the errors'
    part first, then the warnings'."""
    pytest.importorskip("starlette")
    pytest.importorskip("multipart")
    import shutil

    from starlette.testclient import TestClient

    from docgen.web.app import create_app
    from docgen.web.security import LOCAL_HOSTS

    shutil.copy(SAMPLES / "problems" / "director-settlement.yaml", tmp_path / "facts.yaml")
    app = create_app(tmp_path, tmp_path / "out", "a-test-token", LOCAL_HOSTS, 8765)
    browser = TestClient(app, base_url="http://127.0.0.1:8765")
    assert browser.get("/?token=a-test-token").status_code == 200
    html = browser.get("/findings?f=facts.yaml&as_of=2026-06-23").text
    shown = re.findall(r'<span class="sev (error|warning|info)">', html)
    assert shown == ["error", "error", "warning", "info"]
    parts = re.findall(r'<h2 class="part [a-z]+">([^<]*)</h2>', html)
    assert parts == [
        "Errors: each stops an issue",
        "Warnings: matters for judgment",
        "For information",
    ]
