"""The RRP Deferral Election Form (``rrp-election``): what the template is told, its metadata and
the key facts read back from it.

The form is drafted from Plan Sections 2.03 (Deferral Elections), 3.04 (the match), 3.05
(investments), 3.06(b) (vesting), 4.01 (payment), Article VIII (an unfunded promise) and the
Beneficiary designation provision with Plan 1.02; the whole of it is marked drafted. The
participant's own deadline and the election in force come from the same terms as the checker and
``docgen compute`` (docgen.kinds.rrp.timing, docgen.kinds.rrp.terms).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from docgen.core import dates
from docgen.core.documents import DocumentMeta, DocumentSpec
from docgen.core.errors import RenderError
from docgen.core.formats import dollars, percent_text
from docgen.kinds.rrp.facts import Participant, RRPElection, RRPPlanYearFacts
from docgen.kinds.rrp.terms import (
    compensation_limit,
    deadline_for,
    elections_in_force,
    percent_problem,
)
from docgen.kinds.rrp.timing import earned_over_in, first_year_deadline_for
from docgen.kinds.rrp.windows import participant_windows

TITLE = "RRP Deferral Election Form"
# The worked example of the match on the form: a pay period's Plan Compensation and a percent.
EXAMPLE_PLAN_COMPENSATION = Decimal(10_000)
EXAMPLE_PERCENT = Decimal(10)
# Section VI's rows: the fields beneficiary_N, relationship_N, share_N (DESIGN.md, "Fillable
# forms"), the first ones primary Beneficiaries, the last a contingent one.
BENEFICIARY_ROWS = ("Primary", "Primary", "Contingent")
PART_WORDS = {"salary": "base salary", "bonus": "bonus"}


def receives_election_form(facts: RRPPlanYearFacts, participant: Participant, stage: str) -> bool:
    """Who is sent a blank Deferral Election Form at enrollment: each Eligible Employee."""
    return stage == "enrollment" and participant.eligible_employee


def deadlines(facts: RRPPlanYearFacts, participant: Participant) -> dict[str, Any]:
    """The participant's own deadline (first-year when that route is available this Plan Year,
    else December 31 before it) and any performance-based deadlines."""
    windows = participant_windows(facts, participant)
    first_year = first_year_deadline_for(participant, facts.plan_year)
    main = dates.december_31_before(facts.plan_year) if first_year is None else first_year
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
        "deadline": dates.long_date(main),
        "deadline_on": main,
        "first_year": first_year is not None,
        "first_eligible_on": dates.long_date(eligible) if eligible else None,
        "performance": performance,
    }


def fund_menu(facts: RRPPlanYearFacts, participant: Participant) -> list[dict[str, Any]]:
    """Plan 3.05(a): the Plan Asset Committee's investment options, each with the participant's
    allocation on file; a fund on file that is no longer on the menu is shown, not offered."""
    menu = facts.plan.investment_options
    if not menu:
        raise RenderError(
            "plan.investment_options is empty: the Deferral Election Form lists the Plan Asset "
            "Committee's investment options (Plan 3.05(a)) for the participant to choose from. "
            'Add them under plan:, e.g. investment_options: ["Stable Value Fund", ...].'
        )
    on_file = participant.investments
    rows = [{"name": fund, "on_file": _on_file(on_file, fund), "offered": True} for fund in menu]
    rows += [
        {"name": fund, "on_file": _on_file(on_file, fund), "offered": False}
        for fund in on_file
        if fund not in menu
    ]
    return rows


def _on_file(on_file: dict[str, Decimal], fund: str) -> str:
    return f"{percent_text(on_file[fund])}%" if fund in on_file else "-"


def on_file_elections(facts: RRPPlanYearFacts, participant: Participant) -> list[dict[str, Any]]:
    """The Deferral Elections in force for the Plan Year as the record stands (terms.py): what
    applies to the Plan Year if the participant files nothing new, and until when a revocation
    or a new election still changes that (terms.deadline_for)."""
    year, found = facts.plan_year, []
    own = deadlines(facts, participant)["deadline_on"]
    for part, in_force in elections_in_force(participant, year).items():
        election = in_force.election
        if election is None or percent_problem(facts.plan, election) is not None:
            # an election the Plan does not allow defers nothing (RRP-DEFERRAL-OVER-MAX,
            # -INCREMENT): the blank form that lets the participant correct it never prints it
            continue
        changes_until = deadline_for(participant, election, year)
        found.append(
            {
                "part": PART_WORDS[part]
                if election.kind != "performance_based"
                else "Performance-Based Compensation",
                "percent": percent_text(election.percent),
                "made_on": dates.long_date(election.made_on),
                "plan_year": str(election.plan_year),
                # None: already irrevocable for the Plan Year, before the form's own deadline
                "changes_until": dates.long_date(changes_until) if changes_until >= own else None,
            }
        )
    return found


def bonus_period(facts: RRPPlanYearFacts, participant: Participant) -> dict[str, Any]:
    """The service period of the bonus the form's bonus line covers: that of the participant's
    bonus election for the Plan Year (rolled over or new), else the Plan Year itself."""
    year = facts.plan_year
    bonus: RRPElection | None = elections_in_force(participant, year)["bonus"].election
    naming = [e for e in participant.elections if e.kind == "bonus" and e.plan_year == year]
    if naming:
        bonus = max(naming, key=lambda e: e.made_on)
    if bonus is None or bonus.kind != "bonus":
        start, end = date(year, 1, 1), dates.end_of_year(year)
    else:
        start, end = earned_over_in(bonus, year)
    early = start.year < year
    return {
        "start": dates.long_date(start),
        "end": dates.long_date(end),
        "deadline": dates.long_date(dates.december_31_before(start.year)) if early else None,
    }


def context(facts: RRPPlanYearFacts, participant: Participant, stage: str) -> dict[str, Any]:
    plan = facts.plan
    example_deferral = EXAMPLE_PLAN_COMPENSATION * EXAMPLE_PERCENT / 100
    example_match = min(
        example_deferral * plan.match_rate_percent / 100,
        EXAMPLE_PLAN_COMPENSATION * plan.match_cap_percent / 100,
    )
    return {
        "company": facts.company.name,
        "plan_name": plan.name,
        "plan_year": str(facts.plan_year),
        "prior_year": str(facts.plan_year - 1),
        "participant": {
            "id": participant.id,
            "name": participant.name,
            "address": list(participant.address),
        },
        **deadlines(facts, participant),
        "on_file_elections": on_file_elections(facts, participant),
        "bonus_period": bonus_period(facts, participant),
        "max_percent": percent_text(plan.max_deferral_percent),
        "match_rate": percent_text(plan.match_rate_percent),
        "match_cap": percent_text(plan.match_cap_percent),
        "compensation_limit": dollars_whole(compensation_limit(facts)),
        "vests_from": dates.long_date(plan.hour_of_service_vests_from),
        "example": {
            "plan_compensation": dollars_whole(EXAMPLE_PLAN_COMPENSATION),
            "percent": percent_text(EXAMPLE_PERCENT),
            "deferral": dollars_whole(example_deferral),
            "match": dollars_whole(example_match),
        },
        "funds": fund_menu(facts, participant),
        "beneficiaries_on_file": [
            {
                "name": b.name,
                "relationship": b.relationship or "",
                "percent": percent_text(b.percent),
                "contingent": b.contingent,
            }
            for b in participant.beneficiaries
        ],
        "beneficiary_rows": list(BENEFICIARY_ROWS),
        "fillable": True,
    }


def meta(facts: RRPPlanYearFacts, participant: Participant, stage: str) -> DocumentMeta:
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
    """Name, Plan Year, the participant's own deadline and the investment menu must appear."""
    own = deadlines(facts, participant)
    found = [participant.name, f"Plan Year {facts.plan_year}", own["deadline"]]
    return (
        found
        + [item["deadline"] for item in own["performance"]]
        + list(facts.plan.investment_options)
    )


def dollars_whole(amount: Decimal) -> str:
    return dollars(amount, whole=True)


DOCUMENTS: tuple[DocumentSpec[RRPPlanYearFacts], ...] = (
    DocumentSpec(
        name="rrp-election",
        title=TITLE,
        template="rrp-election.html.j2",
        stages=("enrollment",),
        applies_to=receives_election_form,
        context=context,
        meta=meta,
        key_facts=key_facts,
        type_size=10,  # a two-page form, like Exhibit I
        blank_at=("enrollment",),
    ),
)
