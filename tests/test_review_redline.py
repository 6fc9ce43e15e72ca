"""Counsel's review copy as a redline for Word (DESIGN.md, "Drafted clauses and counsel's
approval"): `docgen render ... --review` puts each changed wording in the DOCX as tracked changes
(``w:ins``, ``w:del``) against the approved wording, or against the built-in text for a company's
own template never approved, with its rationale as a comment; LibreOffice opens the file and the
tracked text is in what it prints."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parent.parent
PROBLEM = ROOT / "samples" / "problems" / "director-unapproved-clauses.yaml"
SAMPLE = ROOT / "samples" / "director-grant-2026.yaml"
INSERTED = " that is also a change in control event (Code section 409A(a)(2)(A)(v))"


def review_copy(cli, facts: Path, out: Path, doc: str = "notice") -> bytes:
    made = cli(
        "render",
        facts,
        "--doc",
        doc,
        "--for",
        "jsmith",
        "--to",
        "docx",
        "--review",
        "-o",
        out,
        "--as-of",
        "2026-06-23",
    )
    assert made.exit_code == 0, made.stderr
    return out.read_bytes()


def part(data: bytes, name: str) -> str:
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        return package.read(name).decode("utf-8")


def company(cli, tmp_path: Path) -> Path:
    forms = tmp_path / "our-forms"
    assert cli("templates", "--export", forms).exit_code == 0
    notice = forms / "notice.html.j2"
    seed = "The Committee shall have the authority to interpret"
    notice.write_text(notice.read_text().replace(seed, "The Committee may interpret"), "utf-8")
    yaml = YAML()
    data = yaml.load(SAMPLE.read_text())
    data["directors"] = data["directors"][:1]
    data["templates_dir"] = "our-forms"
    facts = tmp_path / "cycle.yaml"
    with facts.open("w") as handle:
        yaml.dump(data, handle)
    return facts


def test_a_stale_clause_is_a_tracked_insertion_against_the_approved_wording(cli, tmp_path):
    data = review_copy(cli, PROBLEM, tmp_path / "review.docx")
    body = part(data, "word/document.xml")
    assert "Changed wording awaiting counsel" in body
    assert body.count("<w:ins ") == 1 and "<w:del " not in body
    inserted = body.split("<w:ins ", 1)[1].split("</w:ins>", 1)[0]
    assert 'w:author="docgen"' in inserted and 'w:date="2026-06-23T00:00:00Z"' in inserted
    assert INSERTED in inserted
    assert "against the wording A. Counsel approved on 2026-03-02" in body
    # The rationale is the heading's comment.
    comments = part(data, "word/comments.xml")
    assert "Drafted clause notice.b-accelerated-vesting (Notice, Section B)" in comments
    # The same facts give the same file.
    assert review_copy(cli, PROBLEM, tmp_path / "again.docx") == data


def test_a_company_template_never_approved_is_redlined_against_the_built_in(cli, tmp_path):
    data = review_copy(cli, company(cli, tmp_path), tmp_path / "review.docx")
    body = part(data, "word/document.xml")
    deleted = body.split("<w:del ", 1)[1].split("</w:del>", 1)[0]
    inserted = body.split("<w:ins ", 1)[1].split("</w:ins>", 1)[0]
    assert '<w:delText xml:space="preserve">shall have the authority to</w:delText>' in deleted
    assert '<w:t xml:space="preserve">may</w:t>' in inserted
    assert "template.notice: The company's own template" in body
    assert "against the built-in text" in body
    comments = part(data, "word/comments.xml")
    assert "The company's own template template.notice" in comments


def test_an_issued_copy_and_an_approved_cycle_carry_no_tracked_changes(cli, tmp_path):
    body = part(review_copy(cli, SAMPLE, tmp_path / "review.docx"), "word/document.xml")
    assert "<w:ins " not in body and "<w:del " not in body
    assert "Changed wording awaiting counsel" not in body


@pytest.mark.slow
def test_libreoffice_opens_the_redline_and_prints_the_tracked_text(cli, tmp_path):
    soffice = shutil.which("soffice")
    if soffice is None:
        pytest.fail("LibreOffice is not installed: apt-get install libreoffice-writer-nogui")
    review = tmp_path / "review.docx"
    review_copy(cli, company(cli, tmp_path), review)
    done = subprocess.run(
        [
            soffice,
            f"-env:UserInstallation=file://{tmp_path / 'profile'}",
            "--headless",
            "--convert-to",
            "pdf",
            "--outdir",
            str(tmp_path),
            str(review),
        ],
        capture_output=True,
        timeout=240,
    )
    pdf = tmp_path / "review.pdf"
    assert done.returncode == 0 and pdf.exists(), done.stderr.decode(errors="replace")
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, check=True
    ).stdout.decode("utf-8")
    words = " ".join(text.split())
    assert "Changed wording awaiting counsel's approval (tracked changes)" in words
    # LibreOffice shows the changes: the deleted words and the inserted one both print.
    # (the deleted run struck through, then the inserted one, with no space between)
    assert re.search(r"The Committee shall have the authority to ?may interpret", words)
