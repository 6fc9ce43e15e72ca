"""The RRP Deferral Election Form's DOCX keeps to its two pages in LibreOffice, as the PDF does
and as Exhibit I's does (tests/test_return_page.py), with the sample's names and with long
names, addresses and a long company name (issue 25: it ran to three, the signature labels alone
on page 3). LibreOffice lays it out; without it the test fails, saying so."""

from __future__ import annotations

from pathlib import Path

import pytest

from docgen.load import load_facts
from docgen.render import html as render
from tests.test_return_page import libreoffice_pages

ROOT = Path(__file__).resolve().parent.parent
RRP = ROOT / "samples" / "rrp-2026.yaml"
LONG_COMPANY = (
    "Consolidated Amalgamated Industrial Holdings of the Greater Mid-Atlantic Region, Inc."
)
LONG_PERSON = (
    'name: "Alexandria Konstantinopoulou-Vanderberg Montgomery-Fitzwilliam III"\n'
    '    address: ["Apartment 1204, The Residences at Riverside Commons", '
    '"12345 West Broad Street Extension", "Glen Allen, VA 23060-1234"]\n   '
)


def _long(tmp_path: Path) -> Path:
    text = RRP.read_text(encoding="utf-8")
    text = text.replace("  name: CarMax, Inc.  ", f'  name: "{LONG_COMPANY}"  ', 1)
    text = text.replace(
        "name: CarMax, Inc. Retirement Restoration Plan",
        f'name: "{LONG_COMPANY} Retirement Restoration Plan"',
        1,
    )
    text = text.replace("name: Pat Lee  ", LONG_PERSON, 1)
    path = tmp_path / "long.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["sample", "long names and addresses"])
@pytest.mark.parametrize("participant", ["e1001", "e1017"])
def test_libreoffice_lays_the_rrp_form_docx_out_on_two_pages(tmp_path, variant, participant):
    facts = RRP if variant == "sample" else _long(tmp_path)
    loaded = load_facts(facts)
    docx = render.render_document(loaded, "rrp-election", participant, "enrollment", "docx")
    pdf = render.render_document(loaded, "rrp-election", participant, "enrollment", "pdf")
    pages = libreoffice_pages(docx, tmp_path)
    assert len(pages) == 2, [page[-120:] for page in pages]
    assert "Received by the Committee" in pages[1]
    if variant != "sample" and participant == "e1001":
        assert "Konstantinopoulou" in " ".join(pages[1].split())
    from docgen.render.readback import pdf_pages

    assert len(pdf_pages(pdf)) == 2
