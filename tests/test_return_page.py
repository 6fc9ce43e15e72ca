"""DOC-RETURN-PAGE: the part of Exhibit I to be filed (Sections III-IV) is page 2, the last, in
the PDF and in the DOCX as LibreOffice lays it out, and page 2 names the director and the grant.

LibreOffice is not asked at issue time (it may not be installed where `docgen batch` runs, and a
rule must not depend on the machine): the rule checks the DOCX's structure (one forced page
break, before the part to be filed) and the DOCX is set in the form's own type size; these tests
open it in LibreOffice, as a director's word processor would, and count the pages. .ci/run
installs LibreOffice; without it they fail, saying so.
"""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest
from docx import Document

from checks.documents import docx_return_problems, return_page_problems
from docgen.core.documents import IssuedCopy, ReturnPart
from docgen.issue.docrules import check_rendered
from docgen.kinds import get_kind
from docgen.load import load_facts
from docgen.render import html as render
from docgen.render.readback import docx_page_starts, pdf_pages

ROOT = Path(__file__).resolve().parent.parent
GRANT = ROOT / "samples" / "director-grant-2026.yaml"
PART = get_kind("director-rsu-grant").document("exhibit-i").return_part
LONG_COMPANY = (
    "Consolidated Amalgamated Industrial Holdings of the Greater Mid-Atlantic Region, Inc."
)
LONG_PLAN = (
    f"{LONG_COMPANY} Amended and Restated 2002 Stock Incentive Plan, as further amended "
    "effective June 24, 2025"
)

# Names long enough, within the 200 characters a text fact may hold, to push Section II onto page 2.
OVERFLOW_COMPANY = " ".join(["Consolidated Amalgamated Industrial Holdings"] * 4) + ", Inc."
OVERFLOW_PLAN = (
    " ".join(["Consolidated Amalgamated Industrial Holdings"] * 3)
    + " 2002 Stock Incentive Plan, as amended"
)


def _variant(tmp_path: Path, company: str, plan: str | None = None, name: str | None = None):
    text = GRANT.read_text(encoding="utf-8")
    text = text.replace("  name: CarMax, Inc.  ", f'  name: "{company}"  ', 1)
    if plan is not None:
        text = text.replace(
            "stock_plan: CarMax, Inc. 2002 Stock Incentive Plan, as amended and restated",
            f'stock_plan: "{plan}"',
            1,
        )
    if name is not None:
        text = text.replace("name: Patrick Murphy & Sons Trustee Designee", f'name: "{name}"', 1)
    path = tmp_path / "facts.yaml"
    path.write_text(text, encoding="utf-8")
    return load_facts(path)


def _problems(loaded, subject: str, stage: str) -> list:
    pdf = render.render_document(loaded, "exhibit-i", subject, stage, "pdf")
    docx = render.render_document(loaded, "exhibit-i", subject, stage, "docx")
    found = check_rendered(IssuedCopy(subject, "exhibit-i", return_part=PART), pdf=pdf, docx=docx)
    return [p for p in found if p.rule == "DOC-RETURN-PAGE"]


def office() -> str:
    found = shutil.which("soffice") or shutil.which("libreoffice")
    if found is None:
        pytest.fail(
            "LibreOffice is not installed: the DOCX's pages are counted by opening it. Run "
            ".ci/run, or apt-get install libreoffice-writer-nogui"
        )
    return found


def libreoffice_pages(docx: bytes, tmp_path: Path) -> list[str]:
    """The DOCX as LibreOffice lays it out, page by page (converted to PDF and read back)."""
    source = tmp_path / "form.docx"
    source.write_bytes(docx)
    result = subprocess.run(
        [
            office(),
            f"-env:UserInstallation=file://{tmp_path / 'profile'}",
            "--headless",
            "--convert-to",
            "pdf",
            "--outdir",
            str(tmp_path),
            str(source),
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, result.stderr
    return pdf_pages((tmp_path / "form.pdf").read_bytes())


# -------------------------------------------------------------------------- the predicate


def test_the_part_to_be_filed_alone_on_page_2_passes():
    pages = ["EXHIBIT I ... Section II ends.", f"{PART.starts} Jane ... {PART.ends}"]
    assert return_page_problems(pages, PART) == []


@pytest.mark.parametrize(
    ("pages", "problem"),
    [
        (["Section I", "II runs over", f"{PART.starts} J. {PART.ends}"], "has 3 pages"),
        (["Section I", f"the end of Section II. {PART.starts} J. {PART.ends}"], "does not begin"),
        ([f"Section I {PART.starts} J.", f"{PART.ends}"], "begins on page 1, not page 2"),
        (["Section I", f"{PART.starts} J. III.", f"{PART.ends}"], "has 3 pages"),
        (["Section I", f"{PART.starts} J. III. IV. Signature"], "does not hold the end"),
        (["Section I and II and III"], "is on no page"),
    ],
)
def test_the_part_to_be_filed_anywhere_else_is_named(pages, problem):
    found = return_page_problems(pages, PART)
    assert any(problem in message for message in found), found


def test_the_docx_must_break_the_page_once_before_the_part_to_be_filed():
    assert docx_return_problems([f"{PART.starts} Jane Q. Smith"], PART) == []
    assert docx_return_problems([], PART)
    assert docx_return_problems(["III.\tElection"], PART)
    assert docx_return_problems([f"{PART.starts} Jane", "IV.\tSignature"], PART)


def test_a_form_returned_whole_is_its_own_page_1():
    part = ReturnPart(page=1, starts="A", ends="B")
    assert return_page_problems(["A B"], part) == []


# --------------------------------------------------------------------- rendered documents


@pytest.fixture(scope="module")
def loaded():
    return load_facts(GRANT)


@pytest.mark.parametrize(
    ("subject", "stage"),
    [("jsmith", "elections"), ("pmurphy", "elections"), ("rgarcia", "grant"), ("tnguyen", "grant")],
)
@pytest.mark.slow
def test_every_sample_form_keeps_the_part_to_be_filed_on_page_2(loaded, subject, stage):
    assert _problems(loaded, subject, stage) == []
    pdf = render.render_document(loaded, "exhibit-i", subject, stage, "pdf")
    pages = pdf_pages(pdf)
    director = loaded.facts.director(subject)
    page_two = " ".join(pages[1].split())
    assert page_two.startswith(
        f"{PART.starts} {director.name}, for the 2026 Units of CarMax, Inc. (Date of Grant "
        "June 23, 2026) III. Election"
    )


def test_page_2_names_the_director_and_the_grant_in_the_docx(loaded):
    docx = render.render_document(loaded, "exhibit-i", "akhan", "elections", "docx")
    assert docx_page_starts(docx) == [
        f"{PART.starts} Aisha Khan, for the 2026 Units of CarMax, Inc. "
        "(Date of Grant June 23, 2026)"
    ]


def test_the_docx_uses_the_forms_own_type_size(loaded):
    sizes = {}
    for doc, subject, stage in (
        ("exhibit-i", "jsmith", "elections"),
        ("notice", "jsmith", "grant"),
    ):
        data = render.render_document(loaded, doc, subject, stage, "docx")
        styles = Document(io.BytesIO(data)).styles
        sizes[doc] = {
            name: styles[name].font.size.pt for name in ("Normal", "Body Text", "Heading 1")
        }
    assert sizes["exhibit-i"] == dict.fromkeys(("Normal", "Body Text", "Heading 1"), 10.5)
    assert sizes["notice"] == dict.fromkeys(("Normal", "Body Text", "Heading 1"), 11.5)
    html = render.render_html(loaded, "exhibit-i", "jsmith", "elections")
    assert '<body class="exhibit-i" style="font-size: 10.5pt">' in html  # the PDF's, the same


def test_long_company_plan_and_director_names_stay_on_two_pages(tmp_path):
    loaded = _variant(tmp_path, LONG_COMPANY, LONG_PLAN)
    for stage in ("elections", "grant"):
        assert _problems(loaded, "pmurphy", stage) == []


def test_a_name_that_pushes_section_ii_over_is_caught_before_issue(tmp_path):
    loaded = _variant(tmp_path, OVERFLOW_COMPANY, OVERFLOW_PLAN)
    found = _problems(loaded, "jsmith", "elections")
    assert found, "a three-page Exhibit I must not be issued"
    assert any("PDF: the document has 3 pages" in p.message for p in found)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["sample", "long names"])
def test_libreoffice_lays_the_docx_out_with_the_part_to_be_filed_on_page_2(
    variant, tmp_path, loaded
):
    if variant == "long names":
        loaded = _variant(tmp_path, LONG_COMPANY, LONG_PLAN)
    for subject, stage in (("pmurphy", "elections"), ("mobrien", "grant")):
        docx = render.render_document(loaded, "exhibit-i", subject, stage, "docx")
        pages = libreoffice_pages(docx, tmp_path)
        assert return_page_problems(pages, PART) == [], (subject, stage, pages)


@pytest.mark.slow
def test_verify_holds_an_issued_form_to_the_page_its_manifest_recorded(cli, tmp_path):
    """The manifest records each form's part to be filed; `docgen verify` re-applies the rule
    from it (a folder issued before it was recorded is not held to it)."""
    import hashlib
    import json

    out = tmp_path / "out"
    result = cli("batch", GRANT, "--out", out, "--stage", "elections", "--as-of", "2026-06-22")
    assert result.exit_code == 0, result.stdout
    (folder,) = {path.parent for path in out.rglob("manifest.json")}
    manifest_path = folder / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    packet = next(p for p in manifest["packets"] if p["subject"] == "jsmith")
    (document,) = packet["documents"]
    assert document["return_part"] == {"page": 2, "starts": PART.starts, "ends": PART.ends}

    # A three-page form slipped into the folder, its hash rewritten to match: verify still fails.
    pdf = render.render_document(
        _variant(tmp_path, OVERFLOW_COMPANY, OVERFLOW_PLAN),
        "exhibit-i",
        "jsmith",
        "elections",
        "pdf",
    )
    target = folder / document["files"]["pdf"]
    target.write_bytes(pdf)
    manifest["files"][document["files"]["pdf"]] = {
        "sha256": hashlib.sha256(pdf).hexdigest(),
        "bytes": len(pdf),
    }
    document["key_facts"] = []
    manifest_path.write_text(json.dumps(manifest))
    tampered = cli("verify", folder)
    assert tampered.exit_code == 1
    assert "DOC-RETURN-PAGE: PDF: the document has 3 pages" in tampered.stderr
    for entry in manifest["packets"]:
        for doc in entry["documents"]:
            doc.pop("return_part", None)
    manifest_path.write_text(json.dumps(manifest))
    assert "DOC-RETURN-PAGE" not in cli("verify", folder).stderr
