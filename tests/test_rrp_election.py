"""The RRP Deferral Election Form: who gets one, what its PDF says, and that it is fillable."""

from __future__ import annotations

import io
from datetime import date
from pathlib import Path

import pytest
from pypdf import PdfReader

from checks.documents import unfilled_blanks
from docgen.issue.pool import render_and_read_back
from docgen.kinds.rrp.facts import RRPPlanYearFacts
from docgen.load import load_facts
from docgen.render import html as render
from tests.readers import normalise, pdf_text

AS_OF = date(2025, 12, 1)  # enrollment, before the December 31 deadline


@pytest.fixture(scope="module")
def loaded():
    return load_facts(Path(__file__).resolve().parent.parent / "samples" / "rrp-2026.yaml")


@pytest.fixture(scope="module")
def rendered(loaded):
    """Three participants, one per deadline rule: prior-year, first-year, performance-based."""
    return {
        pid: render_and_read_back(loaded, "rrp-election", pid, "enrollment", as_of=AS_OF)
        for pid in ("e1001", "e1006", "e1010")
    }


def test_one_form_per_eligible_employee_at_enrollment(loaded):
    issued = render.documents_for(loaded.facts, "enrollment")
    eligible = [p.id for p in loaded.facts.participants if p.eligible_employee]
    assert issued == [(pid, "rrp-election") for pid in eligible]
    assert ("e1018", "rrp-election") not in issued  # not an Eligible Employee (Plan 1.11)
    with pytest.raises(Exception, match="unknown stage 'grant'"):
        render.documents_for(loaded.facts, "grant")


def test_a_non_eligible_employee_cannot_be_rendered(loaded):
    with pytest.raises(Exception, match="does not receive"):
        render.render_html(loaded, "rrp-election", "e1018", "enrollment")


@pytest.mark.parametrize(
    ("pid", "name", "deadlines"),
    [
        # Prior-year rule: December 31 before the 2026 Plan Year.
        ("e1001", "Pat Lee", ["Your deadline: December 31, 2025"]),
        # First-year: eligible March 2, 2026 + 30 days = April 1, 2026.
        ("e1006", "Avery Whitfield", ["Your deadline: April 1, 2026", "March 2, 2026"]),
        # Performance period ending Feb 28, 2027: six months before = August 28, 2026.
        ("e1010", "Drew Iyer", ["December 31, 2025", "no later than August 28, 2026"]),
    ],
)
def test_the_pdf_reads_back_with_name_plan_year_and_deadline(rendered, pid, name, deadlines):
    _, outputs, wanted, problems = rendered[pid]
    text = normalise(pdf_text(outputs["pdf"]))
    assert name in text and "Plan Year 2026" in text
    for deadline in deadlines:
        assert deadline in text
    assert set(wanted) >= {name, "Plan Year 2026"}
    # The only DOC-* finding is the drafted-clause warning: no blank, no missing fact, and the
    # PDF and DOCX carry the same text.
    assert [p.rule for p in problems] == ["DOC-DRAFTED-CLAUSE"]
    assert unfilled_blanks(text) == []


def test_the_form_states_the_plan_terms(rendered):
    text = normalise(pdf_text(rendered["e1001"][1]["pdf"]))
    assert "up to 75% of your Plan Compensation" in text  # Plan 2.03(a)
    assert "one percent (1%) increments" in text
    # Plan 3.04: 100% of the deferral, capped at 6%; the worked example 10% of $10,000 = $1,000,
    # matched min($1,000, 6% x $10,000 = $600) = $600.
    assert "equal to 100% of your Elective Deferral Contribution" in text
    assert "not more than 6% of your Plan Compensation" in text
    assert "($1,000), the Matching Restoration Contribution for that pay period is $600" in text
    assert "$360,000 for 2026" in text
    assert "Beneficiaries on file: Jamie Lee (child), 100%" in text


def test_the_pdf_is_fillable(rendered, loaded):
    reader = PdfReader(io.BytesIO(rendered["e1010"][1]["pdf"]))
    fields = set(reader.get_fields())
    funds = {f for p in loaded.facts.participants for f in p.investments}
    assert {"salary_percent", "bonus_percent", "performance_percent_1", "date_signed"} <= fields
    assert {f"allocation_{i}" for i in range(1, len(funds) + 1)} <= fields
    assert {"beneficiary_1", "relationship_3", "share_3"} <= fields
    assert "performance_percent_1" not in set(PdfReader(io.BytesIO(
        rendered["e1001"][1]["pdf"])).get_fields())  # fmt: skip
    assert reader.metadata["/CreationDate"] == "D:20251201000000Z"  # the day it is issued
    assert len(reader.pages) == 2


def test_every_part_is_marked_drafted(rendered):
    html = rendered["e1001"][0]
    for section in ("section-i", "section-ii", "section-iii", "section-iv", "section-v"):
        assert f'id="{section}" data-provenance="drafted"' in html


def test_rendering_is_reproducible(loaded, rendered):
    again = render.render_document(loaded, "rrp-election", "e1001", "enrollment", "pdf", AS_OF)
    assert again == rendered["e1001"][1]["pdf"]


def test_plan_terms_come_from_the_facts(loaded):
    data = loaded.facts.model_dump()
    data["plan"].update(max_deferral_percent=50, match_cap_percent=4)
    data["drafted_clauses_approved_by"] = "A. Counsel, 2025-11-01"
    data["participants"] = [{**data["participants"][0], "beneficiaries": []}]
    facts = RRPPlanYearFacts.model_validate(data, strict=False)
    html = render.render_html(facts, "rrp-election", "e1001", "enrollment")
    assert "up to 50% of your Plan Compensation" in html
    assert "not more than 4% of your Plan Compensation" in html
    assert "is $400." in html  # min(10% x $10,000, 4% x $10,000)
    assert "No Beneficiary is on file for you." in html
