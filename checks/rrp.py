"""Retirement Restoration Plan rules about the elections themselves (the amount elected, who may
elect, dates not yet reached), the 401(a)(17) limit, and the forms issued at enrollment. The
election-timing rules are checks/rrp_timing.py; accounts checks/rrp_accounts.py; payments
checks/rrp_payments.py.

DESIGN.md, "Who is a Participant": for someone who is not an Eligible Employee, RRP-NOT-PARTICIPANT
pre-empts every other rule about their elections; the account and payment rules still apply to them.
"""

from __future__ import annotations

from collections.abc import Iterator

from checks import rrp_sources as rrp_src
from checks import sources as src
from checks.rrp_routes import election_path
from checks.rrp_sources import plan
from checks.sources import code, describe
from docgen.core.errors import some_ids
from docgen.core.model import defaulted_terms, fact_path, is_in_effect
from docgen.core.rules import CheckContext, Hit, rule
from docgen.kinds.rrp.documents import receives_election_form
from docgen.kinds.rrp.facts import Participant, RRPElection
from docgen.kinds.rrp.kind import KIND  # also registers the kind that claims these rules
from docgen.kinds.rrp.paychecks import compensation_for_year
from docgen.kinds.rrp.terms import PART_OF_PAY, compensation_limit, kind_words, published_limit
from docgen.kinds.rrp.timing import first_year_deadline_for, own_deadline
from docgen.kinds.rrp.view import view_of


def _participants(context: CheckContext) -> Iterator[tuple[int, Participant]]:
    yield from enumerate(context.facts.participants)


def _electing(context: CheckContext) -> Iterator[tuple[int, Participant]]:
    """Eligible Employees only: RRP-NOT-PARTICIPANT speaks for the others (DESIGN.md, "Who is a
    Participant")."""
    for p_index, participant in _participants(context):
        if participant.eligible_employee:
            yield p_index, participant


# ---------------------------------------------------------------------- election amount


def judged_elections(
    context: CheckContext,
) -> Iterator[tuple[int, Participant, int, RRPElection, str | None]]:
    """DESIGN.md, "Elections roll over": the elections concerning the Plan Year whose content the
    amount rules judge, each with what governs instead (None: it is the election in force for its
    part of pay, or it is on record as not in effect and reported at info for that).

    Each part of pay stands on its own (salary; bonus or performance-based pay): an election that
    breaks a rule never voids the election in force for another part.
    """
    for view in view_of(context).electing:
        p_index, participant = view.index, view.participant
        for e_index in view.concerning:
            election = participant.elections[e_index]
            found = view.in_force[PART_OF_PAY[election.kind]]
            if found.position == e_index or not is_in_effect(election):
                yield p_index, participant, e_index, election, None
            else:
                yield p_index, participant, e_index, election, found.reason


def as_judged(hit: Hit, governs_instead: str | None, year: int) -> Hit:
    """The finding as it stands: unchanged for the election in force; for one not in force for
    the Plan Year (replaced, or late for it), info saying what governs instead."""
    if governs_instead is None:
        return hit
    return Hit(
        hit.subject,
        hit.path,
        f"{hit.message.rstrip('.')}; but it is not the election in force for {year}: "
        f"{governs_instead}.",
        remedy="Nothing to do for this Plan Year; if it is to take effect for a later one, the "
        "Participant must correct it before that year's deadline.",
        severity="info",
    )


@rule(
    "RRP-DEFERRAL-OVER-MAX",
    title="Deferral above the Plan maximum",
    severity="error",
    cites=[plan("2.03(a)")],
    explanation="A Participant may defer up to 75% of Plan Compensation (the plan's "
    "max_deferral_percent). The election in force for the Plan Year is judged (an error); an "
    "election naming the Plan Year that a later timely one replaced, or that is late for it, "
    "draws only an info finding saying what governs instead. Each part of pay (salary; bonus or "
    "performance-based pay) stands on its own.",
    sources=[rrp_src.PLAN_2_03_A],
    remedy="Reduce the election to the maximum or less.",
    remedied_by_blank_form=True,
)
def deferral_over_max(context: CheckContext) -> Iterator[Hit]:
    maximum, year = context.facts.plan.max_deferral_percent, context.facts.plan_year
    for p_index, participant, e_index, election, instead in judged_elections(context):
        if election.percent > maximum:
            hit = Hit(
                participant.id,
                election_path(p_index, e_index, "percent"),
                f"{kind_words(election)} election of {election.percent}% is above the "
                f"{maximum}% maximum.",
            )
            yield as_judged(hit, instead, year)


@rule(
    "RRP-DEFERRAL-INCREMENT",
    title="Deferral not in whole-percent increments",
    severity="error",
    cites=[plan("2.03(a)")],
    explanation="Deferrals are elected in one percent (1%) increments of Plan Compensation: a "
    "whole number of percent, not negative. Judged for the election in force (an error); an "
    "election not in force for the Plan Year (replaced, or late) draws info only.",
    sources=[rrp_src.PLAN_2_03_A],
    remedy="Round the election to a whole percent the Participant confirms.",
    remedied_by_blank_form=True,
)
def deferral_increment(context: CheckContext) -> Iterator[Hit]:
    year = context.facts.plan_year
    for p_index, participant, e_index, election, instead in judged_elections(context):
        if election.percent % 1 != 0 or election.percent < 0:
            hit = Hit(
                participant.id,
                election_path(p_index, e_index, "percent"),
                f"{kind_words(election)} election of {election.percent}% is not a whole "
                "percent (1% increments).",
            )
            yield as_judged(hit, instead, year)


@rule(
    "RRP-ELECTION-FUTURE",
    title="Election dated after the as-of date",
    severity="error",
    cites=[plan("2.03(b)")],
    explanation="A Deferral Election (or its revocation) on file cannot be dated after the day "
    "the record is checked (--as-of): the date is wrong, or the record is not yet real. Every "
    "other date rule would be reading a guess.",
    sources=[rrp_src.PLAN_FORM, rrp_src.PLAN_2_03_B_ROLLOVER],
    remedy="Correct the date, or check again with --as-of on or after it.",
)
def election_future(context: CheckContext) -> Iterator[Hit]:
    as_of = context.as_of
    for p_index, participant in _electing(context):
        for e_index, election in enumerate(participant.elections):
            for field_name, day, what in (
                ("made_on", election.made_on, "made"),
                ("revoked_on", election.revoked_on, "revoked"),
            ):
                if day is not None and day > as_of:
                    yield Hit(
                        participant.id,
                        election_path(p_index, e_index, field_name),
                        f"{kind_words(election)} election for {election.plan_year} {what} "
                        f"{day}, after the as-of date {as_of}.",
                    )


# -------------------------------------------------------------------- who may participate


@rule(
    "RRP-NOT-PARTICIPANT",
    title="Election by someone who is not an Eligible Employee",
    severity="error",
    cites=[plan("1.11"), plan("2.01")],
    explanation="Only an Eligible Employee (a member of the select group, a common-law "
    "employee on the U.S. payroll) may become a Participant and elect to defer. Reported for "
    "elections that name the Plan Year, and in place of every other rule about that person's "
    "elections (their account and payments are still checked).",
    sources=[rrp_src.PLAN_1_11, rrp_src.PLAN_2_01],
    remedy="Record the election as not in effect, or correct eligible_employee if selected.",
)
def not_participant(context: CheckContext) -> Iterator[Hit]:
    year = context.facts.plan_year
    for p_index, participant in _participants(context):
        naming = [e for e in participant.elections if e.plan_year == year]
        if not participant.eligible_employee and naming:
            yield Hit(
                participant.id,
                fact_path("participants", p_index, "eligible_employee"),
                f"{participant.name} is not an Eligible Employee but has "
                f"{len(naming)} election(s) for {year}.",
            )


@rule(
    "RRP-NO-PLAN-COMPENSATION",
    title="Compensation not above the 401(a)(17) limit: the election defers nothing",
    severity="warning",
    cites=[plan("1.21"), plan("2.01")],
    explanation="Plan Compensation is Compensation above the Code 401(a)(17) limit for the Plan "
    "Year (from checks/parameters, or plan.compensation_limit). Without it the "
    "Participant does not participate and an election defers nothing.",
    sources=[rrp_src.PLAN_1_21, rrp_src.PLAN_2_01],
    remedy="Confirm the Compensation figure; if right, the election has no effect this year.",
)
def no_plan_compensation(context: CheckContext) -> Iterator[Hit]:
    limit = compensation_limit(context.facts)
    year = context.facts.plan_year
    for view in view_of(context).electing:
        participant = view.participant
        if not view.concerning:
            continue
        paid = compensation_for_year(context.facts, participant)
        if paid <= limit:
            rate = participant.annual_rate
            yield Hit(
                participant.id,
                fact_path(
                    "participants", view.index, "compensation" if rate is None else "annual_rate"
                ),
                f"Compensation ${paid:,}"
                + ("" if rate is None else f" (paid in {year} at the annual rate of ${rate:,})")
                + f" is not above the {year} limit of ${limit:,}: no Plan Compensation to defer.",
            )


@rule(
    "RRP-LIMIT-OVERRIDE",
    title="plan.compensation_limit differs from the published 401(a)(17) figure",
    severity="error",
    cites=[code("401(a)(17)")],
    explanation="plan.compensation_limit is for a Plan Year the IRS has not yet published a "
    "figure for. Set for a year with a published figure and different from it, it would "
    "change every participant's Plan Compensation, and the form would print it as the limit.",
    sources=[src.CODE_401_A_17, rrp_src.PLAN_1_21],
    remedy="Remove plan.compensation_limit (the published figure applies), or correct it.",
)
def limit_override(context: CheckContext) -> Iterator[Hit]:
    facts = context.facts
    given, published = facts.plan.compensation_limit, published_limit(facts.plan_year)
    if given is not None and published is not None and given != published:
        yield Hit(
            KIND.head(facts)[0],
            "plan.compensation_limit",
            f"plan.compensation_limit is ${given:,}, but the published {facts.plan_year} "
            f"limit is ${published:,}.",
        )


# ------------------------------------------------------------------------ another company's terms

# The terms whose default is the CarMax, Inc. Retirement Restoration Plan as restated January 1,
# 2017 (the seed, docgen.kinds.rrp.kind): another company's Plan may say otherwise.
_RESTATEMENT = "as restated January 1, 2017"


@rule(
    "RRP-PLAN-TERM-DEFAULTED",
    title="A Plan term taken from the 2017 restatement, not from the facts",
    severity="warning",
    cites=[plan("2.03(a)"), plan("3.04"), plan("1.24"), plan("3.02"), plan("3.06(b)")],
    explanation="docgen's defaults for the Plan's terms (the maximum deferral, the match rate "
    "and cap, the retirement age and hours, the vesting service and the day Hours of Service "
    "count from) are the seed Plan's: the CarMax, Inc. Retirement Restoration Plan as restated "
    "January 1, 2017. A company's own Plan may say otherwise, and the Deferral Election Form "
    "prints these terms as the company's; each one the facts file does not state is a warning "
    "until it does.",
    sources=[
        describe(
            plan("3.06(b)"),
            "The seed Plan's terms, as restated January 1, 2017, are one company's Plan; the "
            "defaults docgen takes from them are that Plan's, not necessarily the user's.",
        )
    ],
    remedy="Confirm the term for your plan: write it in the facts file as your Plan states it.",
)
def plan_term_defaulted(context: CheckContext) -> Iterator[Hit]:
    facts = context.facts
    terms = tuple(term for term in KIND.default_terms if _RESTATEMENT in term[1])
    for term in defaulted_terms(facts, terms):
        yield Hit(
            KIND.head(facts)[0],
            term.path,
            f"{term.path} is taken as {term.value}, the CarMax Plan's term ({term.source}), "
            "not from the facts: confirm for your plan.",
            remedy=f"Write {term.path}: {term.value} (or your Plan's term) in the facts file "
            "once your Plan's text confirms it.",
        )


# ------------------------------------------------------------------------ enrollment forms


@rule(
    "RRP-INVESTMENT-MENU-MISSING",
    title="No investment options for the Deferral Election Form to offer",
    severity="error",
    cites=[plan("3.05(a)"), plan("3.05(b)")],
    stages=("enrollment",),
    explanation="A Participant selects investment options when filing to become a Participant "
    "(Plan 3.05(b)), from the menu the Plan Asset Committee determines (Plan 3.05(a)). The "
    "Deferral Election Form lists that menu; without plan.investment_options it has nothing to "
    "offer and is not issued.",
    sources=[rrp_src.PLAN_3_05_A, rrp_src.PLAN_3_05_B],
    remedy="List the Plan Asset Committee's investment options under plan: "
    '(investment_options: ["...", ...]), as its current menu names them.',
)
def investment_menu_missing(context: CheckContext) -> Iterator[Hit]:
    facts = context.facts
    if facts.plan.investment_options:
        return
    receiving = [
        participant.id
        for _, participant in _participants(context)
        if receives_election_form(facts, participant, context.stage)
    ]
    if receiving:
        yield Hit(
            KIND.head(facts)[0],
            "plan.investment_options",
            "plan.investment_options is empty: the Deferral Election Form lists the Plan Asset "
            f"Committee's investment options (Plan 3.05(a)) and cannot be issued to "
            f"{some_ids(receiving)}.",
        )


@rule(
    "RRP-FORM-ISSUED-AFTER-DEADLINE",
    title="Blank Deferral Election Form issued after the participant's deadline",
    severity="error",
    cites=[plan("2.03(b)"), plan("2.03(c)")],
    stages=("enrollment",),
    explanation="A blank Deferral Election Form (stage enrollment, --as-of) tells the "
    "participant their deadline: December 31 before the Plan Year, or 30 days after first "
    "eligibility in the first Plan Year. Issued after that day it invites an election that "
    "cannot take effect for the Plan Year.",
    sources=[rrp_src.PLAN_2_03_B, rrp_src.PLAN_2_03_C_WINDOW],
    remedy="Do not issue this form for the Plan Year; the participant may elect for the next "
    "Plan Year by December 31 (or, if newly eligible, record first_eligible_on).",
    judges_issue_date=True,
)
def form_issued_after_deadline(context: CheckContext) -> Iterator[Hit]:
    facts, as_of = context.facts, context.as_of
    for p_index, participant in _participants(context):
        if not receives_election_form(facts, participant, context.stage):
            continue
        deadline = own_deadline(participant, facts.plan_year)
        if as_of > deadline:
            first_year = first_year_deadline_for(participant, facts.plan_year) is not None
            field_name = "first_eligible_on" if first_year else "id"
            which = (
                "30 days after first eligibility"
                if first_year
                else ("December 31 before the Plan Year")
            )
            yield Hit(
                participant.id,
                fact_path("participants", p_index, field_name),
                f"the form would issue {as_of}, after the participant's deadline {deadline} "
                f"({which}).",
            )
