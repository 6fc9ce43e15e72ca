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
