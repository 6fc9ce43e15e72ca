"""`docgen verify` checks a section16 drafts folder against its drafts-manifest.json, and an OCF
bundle against its Manifest.ocf.json and the vendored schemas, as it checks a stage folder
(DESIGN.md A27): intact exits 0; a file changed, missing or added exits 1 naming it."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from tests.test_ocf_export import bundle
from tests.test_section16 import TOUR, run

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "director-grant-2026.yaml"


def test_a_drafts_folder_verifies_and_a_change_is_named(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    assert run("section16", TOUR, "--out", out, "--as-of", "2026-06-24").returncode == 0
    folder = out / "2026-annual" / "section16"
    intact = run("verify", folder)
    assert intact.returncode == 0, intact.stderr
    assert "intact (6 files match drafts-manifest.json)" in " ".join(intact.stdout.split())
    xml = folder / "rgarcia" / "form4.xml"
    xml.write_bytes(xml.read_bytes().replace(b"2450", b"2540"))
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    (folder / "ebrooks" / "form4.pdf").unlink()
    changed = run("verify", folder)
    assert changed.returncode == 1
    said = " ".join(changed.stderr.split())
    assert "rgarcia/form4.xml: changed: SHA-256" in said
    assert "ebrooks/form4.pdf: missing" in said
    assert "notes.txt: added" in said
    assert "3 changes since docgen wrote this drafts folder" in said


def test_an_ocf_bundle_verifies_and_a_change_is_named(cli, tmp_path):
    target = tmp_path / "cycle.ocf.zip"
    assert cli("export-ocf", SAMPLE, "-o", target, "--as-of", "2026-07-01").exit_code == 0
    intact = cli("verify", target)
    assert intact.exit_code == 0, intact.output
    assert "intact (7 files match Manifest.ocf.json)" in " ".join(intact.stdout.split())
    files = bundle(target)
    people = json.loads(files["Stakeholders.ocf.json"])
    people["items"][0]["name"]["legal_name"] = "Someone Else"
    files["Stakeholders.ocf.json"] = json.dumps(people).encode()
    files["extra.json"] = b"{}"
    with zipfile.ZipFile(target, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    changed = cli("verify", target)
    assert changed.exit_code == 1
    said = " ".join(changed.output.split())
    assert "Stakeholders.ocf.json's MD5 is not the one listed" in said
    assert "extra.json: added" in said
    not_a_bundle = tmp_path / "x.zip"
    not_a_bundle.write_bytes(b"not a zip")
    refused = cli("verify", not_a_bundle)
    assert refused.exit_code == 2
    assert "not an Open Cap Format bundle docgen wrote" in " ".join(refused.output.split())
