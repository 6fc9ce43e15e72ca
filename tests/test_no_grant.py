"""A director whose service ended on or before the Grant Date received no grant (Notice A: service
"from the Grant Date until the Vesting Date"; DESIGN.md A27): `docgen check` says so as an error
(RSU-SERVICE-ENDED-BEFORE-GRANT), and `section16`, `proxy` and `export-ocf` leave the director out,
each naming the director and the fact. The issue's case: separation 2026-06-01, grant
2026-06-23."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from tests.test_proxy import table
from tests.test_section16 import TOUR, run

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "director-grant-2026.yaml"
RGARCIA = "    name: Roberto García\n"
LEFT = "    name: Roberto García\n    settlement: {separation_on: 2026-06-01}\n"


def with_separation(tmp_path: Path, source: Path) -> Path:
    text = source.read_text(encoding="utf-8")
    assert text.count(RGARCIA) == 1
    path = tmp_path / source.name
    path.write_text(text.replace(RGARCIA, LEFT), encoding="utf-8")
    return path


def test_check_finds_the_grant_never_made(cli, tmp_path):
    facts = with_separation(tmp_path, TOUR)
    result = cli("check", facts, "--as-of", "2026-06-24", "--format", "json")
    found = [
        f
        for f in json.loads(result.stdout)["findings"]
        if f["rule"] == "RSU-SERVICE-ENDED-BEFORE-GRANT"
    ]
    assert [(f["subject"], f["severity"], f["path"]) for f in found] == [
        ("rgarcia", "error", "directors[1].settlement.separation_on")
    ]
    assert "2026-06-01, before the Grant Date 2026-06-23" in found[0]["message"]


def test_section16_drafts_no_form4_for_the_director_and_says_why(tmp_path):
    facts = with_separation(tmp_path, TOUR)
    out = tmp_path / "out"
    out.mkdir()
    result = run("section16", facts, "--out", out, "--as-of", "2026-06-24")
    assert result.returncode == 0, result.stderr
    assert "Drafted 2 Form 4s" in result.stdout
    assert (
        "No Form 4 drafted: Roberto García's service ended by separation from service on "
        "2026-06-01, before the Grant Date 2026-06-23" in " ".join(result.stdout.split())
    )
    folder = out / "2026-annual" / "section16"
    assert sorted(p.name for p in folder.iterdir() if p.is_dir()) == ["ebrooks", "jsmith"]


def test_proxy_shows_no_stock_award_and_notes_why(cli, tmp_path):
    """Without the separation Roberto García's row is 2,450 x $45.10 = $110,495 (pinned in
    tests/test_proxy.py); with it, no row, and a note naming him and the date."""
    facts = with_separation(tmp_path, SAMPLE)
    result = cli("proxy", facts, "--fiscal-year-end", "2027-02-28")
    assert result.exit_code == 0, result.output
    rows = table(result.stdout)
    assert "rgarcia" not in rows and rows["jsmith"]["stock_awards_usd"] == "110495"
    assert (
        "Left out of 2026-annual: Roberto García's service ended by separation from "
        "service on 2026-06-01" in result.stdout.splitlines()[-1]
    )


def test_export_ocf_has_no_issuance_or_stakeholder_for_the_director(cli, tmp_path):
    facts = with_separation(tmp_path, SAMPLE)
    target = tmp_path / "c.zip"
    result = cli("export-ocf", facts, "-o", target, "--as-of", "2026-06-24")
    assert result.exit_code == 0, result.output
    with zipfile.ZipFile(target) as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    people = json.loads(files["Stakeholders.ocf.json"])["items"]
    assert "rgarcia" not in {p["issuer_assigned_id"] for p in people}
    securities = {i.get("security_id") for i in json.loads(files["Transactions.ocf.json"])["items"]}
    assert not any("rgarcia" in (s or "") for s in securities)
    manifest = json.loads(files["Manifest.ocf.json"])
    assert any(
        c.startswith("rgarcia left out: Roberto García's service ended")
        for c in manifest["comments"]
    )


def test_batch_refuses_naming_the_director(cli, tmp_path):
    facts = with_separation(tmp_path, SAMPLE)
    out = tmp_path / "out"
    result = cli("batch", facts, "--out", out, "--stage", "grant", "--as-of", "2026-06-23")
    assert result.exit_code == 1
    text = " ".join(result.output.split())
    assert "RSU-SERVICE-ENDED-BEFORE-GRANT" in text and "It concerns rgarcia only" in text
