"""The RRP Deferral Election Form: who gets one, what its PDF says, and that it is fillable."""

from __future__ import annotations

import io
from datetime import date
from pathlib import Path

import pytest
from pypdf import PdfReader

from checks.documents import unfilled_blanks
from docgen.core.errors import RenderError
from docgen.issue.pool import render_and_read_back
from docgen.kinds.rrp.facts import RRPPlanYearFacts
from docgen.load import load_facts
from docgen.render import html as render
from tests.readers import normalise, pdf_text

AS_OF = date(2025, 12, 1)  # enrollment, before the December 31 deadline
YEAR_AS_OF = date(2026, 3, 2)  # a new hire's form, issued during the Plan Year
SAMPLES = Path(__file__).resolve().parent.parent / "samples"


@pytest.fixture(scope="module")
def loaded():
    return load_facts(SAMPLES / "rrp-2026.yaml")


@pytest.fixture(scope="module")
def year_loaded():
    return load_facts(SAMPLES / "rrp-2026-year.yaml")


@pytest.fixture(scope="module")
def rendered(loaded, year_loaded):
    """One participant per deadline rule: prior-year (e1001, an election rolled over from 2025),
    performance-based (e1010), and first-year (e1006, a new hire in the year's records)."""
    return {
        "e1001": render_and_read_back(loaded, "rrp-election", "e1001", "enrollment", as_of=AS_OF),
        "e1010": render_and_read_back(loaded, "rrp-election", "e1010", "enrollment", as_of=AS_OF),
        "e1006": render_and_read_back(
            year_loaded, "rrp-election", "e1006", "enrollment", as_of=YEAR_AS_OF
        ),
        "e1033": render_and_read_back(
            year_loaded, "rrp-election", "e1033", "enrollment", as_of=YEAR_AS_OF
        ),
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
    # No DOC-* finding: no blank, no missing fact, the PDF and DOCX carry the same text, and the
    # drafted marks are exactly the clauses the check expected.
    assert problems == []
    assert unfilled_blanks(text) == []


def test_the_form_states_the_plan_terms(rendered):
    text = normalise(pdf_text(rendered["e1001"][1]["pdf"]))
    assert "up to 75% of your Plan Compensation" in text  # Plan 2.03(a)
    assert "one percent (1%) increments" in text
    # Plan 3.04: 100% of the deferral, capped at 6%; the worked example 10% of $10,000 = $1,000,
    # matched min($1,000, 6% x $10,000 = $600) = $600.
    assert "equal to 100% of your Elective Deferral Contribution" in text
    # The cap in Plan 3.04's own words: "not to exceed six percent (6%) of Plan Compensation for
    # such pay period" -- all of the pay period's Plan Compensation, not only the part deferred
    # from (issue 43: $70,000 of Plan Compensation, deferring from $50,000 of it, caps the match
    # at 6% x $70,000 = $4,200 as the payroll does, not 6% x $50,000 = $3,000).
    assert "not more than 6% of Plan Compensation for such pay period (Plan Section 3.04)" in text
    assert "you defer from" not in text
    assert "($1,000), the Matching Restoration Contribution for that pay period is $600" in text
    assert "$360,000 for 2026" in text
    assert "Beneficiaries on file: Jamie Lee (child), 100%" in text


def test_the_pdf_is_fillable(rendered, loaded):
    reader = PdfReader(io.BytesIO(rendered["e1010"][1]["pdf"]))
    fields = set(reader.get_fields())
    funds = loaded.facts.plan.investment_options
    assert {"salary_percent", "bonus_percent", "performance_percent_1", "date_signed"} <= fields
    assert {f"allocation_{i}" for i in range(1, len(funds) + 1)} <= fields
    assert {"beneficiary_1", "relationship_3", "share_3"} <= fields
    assert "performance_percent_1" not in set(
        PdfReader(io.BytesIO(rendered["e1001"][1]["pdf"])).get_fields()
    )
    assert reader.metadata["/CreationDate"] == "D:20251201000000Z"  # the day it is issued
    assert len(reader.pages) == 2
    for pid in rendered:  # the form keeps its two pages for each kind of participant
        assert len(PdfReader(io.BytesIO(rendered[pid][1]["pdf"])).pages) == 2, pid


def test_every_part_is_marked_drafted(rendered):
    html = rendered["e1001"][0]
    for section, clause in (
        ("section-i", "i-when-to-file"),
        ("section-ii", "ii-amount"),
        ("section-iii", "iii-match"),
        ("section-iv", "iv-payment"),
        ("section-v", "v-investment"),
        ("section-vi", "vi-beneficiary"),
        ("section-vii", "vii-signature"),
    ):
        assert (
            f'id="{section}" data-provenance="drafted" data-clause="rrp-election.{clause}"' in html
        )


def test_rendering_is_reproducible(loaded, rendered):
    again = render.render_document(loaded, "rrp-election", "e1001", "enrollment", "pdf", AS_OF)
    assert again == rendered["e1001"][1]["pdf"]


def test_plan_terms_come_from_the_facts(loaded):
    data = loaded.facts.model_dump()
    data["plan"].update(max_deferral_percent=50, match_cap_percent=4)
    data["participants"] = [{**data["participants"][0], "beneficiaries": []}]
    facts = RRPPlanYearFacts.model_validate(data, strict=False)
    html = render.render_html(facts, "rrp-election", "e1001", "enrollment")
    assert "up to 50% of your Plan Compensation" in html
    assert "not more than 4% of Plan Compensation for such pay period" in html
    assert "is $400." in html  # min(10% x $10,000, 4% x $10,000)
    assert "No Beneficiary is on file for you." in html


def test_the_form_states_what_counsel_asked_for(rendered):
    """Issue 10, item 12: the drafted text counsel needs before approving the form."""
    text = normalise(pdf_text(rendered["e1010"][1]["pdf"]))
    # The roll-over sentence with the revocation deadline (Plan 2.03(b)).
    assert (
        "unless you revoke it or timely file a new Deferral Election (Plan Section 2.03(b))" in text
    )
    assert (
        "applies only to a later Plan Year, and must be filed no later than December 31 "
        "before that Plan Year" in text
    )
    # Vesting: both restoration accounts, and current Participants fully vested (3.06(b)).
    assert (
        "Retirement Restoration Contribution Account, so as a current Participant you are "
        "fully vested in them (Plan Section 3.06(b))" in text
    )
    # The bonus line names the bonus's service period; performance-based "as permitted".
    assert (
        "paid as bonus for services performed from January 1, 2026 through December 31, "
        "2026" in text
    )
    assert "for the period ending February 28, 2027, as permitted by the Committee" in text
    # Payment: lump sum within 60 days (4.01(a)), the Key Employee delay (4.01(b)), no re-deferral.
    assert "single lump sum in cash within sixty (60) days" in text and "4.01(b)" in text
    assert "You may not later elect to delay payment or change its form." in text
    # Article VIII and 3.05(d).
    assert "general unsecured creditors of the Company" in text and "(Plan Article VIII)" in text
    assert "used solely to measure the value of my Account (Plan Section 3.05(d))" in text
    # The reading of the limit the arithmetic uses (docs/rrp-arithmetic.md).
    assert "base salary is counted against the limit before bonus" in text
    # Primary and contingent Beneficiaries; a new designation revokes the old.
    html = rendered["e1010"][0]
    assert html.count("<tr><td>Primary</td>") == 2 and html.count("<tr><td>Contingent</td>") == 1
    assert "revokes all your prior Beneficiary designations under the Plan" in text


def test_the_form_shows_the_election_in_force(rendered):
    # e1001: the 2025 election rolls over (terms.election_in_force), and can be changed by Dec 31.
    text = normalise(pdf_text(rendered["e1001"][1]["pdf"]))
    assert (
        "10% of Plan Compensation paid as base salary (made December 10, 2024 for the 2025 "
        "Plan Year, rolled over), which applies unless you file a new election or revoke it "
        "by December 31, 2025"
    ) in text
    # e1033: a bonus for March 2025 - February 2026 elected December 2024: irrevocable for 2026, and
    # the bonus line names its period and its earlier deadline (DESIGN.md, "RRP election timing").
    text = normalise(pdf_text(rendered["e1033"][1]["pdf"]))
    assert "which applies and is irrevocable for the 2026 Plan Year" in text
    assert "from March 1, 2025 through February 28, 2026" in text
    assert "had to be filed by December 31, 2024" in text


def test_the_fund_menu_is_the_plan_asset_committees(loaded):
    # Plan 3.05(a): plan.investment_options in its own order, whatever the participant holds; a
    # fund on file that is off the menu is shown as no longer offered, with no allocation field.
    data = loaded.facts.model_dump()
    data["plan"]["investment_options"] = ["Bond Index Fund", "Stable Value Fund"]
    facts = RRPPlanYearFacts.model_validate(data, strict=False)
    html = render.render_html(facts, "rrp-election", "e1001", "enrollment")
    rows = [line for line in html.splitlines() if line.startswith("<tr><td>")]
    assert [row.split("</td>")[0][8:] for row in rows[:4]] == [
        "Bond Index Fund",
        "Stable Value Fund",
        "S&amp;P 500 Index Fund",
        "Total",
    ]
    assert "<td>S&amp;P 500 Index Fund</td><td>60%</td><td>No longer offered</td>" in html
    assert 'name="allocation_3"' not in html


def test_no_fund_menu_is_a_clear_refusal(loaded):
    data = loaded.facts.model_dump()
    data["plan"]["investment_options"] = []
    facts = RRPPlanYearFacts.model_validate(data, strict=False)
    with pytest.raises(RenderError, match=r"plan.investment_options is empty.*Plan 3.05\(a\)"):
        render.render_html(facts, "rrp-election", "e1001", "enrollment")


def test_counsel_s_earlier_approval_of_the_match_clause_is_stale_and_shows_the_redline(
    cli, tmp_path
):
    """The approval of the clause's earlier words (\"of the Plan Compensation you defer from in
    that pay period\") no longer counts once the clause states Plan 3.04's words, and the
    listing shows what changed so counsel re-approves deliberately."""
    sample = Path(__file__).resolve().parent.parent / "samples" / "rrp-2026.yaml"
    text = sample.read_text(encoding="utf-8")
    new = "of Plan Compensation for such pay period (Plan Section 3.04)"
    old = "of the Plan Compensation you defer from in that pay period (Plan Section 3.04)"
    new_sha = "5f106aac43a02a035a61dd13f395a3c3f9ae204472fef916e20fb0d9d6fad359"
    old_sha = "a66f7c11ee48ffc5bda760d982bfa4a5aaa8bc9246437bc5b7348a3d9e1787cc"
    assert text.count(new) == 1 and text.count(new_sha) == 1
    facts = tmp_path / "rrp-2026.yaml"
    facts.write_text(text.replace(new, old).replace(new_sha, old_sha), encoding="utf-8")
    listed = cli("clauses", facts).stdout
    assert "the approval by A. Counsel on 2025-11-01 is of other wording" in " ".join(
        listed.split()
    )
    assert (
        "[Match Cap]% of [-the -]Plan Compensation [-you-]{+for+} [-defer from in that-]{+such+} "
        "pay period"
    ) in listed
