"""`docgen batch` and `docgen render`: refuse before writing, issue a stage folder atomically,
byte for byte, into OUT/<cycle>/<stage>/. (Re-issues, holds and history: tests/test_reissue.py.)"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from docgen.checker.clauses import review_clauses
from docgen.load import load_facts

# Every test here issues stage folders end to end: slow (`make test-fast` leaves them out).
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
DOCGEN = Path(sys.executable).parent / "docgen"
GRANT_AS_OF = "2026-06-23"
ELECTIONS_AS_OF = "2026-06-22"  # the last filing on record; the last day forms may issue
CYCLE = "2026-annual"


def write_cycle(folder: Path, samples: Path, directors: int = 3, edit=None) -> Path:
    """A copy of the sample grant cycle with its first few directors, optionally edited."""
    yaml = YAML()
    yaml.width = 4096  # ruamel would wrap a long flow mapping into invalid YAML
    data = yaml.load((samples / "director-grant-2026.yaml").read_text(encoding="utf-8"))
    data["directors"] = data["directors"][:directors]
    if edit:
        edit(data)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "grant.yaml"
    with path.open("w", encoding="utf-8") as handle:
        yaml.dump(data, handle)
    return path


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (hidden ones too), by relative path."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def issued(tmp_path_factory):
    """One grant-stage batch of a three-director cycle: (facts path, OUT, cycle folder)."""
    from typer.testing import CliRunner

    from docgen.cli import app

    base = tmp_path_factory.mktemp("issued")
    facts = write_cycle(base / "facts", ROOT / "samples")
    out = base / "out"
    result = CliRunner().invoke(
        app,
        ["batch", str(facts), "--out", str(out), "--as-of", GRANT_AS_OF],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    return facts, out, out / CYCLE / "grant"


# ------------------------------------------------------------------ what an issue contains


def test_folder_layout_is_the_designs(issued):
    facts_path, out, folder = issued
    facts = load_facts(facts_path).facts
    expected = {"check-report.json", "check-report.html", "manifest.json"}
    for director in facts.directors:
        expected |= {
            f"{director.id}/{name}"
            for name in ("notice.pdf", "notice.docx", "exhibit-i.pdf", "exhibit-i.docx")
        }
    assert set(tree(folder)) == expected
    assert sorted(p.name for p in out.iterdir()) == [CYCLE]
    # The stage folder, and returned/ beside it for the forms people send back; no staging left.
    assert sorted(p.name for p in (out / CYCLE).iterdir()) == ["grant", "returned"]
    assert list((out / CYCLE / "returned").iterdir()) == []


def test_manifest_records_every_file_and_the_facts(issued):
    from docgen import __version__

    facts_path, _, folder = issued
    manifest = json.loads((folder / "manifest.json").read_text())
    files = tree(folder)
    del files["manifest.json"]
    assert set(manifest["files"]) == set(files)
    for name, data in files.items():
        assert manifest["files"][name] == {
            "sha256": hashlib.sha256(data).hexdigest(),
            "bytes": len(data),
        }
    loaded = load_facts(facts_path)
    assert manifest["facts"] == {"file": "grant.yaml", "sha256": loaded.sha256}
    assert manifest["docgen_version"] == __version__
    assert (manifest["stage"], manifest["as_of"], manifest["cycle"]) == (
        "grant",
        GRANT_AS_OF,
        CYCLE,
    )
    # Each drafted clause the documents carry, with counsel's approval of its exact wording.
    approvals = {a.clause: a for a in loaded.facts.clause_approvals}
    assert [c["clause"] for c in manifest["clause_approvals"]] == [
        r.id for r in review_clauses(loaded, "grant")
    ]
    for entry in manifest["clause_approvals"]:
        approval = approvals[entry["clause"]]
        assert entry["sha256"] == approval.sha256
        assert (entry["approved_by"], entry["approved_on"]) == ("A. Counsel", "2026-05-01")
        assert entry["source"] == "built-in"
    assert manifest["templates_dir"] is None
    assert [p["subject"] for p in manifest["packets"]] == [d.id for d in loaded.facts.directors]
    assert (manifest["manifest_format"], manifest["reissue"]) == (2, 0)
    assert (manifest["held"], manifest["superseded"]) == ([], [])
    assert str(folder.parent.parent) not in (folder / "manifest.json").read_text()


def test_each_packet_records_the_inputs_it_was_made_from(issued):
    """Per packet: the SHA-256 of its facts slice (the director's facts and the cycle's), the
    templates' SHA-256, docgen's version, the stage and the as-of date, and their digest."""
    from docgen import __version__
    from docgen.issue.history import canonical
    from docgen.issue.reports import templates_sha256
    from docgen.kinds import kind_of

    facts_path, _, folder = issued
    facts = load_facts(facts_path).facts
    manifest = json.loads((folder / "manifest.json").read_text())
    for packet in manifest["packets"]:
        inputs = packet["inputs"]
        # The kind's slice: the cycle's facts with this director alone, as a PDF's record has it.
        slice_ = kind_of(facts).slice(facts, packet["subject"])
        assert [d["id"] for d in slice_["directors"]] == [packet["subject"]]
        assert inputs == {
            "facts_sha256": hashlib.sha256(canonical(slice_)).hexdigest(),
            "templates_sha256": templates_sha256(),
            "docgen_version": __version__,
            "stage": "grant",
            "as_of": GRANT_AS_OF,
        }
        assert packet["inputs_sha256"] == hashlib.sha256(canonical(inputs)).hexdigest()
        assert {"address", "units", "elections"} <= set(packet["facts"]["subject"])
        assert {"grant.fair_market_value", "company.name"} <= set(packet["facts"]["cycle"])
        assert {d["issued_as_of"] for d in packet["documents"]} == {GRANT_AS_OF}
        assert {d["facts_sha256"] for d in packet["documents"]} == {load_facts(facts_path).sha256}
    # One director's slice does not hold another's facts: a change to one is not a change to all.
    assert "Roberto" not in json.dumps(kind_of(facts).slice(facts, "jsmith"))


def test_check_report_is_the_checkers_with_no_absolute_path(issued):
    facts_path, _, folder = issued
    report = json.loads((folder / "check-report.json").read_text())
    assert report["facts"]["file"] == "grant.yaml"
    assert report["as_of"] == GRANT_AS_OF
    assert report["summary"]["error"] == 0
    for name in ("check-report.json", "check-report.html"):
        assert str(facts_path.parent) not in (folder / name).read_text()


def test_same_facts_give_byte_identical_folders(issued, tmp_path):
    """A second batch, from another folder and another working directory, into another OUT."""
    facts_path, _, folder = issued
    elsewhere = tmp_path / "copy"
    elsewhere.mkdir()
    shutil.copy(facts_path, elsewhere / "grant.yaml")
    result = subprocess.run(
        [
            str(DOCGEN),
            "batch",
            "grant.yaml",
            "--out",
            str(tmp_path / "again"),
            "--as-of",
            GRANT_AS_OF,
            "--workers",
            "1",
        ],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    first, second = tree(folder), tree(tmp_path / "again" / CYCLE / "grant")
    assert set(first) == set(second)
    different = [name for name in first if first[name] != second[name]]
    assert different == []


def test_unchanged_rerun_renders_nothing(issued, cli):
    facts_path, out, folder = issued
    before = {p: p.stat().st_mtime_ns for p in folder.rglob("*")}
    result = cli("batch", facts_path, "--out", out, "--as-of", GRANT_AS_OF)
    assert result.exit_code == 0, result.output
    assert "already current" in result.stdout
    assert {p: p.stat().st_mtime_ns for p in folder.rglob("*")} == before


def test_a_later_as_of_alone_reissues_nothing(issued, cli):
    """No document prints the as-of date: the packets issued on June 23 stand as issued."""
    facts_path, out, folder = issued
    before = {p: (p.stat().st_mtime_ns, p.stat().st_ino) for p in folder.rglob("*")}
    result = cli("batch", facts_path, "--out", out, "--as-of", "2026-06-24")
    assert result.exit_code == 0, result.output
    assert "already current" in result.stdout
    assert {p: (p.stat().st_mtime_ns, p.stat().st_ino) for p in folder.rglob("*")} == before
    assert json.loads((folder / "manifest.json").read_text())["as_of"] == GRANT_AS_OF


def test_a_tampered_folder_is_reissued_and_the_altered_file_kept(issued, tmp_path, cli):
    facts_path, _, folder = issued
    out = tmp_path / "out"
    shutil.copytree(folder, out / CYCLE / "grant")
    (out / CYCLE / "grant" / "check-report.html").write_text("edited")
    result = cli("batch", facts_path, "--out", out, "--as-of", GRANT_AS_OF)
    assert result.exit_code == 0, result.output
    assert "Re-issue 1 of" in result.stdout
    again = tree(out / CYCLE / "grant")
    assert again["check-report.html"] == tree(folder)["check-report.html"]
    assert again["superseded/1/check-report.html"] == b"edited"  # never deleted, never lost
    manifest = json.loads((out / CYCLE / "grant" / "manifest.json").read_text())
    (entry,) = [e for e in manifest["superseded"][0]["files"] if e["was"] == "check-report.html"]
    assert entry["altered"] is True and entry["sha256"] == hashlib.sha256(b"edited").hexdigest()
    assert cli("verify", out / CYCLE / "grant").exit_code == 0


# ------------------------------------------------------------------ refusing


def test_error_finding_refuses_and_writes_nothing(samples, tmp_path, cli):
    def partial_election(data):
        data["directors"][0]["elections"][0]["percent"] = 50  # Exhibit I allows 100% only

    facts = write_cycle(tmp_path, samples, edit=partial_election)
    out = tmp_path / "out"
    result = cli("batch", facts, "--out", out, "--as-of", GRANT_AS_OF)
    assert result.exit_code == 1
    assert "RSU-ELECTION-PARTIAL" in result.stdout
    assert "nothing was written" in result.stderr
    assert not out.exists()


def test_load_error_exits_2_and_writes_nothing(samples, tmp_path, cli):
    def misspelled(data):
        data["directors"][0]["unitz"] = data["directors"][0].pop("units")

    facts = write_cycle(tmp_path, samples, edit=misspelled)
    out = tmp_path / "out"
    result = cli("batch", facts, "--out", out, "--as-of", GRANT_AS_OF)
    assert result.exit_code == 2
    assert "unitz" in result.stderr
    assert not out.exists()


def test_out_that_is_a_file_is_bad_input(samples, tmp_path, cli):
    facts = write_cycle(tmp_path, samples, directors=1)
    (tmp_path / "out").write_text("")
    result = cli("batch", facts, "--out", tmp_path / "out", "--as-of", GRANT_AS_OF)
    assert result.exit_code == 2
    assert "is a file, not a folder" in result.stderr


def test_a_doc_error_refuses_with_nothing_written(samples, tmp_path, monkeypatch):
    """A key fact the renderer promises but the documents lack: DOC-FACT-ABSENT stops the issue."""
    from datetime import date

    from docgen.issue.batch import issue_batch
    from docgen.issue.reports import IssueRefusedByFindings
    from docgen.render.copy import Copy

    real = Copy.key_facts.func
    promised = property(lambda copy: (*real(copy), "a fact no document carries"))
    monkeypatch.setattr(Copy, "key_facts", promised)
    facts = write_cycle(tmp_path, samples, directors=1)
    with pytest.raises(IssueRefusedByFindings) as refused:
        issue_batch(facts, tmp_path / "out", as_of=date.fromisoformat(GRANT_AS_OF), workers=1)
    assert "DOC-FACT-ABSENT" in refused.value.report.rule_ids()
    assert not (tmp_path / "out").exists()


# ------------------------------------------------------------------ stages and warnings


def test_elections_stage_issues_blank_exhibit_i_only(samples, tmp_path, cli):
    facts = write_cycle(tmp_path, samples, directors=2)
    out = tmp_path / "out"
    result = cli(
        "batch",
        facts,
        "--out",
        out,
        "--stage",
        "elections",
        "--as-of",
        ELECTIONS_AS_OF,
        "--workers",
        "1",
    )
    assert result.exit_code == 0, result.output
    files = set(tree(out / CYCLE / "elections"))
    assert {name for name in files if "/" in name} == {
        f"{d}/exhibit-i.{fmt}" for d in ("jsmith", "rgarcia") for fmt in ("pdf", "docx")
    }
    manifest = json.loads((out / CYCLE / "elections" / "manifest.json").read_text())
    assert manifest["stage"] == "elections"
    # The blank forms carry Exhibit I's clauses only (not the on-file copy's, not the Notice's).
    recorded = [c["clause"] for c in manifest["clause_approvals"]]
    assert recorded and all(c.startswith("exhibit-i.") for c in recorded)
    assert "exhibit-i.iii-on-file" not in recorded
    assert manifest["warnings"] == []


def test_a_clause_without_counsels_approval_stops_the_batch_before_anything_is_written(
    samples, tmp_path, cli
):
    def one_unapproved(data):
        data["clause_approvals"] = [
            a for a in data["clause_approvals"] if a["clause"] != "exhibit-i.iii-choices"
        ]

    facts = write_cycle(tmp_path, samples, directors=2, edit=one_unapproved)
    out = tmp_path / "out"
    result = cli("batch", facts, "--out", out, "--stage", "elections", "--as-of", ELECTIONS_AS_OF)
    assert result.exit_code == 1
    assert "DOC-DRAFTED-CLAUSE" in result.stdout and "exhibit-i.iii-choices" in result.stdout
    assert not out.exists()


# ------------------------------------------------------------------ stage folders side by side


def test_both_stages_issue_into_one_out_side_by_side(samples, tmp_path, cli):
    """The blank forms of June 1 are not replaced by the grant packets of June 23."""
    facts = write_cycle(tmp_path, samples, directors=2)
    out = tmp_path / "out"
    forms = cli("batch", facts, "--out", out, "--stage", "elections", "--as-of", ELECTIONS_AS_OF)
    assert forms.exit_code == 0, forms.output
    blank = tree(out / CYCLE / "elections")
    grant = cli("batch", facts, "--out", out, "--stage", "grant", "--as-of", GRANT_AS_OF)
    assert grant.exit_code == 0, grant.output
    assert sorted(p.name for p in (out / CYCLE).iterdir()) == ["elections", "grant", "returned"]
    assert tree(out / CYCLE / "elections") == blank
    assert json.loads((out / CYCLE / "grant" / "manifest.json").read_text())["stage"] == "grant"

    def moved(data):
        data["directors"][0]["address"] = ["40 Cedar Road", "Richmond, VA 23226"]

    moved_facts = write_cycle(tmp_path, samples, directors=2, edit=moved)
    reissue = cli("batch", moved_facts, "--out", out, "--as-of", "2026-06-25")
    assert reissue.exit_code == 0 and "Re-issue 1 of" in reissue.stdout
    assert tree(out / CYCLE / "elections") == blank  # a re-issue swaps its own stage folder only
    both = cli("verify", out / CYCLE)
    assert both.exit_code == 0, both.output
    assert f"{out / CYCLE / 'elections'}: intact" in both.stdout
    assert f"{out / CYCLE / 'grant'}: intact" in both.stdout


def test_rrp_plan_year_is_issued_per_participant(samples, tmp_path, cli):
    """An RRP Plan Year issues rrp-<plan year>/<participant>/rrp-election.{pdf,docx}, at the
    kind's own default stage (enrollment)."""
    from docgen.render.html import documents_for

    yaml = YAML()
    yaml.width = 4096  # ruamel would wrap a long flow mapping into invalid YAML
    data = yaml.load((samples / "rrp-2026.yaml").read_text(encoding="utf-8"))
    data["participants"] = data["participants"][:3]
    facts = tmp_path / "rrp.yaml"
    with facts.open("w", encoding="utf-8") as handle:
        yaml.dump(data, handle)
    loaded = load_facts(facts)
    result = cli("batch", facts, "--out", tmp_path / "out", "--as-of", "2025-12-01")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / f"rrp-{loaded.facts.plan_year}" / "enrollment"
    documents = {name for name in tree(folder) if "/" in name}
    expected = documents_for(loaded.facts, "enrollment")
    assert expected  # the sample's first participants do get election forms
    assert documents == {
        f"{subject}/{doc}.{fmt}" for subject, doc in expected for fmt in ("pdf", "docx")
    }
    assert json.loads((folder / "manifest.json").read_text())["stage"] == "enrollment"
    assert cli("verify", folder).exit_code == 0


def test_a_second_batch_into_the_same_out_at_once_is_refused(samples, tmp_path):
    from datetime import date

    from docgen.issue.batch import issue_batch
    from docgen.issue.files import BadRequest
    from docgen.issue.files import OutLock as _OutLock

    facts = write_cycle(tmp_path, samples, directors=1)
    out = tmp_path / "out"
    out.mkdir()
    with (
        _OutLock(out),
        pytest.raises(BadRequest, match=r"another docgen batch \(process \d+\) is writing"),
    ):
        issue_batch(facts, out, as_of=date.fromisoformat(GRANT_AS_OF), workers=1)
    assert list(out.iterdir()) == []


def _worker_dies(subject, documents):
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_worker_that_dies_is_a_clear_error_with_nothing_written(samples, tmp_path, monkeypatch):
    from datetime import date

    from docgen.core.errors import RenderError
    from docgen.issue import batch as issue
    from docgen.issue import pool

    monkeypatch.setattr(pool, "_render_packet", _worker_dies)
    facts = write_cycle(tmp_path, samples, directors=1)
    with pytest.raises(RenderError, match="a worker process died"):
        issue.issue_batch(facts, tmp_path / "out", as_of=date.fromisoformat(GRANT_AS_OF), workers=1)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "name", sorted(p.name for p in (ROOT / "samples" / "problems").glob("*.yaml"))
)
def test_every_problem_sample_is_refused_with_nothing_written(samples, tmp_path, cli, name):
    out = tmp_path / "out"
    result = cli("batch", samples / "problems" / name, "--out", out, "--as-of", GRANT_AS_OF)
    assert result.exit_code == 1, result.output
    assert "Refused: the checker found" in result.stderr
    assert not out.exists()


@pytest.mark.parametrize("platform", ["linux", "darwin"])
def test_sync_tree_flushes_with_syncfs_or_file_by_file(tmp_path, monkeypatch, platform):
    from docgen.issue.files import sync_tree, write_file

    (tmp_path / "jsmith").mkdir()
    entry = write_file(tmp_path / "jsmith" / "notice.pdf", b"%PDF-1.7", sync=False)
    monkeypatch.setattr(sys, "platform", platform)
    sync_tree(tmp_path)  # on "darwin" no syncfs is tried: every file and folder is fsynced
    assert entry == {"sha256": hashlib.sha256(b"%PDF-1.7").hexdigest(), "bytes": 8}


def test_a_stage_folder_docgen_did_not_issue_is_never_written_into(samples, tmp_path, cli):
    facts = write_cycle(tmp_path, samples, directors=1)
    mine = tmp_path / "out" / CYCLE / "grant"
    mine.mkdir(parents=True)
    (mine / "board minutes.docx").write_bytes(b"not docgen's")
    result = cli("batch", facts, "--out", tmp_path / "out", "--as-of", GRANT_AS_OF)
    assert result.exit_code == 2
    assert "is not a folder docgen issued" in result.stderr
    assert tree(tmp_path / "out") == {f"{CYCLE}/grant/board minutes.docx": b"not docgen's"}


def test_a_file_of_someones_own_in_the_cycle_folder_stays_put(samples, tmp_path, cli):
    """The cycle folder holds stage folders; docgen never replaces it, so a file there is safe."""
    facts = write_cycle(tmp_path, samples, directors=1)
    (tmp_path / "out" / CYCLE).mkdir(parents=True)
    (tmp_path / "out" / CYCLE / "board minutes.docx").write_bytes(b"not docgen's")
    result = cli("batch", facts, "--out", tmp_path / "out", "--as-of", GRANT_AS_OF)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / CYCLE / "board minutes.docx").read_bytes() == b"not docgen's"


def test_a_lone_packet_shared_by_two_workers_is_the_one_a_single_worker_makes(tmp_path):
    """Fewer packets than workers: the workers take a document each (docgen.issue.pool), and
    the folder is byte for byte the one a single worker makes, its documents in their order."""
    from datetime import date

    from docgen.issue.batch import issue_batch

    facts = write_cycle(tmp_path / "facts", ROOT / "samples", directors=1)
    folders = {}
    for workers in (1, 2):
        out = tmp_path / f"out-{workers}"
        issue_batch(facts, out, as_of=date.fromisoformat(GRANT_AS_OF), workers=workers)
        folders[workers] = tree(out / CYCLE / "grant")
    assert folders[1] == folders[2]
    manifest = json.loads(folders[2]["manifest.json"])
    names = [doc["name"] for doc in manifest["packets"][0]["documents"]]
    assert names == ["notice", "exhibit-i"]


def test_every_record_names_the_templates_digest_the_manifest_names(issued):
    """The batch takes the templates' digest once: each PDF's record carries the manifest's."""
    from docgen.issue.record import RECORD_NAME
    from docgen.render.readback import pdf_embedded_file

    _, _, folder = issued
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    pdfs = sorted(folder.glob("*/*.pdf"))
    assert pdfs
    for pdf in pdfs:
        record = json.loads(pdf_embedded_file(pdf.read_bytes(), RECORD_NAME))
        assert record["templates_sha256"] == manifest["templates_sha256"], pdf
