"""A company's own templates (DESIGN.md, "Command line"): `docgen templates --export`,
``templates_dir`` beside the facts file, overrides by name rendered in the same sandbox and checked
by the same rules, their SHA-256 in the manifest, and a broken or hostile template refused with its
file and line."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from docgen.core.errors import RenderError
from docgen.core.resources import overridable_templates, templates_dir
from docgen.render.pdf import fetch_template_file
from tests.readers import docx_words, pdf_words

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "director-grant-2026.yaml"
AS_OF = "2026-06-23"
SEED_SENTENCE = (
    "The Committee shall have the authority to interpret and administer this Notice of Grant."
)
OWN_SENTENCE = (
    "The Compensation and Personnel Committee of the Board shall have the authority to interpret "
    "and administer this Notice of Grant."
)


def company(tmp_path: Path, cli, *, directors: int = 1) -> tuple[Path, Path]:
    """A facts file with its own exported templates beside it (templates_dir: our-forms)."""
    forms = tmp_path / "our-forms"
    assert cli("templates", "--export", forms).exit_code == 0
    yaml = YAML()
    yaml.width = 4096
    data = yaml.load(SAMPLE.read_text(encoding="utf-8"))
    data["directors"] = data["directors"][:directors]
    data["templates_dir"] = "our-forms"
    facts = tmp_path / "cycle.yaml"
    with facts.open("w", encoding="utf-8") as handle:
        yaml.dump(data, handle)
    return facts, forms


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def batch(cli, facts: Path, out: Path):
    return cli("batch", facts, "--out", out, "--as-of", AS_OF, "--workers", "1")


def refusal(facts: Path, out: Path) -> list[str]:
    """The messages of the findings that refused a batch (the CLI prints them as a table)."""
    from datetime import date

    from docgen.issue.batch import IssueRefusedByFindings, issue_batch

    with pytest.raises(IssueRefusedByFindings) as refused:
        issue_batch(facts, out, as_of=date.fromisoformat(AS_OF), workers=1)
    return [f"{f.rule}: {f.message}" for f in refused.value.report.errors]


# ------------------------------------------------------------------------------ export


def test_export_writes_every_template_a_company_may_edit(cli, tmp_path):
    forms = tmp_path / "forms"
    result = cli("templates", "--export", forms)
    assert result.exit_code == 0, result.stderr
    names = overridable_templates()
    assert {"notice.html.j2", "exhibit-i.html.j2", "rrp-election.html.j2", "print.css"} <= set(
        names
    )
    assert "check-report.html.j2" not in names  # docgen's account to counsel, not a form
    for name in names:
        assert (forms / name).read_bytes() == (templates_dir() / name).read_bytes()
    assert "templates_dir: forms" in (forms / "README.txt").read_text()
    assert f"Wrote {len(names) + 1} files to {forms}" in result.stdout


def test_export_never_overwrites_a_companys_edits(cli, tmp_path):
    forms = tmp_path / "forms"
    cli("templates", "--export", forms)
    edit(forms / "notice.html.j2", SEED_SENTENCE, OWN_SENTENCE)
    again = cli("templates", "--export", forms)
    assert again.exit_code == 2
    assert "already exists, and docgen will not overwrite a company's edits" in again.stderr
    assert OWN_SENTENCE in (forms / "notice.html.j2").read_text()


# --------------------------------------------------------------------------- overrides issue


def approve_listed(cli, facts: Path, by: str = "B. Counsel", on: str = "2026-06-01") -> dict:
    """Counsel approves what `docgen clauses` lists: its block, pasted into the facts file."""
    listed = cli("clauses", facts, "--format", "json", "--by", by, "--on", on)
    data = json.loads(listed.stdout)
    yaml = YAML()
    yaml.width = 4096
    data_in_file = yaml.load(facts.read_text())
    data_in_file["clause_approvals"] = yaml.load(data["clause_approvals_block"])["clause_approvals"]
    with facts.open("w") as handle:
        yaml.dump(data_in_file, handle)
    return data


def test_an_edited_body_template_stops_check_until_counsel_approves_its_wording(cli, tmp_path):
    facts, forms = company(tmp_path, cli)
    edit(forms / "notice.html.j2", SEED_SENTENCE, OWN_SENTENCE)
    checked = cli("check", facts, "--as-of", AS_OF, "--format", "json")
    assert checked.exit_code == 1
    (finding,) = [f for f in json.loads(checked.stdout)["findings"] if f["severity"] == "error"]
    assert finding["rule"] == "DOC-DRAFTED-CLAUSE"
    assert finding["message"].startswith("template.notice (Notice of Restricted Stock Unit Grant")
    assert "is not approved by counsel; changed from the built-in text:" in finding["message"]
    assert "The {+Compensation and Personnel+} Committee" in finding["message"]
    data = approve_listed(cli, facts)
    review = next(c for c in data["clauses"] if c["id"] == "template.notice")
    assert review["unit"] == "company template" and review["source"] == "our-forms/notice.html.j2"
    assert OWN_SENTENCE in review["text"] and "{{" not in review["text"]
    # The approval names the template and carries the wording approved.
    approved = YAML(typ="safe").load(facts.read_text())["clause_approvals"]
    entry = next(a for a in approved if a["clause"] == "template.notice")
    assert entry["by"] == "B. Counsel" and OWN_SENTENCE in entry["wording"]
    assert cli("check", facts, "--as-of", AS_OF).exit_code == 0
    # One changed word later: stale, and the message shows that word's redline.
    edit(forms / "notice.html.j2", "shall have the authority", "may have the authority")
    stale = json.loads(cli("check", facts, "--as-of", AS_OF, "--format", "json").stdout)
    (message,) = [f["message"] for f in stale["findings"] if f["severity"] == "error"]
    assert "the approval by B. Counsel on 2026-06-01 is of other wording" in message
    assert "[-shall-] {+may+} have the authority" in message


def test_a_markup_only_edit_of_a_template_needs_no_approval(cli, tmp_path):
    facts, forms = company(tmp_path, cli)
    edit(forms / "notice.html.j2", '<section class="article" id="section-a">', "<section>")
    edit(
        forms / "notice.html.j2",
        '<p class="clause">The Restricted Stock Units are subject',
        "<p>\n  The Restricted  Stock Units are subject",
    )
    clause = forms / "clauses" / "notice.b-accelerated-vesting.html.j2"
    edit(clause, "<li>", '<li class="event">')
    result = cli("check", facts, "--as-of", AS_OF, "--format", "json")
    assert result.exit_code == 0, result.stdout
    # The seed's words verbatim: named, with nothing to approve.
    clauses = {c["id"]: c for c in json.loads(result.stdout)["clauses"]}
    own = clauses["template.notice"]
    assert (own["status"], own["verbatim"], own["approved"]) == ("built-in words", True, True)
    assert clauses["notice.b-accelerated-vesting"]["status"] == "approved"
    text = cli("check", facts, "--as-of", AS_OF).stdout
    assert "our-forms/notice.html.j2 (template.notice): the built-in words verbatim" in " ".join(
        text.split()
    )


@pytest.mark.slow
def test_an_exported_edited_notice_issues_the_edited_words(cli, tmp_path):
    facts, forms = company(tmp_path, cli)
    edit(forms / "notice.html.j2", SEED_SENTENCE, OWN_SENTENCE)
    (forms / "exhibit-i.html.j2").unlink()  # left alone: the built-in serves
    out = tmp_path / "out"
    assert batch(cli, facts, out).exit_code == 1
    (message,) = refusal(facts, out)
    assert message.startswith("DOC-DRAFTED-CLAUSE: template.notice")
    approve_listed(cli, facts)
    result = batch(cli, facts, out)
    assert result.exit_code == 0, result.stdout + result.stderr
    folder = out / "2026-annual" / "grant"
    for reader, name in ((pdf_words, "notice.pdf"), (docx_words, "notice.docx")):
        text = reader((folder / "jsmith" / name).read_bytes())
        assert OWN_SENTENCE in text and SEED_SENTENCE not in text
    manifest = json.loads((folder / "manifest.json").read_text())
    recorded = manifest["templates_dir"]
    assert recorded["folder"] == "our-forms"
    digest = hashlib.sha256((forms / "notice.html.j2").read_bytes()).hexdigest()
    assert recorded["files"]["notice.html.j2"] == digest
    assert "exhibit-i.html.j2" not in recorded["files"]
    # The drafted clauses are the built-ins' words, approved; the company's Notice is named with
    # its approval.
    own = next(c for c in manifest["clause_approvals"] if c["clause"] == "template.notice")
    assert own["source"] == "our-forms/notice.html.j2" and own["unit"] == "company template"
    assert own["approved_by"] == "B. Counsel"
    base = next(c for c in manifest["clause_approvals"] if c["clause"] == "template.base")
    assert (base["status"], base["approved_by"]) == ("built-in words", None)
    others = [c for c in manifest["clause_approvals"] if c["unit"] == "clause"]
    assert others and all(c["approved_by"] == "A. Counsel" for c in others)
    assert cli("verify", folder).exit_code == 0
    # Away from its folder, the record alone cannot make it again: it says so, never "intact".
    alone = cli("verify", folder / "jsmith" / "notice.pdf")
    assert alone.exit_code == 1
    assert "made with the company's own templates (templates_dir: 'our-forms')" in " ".join(
        (alone.stdout + alone.stderr).split()
    )


@pytest.mark.slow
def test_an_edited_clause_waits_for_counsel_then_issues_its_new_words(cli, tmp_path):
    facts, forms = company(tmp_path, cli)
    clause = forms / "clauses" / "notice.b-accelerated-vesting.html.j2"
    edit(clause, "Notwithstanding Section A,", "Notwithstanding Section A and subject to the Plan,")
    out = tmp_path / "out"
    assert batch(cli, facts, out).exit_code == 1
    (message,) = refusal(facts, out)
    assert message.startswith("DOC-DRAFTED-CLAUSE: notice.b-accelerated-vesting")
    assert "the approval by A. Counsel on 2026-05-01 is of other wording" in message
    assert not out.exists()
    # Counsel reads the new wording and approves it: the block `docgen clauses` prints.
    listed = cli("clauses", facts, "--format", "json", "--by", "B. Counsel", "--on", "2026-06-01")
    data = json.loads(listed.stdout)
    edited = next(c for c in data["clauses"] if c["id"] == "notice.b-accelerated-vesting")
    assert edited["source"] == "our-forms/clauses/notice.b-accelerated-vesting.html.j2"
    assert "subject to the Plan" in edited["text"]
    yaml = YAML()
    yaml.width = 4096
    data_in_file = yaml.load(facts.read_text())
    data_in_file["clause_approvals"] = yaml.load(data["clause_approvals_block"])["clause_approvals"]
    with facts.open("w") as handle:
        yaml.dump(data_in_file, handle)
    issued = batch(cli, facts, out)
    assert issued.exit_code == 0, issued.stdout
    notice = pdf_words((out / "2026-annual" / "grant" / "jsmith" / "notice.pdf").read_bytes())
    assert "Notwithstanding Section A and subject to the Plan, if you continue" in notice
    manifest = json.loads((out / "2026-annual" / "grant" / "manifest.json").read_text())
    entry = next(c for c in manifest["clause_approvals"] if c["clause"] == edited["id"])
    assert (entry["approved_by"], entry["sha256"]) == ("B. Counsel", edited["sha256"])


def test_a_clause_fragment_that_drops_its_mark_is_refused_on_load(cli, tmp_path):
    facts, forms = company(tmp_path, cli)
    edit(
        forms / "clauses" / "notice.f1-payment-date.html.j2",
        ' data-provenance="drafted" data-clause="notice.f1-payment-date"',
        "",
    )
    result = cli("validate", facts)
    assert result.exit_code == 2
    assert "our-forms/clauses/notice.f1-payment-date.html.j2 does not mark its own clause" in (
        result.stderr
    )


def test_a_file_that_overrides_nothing_is_refused_on_load(cli, tmp_path):
    facts, forms = company(tmp_path, cli)
    (forms / "notise.html.j2").write_text("{% extends 'base.html.j2' %}")
    result = cli("validate", facts)
    assert result.exit_code == 2
    assert (
        "our-forms/notise.html.j2 overrides no built-in template. Did you mean notice.html.j2?"
        in (result.stderr)
    )


@pytest.mark.slow
def test_a_clause_included_where_the_check_cannot_see_it_is_refused(cli, tmp_path):
    # The clause's fragment is included under a computed name: the check (which reads the
    # template's text) cannot know the copy carries it, so the rendered marks disagree.
    facts, forms = company(tmp_path, cli)
    edit(
        forms / "notice.html.j2",
        '{% include "clauses/notice.grant-summary.html.j2" %}',
        '{% include "clauses/notice." ~ "grant-summary.html.j2" %}',
    )
    # Counsel approves the template's wording (it reads "[Included: ...]" where the clause was),
    # so the check passes; the rendered copy then shows the clause it did not expect.
    approve_listed(cli, facts)
    out = tmp_path / "out"
    assert batch(cli, facts, out).exit_code == 1
    messages = refusal(facts, out)
    assert messages == [
        "DOC-DRAFTED-CLAUSE: carries drafted clause notice.grant-summary, which the check did not "
        "expect in this copy, so its approval was not checked (does the template include its "
        "fragment by name?)"
    ]
    assert not out.exists()


@pytest.mark.slow
def test_drafted_words_that_name_no_clause_are_refused(cli, tmp_path):
    facts, forms = company(tmp_path, cli)
    edit(
        forms / "notice.html.j2",
        '<p class="letter-date">',
        '<p data-provenance="drafted">A clause of our own.</p>\n<p class="letter-date">',
    )
    approve_listed(cli, facts)  # the template's wording approved: the mark is what is wrong
    assert batch(cli, facts, tmp_path / "out").exit_code == 1
    assert refusal(facts, tmp_path / "out") == [
        "DOC-DRAFTED-CLAUSE: text is marked drafted (data-provenance) without naming its clause "
        "(data-clause)"
    ]


# ------------------------------------------------------------------- broken or hostile


@pytest.mark.parametrize(
    ("inserted", "says"),
    [
        ("{{ ''.__class__.__mro__ }}", "sandbox that refuses Python internals"),
        ("{{ cycler.__init__.__globals__.os }}", "sandbox that refuses Python internals"),
        ("<p>{{ 10 ** 100000000 }}</p>", "a power above 64 is refused"),
        ("{% include 'notice.html.j2' %}", "includes itself"),
        ("{{ director.nmae }}", "has no attribute 'nmae'"),
        ("{% if %}", "Fix the template's syntax"),
    ],
    ids=["python-internals", "globals", "power", "self-include", "undefined", "syntax"],
)
@pytest.mark.slow
def test_a_broken_or_hostile_template_is_refused_with_its_file_and_line(
    cli, tmp_path, inserted, says
):
    facts, forms = company(tmp_path, cli)
    template = forms / "notice.html.j2"
    lines = template.read_text().splitlines(keepends=True)
    where = next(i for i, line in enumerate(lines) if line.startswith('<p class="letter-date">'))
    lines.insert(where, inserted + "\n")
    template.write_text("".join(lines))
    if says != "Fix the template's syntax":
        approve_listed(cli, facts)  # counsel approved its words; the sandbox still refuses it
    out = tmp_path / "out"
    for result in (
        batch(cli, facts, out),
        cli(
            "render",
            facts,
            "--doc",
            "notice",
            "--for",
            "jsmith",
            "--to",
            "pdf",
            "--out",
            out,
            "-o",
            tmp_path / "one.pdf",
            "--as-of",
            AS_OF,
        ),
    ):
        assert result.exit_code == 2, result.stdout + result.stderr
        message = " ".join(result.stderr.split())
        assert f"template our-forms/notice.html.j2:{where + 1} " in message, message
        assert says in message
        assert "Traceback" not in result.stdout + result.stderr
    assert not out.exists() and not (tmp_path / "one.pdf").exists()


# ---------------------------------------------------------------------------- the fetcher


def test_the_fetcher_serves_the_companys_folder_and_the_built_ins_only(tmp_path):
    forms = tmp_path / "our-forms"
    forms.mkdir()
    logo = forms / "logo.png"
    logo.write_bytes(b"\x89PNG\r\n\x1a\n")
    assert fetch_template_file(logo.as_uri(), forms) == (logo.read_bytes(), "image/png")
    # A bundled font the company's folder lacks comes from the built-ins, by the same name.
    font = (forms / "fonts" / "LiberationSerif-Regular.ttf").as_uri()
    body, mime = fetch_template_file(font, forms)
    assert mime == "font/ttf" and body[:4] == b"\x00\x01\x00\x00"
    for url in (
        (tmp_path / "secret.txt").as_uri(),
        (forms / ".." / "secret.txt").as_uri(),
        "file:///etc/passwd",
        "https://example.com/logo.png",
    ):
        with pytest.raises(RenderError, match="refused to fetch"):
            fetch_template_file(url, forms)
    with pytest.raises(RenderError, match="refused to fetch"):
        fetch_template_file(logo.as_uri())  # without the company's folder, not served
