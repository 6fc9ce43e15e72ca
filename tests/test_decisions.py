"""`docgen approve` and `docgen decide` (A25): the decisions a user typed into YAML, recorded by
a command where the fact lives (the facts file, YAML or JSON; the CSV of filings; a roster row),
as intake writes (same lock, every other byte kept, old or new on any interruption); then what
`check` and `status` say about them. Through the CLI: exit code, message, the files' bytes."""

from __future__ import annotations

import difflib
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from docgen import api
from docgen.core.output import recording_lock
from docgen.load import load_facts

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
UNAPPROVED = SAMPLES / "problems" / "director-unapproved-clauses.yaml"
GRANT = SAMPLES / "director-grant-2026.yaml"
AFTER_DEADLINE = "2026-07-01"
LOCKED = "another docgen run is recording into this file; nothing was written"


def _as_json(source: Path, target: Path) -> Path:
    data = YAML(typ="safe", pure=True).load(source.read_text(encoding="utf-8"))
    target.write_text(json.dumps(data, indent=2, default=str, ensure_ascii=False) + "\n")
    return target


@pytest.fixture(params=["yaml", "json"])
def unapproved(request, tmp_path) -> Path:
    """The problems file whose Section B approval is stale and F.1 never approved."""
    if request.param == "yaml":
        return Path(shutil.copy(UNAPPROVED, tmp_path / "grant.yaml"))
    return _as_json(UNAPPROVED, tmp_path / "grant.json")


@pytest.fixture(params=["yaml", "json"])
def grant(request, tmp_path) -> Path:
    if request.param == "yaml":
        return Path(shutil.copy(GRANT, tmp_path / "grant.yaml"))
    return _as_json(GRANT, tmp_path / "grant.json")


def _drafted_clause_findings(cli, facts: Path) -> list[str]:
    result = cli("check", facts, "--as-of", AFTER_DEADLINE, "--format", "json")
    findings = json.loads(result.stdout)["findings"]
    return sorted(f["message"].split(" ")[0] for f in findings if f["rule"] == "DOC-DRAFTED-CLAUSE")


def _only_inserted(old: bytes, new: bytes) -> list[str]:
    """The lines ``new`` adds to ``old``; fails if any line of ``old`` changed or went."""
    before, after = old.decode().splitlines(True), new.decode().splitlines(True)
    added = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=before, b=after).get_opcodes():
        assert tag in ("equal", "insert"), (tag, before[i1:i2], after[j1:j2])
        if tag == "insert":
            added += after[j1:j2]
    return added


def _one(message: str) -> str:
    return " ".join(message.split())


# ---------------------------------------------------------------- approve


def test_approving_every_wording_shown_turns_the_check_clean(cli, unapproved, tmp_path):
    review = tmp_path / "review.txt"
    assert cli("clauses", unapproved, "-o", review).exit_code == 0
    assert _drafted_clause_findings(cli, unapproved) == [
        "notice.b-accelerated-vesting",
        "notice.f1-payment-date",
    ]
    before = unapproved.read_bytes()
    result = cli(
        "approve", unapproved, "--all-shown", "--shown", review, "--by", "A. Counsel", "--on",
        "2026-06-01",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    shown = _one(result.stdout)
    assert "Recorded: notice.f1-payment-date (Section F.1, Payment Date (with an election)) " \
        "approved by A. Counsel on 2026-06-01" in shown  # fmt: skip
    assert "notice.grant-summary: already approved in these words by A. Counsel" in shown
    assert "Every wording the cycle's documents carry is approved." in shown
    assert _drafted_clause_findings(cli, unapproved) == []
    facts = load_facts(unapproved).facts
    # The review shows `docgen send`'s cover letters too (A26): approved with the rest.
    assert [a.clause for a in facts.clause_approvals[-2:]] == [
        "letter.forms-out",
        "letter.reminder",
    ]
    added = facts.clause_approvals[-4:-2]
    assert [(a.clause, a.by, a.on.isoformat()) for a in added] == [
        ("notice.b-accelerated-vesting", "A. Counsel", "2026-06-01"),
        ("notice.f1-payment-date", "A. Counsel", "2026-06-01"),
    ]
    # The approval carries the words approved, as `docgen clauses` shows them.
    reviews = {r["id"]: r for r in json.loads(api.clauses(unapproved, "json"))["clauses"]}
    assert added[1].wording == reviews["notice.f1-payment-date"]["text"]
    assert added[1].sha256 == reviews["notice.f1-payment-date"]["sha256"]
    # Every other byte as it was; the earlier (stale) approval of Section B stays on record.
    if unapproved.suffix == ".yaml":
        lines = _only_inserted(before, unapproved.read_bytes())
        assert lines[0] == "  - clause: notice.b-accelerated-vesting\n"
        assert "    wording: |\n" in lines  # a literal block, as the block to paste has it
    else:
        old, new = json.loads(before), json.loads(unapproved.read_bytes())
        assert new["clause_approvals"][:-4] == old["clause_approvals"]
        assert {k: v for k, v in new.items() if k != "clause_approvals"} == {
            k: v for k, v in old.items() if k != "clause_approvals"
        }
    # Approving again writes nothing.
    again = cli("approve", unapproved, "--wording", "notice.f1-payment-date", "--by", "B. Other")
    assert again.exit_code == 0, again.output
    assert "notice.f1-payment-date: already approved in these words by A. Counsel on " \
        "2026-06-01; nothing written for it." in _one(again.stdout)  # fmt: skip


def test_one_wording_approved_by_id_from_the_json_review(cli, unapproved, tmp_path):
    review = tmp_path / "review.json"
    assert cli("clauses", unapproved, "--format", "json", "-o", review).exit_code == 0
    result = cli(
        "approve", unapproved, "--wording", "notice.f1-payment-date", "--shown", review, "--by",
        "A. Counsel",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert _drafted_clause_findings(cli, unapproved) == ["notice.b-accelerated-vesting"]
    assert "Still awaiting counsel's approval: notice.b-accelerated-vesting" in _one(result.stdout)


def _company_templates(cli, tmp_path: Path) -> tuple[Path, Path]:
    """The grant with its templates exported into templates/ and named by templates_dir."""
    folder = tmp_path / "templates"
    assert cli("templates", "--export", folder).exit_code == 0
    facts = tmp_path / "grant.yaml"
    text = GRANT.read_text(encoding="utf-8")
    facts.write_text(text.replace("\ngrant:", "\ntemplates_dir: templates\ngrant:", 1))
    return facts, folder


def test_a_wording_changed_since_it_was_shown_is_refused_by_name(cli, tmp_path):
    facts, folder = _company_templates(cli, tmp_path)
    notice = folder / "notice.html.j2"
    notice.write_text(notice.read_text().replace("NOTICE OF", "NOTICE OF THE", 1))
    review = tmp_path / "review.txt"
    assert cli("clauses", facts, "-o", review).exit_code == 0
    assert "template.notice: " in review.read_text()
    # After counsel read the review, someone changes the words again.
    notice.write_text(notice.read_text().replace("NOTICE OF THE", "NOTICE OF A", 1))
    before = facts.read_bytes()
    result = cli("approve", facts, "--all-shown", "--shown", review, "--by", "A. Counsel")
    assert result.exit_code == 2, result.output
    message = _one(result.stderr)
    assert "grant.yaml: template.notice: its wording changed since it was shown: counsel was " \
        "shown SHA-256 " in message  # fmt: skip
    assert "Have counsel read it as it now reads (`docgen clauses " in message
    assert "nothing was written" in message or "problem" in message
    assert facts.read_bytes() == before


def test_a_company_template_is_approved_as_a_clause_is(cli, tmp_path):
    facts, folder = _company_templates(cli, tmp_path)
    notice = folder / "notice.html.j2"
    notice.write_text(notice.read_text().replace("NOTICE OF", "NOTICE OF THE", 1))
    assert _drafted_clause_findings(cli, facts) == ["template.notice"]
    result = cli("approve", facts, "--wording", "template.notice", "--by", "A. Counsel")
    assert result.exit_code == 0, result.output
    assert _drafted_clause_findings(cli, facts) == []
    approval = load_facts(facts).facts.clause_approvals[-1]
    assert approval.clause == "template.notice" and "NOTICE OF THE" in (approval.wording or "")


@pytest.mark.parametrize(
    "args, says",
    [
        (
            ["--wording", "notice.f1-paymnt-date", "--by", "A. Counsel"],
            "grant.yaml: notice.f1-paymnt-date: no document of this cycle carries a wording "
            "with this id. Did you mean notice.f1-payment-date?",
        ),
        (
            ["--wording", "notice.f1-payment-date"],
            "--by: write counsel's name, e.g. --by 'A. Counsel'.",
        ),
        (
            ["--wording", "notice.f1-payment-date", "--by", "  "],
            "--by: write counsel's name, e.g. --by 'A. Counsel'.",
        ),
        (
            ["--all-shown", "--by", "A. Counsel"],
            "--all-shown approves every wording counsel was shown: give that review with "
            "--shown FILE (saved by `docgen clauses",
        ),
        (
            ["--by", "A. Counsel"],
            "name the wording to approve with --wording ID (`docgen clauses` lists the ids), "
            "or approve every wording of a review with --all-shown --shown FILE.",
        ),
        (
            ["--wording", "notice.f1-payment-date", "--by", "<counsel>"],
            "grant.yaml: --by: is the placeholder `docgen clauses` printed, not a name. Give "
            "counsel's name as plain text, e.g. --by 'A. Counsel'.",
        ),
        (
            ["--wording", "notice.f1-payment-date", "--by", "A. Counsel", "--on", "June 1"],
            "--on: expected a date as YYYY-MM-DD (got June 1).",
        ),
        (
            ["--all-shown", "--shown", "missing.txt", "--by", "A. Counsel"],
            "--shown missing.txt: no such file. Save the review counsel reads first: docgen "
            "clauses FACTS -o missing.txt.",
        ),
    ],
)
def test_bad_approvals_are_refused_with_nothing_written(cli, tmp_path, args, says):
    facts = Path(shutil.copy(UNAPPROVED, tmp_path / "grant.yaml"))
    before = facts.read_bytes()
    old = Path.cwd()
    os.chdir(tmp_path)
    try:
        result = cli("approve", "grant.yaml", *args)
    finally:
        os.chdir(old)
    assert result.exit_code == 2, result.output
    assert says in _one(result.stderr), result.stderr
    assert "Traceback" not in result.output
    assert facts.read_bytes() == before


def test_a_wording_the_review_did_not_show_is_refused(cli, tmp_path):
    facts = Path(shutil.copy(UNAPPROVED, tmp_path / "grant.yaml"))
    review = tmp_path / "review.json"
    review.write_text(json.dumps({"clauses": [{"id": "notice.grant-summary", "sha256": "0" * 64}]}))
    result = cli(
        "approve", facts, "--wording", "notice.f1-payment-date", "--shown", review, "--by", "A. C"
    )
    assert result.exit_code == 2
    assert "notice.f1-payment-date: was not in the review counsel was shown (--shown)" in _one(
        result.stderr
    )


# ---------------------------------------------------------------- decide


def _status_row(cli, facts: Path, subject: str) -> dict:
    result = cli("status", facts, "--as-of", AFTER_DEADLINE, "--format", "json")
    return next(row for row in json.loads(result.stdout)["subjects"] if row["subject"] == subject)


def test_a_form_decided_not_in_effect_and_back(cli, grant):
    before = grant.read_bytes()
    assert _status_row(cli, grant, "rgarcia")["election"] == "(b) 2030-07-01"
    result = cli(
        "decide", grant, "--for", "rgarcia", "--form", "2", "--ineffective", "--reason",
        "signed by an attorney-in-fact; no power of attorney on file", "--by", "C. Secretary",
        "--as-of", AFTER_DEADLINE,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Recorded: rgarcia (Roberto García), form 2 ((b) 2030-07-01, received 2026-05-20, " \
        "recorded as not in effect): not in effect, decided by C. Secretary: signed by an " \
        "attorney-in-fact; no power of attorney on file." in _one(result.stdout)  # fmt: skip
    assert "RSU-ELECTION-INEFFECTIVE" in result.stdout
    election = load_facts(grant).facts.directors[1].elections[1]
    assert (election.status, election.decided_by) == ("ineffective", "C. Secretary")
    row = _status_row(cli, grant, "rgarcia")
    assert row["election"] == "(a) separation" and "C. Secretary" in row["why_not"]
    if grant.suffix == ".yaml":
        assert _only_inserted(before, grant.read_bytes()) == [
            "        status: ineffective\n",
            "        reason: signed by an attorney-in-fact; no power of attorney on file\n",
            "        decided_by: C. Secretary\n",
        ]
    back = cli("decide", grant, "--for", "rgarcia", "--form", "2", "--in-effect", "--as-of",
               AFTER_DEADLINE)  # fmt: skip
    assert back.exit_code == 0, back.output
    assert grant.read_bytes() == before  # the decision taken out, byte for byte
    assert _status_row(cli, grant, "rgarcia")["election"] == "(b) 2030-07-01"


def test_a_form_written_in_flow_style_is_decided_in_flow_style(cli, tmp_path):
    facts = Path(shutil.copy(UNAPPROVED, tmp_path / "grant.yaml"))
    before = facts.read_bytes()
    result = cli(*DECIDE[:1], facts, *DECIDE[2:])
    assert result.exit_code == 0, result.output
    changed = [
        line for line in facts.read_text().splitlines() if line not in before.decode().splitlines()
    ]
    assert changed == [
        "      - {grant_id: 2026-annual, filed_on: 2026-05-15, percent: 100, pay_on: separation, "
        "status: ineffective, reason: late, decided_by: C. Secretary}"
    ]
    back = cli("decide", facts, "--for", "jsmith", "--in-effect", "--as-of", AFTER_DEADLINE)
    assert back.exit_code == 0, back.output
    assert facts.read_bytes() == before  # each field taken out with its comma


def test_a_form_in_a_csv_of_filings_is_decided_in_its_row(cli, tmp_path):
    shutil.copytree(SAMPLES / "hris", tmp_path / "hris")
    facts = Path(shutil.copy(SAMPLES / "rrp-2026-hris.yaml", tmp_path / "rrp.yaml"))
    csv = tmp_path / "hris" / "elections.csv"
    before, facts_before = csv.read_bytes(), facts.read_bytes()
    result = cli(
        "decide", facts, "--for", "e1007", "--form", "2", "--ineffective", "--reason",
        "made after the Plan Year began", "--by", "Benefits, HR", "--as-of", "2025-12-20",
    )  # fmt: skip
    assert result.exit_code in (0, 1), result.output
    checked = cli("check", facts, "--as-of", "2025-12-20", "--format", "json")
    findings = json.loads(checked.stdout)["findings"]
    assert [f["path"] for f in findings if f["rule"] == "RRP-ELECTION-INEFFECTIVE"] == [
        "participants[6].elections[1].status"
    ]
    changed = [
        (a, b)
        for a, b in zip(before.decode().splitlines(), csv.read_bytes().decode().splitlines(),
                        strict=True)
        if a != b
    ]  # fmt: skip
    assert changed == [
        (
            "e1007,2026,salary,6,2025-11-30,,,,,,,,,,,,",
            "e1007,2026,salary,6,2025-11-30,,,,,ineffective,made after the Plan Year began,"
            '"Benefits, HR",,,,,',
        )
    ]
    assert csv.read_bytes().startswith(b"\xef\xbb\xbf")  # its byte-order mark kept
    assert facts.read_bytes() == facts_before
    back = cli("decide", facts, "--for", "e1007", "--form", "2", "--in-effect", "--as-of",
               "2025-12-20")  # fmt: skip
    assert back.exit_code in (0, 1), back.output
    assert csv.read_bytes() == before


def test_a_director_roster_row_takes_the_decision_in_its_election_cells(cli, tmp_path):
    shutil.copy(SAMPLES / "roster.csv", tmp_path / "roster.csv")
    facts = Path(shutil.copy(SAMPLES / "director-grant-2026-roster.yaml", tmp_path / "g.yaml"))
    before = (tmp_path / "roster.csv").read_text(encoding="utf-8").splitlines()
    result = cli(
        "decide", facts, "--for", "kpatel", "--ineffective", "--reason", "unsigned",
        "--by", "C. Secretary", "--as-of", AFTER_DEADLINE,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    after = (tmp_path / "roster.csv").read_text(encoding="utf-8").splitlines()
    assert after[0] == before[0] + ",election_status,election_reason,election_decided_by"
    assert after[1] == before[1] + ",ineffective,unsigned,C. Secretary"
    assert after[2:] == before[2:]
    director = load_facts(facts).facts.directors[0]
    assert (director.id, director.elections[0].status) == ("kpatel", "ineffective")


def test_an_rrp_roster_row_has_no_room_for_a_decision(cli, tmp_path):
    shutil.copy(SAMPLES / "participants.csv", tmp_path / "participants.csv")
    facts = Path(shutil.copy(SAMPLES / "rrp-2026-roster.yaml", tmp_path / "rrp.yaml"))
    before = (tmp_path / "participants.csv").read_bytes()
    result = cli(
        "decide", facts, "--for", "BW1000", "--ineffective", "--reason", "late", "--by", "HR",
        "--as-of", "2025-12-20",
    )  # fmt: skip
    assert result.exit_code == 2, result.output
    message = _one(result.stderr)
    assert "BW1000's election is in the roster row's elections columns, which have no room for " \
        "a decision about it (status, reason, decided_by)" in message  # fmt: skip
    assert "Name a CSV for them in the facts' elections_csv field" in message
    assert (tmp_path / "participants.csv").read_bytes() == before


def test_an_rrp_roster_election_moves_to_the_csv_of_filings_with_its_decision(cli, tmp_path):
    shutil.copy(SAMPLES / "participants.csv", tmp_path / "participants.csv")
    text = (SAMPLES / "rrp-2026-roster.yaml").read_text(encoding="utf-8")
    text = text.replace("\nparticipants_csv:", "\nelections_csv: elections.csv\nparticipants_csv:")
    facts = tmp_path / "rrp.yaml"
    facts.write_text(text, encoding="utf-8")
    header = "participant_id,plan_year,kind,percent,made_on,status,reason,decided_by\n"
    (tmp_path / "elections.csv").write_text(header)
    result = cli(
        "decide", facts, "--for", "BW1000", "--ineffective", "--reason", "late", "--by", "HR",
        "--as-of", "2025-12-20",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert (tmp_path / "elections.csv").read_text() == (
        header + "BW1000,2026,salary,10,2025-11-14,ineffective,late,HR\n"
    )
    row = (tmp_path / "participants.csv").read_text().split("\nBW1001", 1)[0]
    assert row.endswith('"512,000.00",,2011-05-16,,2025-12-31,,,,')  # the election cells emptied
    assert load_facts(facts).facts.participants[0].elections[0].status == "ineffective"


@pytest.mark.parametrize(
    "args, says",
    [
        (
            ["--for", "rgarcai", "--form", "1", "--in-effect"],
            "docgen decide --for rgarcai: --for: no director rgarcai in grant.yaml. Did you "
            "mean rgarcia?",
        ),
        (
            ["--for", "rgarcia", "--form", "3", "--in-effect"],
            "docgen decide --for rgarcia: --form: rgarcia has 2 forms on record, so no form 3. "
            "Name one with --form N: 1: (a) separation, received 2026-05-04; 2: (b) 2030-07-01, "
            "received 2026-05-20.",
        ),
        (
            ["--for", "rgarcia", "--form", "0", "--in-effect"],
            "rgarcia has 2 forms on record, so no form 0.",
        ),
        (
            ["--for", "rgarcia", "--in-effect"],
            "--form: rgarcia has 2 forms on record. Name one with --form N: 1: (a) separation",
        ),
        (
            ["--for", "tnguyen", "--in-effect"],
            "--form: tnguyen has no form on record. `docgen status` shows who has.",
        ),
        (
            ["--for", "jsmith", "--ineffective", "--reason", "late"],
            "docgen decide --for jsmith: --by: is missing: a form decided not in effect is "
            "recorded with who decided. Name who decided, e.g. --by 'A. Counsel'.",
        ),
        (
            ["--for", "jsmith", "--ineffective", "--by", "C. Secretary"],
            "--reason: is missing: a form decided not in effect is recorded with why.",
        ),
        (
            ["--for", "jsmith", "--ineffective", "--reason", "late\x07", "--by", "C. Secretary"],
            "docgen decide --for jsmith: --reason: contains U+0007 (BEL) at character 5",
        ),
        (
            ["--for", "jsmith", "--in-effect", "--by", "C. Secretary"],
            "--by: is for a form decided not in effect (--ineffective).",
        ),
        (
            ["--for", "jsmith"],
            "docgen decide: say what was decided: --ineffective --reason WHY --by NAME, or "
            "--in-effect, or --signature-seen-by NAME.",
        ),
    ],
)
def test_bad_decisions_are_refused_with_nothing_written(cli, tmp_path, args, says):
    facts = Path(shutil.copy(GRANT, tmp_path / "grant.yaml"))
    before = facts.read_bytes()
    old = Path.cwd()
    os.chdir(tmp_path)
    try:
        result = cli("decide", "grant.yaml", *args, "--as-of", AFTER_DEADLINE)
    finally:
        os.chdir(old)
    assert result.exit_code == 2, result.output
    assert says in _one(result.stderr), result.stderr
    assert "Traceback" not in result.output
    assert facts.read_bytes() == before


# ---------------------------------------------------------------- one lock, old or new

APPROVE = ["approve", "grant.yaml", "--wording", "notice.f1-payment-date", "--by", "A. Counsel"]
DECIDE = [
    "decide", "grant.yaml", "--for", "jsmith", "--form", "1", "--ineffective", "--reason",
    "late", "--by", "C. Secretary", "--as-of", AFTER_DEADLINE,
]  # fmt: skip
DOCGEN = Path(sys.executable).parent / "docgen"
KILL_BEFORE_RENAME = textwrap.dedent(
    """
    import os, signal, sys
    import docgen.core.output as output
    output.os.replace = lambda *a: os.kill(os.getpid(), signal.SIGKILL)
    from docgen.cli import app
    sys.argv = ["docgen", *sys.argv[1:]]
    app()
    """
)


@pytest.mark.parametrize("command", [APPROVE, DECIDE], ids=["approve", "decide"])
def test_a_run_is_refused_while_another_records(cli, tmp_path, command):
    facts = Path(shutil.copy(UNAPPROVED, tmp_path / "grant.yaml"))
    before = facts.read_bytes()
    with recording_lock(facts):  # an intake, mid-way through its filing
        result = cli(*command[:1], facts, *command[2:])
    assert result.exit_code == 2, result.output
    assert f"{facts}: {LOCKED}" in _one(result.stderr)
    assert facts.read_bytes() == before


@pytest.mark.slow
@pytest.mark.parametrize("command", [APPROVE, DECIDE], ids=["approve", "decide"])
def test_a_run_killed_before_its_rename_leaves_the_old_file(tmp_path, command):
    facts = Path(shutil.copy(UNAPPROVED, tmp_path / "grant.yaml"))
    before = facts.read_bytes()
    killed = subprocess.run(
        [sys.executable, "-c", KILL_BEFORE_RENAME, *command],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert facts.read_bytes() == before  # the old file, whole
    left = [p.name for p in tmp_path.iterdir() if p.name != "grant.yaml"]
    assert len(left) == 1 and ".docgen-" in left[0], left
    later = subprocess.run(
        [str(DOCGEN), *command], cwd=tmp_path, capture_output=True, text=True, timeout=120,
        check=False,
    )  # fmt: skip
    assert later.returncode in (0, 1), later.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["grant.yaml"]  # its temporary removed
    assert facts.read_bytes() != before


# ---------------------------------------------------------------- the review copy


def test_a_review_copy_is_made_before_the_filing_deadline_and_says_so(cli, tmp_path):
    import docx

    facts = Path(shutil.copy(SAMPLES / "tour" / "1-forms-out.yaml", tmp_path / "t.yaml"))
    review = tmp_path / "review.docx"
    result = cli(
        "render", facts, "--doc", "notice", "--for", "jsmith", "--stage", "grant", "--to",
        "docx", "--review", "-o", review, "--as-of", "2026-06-01",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "counsel's review copy: not issued" in result.stdout
    first = docx.Document(str(review)).paragraphs[0].text
    assert first.startswith("Review copy for counsel, not for issue.")
    assert first.endswith(
        "Made as of a day it could not be issued: Grant packets as of 2026-06-01, before the "
        "filing deadline 2026-06-23: Exhibit I may still be filed through 2026-06-22, so the "
        "record of elections is not final."
    )
    # The packet itself is still refused that day.
    issued = cli(
        "render", facts, "--doc", "notice", "--for", "jsmith", "--stage", "grant", "--to", "pdf",
        "--out", tmp_path / "out", "--as-of", "2026-06-01",
    )  # fmt: skip
    assert issued.exit_code == 1
    assert "RSU-GRANT-PACKET-BEFORE-DEADLINE" in issued.output
    assert not (tmp_path / "out").exists()
