"""The RRP Deferral Election Form (``rrp-election``): what the template is told, its metadata and
the key facts read back from it.

The form is drafted from Plan Sections 2.03 (Deferral Elections), 3.04 (the match), 3.05(b)
(investment allocation) and the Beneficiary designation provision with Plan 1.02; the whole of
it is marked drafted. The participant's own deadline comes from the same functions as
``docgen calendar`` and the checker's routes (:func:`docgen.kinds.rrp.windows.participant_windows`).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from docgen.core import dates
from docgen.core.documents import DocumentMeta, DocumentSpec
from docgen.core.formats import dollars, percent_text
from docgen.kinds.rrp.facts import Participant, RRPPlanYearFacts
from docgen.kinds.rrp.terms import compensation_limit
from docgen.kinds.rrp.windows import participant_windows

TITLE = "RRP Deferral Election Form"
BLANK_BENEFICIARY_ROWS = 3
# The worked example of the match on the form: a pay period's Plan Compensation and a percent.
EXAMPLE_PLAN_COMPENSATION = Decimal(10_000)
EXAMPLE_PERCENT = Decimal(10)


def deadlines(facts: RRPPlanYearFacts, participant: Participant) -> dict[str, Any]:
    """The participant's own deadline (first-year when this is the first Plan Year of
    eligibility, else December 31 before the Plan Year) and any performance-based deadlines."""
    windows = participant_windows(facts, participant)
    by_route = {window.route: window for window in windows}
    main = by_route.get("first-year") or by_route["prior-year"]
    eligible = participant.first_eligible_on
    performance = [
        {
            "start": dates.long_date(window.opens_on) if window.opens_on else None,
            "end": dates.long_date(window.period_end),
            "deadline": dates.long_date(window.closes_on),
        }
        for window in windows
        if window.period_end is not None
    ]
    return {
        "deadline": dates.long_date(main.closes_on),
        "deadline_on": main.closes_on,
        "first_year": main.route == "first-year",
        "first_eligible_on": dates.long_date(eligible) if eligible else None,
        "performance": performance,
    }


def fund_menu(facts: RRPPlanYearFacts) -> list[str]:
    """The investment options the facts know of: every fund any participant is invested in."""
    return sorted({fund for p in facts.participants for fund in p.investments})


def context(facts: RRPPlanYearFacts, participant: Participant, stage: str) -> dict[str, Any]:
    plan = facts.plan
    example_deferral = EXAMPLE_PLAN_COMPENSATION * EXAMPLE_PERCENT / 100
    example_match = min(
        example_deferral * plan.match_rate_percent / 100,
        EXAMPLE_PLAN_COMPENSATION * plan.match_cap_percent / 100,
    )
    on_file = participant.investments
    return {
        "company": facts.company.name,
        "plan_name": plan.name,
        "plan_year": str(facts.plan_year),
        "prior_year": str(facts.plan_year - 1),
        "participant": {"id": participant.id, "name": participant.name},
        **deadlines(facts, participant),
        "max_percent": percent_text(plan.max_deferral_percent),
        "match_rate": percent_text(plan.match_rate_percent),
        "match_cap": percent_text(plan.match_cap_percent),
        "compensation_limit": dollars_whole(compensation_limit(facts)),
        "example": {
            "plan_compensation": dollars_whole(EXAMPLE_PLAN_COMPENSATION),
            "percent": percent_text(EXAMPLE_PERCENT),
            "deferral": dollars_whole(example_deferral),
            "match": dollars_whole(example_match),
        },
        "funds": [
            {"name": fund, "on_file": f"{percent_text(on_file[fund])}%" if fund in on_file else "-"}
            for fund in fund_menu(facts)
        ],
        "beneficiaries_on_file": [
            {
                "name": b.name,
                "relationship": b.relationship or "",
                "percent": percent_text(b.percent),
            }
            for b in participant.beneficiaries
        ],
        "blank_beneficiary_rows": list(range(BLANK_BENEFICIARY_ROWS)),
        "fillable": True,
    }


def meta(facts: RRPPlanYearFacts, participant: Participant, stage: str):
    # The enrollment deadline of the Plan Year, a date from the facts, never the clock; an issued
    # form is dated its batch's --as-of instead (docgen.render.html.document_meta).
    day = dates.december_31_before(facts.plan_year)
    return DocumentMeta(
        title=f"{TITLE} - {participant.name}",
        author=facts.company.name,
        subject=f"{facts.plan.name}: Deferral Election for the {facts.plan_year} Plan Year, "
        f"{participant.name}",
        keywords=(facts.plan.name, TITLE, str(facts.plan_year), participant.id, "enrollment"),
        created=day,
        modified=day,
        fillable=True,
    )


def key_facts(facts: RRPPlanYearFacts, participant: Participant, stage: str) -> list[str]:
    """Name, Plan Year and the participant's own deadline must appear in the issued text."""
    own = deadlines(facts, participant)
    found = [participant.name, f"Plan Year {facts.plan_year}", own["deadline"]]
    return found + [item["deadline"] for item in own["performance"]]


def dollars_whole(amount: Decimal) -> str:
    return dollars(amount, whole=True)


DOCUMENTS: tuple[DocumentSpec, ...] = (
    DocumentSpec(
        name="rrp-election",
        title=TITLE,
        template="rrp-election.html.j2",
        stages=("enrollment",),
        applies_to=lambda facts, participant, stage: participant.eligible_employee,
        context=context,
        meta=meta,
        key_facts=key_facts,
    ),
)
