"""Drafted clauses as data (DESIGN.md, "Drafted clauses and counsel's approval"): each clause's id,
fragment, SHA-256 and approval; which copies carry it, known without rendering and proved against
the rendered marks; `docgen clauses`, the block it prints, and the first release's
drafted_clauses_approved_by."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from docgen.checker.clauses import review_clauses
from docgen.checker.runner import run_checks
from docgen.core.clauses import CLAUSES_FOLDER, marks_in, sha256_text
from docgen.core.resources import read_template, templates_dir
from docgen.core.wording import wording_of, wording_sha256
from docgen.kinds import all_kinds, get_kind
from docgen.load import load_facts
from docgen.render.html import render_html

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
GRANT = SAMPLES / "director-grant-2026.yaml"
RRP = SAMPLES / "rrp-2026.yaml"


def copy_facts(tmp_path: Path, source: Path = GRANT, edits: dict[str, str] | None = None) -> Path:
    text = source.read_text(encoding="utf-8")
    for old, new in (edits or {}).items():
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / source.name
    path.write_text(text, encoding="utf-8")
    return path


def without_approvals(tmp_path: Path, source: Path = GRANT) -> Path:
    text = source.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^clause_approvals:\n(?:  .*\n)*", "clause_approvals: []\n", text)
    path = tmp_path / source.name
    path.write_text(text)
    return path


def clause_errors(report) -> dict[str, str]:
    return {
        f.message.split(" ", 1)[0]: f.message
        for f in report.findings
        if f.rule == "DOC-DRAFTED-CLAUSE"
    }


# ----------------------------------------------------------------- the clauses as data


def test_every_clause_has_its_fragment_and_every_fragment_a_clause():
    clauses = {clause.fragment: clause for kind in all_kinds() for clause in kind.clauses}
    fragments = {
        p.relative_to(templates_dir()).as_posix()
        for p in (templates_dir() / CLAUSES_FOLDER).glob("*.html.j2")
    }
    assert fragments == set(clauses)
    for fragment, clause in clauses.items():
        text, _ = read_template(fragment)
        # The fragment marks itself, once, on its outer element: its first tag.
        assert marks_in(text) == [clause.id], fragment
        assert text.lstrip().startswith("<") and clause.mark in text.split(">", 1)[0] + ">"
        assert clause.rationale and clause.citations and clause.section and clause.documents
        for document in clause.documents:
            assert any(spec.name == document for kind in all_kinds() for spec in kind.documents)


def test_clause_ids_are_unique_and_stable_in_form():
    ids = [clause.id for kind in all_kinds() for clause in kind.clauses]
    assert len(ids) == len(set(ids))
    for clause_id in ids:
        document = clause_id.split(".", 1)[0]
        assert document in {"notice", "exhibit-i", "rrp-election"}, clause_id


def test_the_sha256_is_of_the_wording_as_it_reads():
    clause = get_kind("director-rsu-grant").clause("notice.b-accelerated-vesting")
    text, _ = read_template(clause.fragment)
    import hashlib

    wording = wording_of(text)
    assert sha256_text(text) == hashlib.sha256(wording.encode("utf-8")).hexdigest()
    assert sha256_text(text.replace("Notwithstanding", "Notwithstandinq")) != sha256_text(text)
    # Markup and spacing alone are not words: the approval still counts.
    for edit in (
        text.replace('<p class="clause">', '<p class="clause wide">'),
        text.replace("Notwithstanding Section A, if", "Notwithstanding  Section A,\n if"),
        text.replace("your death", "<em>your death</em>"),
        text.replace("{% if accelerate_on %}", "{%- if accelerate_on -%}"),
    ):
        assert edit != text and sha256_text(edit) == sha256_text(text)


def test_section_b3_reads_as_a_409a_change_in_control_event():
    text, _ = read_template("clauses/notice.b-accelerated-vesting.html.j2")
    assert (
        "a Change of Control that is also a change in control event (Code section 409A(a)(2)(A)(v))"
    ) in text


# -------------------------------------------- which copies carry which clause, without rendering

VARIANTS = {
    "sample": {},
    "annual meeting": {"annual_meeting_date: null ": "annual_meeting_date: 2027-06-01 "},
    "deadline before the grant": {
        "  election_deadline: 2026-06-23 ": "  election_deadline: 2026-06-16 "
    },
    "no acceleration": {
        "accelerate_on: [death, disability, change_of_control]": "accelerate_on: []"
    },
}


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_rendered_marks_are_exactly_the_clauses_the_registry_says(tmp_path, variant):
    loaded = load_facts(copy_facts(tmp_path, GRANT, VARIANTS[variant]))
    facts = loaded.facts
    kind = get_kind(facts.kind)
    for stage in kind.stages:
        for subject, spec in kind.issued(facts, stage):
            expected = {
                clause.id
                for clause in kind.clauses
                if spec.name in clause.documents and clause.used(facts, subject, stage)
            }
            marks = marks_in(render_html(loaded, spec.name, subject.id, stage))
            assert None not in marks, (spec.name, subject.id, stage)
            assert set(marks) == expected, (spec.name, subject.id, stage)
            assert len(marks) == len(set(marks))  # each clause once per copy


def test_the_rrp_forms_marks_are_exactly_its_clauses():
    loaded = load_facts(RRP)
    kind = get_kind(loaded.facts.kind)
    for subject, spec in kind.issued(loaded.facts, "enrollment"):
        marks = marks_in(render_html(loaded, spec.name, subject.id, "enrollment"))
        assert marks == [clause.id for clause in kind.clauses]


def test_conditional_clauses_are_used_only_where_the_facts_call_for_them(tmp_path):
    plain = {r.id for r in review_clauses(load_facts(GRANT))}
    assert "notice.a-annual-meeting-vesting" not in plain
    assert "exhibit-i.deadline-before-grant" not in plain
    meeting = load_facts(copy_facts(tmp_path, GRANT, VARIANTS["annual meeting"]))
    assert "notice.a-annual-meeting-vesting" in {r.id for r in review_clauses(meeting)}
    # The blank forms of the elections stage carry no on-file copy and no Notice clause.
    elections = {r.id for r in review_clauses(load_facts(GRANT), "elections")}
    assert "exhibit-i.iii-on-file" not in elections
    assert not any(clause.startswith("notice.") for clause in elections)


# ------------------------------------------------------------------ approvals and the check


def test_the_samples_approve_every_clause_their_documents_carry():
    for path in (GRANT, RRP, SAMPLES / "director-grant-2026-roster.yaml"):
        reviews = review_clauses(load_facts(path))
        assert reviews and all(review.approved for review in reviews), path.name


def test_an_approval_stops_counting_when_one_character_of_the_clause_changes(tmp_path):
    # The company's own copy of clause C.1, one character different: "earliest" -> "earliast".
    forms = tmp_path / "forms" / CLAUSES_FOLDER
    forms.mkdir(parents=True)
    text, _ = read_template("clauses/notice.c1-payment-date.html.j2")
    changed = text.replace("will be the earliest of:", "will be the earliast of:", 1)
    assert len(changed) == len(text) and changed != text
    (forms / "notice.c1-payment-date.html.j2").write_text(changed, encoding="utf-8")
    path = copy_facts(
        tmp_path, GRANT, {"directors_csv: null": "templates_dir: forms\ndirectors_csv: null"}
    )
    report = run_checks(load_facts(path), date(2026, 6, 23), "grant")
    errors = clause_errors(report)
    assert list(errors) == ["notice.c1-payment-date"]
    message = errors["notice.c1-payment-date"]
    assert "the approval by A. Counsel on 2026-05-01 is of other wording" in message
    assert f"now reads SHA-256 {sha256_text(changed)[:12]}" in message
    finding = next(f for f in report.findings if f.rule == "DOC-DRAFTED-CLAUSE")
    assert finding.severity == "error" and report.exit_code() == 1
    assert sha256_text(changed) in finding.remedy  # the new SHA-256, to record once approved
    # The line points at the stale approval in the facts file.
    line = path.read_text().splitlines()[finding.line - 1]
    assert "clause: notice.c1-payment-date" in line
    review = next(r for r in report.clauses if r.id == "notice.c1-payment-date")
    assert (review.status, review.source) == ("approval stale", "forms/" + review_fragment(review))


def review_fragment(review) -> str:
    return f"clauses/{review.id}.html.j2"


def test_an_approval_of_the_present_wording_clears_it(tmp_path):
    path = without_approvals(tmp_path)
    report = run_checks(load_facts(path), date(2026, 6, 23), "grant")
    assert len(clause_errors(report)) == 14  # every clause the grant packets carry
    # A sentence of its own, then the remedy ("... is not approved by counsel. Have counsel ...").
    assert all(m.endswith("is not approved by counsel.") for m in clause_errors(report).values())
    one = next(r for r in report.clauses if r.id == "notice.grant-summary")
    text = path.read_text().replace(
        "clause_approvals: []",
        f"clause_approvals:\n  - {{clause: notice.grant-summary, sha256: {one.sha256}, "
        'by: "B. Counsel", on: 2026-05-02}',
    )
    path.write_text(text)
    again = run_checks(load_facts(path), date(2026, 6, 23), "grant")
    assert "notice.grant-summary" not in clause_errors(again)
    assert len(clause_errors(again)) == 13


def test_check_reports_drafted_clauses_with_no_renderer_imported(tmp_path):
    path = without_approvals(tmp_path)
    probe = (
        "import sys\n"
        "from docgen.cli import main\n"
        "for fmt in ('text', 'json', 'md'):\n"
        f"    sys.argv = ['docgen', 'check', {str(path)!r}, '--as-of', '2026-06-23',\n"
        "                '--format', fmt]\n"
        "    try:\n"
        "        main()\n"
        "    except SystemExit as done:\n"
        "        print('EXIT', done.code, file=sys.stderr)\n"
        # Jinja's parser reads the templates' wording; its sandbox and renderers never load.
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('weasyprint', 'docx',\n"
        "    'pypdf') or m.startswith('docgen.render') or m == 'jinja2.sandbox')\n"
        "print('RENDERERS', loaded, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert "RENDERERS []" in done.stderr, done.stderr
    assert done.stderr.count("EXIT 1") == 3
    assert done.stdout.count("DOC-DRAFTED-CLAUSE") >= 14 * 3
    assert "notice.b-accelerated-vesting (Notice, Section B; 10 copies of notice)" in done.stdout


def test_check_json_lists_each_clause_with_its_approval(cli):
    result = cli("check", GRANT, "--as-of", "2026-06-23", "--format", "json")
    clauses = json.loads(result.stdout)["clauses"]
    assert [c["id"] for c in clauses][:2] == [
        "notice.grant-summary",
        "notice.b-accelerated-vesting",
    ]
    first = clauses[0]
    assert first["approved"] is True and first["approved_by"] == "A. Counsel"
    assert first["approved_on"] == "2026-05-01" and first["status"] == "approved"
    assert first["sha256"] == wording_sha256(first["text"])
    assert first["documents"] == ["notice"] and first["copies"] == 10


# ------------------------------------------------------------------------- docgen clauses


def test_clauses_lists_every_clause_with_text_sha_and_approval(cli):
    result = cli("clauses", GRANT)
    assert result.exit_code == 0
    out = result.stdout
    # 14 drafted clauses, and the two cover letters of `docgen send` (issue 42)
    assert "(every stage): 16, 16 approved by counsel." in out
    assert "letter.forms-out: Cover letter sent with the blank form" in out
    for review in review_clauses(load_facts(GRANT)):
        assert f"{review.id}: {review.title}" in out
        assert review.sha256 in out
    assert "status:  approved by A. Counsel on 2026-05-01" in out
    assert "    | (iv) the [Default Payment Anniversary] anniversary of the Grant Date." in out


def test_clauses_json_follows_the_contract(cli):
    result = cli("clauses", RRP, "--format", "json")
    data = json.loads(result.stdout)
    assert {"facts", "clauses", "clause_approvals_block"} <= set(data)
    for clause in data["clauses"]:
        assert {"id", "documents", "text", "sha256", "approved", "approved_by"} <= set(clause)
    assert [c["id"] for c in data["clauses"]] == [
        *(c.id for c in get_kind("rrp-plan-year").clauses),
        "letter.forms-out",  # the cover letters of `docgen send` (issue 42)
        "letter.reminder",
    ]


def test_the_printed_block_pasted_into_the_facts_approves_every_clause(cli, tmp_path):
    path = without_approvals(tmp_path)
    result = cli("clauses", path, "--by", "A. Counsel", "--on", "2026-05-03", "--format", "json")
    block = json.loads(result.stdout)["clause_approvals_block"]
    path.write_text(path.read_text().replace("clause_approvals: []\n", block))
    checked = cli("check", path, "--as-of", "2026-06-23", "--format", "json")
    assert checked.exit_code == 0, checked.stdout
    report = json.loads(checked.stdout)
    assert all(c["approved_on"] == "2026-05-03" for c in report["clauses"])


def test_the_block_without_by_and_on_does_not_load_until_edited(cli, tmp_path):
    path = without_approvals(tmp_path)
    block = json.loads(cli("clauses", path, "--format", "json").stdout)["clause_approvals_block"]
    assert '    by: "<counsel>"\n    on: <YYYY-MM-DD>\n' in block
    path.write_text(path.read_text().replace("clause_approvals: []\n", block))
    result = cli("validate", path)
    assert result.exit_code == 2
    assert "is the placeholder `docgen clauses` printed, not a name" in result.stderr
    assert "expected a date as YYYY-MM-DD (got <YYYY-MM-DD>)" in result.stderr


def test_the_first_releases_approval_is_refused_with_the_way_forward(cli, tmp_path):
    path = copy_facts(
        tmp_path,
        without_approvals(tmp_path),
        {"clause_approvals: []": 'drafted_clauses_approved_by: "A. Counsel, 2026-05-01"'},
    )
    refused = cli("check", path, "--as-of", "2026-06-23")
    assert refused.exit_code == 2
    assert "drafted_clauses_approved_by: is a field of docgen's first release" in refused.stderr
    assert "Run `docgen clauses` on this file" in refused.stderr
    # `docgen clauses` still reads it, says so, and prints the block to replace it with.
    listed = cli("clauses", path)
    assert listed.exit_code == 0, listed.stderr
    assert (
        "drafted_clauses_approved_by ('A. Counsel, 2026-05-01') approved every drafted clause"
        in listed.stdout
    )
    assert "on: <YYYY-MM-DD>\n    wording: |" in listed.stdout
    assert "16, 0 approved by counsel" in listed.stdout  # the two letters among them


def test_an_approval_of_a_clause_no_document_has_is_a_load_error(cli, tmp_path):
    path = copy_facts(
        tmp_path, GRANT, {"clause: notice.grant-summary\n": "clause: notice.grant-sumary\n"}
    )
    result = cli("validate", path)
    assert result.exit_code == 2
    assert "no drafted clause notice.grant-sumary" in result.stderr
    assert "Did you mean notice.grant-summary?" in result.stderr


def test_explain_shows_every_drafted_clauses_wording(cli):
    result = cli("explain", "DOC-DRAFTED-CLAUSE")
    assert result.exit_code == 0
    assert "severity: error" in result.stdout
    for kind in all_kinds():
        for clause in kind.clauses:
            text, _ = read_template(clause.fragment)
            assert f"  {clause.id}: {clause.title}" in result.stdout
            assert sha256_text(text) in result.stdout
    assert "the date your service as a Director terminates as a result of your Disability" in (
        result.stdout
    )
    assert "DESIGN.md ships with docgen: " in result.stdout


def test_every_design_md_citation_names_a_place_in_the_shipped_design():
    from docgen.checker.rules import all_rules
    from docgen.core.resources import design_doc

    design = " ".join(design_doc().read_text(encoding="utf-8").split())
    for entry in all_rules():
        for citation in entry.citations:
            if citation.authority == "DESIGN.md":
                place = citation.pinpoint.replace("Amendments, ", "")
                assert place.split(",")[0] in design, (entry.id, citation)


def test_the_problems_sample_has_one_clause_unapproved_and_one_approval_stale():
    path = SAMPLES / "problems" / "director-unapproved-clauses.yaml"
    report = run_checks(load_facts(path), date(2026, 6, 23), "grant")
    statuses = {r.id: r.status for r in report.clauses if not r.approved}
    assert statuses == {
        "notice.b-accelerated-vesting": "approval stale",
        "notice.f1-payment-date": "not approved",
    }
    assert sorted(clause_errors(report)) == sorted(statuses)


# ---------------------------------------------------------------- counsel's review copy


def test_a_review_copy_is_made_while_clauses_await_approval_and_the_issued_one_is_not(
    cli, tmp_path
):
    import io

    from docx import Document

    path = without_approvals(tmp_path)
    common = ("--doc", "notice", "--for", "jsmith", "--as-of", "2026-06-23")
    issued = cli(
        "render",
        path,
        *common,
        "--to",
        "docx",
        "--out",
        tmp_path / "out",
        "-o",
        tmp_path / "issued.docx",
    )
    assert issued.exit_code == 1 and not (tmp_path / "issued.docx").exists()
    assert not (tmp_path / "out").exists()
    review = tmp_path / "review.docx"
    made = cli("render", path, *common, "--to", "docx", "--review", "-o", review)
    assert made.exit_code == 0, made.stderr
    assert "error DOC-DRAFTED-CLAUSE" in made.stderr  # what counsel is asked to approve
    document = Document(io.BytesIO(review.read_bytes()))
    comments = [c.text for c in document.comments]
    assert len(comments) == 4
    assert all("Status: NOT APPROVED by counsel." in c for c in comments)
    assert document.core_properties.title.startswith("Review copy - ")
    refused = cli("render", path, *common, "--to", "pdf", "--review", "-o", tmp_path / "r.pdf")
    assert refused.exit_code == 2 and "use --to docx" in refused.stderr


def test_a_review_copy_is_still_refused_past_any_other_error(cli, tmp_path):
    result = cli(
        "render",
        SAMPLES / "problems" / "director-late-and-partial.yaml",
        "--doc",
        "notice",
        "--for",
        "late",
        "--to",
        "docx",
        "--review",
        "-o",
        tmp_path / "x.docx",
        "--as-of",
        "2026-06-01",
    )
    assert result.exit_code == 1
    assert "RSU-ELECTION-LATE" in result.stdout
    assert list(tmp_path.iterdir()) == []


def test_an_approval_without_its_wording_still_loads_and_says_no_redline_can_be_shown(tmp_path):
    # Approvals written before approvals carried their wording: a SHA-256 only.
    path = without_approvals(tmp_path)
    reviews = review_clauses(load_facts(path))
    lines = ["clause_approvals:"] + [
        f'  - {{clause: {r.id}, sha256: {r.sha256}, by: "A. Counsel", on: 2026-05-01}}'
        for r in reviews
    ]
    lines[2] = lines[2].replace(reviews[1].sha256, "a" * 64)  # one of other wording
    path.write_text(path.read_text().replace("clause_approvals: []\n", "\n".join(lines) + "\n"))
    report = run_checks(load_facts(path), date(2026, 6, 23), "grant")
    errors = clause_errors(report)
    assert list(errors) == [reviews[1].id]
    assert (
        "does not record the wording it approved, so no redline can be shown"
        in (errors[reviews[1].id])
    )


def test_a_stale_approval_with_its_wording_shows_the_changed_words(cli):
    path = SAMPLES / "problems" / "director-unapproved-clauses.yaml"
    report = run_checks(load_facts(path), date(2026, 6, 23), "grant")
    message = clause_errors(report)["notice.b-accelerated-vesting"]
    assert (
        "changed from the wording A. Counsel approved on 2026-03-02: … occurrence of a Change of "
        "Control {+that is also a change in control event (Code section 409A(a)(2)(A)(v))+}"
    ) in message
    listed = cli("clauses", path).stdout
    assert "  redline against the wording A. Counsel approved on 2026-03-02" in listed
    assert "the occurrence of a Change of Control{+ that is also a change in control event" in (
        listed
    )
