"""Issuing as a cycle, through the CLI on real folders: held packets, `--only`, re-issues that keep
history in superseded/<n>/, `render` through the same path, files docgen did not write, and a
folder written by the first release."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from docgen.load import load_facts
from tests.test_batch import CYCLE, GRANT_AS_OF, tree, write_cycle

# Every test here issues and re-issues cycles end to end: slow (`make test-fast` leaves them out).
pytestmark = pytest.mark.slow

LATER = "2026-06-25"


def inodes(folder: Path) -> dict[str, int]:
    return {p.relative_to(folder).as_posix(): p.stat().st_ino for p in folder.rglob("*")}


def manifest(stage_dir: Path) -> dict:
    return json.loads((stage_dir / "manifest.json").read_text())


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """A two-director grant stage issued once: (facts, OUT) to copy."""
    from typer.testing import CliRunner

    from docgen.cli import app
    from tests.conftest import SAMPLES

    root = tmp_path_factory.mktemp("reissue")
    facts = write_cycle(root / "facts", SAMPLES, directors=2)
    result = CliRunner().invoke(
        app,
        ["batch", str(facts), "--out", str(root / "out"), "--as-of", GRANT_AS_OF, "--workers", "1"],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    return facts, root / "out"


@pytest.fixture
def cycle(base, tmp_path, samples):
    """A private copy of the issued cycle: (facts editor, OUT, stage folder)."""
    facts, out = base
    shutil.copytree(out, tmp_path / "out")

    def edit(change):
        return write_cycle(tmp_path / "facts", samples, directors=2, edit=change)

    return edit, tmp_path / "out", tmp_path / "out" / CYCLE / "grant"


def moved_jsmith(data):
    data["directors"][0]["address"] = ["40 Cedar Road", "Richmond, VA 23226"]


# ------------------------------------------------------------------ re-issue with history


def test_a_changed_packet_is_reissued_and_its_previous_copy_kept(cycle, cli):
    edit, out, stage = cycle
    before, links = tree(stage), inodes(stage)
    moved = edit(moved_jsmith)
    result = cli("batch", moved, "--out", out, "--as-of", LATER)
    assert result.exit_code == 0, result.output
    assert "Re-issue 1 of" in result.stdout and "1 packet issued anew" in result.stdout
    assert "  jsmith: notice, exhibit-i re-issued (address changed)" in result.stdout
    after = tree(stage)
    # The previous copies are kept, byte for byte, in superseded/1/; the new ones are dated LATER.
    for name in ("notice.pdf", "notice.docx", "exhibit-i.pdf", "exhibit-i.docx"):
        assert after[f"superseded/1/jsmith/{name}"] == before[f"jsmith/{name}"]
        assert after[f"jsmith/{name}"] != before[f"jsmith/{name}"]
    assert after["superseded/1/manifest.json"] == before["manifest.json"]
    # The packet that did not change is the very same files.
    now = inodes(stage)
    for name in ("rgarcia/notice.pdf", "rgarcia/notice.docx", "rgarcia/exhibit-i.pdf"):
        assert now[name] == links[name] and after[name] == before[name]
    record = manifest(stage)
    (entry,) = record["superseded"]
    assert (entry["n"], entry["as_of"], entry["replaces_issue_of"]) == (1, LATER, GRANT_AS_OF)
    assert entry["packets"] == [
        {
            "subject": "jsmith",
            "what": "re-issued",
            "documents": ["notice", "exhibit-i"],
            "reasons": ["address changed"],
        }
    ]
    kept = {e["was"]: e for e in entry["files"]}
    old = hashlib.sha256(before["jsmith/notice.pdf"]).hexdigest()
    assert kept["jsmith/notice.pdf"]["sha256"] == old and not kept["jsmith/notice.pdf"]["altered"]
    assert record["files"]["superseded/1/jsmith/notice.pdf"]["sha256"] == old
    by_subject = {p["subject"]: p for p in record["packets"]}
    issued = {
        d["name"]: (d["issued_as_of"], d["facts_sha256"]) for d in by_subject["jsmith"]["documents"]
    }
    now_facts = load_facts(moved).sha256
    assert issued == {"notice": (LATER, now_facts), "exhibit-i": (LATER, now_facts)}
    # rgarcia's record stands as it was: issued June 23, from the first facts file.
    assert by_subject["rgarcia"] == next(
        p for p in json.loads(before["manifest.json"])["packets"] if p["subject"] == "rgarcia"
    )
    assert cli("verify", stage).exit_code == 0


def test_history_accumulates_and_verify_checks_it(cycle, cli):
    edit, out, stage = cycle
    assert cli("batch", edit(moved_jsmith), "--out", out, "--as-of", LATER).exit_code == 0
    first = tree(stage)

    def moved_again(data):
        data["directors"][0]["address"] = ["41 Cedar Road", "Richmond, VA 23226"]

    result = cli("batch", edit(moved_again), "--out", out, "--as-of", "2026-06-26")
    assert result.exit_code == 0, result.output
    assert "Re-issue 2 of" in result.stdout
    second = tree(stage)
    assert second["superseded/2/jsmith/notice.pdf"] == first["jsmith/notice.pdf"]
    assert second["superseded/1/jsmith/notice.pdf"] == first["superseded/1/jsmith/notice.pdf"]
    assert [e["n"] for e in manifest(stage)["superseded"]] == [1, 2]
    assert cli("verify", stage).exit_code == 0
    target = stage / "superseded" / "1" / "jsmith" / "notice.pdf"
    target.write_bytes(target.read_bytes()[:-1])  # history is verified too
    failed = cli("verify", stage)
    assert failed.exit_code == 1 and "superseded/1/jsmith/notice.pdf: changed" in failed.stderr
    whole = cli("verify", stage.parent)  # the cycle folder: every stage in it
    assert whole.exit_code == 1 and "superseded/1/jsmith/notice.pdf: changed" in whole.stderr


def test_a_participants_slice_holds_their_own_facts_and_the_plans(samples):
    """Another participant's change is not this participant's; a change to the Plan's menu of
    funds, which every form lists, is everyone's, and is named."""
    from docgen.issue.history import packet_record, why_changed
    from docgen.issue.manifest import Packet

    facts = load_facts(samples / "rrp-2026.yaml").facts
    first, other = facts.participants[0], facts.participants[1]
    moved = facts.model_copy(
        update={
            "participants": [
                first,
                other.model_copy(update={"investments": {"Bond Index Fund": 100}}),
                *facts.participants[2:],
            ]
        }
    )
    menu = facts.model_copy(
        update={
            "plan": facts.plan.model_copy(
                update={"investment_options": [*facts.plan.investment_options, "Money Market Fund"]}
            )
        }
    )

    def record(f):
        return packet_record(f, first.id, "enrollment", "2025-12-01", "t")

    assert record(moved) == record(facts)
    before = Packet(first.id, (), record(facts))
    assert why_changed(before, record(menu)) == ["plan.investment_options changed"]


@pytest.mark.parametrize(
    "sample",
    [
        "director-grant-2026.yaml",
        "director-grant-2026-roster.yaml",
        "rrp-2026.yaml",
        "rrp-2026-roster.yaml",
    ],
)
def test_a_cycles_records_made_together_are_each_packets_own(samples, sample):
    """`packet_records` digests what the slices share once (issue 27); every record is still
    the one `packet_record` makes of the packet's own slice, byte for byte."""
    from docgen.issue.history import _around_subjects, packet_record, packet_records
    from docgen.kinds import kind_of

    facts = load_facts(samples / sample).facts
    kind = kind_of(facts)
    ids = [person.id for person in getattr(facts, kind.subjects_field)]
    together = packet_records(facts, "s", "2025-12-01", "t", kind.slices(facts, ids))
    assert list(together) == ids and len(ids) > 1
    slices = kind.slices(facts, ids)
    assert all(_around_subjects(slices[ids[0]], kind.subjects_field))  # shared bytes spliced
    for subject in ids:
        assert together[subject] == packet_record(facts, subject, "s", "2025-12-01", "t")


def test_a_cycle_fact_reissues_every_packet_and_names_the_fact(cycle, cli):
    edit, out, stage = cycle

    def repriced(data):
        data["grant"]["fair_market_value"] = "45.20"

    result = cli("batch", edit(repriced), "--out", out, "--as-of", LATER)
    assert result.exit_code == 0, result.output
    for director in ("jsmith", "rgarcia"):
        assert (
            f"  {director}: notice, exhibit-i re-issued (grant.fair_market_value changed)"
            in result.stdout
        )
    assert {e["was"] for e in manifest(stage)["superseded"][0]["files"]} >= {
        "jsmith/notice.pdf",
        "rgarcia/notice.docx",
    }


def test_a_document_rendered_as_issued_stays_and_only_the_record_is_updated(tmp_path):
    """New inputs that make the very bytes issued (no document of docgen's own does: each carries
    the facts file's SHA-256) keep the issued file and update the packet's record only."""
    from docgen.issue.manifest import Manifest, PacketInputs, PacketRecord
    from docgen.issue.pool import RenderedDocument
    from docgen.issue.reissue import Assembler

    stage, staging = tmp_path / "grant", tmp_path / "staging"
    for folder in (stage / "jsmith", staging / "jsmith"):
        folder.mkdir(parents=True)
    (stage / "jsmith" / "notice.pdf").write_bytes(b"%PDF- issued")
    (staging / "jsmith" / "notice.pdf").write_bytes(b"%PDF- issued")
    entry = {"sha256": hashlib.sha256(b"%PDF- issued").hexdigest(), "bytes": 12}
    inputs = {
        "facts_sha256": "a",
        "templates_sha256": "t",
        "docgen_version": "v",
        "stage": "grant",
        "as_of": GRANT_AS_OF,
    }
    document = {
        "name": "notice",
        "files": {"pdf": "jsmith/notice.pdf"},
        "key_facts": [],
        "issued_as_of": GRANT_AS_OF,
        "facts_sha256": "f1",
    }
    previous = {
        "as_of": GRANT_AS_OF,
        "facts": {"sha256": "f1"},
        "files": {"jsmith/notice.pdf": entry},
        "packets": [
            {
                "subject": "jsmith",
                "documents": [document],
                "inputs": inputs,
                "inputs_sha256": "x",
                "facts": {"cycle": {}, "subject": {"units": "1"}},
            }
        ],
    }
    (stage / "manifest.json").write_text(json.dumps(previous))
    assembler = Assembler(staging, stage, Manifest.from_json(previous), LATER, "f2")
    record = PacketRecord(
        PacketInputs(**{**inputs, "facts_sha256": "b", "as_of": LATER}),
        "y",
        {"cycle": {}, "subject": {"units": "2"}},
    )
    rendered = RenderedDocument(
        "jsmith", "notice", {"pdf": "jsmith/notice.pdf"}, {"jsmith/notice.pdf": entry}, [], []
    )
    assembler.rendered_packet("jsmith", [rendered], record)
    (change,) = assembler.result.changes
    assert (change.what, change.documents, change.reasons) == ("record", (), ("units changed",))
    assert (staging / "jsmith" / "notice.pdf").stat().st_ino == (
        stage / "jsmith" / "notice.pdf"
    ).stat().st_ino  # the issued file itself, linked in
    (packet,) = assembler.result.packets
    assert packet.record.inputs.facts_sha256 == "b"
    assert packet.documents[0].issued_as_of == GRANT_AS_OF  # issued then, and still it
    assert packet.documents[0].facts_sha256 == "f1"
    assert assembler.result.replaced == []


def test_a_director_no_longer_in_the_facts_is_withdrawn_into_history(cycle, cli, samples):
    _, out, stage = cycle
    alone = write_cycle(stage.parent.parent.parent / "alone", samples, directors=1)
    result = cli("batch", alone, "--out", out, "--as-of", LATER)
    assert result.exit_code == 0, result.output
    assert (
        "  rgarcia: notice, exhibit-i withdrawn (no longer issued at this stage)" in result.stdout
    )
    assert not (stage / "rgarcia").exists()
    assert (stage / "superseded" / "1" / "rgarcia" / "notice.pdf").is_file()
    assert [p["subject"] for p in manifest(stage)["packets"]] == ["jsmith"]


def test_force_renders_again_and_writes_nothing_when_nothing_differs(cycle, cli):
    edit, out, stage = cycle
    before = inodes(stage)
    result = cli("batch", edit(None), "--out", out, "--as-of", GRANT_AS_OF, "--force")
    assert result.exit_code == 0, result.output
    assert "rendered again, every document came out byte for byte as issued" in result.stdout
    assert inodes(stage) == before


# ------------------------------------------------------------------ held packets and --only


def late_mobrien(data):
    data["directors"][2]["elections"][0]["filed_on"] = "2026-06-23"  # on the deadline: late


def test_a_refusal_past_some_holds_names_the_whole_command_to_run(samples, tmp_path, cli):
    """Held already, and more to hold: the command it suggests holds all of them at once (run as
    suggested before, with only the new ones, it would have been refused on the first again)."""

    def two_late(data):
        late_mobrien(data)
        data["directors"][1]["elections"][0]["filed_on"] = "2026-06-23"

    facts = write_cycle(tmp_path, samples, directors=3, edit=two_late)
    out = tmp_path / "out"
    held_one = cli("batch", facts, "--out", out, "--as-of", GRANT_AS_OF, "--hold", "mobrien")
    assert held_one.exit_code == 1 and not out.exists()
    message = " ".join(held_one.stderr.split())
    assert "concern rgarcia only (mobrien is held already): " in message
    assert message.endswith("run the batch again with --hold mobrien --hold rgarcia.")
    suggested = message.rsplit("run the batch again with ", 1)[1].rstrip(".").split()
    done = cli("batch", facts, "--out", out, "--as-of", GRANT_AS_OF, *suggested)
    assert done.exit_code == 0, done.output


def test_hold_issues_everyone_else_and_the_manifest_says_why(samples, tmp_path, cli):
    facts = write_cycle(tmp_path, samples, directors=3, edit=late_mobrien)
    out = tmp_path / "out"
    refused = cli("batch", facts, "--out", out, "--as-of", GRANT_AS_OF)
    assert refused.exit_code == 1 and not out.exists()
    assert "run the batch again with --hold mobrien" in refused.stderr
    result = cli("batch", facts, "--out", out, "--as-of", GRANT_AS_OF, "--hold", "mobrien")
    assert result.exit_code == 0, result.output
    assert "Issued 2 packets" in result.stdout
    assert "held, not issued: mobrien (Mary O'Brien): RSU-ELECTION-LATE" in result.stdout
    assert "--only mobrien" in result.stdout  # how to issue it once resolved
    stage = out / CYCLE / "grant"
    assert sorted(p.name for p in stage.iterdir() if p.is_dir()) == ["jsmith", "rgarcia"]
    record = manifest(stage)
    (held,) = record["held"]
    assert (held["subject"], held["name"]) == ("mobrien", "Mary O'Brien")
    assert [f["rule"] for f in held["findings"]] == ["RSU-ELECTION-LATE"]
    assert held["findings"][0]["path"] == "directors[2].elections[0].filed_on"
    assert record["summary"]["held"] == 1
    report = json.loads((stage / "check-report.json").read_text())
    assert report["not_issued"] == ["mobrien"] and report["summary"]["error"] == 1
    html = (stage / "check-report.html").read_text()
    assert "Issued without the packet of mobrien (Mary O&#39;Brien)" in html
    assert cli("verify", stage).exit_code == 0


def test_hold_does_not_excuse_an_error_about_the_grant_itself(samples, tmp_path, cli):
    def deadline_after_grant(data):
        data["grant"]["election_deadline"] = "2026-06-24"

    facts = write_cycle(tmp_path, samples, directors=2, edit=deadline_after_grant)
    result = cli(
        "batch", facts, "--out", tmp_path / "out", "--as-of", "2026-06-24", "--hold", "jsmith"
    )
    assert result.exit_code == 1
    assert "RSU-DEADLINE-AFTER-GRANT" in result.stdout and "--hold" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_only_issues_the_held_packet_leaving_every_other_file_as_it_was(samples, tmp_path, cli):
    facts = write_cycle(tmp_path, samples, directors=3, edit=late_mobrien)
    out = tmp_path / "out"
    assert (
        cli("batch", facts, "--out", out, "--as-of", GRANT_AS_OF, "--hold", "mobrien").exit_code
        == 0
    )
    stage = out / CYCLE / "grant"
    before, links = tree(stage), inodes(stage)

    def timely(data):
        data["directors"][2]["elections"][0]["filed_on"] = "2026-06-01"

    fixed = write_cycle(tmp_path, samples, directors=3, edit=timely)
    result = cli("batch", fixed, "--out", out, "--as-of", LATER, "--only", "mobrien")
    assert result.exit_code == 0, result.output
    assert "  mobrien: notice, exhibit-i issued (first issue)" in result.stdout
    after, now = tree(stage), inodes(stage)
    for name in before:
        if name.startswith(("jsmith/", "rgarcia/")):
            assert after[name] == before[name] and now[name] == links[name], name
    assert (stage / "mobrien" / "notice.pdf").is_file()
    assert manifest(stage)["held"] == []
    assert cli("verify", stage).exit_code == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hold", "nobody"], "--hold nobody: no director or participant with that id"),
        (["--only", "JSmith"], "Did you mean jsmith?"),
        (["--hold", "jsmith", "--only", "rgarcia"], "--hold and --only together"),
    ],
)
def test_naming_packets_wrongly_is_bad_input(cycle, cli, args, message):
    edit, out, stage = cycle
    before = tree(stage)
    result = cli("batch", edit(None), "--out", out, "--as-of", GRANT_AS_OF, *args)
    assert result.exit_code == 2 and message in result.stderr
    assert tree(stage) == before


def test_only_needs_an_issued_stage_folder(samples, tmp_path, cli):
    facts = write_cycle(tmp_path, samples, directors=1)
    result = cli(
        "batch", facts, "--out", tmp_path / "out", "--as-of", GRANT_AS_OF, "--only", "jsmith"
    )
    assert result.exit_code == 2 and "has not been issued yet" in result.stderr
    assert not (tmp_path / "out").exists()


# ------------------------------------------------------------------ render goes through the folder


def test_render_issues_a_corrected_notice_into_the_stage_folder(cycle, cli, tmp_path):
    edit, out, stage = cycle
    copy = tmp_path / "jsmith-notice.pdf"
    result = cli(
        "render",
        edit(moved_jsmith),
        "--doc",
        "notice",
        "--for",
        "jsmith",
        "--to",
        "pdf",
        "--out",
        out,
        "-o",
        copy,
        "--as-of",
        LATER,
    )
    assert result.exit_code == 0, result.output
    assert "  jsmith: notice, exhibit-i re-issued (address changed)" in result.stdout
    issued = stage / "jsmith" / "notice.pdf"
    assert copy.read_bytes() == issued.read_bytes()
    digest = hashlib.sha256(copy.read_bytes()).hexdigest()
    assert manifest(stage)["files"]["jsmith/notice.pdf"]["sha256"] == digest
    assert (stage / "superseded" / "1" / "jsmith" / "notice.pdf").is_file()
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".pdf"] == [copy.name]


def test_render_of_an_unchanged_document_hands_over_the_issued_copy(cycle, cli, tmp_path):
    edit, out, stage = cycle
    before = inodes(stage)
    copy = tmp_path / "copy.docx"
    result = cli(
        "render",
        edit(None),
        "--doc",
        "exhibit-i",
        "--for",
        "rgarcia",
        "--to",
        "docx",
        "--out",
        out,
        "-o",
        copy,
        "--as-of",
        LATER,
    )
    assert result.exit_code == 0, result.output
    assert "nothing re-issued" in result.stdout
    assert copy.read_bytes() == (stage / "rgarcia" / "exhibit-i.docx").read_bytes()
    assert inodes(stage) == before


def test_render_of_a_pdf_without_out_is_bad_input_and_html_is_a_preview(cycle, cli, tmp_path):
    edit, out, stage = cycle
    facts = edit(moved_jsmith)
    refused = cli(
        "render",
        facts,
        "--doc",
        "notice",
        "--for",
        "jsmith",
        "--to",
        "pdf",
        "-o",
        tmp_path / "x.pdf",
        "--as-of",
        LATER,
    )
    assert refused.exit_code == 2 and "add --out OUT" in refused.stderr
    assert not (tmp_path / "x.pdf").exists()
    before = tree(stage)
    preview = cli(
        "render",
        facts,
        "--doc",
        "notice",
        "--for",
        "jsmith",
        "--to",
        "html",
        "-o",
        tmp_path / "x.html",
        "--as-of",
        LATER,
    )
    assert preview.exit_code == 0 and "a preview: not issued" in preview.stdout
    assert "40 Cedar Road" in (tmp_path / "x.html").read_text()
    assert tree(stage) == before


def test_render_refuses_on_the_subjects_own_errors_only(samples, tmp_path, cli):
    facts = write_cycle(tmp_path, samples, directors=3, edit=late_mobrien)
    out = tmp_path / "out"

    def render(subject):
        return cli(
            "render",
            facts,
            "--doc",
            "notice",
            "--for",
            subject,
            "--to",
            "pdf",
            "--out",
            out,
            "--as-of",
            GRANT_AS_OF,
        )

    late = render("mobrien")
    assert late.exit_code == 1 and "RSU-ELECTION-LATE" in late.stdout
    assert not out.exists()
    other = render("jsmith")  # another director's error does not stop jsmith's notice
    assert other.exit_code == 0, other.output
    assert sorted(p.name for p in (out / CYCLE / "grant").iterdir() if p.is_dir()) == ["jsmith"]


# ------------------------------------------------------------------ files docgen did not write


def test_a_file_docgen_did_not_write_stops_a_reissue_and_is_never_touched(cycle, cli):
    edit, out, stage = cycle
    signed = stage / "jsmith" / "notice signed.pdf"
    signed.write_bytes(b"%PDF- signed by Jane")
    (stage / "scans").mkdir()
    (stage / "scans" / "page1.png").write_bytes(b"png")
    (stage / ".DS_Store").write_bytes(b"finder")  # an operating system's file never blocks
    before = tree(stage)
    result = cli("batch", edit(moved_jsmith), "--out", out, "--as-of", LATER)
    assert result.exit_code == 2
    assert f"{stage}/jsmith/notice signed.pdf" in result.stderr
    assert f"{stage}/scans/" in result.stderr and "page1.png" not in result.stderr
    assert f"Put signed and returned forms in {out / CYCLE / 'returned'}/" in result.stderr
    assert tree(stage) == before
    # Moved to returned/, they stay there untouched; the re-issue goes ahead.
    returned = out / CYCLE / "returned"
    shutil.move(signed, returned / signed.name)
    shutil.move(stage / "scans", returned / "scans")
    again = cli("batch", edit(moved_jsmith), "--out", out, "--as-of", LATER)
    assert again.exit_code == 0, again.output
    assert (returned / "notice signed.pdf").read_bytes() == b"%PDF- signed by Jane"
    assert (stage / ".DS_Store").read_bytes() == b"finder"
    checked = cli("verify", out / CYCLE)
    assert checked.exit_code == 0, checked.output
    assert "returned" not in checked.stdout


# ------------------------------------------------------------------ the first release's folders


def test_a_first_release_folder_says_how_to_move_it_and_then_works(base, tmp_path, cli):
    facts, issued = base
    out = tmp_path / "out"
    old = out / CYCLE
    shutil.copytree(issued / CYCLE / "grant", old)
    record = json.loads((old / "manifest.json").read_text())
    for key in ("reissue", "held", "superseded"):
        record.pop(key)
    for packet in record["packets"]:
        for key in ("inputs", "inputs_sha256", "facts"):
            packet.pop(key)
    record["manifest_format"] = 1
    (old / "manifest.json").write_text(json.dumps(record))
    for command in (["verify", old], ["batch", facts, "--out", out, "--as-of", GRANT_AS_OF]):
        result = cli(*command)
        assert result.exit_code == 2, command
        assert "issued by docgen's first release" in result.stderr
        assert f"must become {old}/grant/" in result.stderr
    move = result.stderr.strip().splitlines()[-1].strip()
    assert move == f"mv {old} {old}.grant && mkdir {old} && mv {old}.grant {old}/grant"
    subprocess.run(move, shell=True, check=True)
    assert cli("verify", old / "grant").exit_code == 0
    again = cli("batch", facts, "--out", out, "--as-of", GRANT_AS_OF)
    assert again.exit_code == 0, again.output
    assert "issued by docgen's first release, which recorded no inputs" in again.stdout
    assert manifest(old / "grant")["manifest_format"] == 2
    assert cli("verify", old).exit_code == 0


# ------------------------------------------------------------------ payroll ids name the folders


def test_payroll_ids_name_the_participants_folders(cli, samples, tmp_path):
    out = tmp_path / "out"
    result = cli("batch", samples / "rrp-2026-roster.yaml", "--out", out, "--as-of", "2025-12-01")
    assert result.exit_code == 0, result.output
    stage = out / "rrp-2026" / "enrollment"
    # Eligible Employees get a form; C.DAVIS_7 is not one (Plan 1.11).
    assert sorted(p.name for p in stage.iterdir() if p.is_dir()) == [
        "BW1000",
        "BW1001",
        "BW1002",
        "bw2040",
    ]
    assert cli("verify", out / "rrp-2026").exit_code == 0


# ---------------------------------------------------- verify FILE.pdf of a replaced copy


def test_verify_of_a_copy_a_reissue_replaced_says_so_when_its_folder_is_reachable(
    cycle, cli, tmp_path
):
    edit, out, stage = cycle
    first = (stage / "jsmith" / "notice.pdf").read_bytes()
    assert cli("batch", edit(moved_jsmith), "--out", out, "--as-of", LATER).exit_code == 0
    kept = stage / "superseded" / "1" / "jsmith" / "notice.pdf"
    assert kept.read_bytes() == first
    replaced = cli("verify", kept)
    said = " ".join(replaced.stdout.split())
    assert "consistent with the record it carries" in said
    assert (
        f"SUPERSEDED: re-issue 1 of {stage.resolve()} on {LATER} replaced this copy; the current "
        f"copy is {stage.resolve() / 'jsmith' / 'notice.pdf'}"
    ) in said
    current = " ".join(cli("verify", stage / "jsmith" / "notice.pdf").stdout.split())
    assert "It is the current copy in" in current and "jsmith/notice.pdf" in current
    # Away from its folder, a single file cannot know: the note says what to check.
    alone = tmp_path / "inbox" / "notice.pdf"
    alone.parent.mkdir()
    alone.write_bytes(first)
    away = " ".join(cli("verify", alone).stdout.split())
    assert "consistent with the record it carries" in away
    assert "Whether a later re-issue replaced it cannot be known from the file alone" in away


def test_a_listed_file_is_hashed_only_as_the_regular_file_it_was_listed_as(tmp_path):
    """A re-issue hashes each file its manifest lists through one descriptor (issue 27): a link
    put in its place is not followed and a FIFO is not read (neither blocks nor passes)."""
    import os

    from docgen.issue.folder import size_and_sha256

    issued = tmp_path / "notice.pdf"
    issued.write_bytes(b"%PDF-1.7 issued")
    assert size_and_sha256(str(issued)) == (15, hashlib.sha256(b"%PDF-1.7 issued").hexdigest())
    link = tmp_path / "link.pdf"
    link.symlink_to(issued)
    fifo = tmp_path / "fifo.pdf"
    os.mkfifo(fifo)
    for swapped in (link, fifo):
        with pytest.raises(OSError):
            size_and_sha256(str(swapped))
