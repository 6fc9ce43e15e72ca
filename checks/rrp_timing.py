"""The RRP election-timing rules (Plan 2.03; Code 409A(a)(4)(B); Treas. Reg. 1.409A-2): each rule's
own condition under its own decorator, a pure function of (participant, election).

Each condition words one term of docgen.kinds.rrp.timing (the deadlines and the conditions of
each route, defined there once); how the conditions combine into routes (prior-year, first-year,
performance-based) is checks/rrp_routes.py, and each rule reports only its own share of that.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from decimal import ROUND_DOWN, Decimal

from checks import rrp_sources as rrp_src
from checks import sources as src
from checks.rrp_routes import LATE, add_condition, election_path, timing_hits
from checks.rrp_sources import PLAN_2_03_B_ROLLOVER, plan
from checks.sources import code, reg
from docgen.core.model import fact_path
from docgen.core.rules import Hit, rule
from docgen.kinds.rrp import kind as _kind  # noqa: F401  (the kind claiming these rules)
from docgen.kinds.rrp.facts import Participant, RRPElection
from docgen.kinds.rrp.terms import deadline_for, described, kind_words
from docgen.kinds.rrp.timing import (
    criteria_in_time,
    criteria_last_day,
    earned_over,
    employed_at_election,
    first_year_deadline,
    first_year_share,
    hired_in_time,
    in_time_for_first_year,
    in_time_for_performance_based,
    in_time_for_prior_year,
    newly_eligible,
    newly_eligible_readings,
    performance_based_readings,
    performance_period_long_enough,
    performance_period_of,
    prior_year_deadline,
    service_from,
)
from docgen.kinds.rrp.view import PlanYearView, view_of

ASK_COUNSEL = "Ask counsel which reading applies before relying on the election."
ONE_DAY = timedelta(days=1)
_TIMING_REMEDY = (
    "Do not give effect to the election for this Plan Year: the election in force, if any, stays "
    "(Plan 2.03(b)). The late one applies from the next Plan Year whose deadline it met, unless "
    "the Participant revokes it by then; if it is not to apply at all, record it as not in "
    "effect: `docgen decide FILE --for ID --form N --ineffective --reason WHY --by NAME` "
    "(status: ineffective, with reason and decided_by)."
)


def timing_rule(
    rule_id: str,
    *,
    route: str,
    also: Callable[[PlanYearView], Iterator[Hit]] | None = None,
    **catalogue,
):
    """Register a timing rule: its catalogue entry and its condition under ``route`` (``also``:
    what else the rule reports, over the whole facts)."""

    def register(condition):
        add_condition(route, rule_id, condition)

        def check(context):
            view = view_of(context)
            yield from timing_hits(view, rule_id)
            if also is not None:
                yield from also(view)

        rule(rule_id, **catalogue)(check)
        return condition

    return register


def late_revocations(view: PlanYearView) -> Iterator[Hit]:
    """DESIGN.md, "Elections roll over": a revocation filed after the Plan Year's deadline does not
    stop the election for that year; said as a warning (the Participant may well mean the next Plan
    Year)."""
    facts = view.facts
    for participant_view in view.electing:
        participant = participant_view.participant
        for found in participant_view.in_force.values():
            election = found.election
            if election is None or found.position is None or election.revoked_on is None:
                continue
            own = participant_view.readings[found.position]
            deadline = deadline_for(participant, election, facts.plan_year, own)
            yield Hit(
                participant.id,
                election_path(participant_view.index, found.position, "revoked_on"),
                f"revocation filed {election.revoked_on} is after the deadline for "
                f"{facts.plan_year} ({deadline}): {described(election)} stays in force for "
                f"{facts.plan_year} and stops from {facts.plan_year + 1}.",
                remedy="Keep deferring under the election for this Plan Year; tell the "
                "Participant the revocation applies from the next one.",
                severity="warning",
            )


@timing_rule(
    LATE,
    route="prior-year",
    also=late_revocations,
    title="Deferral Election after December 31 before the Plan Year",
    severity="error",
    cites=[plan("2.03(b)"), code("409A(a)(4)(B)(i)"), reg("1.409A-2(a)(3)")],
    explanation=(
        "A Deferral Election for a Plan Year must be made by December 31 of the prior Plan Year "
        "(for pay earned over a period that begins earlier, such as a bonus for March to "
        "February, by December 31 before the period begins), unless the first-year route (Plan "
        "2.03(c)) or the performance-based route makes it timely. Reported beside each other "
        "open route's failure when no route does. A late election never takes effect for the "
        "year it was late for: the election in force stays. A revocation filed after the "
        "deadline is a warning: the election stays in force for the Plan Year."
    ),
    sources=[rrp_src.PLAN_2_03_B, PLAN_2_03_B_ROLLOVER, src.CODE_409A_A_4_B, src.REG_2_A_3],
    remedy=_TIMING_REMEDY,
)
def election_late(
    participant: Participant, p_index: int, e_index: int, election: RRPElection
) -> Iterator[Hit]:
    if in_time_for_prior_year(election) == "yes":
        return
    deadline = prior_year_deadline(election)
    start, _ = earned_over(election)
    before = "the Plan Year"
    if start.year < election.plan_year:
        before = f"its period begins ({start} to {earned_over(election)[1]})"
    yield Hit(
        participant.id,
        election_path(p_index, e_index, "made_on"),
        f"{kind_words(election)} election for {election.plan_year} made "
        f"{election.made_on}, after December 31 before {before} ({deadline})",
    )


@timing_rule(
    "RRP-FIRST-YEAR-LATE",
    route="first-year",
    title="First-year election more than 30 days after eligibility",
    severity="error",
    cites=[plan("2.03(c)"), code("409A(a)(4)(B)(ii)"), reg("1.409A-2(a)(7)")],
    explanation="In the first Plan Year of eligibility an initial Deferral Election may be made "
    "within 30 days after becoming eligible (day 30 is the last good day).",
    sources=[rrp_src.PLAN_2_03_C, src.REG_2_A_7],
    remedy=_TIMING_REMEDY,
)
def first_year_late(
    participant: Participant, p_index: int, e_index: int, election: RRPElection
) -> Iterator[Hit]:
    if in_time_for_first_year(participant, election) == "no":
        yield Hit(
            participant.id,
            election_path(p_index, e_index, "made_on"),
            f"first-year election made {election.made_on}, more than 30 days after "
            f"first eligibility {participant.first_eligible_on} "
            f"(last day {first_year_deadline(participant)})",
        )


@timing_rule(
    "RRP-NOT-NEWLY-ELIGIBLE",
    route="first-year",
    title="First-year route used by someone eligible in the prior 24 months",
    severity="error",
    cites=[reg("1.409A-2(a)(7)(ii)")],
    explanation=(
        "A Participant who was eligible at any time in the 24 months ending on the new "
        "eligibility date is not newly eligible and cannot use the 30-day first-year route. "
        "Where a month-end makes the start of the 24 months uncertain, this is a warning."
    ),
    sources=[src.REG_2_A_7, rrp_src.PLAN_2_03_C],
    remedy=_TIMING_REMEDY,
)
def not_newly_eligible(
    participant: Participant, p_index: int, e_index: int, election: RRPElection
) -> Iterator[Hit]:
    reading = newly_eligible(participant)
    if reading == "yes":
        return
    eligible, previous = participant.first_eligible_on, participant.previously_eligible_until
    strict, lenient = newly_eligible_readings(participant)
    path = fact_path("participants", p_index, "previously_eligible_until")
    if reading == "no":
        yield Hit(
            participant.id,
            path,
            f"eligible until {previous}, within the 24 months before first "
            f"eligibility {eligible}: not newly eligible",
        )
    else:
        yield Hit(
            participant.id,
            path,
            f"eligible until {previous}: inside the 24 months before "
            f"{eligible} if they begin on {strict + ONE_DAY} but not if they "
            f"begin on {lenient + ONE_DAY} (a month-end is counted two ways)",
            remedy=ASK_COUNSEL,
            severity="warning",
        )


@rule(
    "RRP-FIRST-YEAR-PRIOR-SERVICES",
    title="First-year bonus election reaches only the pay for services after it",
    severity="info",
    cites=[plan("2.03(c)"), reg("1.409A-2(a)(7)(i)")],
    explanation=(
        "A first-year election applies only to pay for services after the election. For pay "
        "earned over a period (a bonus, performance-based pay) the elected percentage applies to "
        "the part of the pay for the days left in the period after the election (days left / "
        "days in the period); `docgen compute` applies it so. The percentage itself is not "
        "capped a second time: this is information, saying how much of the pay the election "
        "reaches."
    ),
    sources=[rrp_src.PLAN_2_03_C, src.REG_2_A_7],
    remedy="Nothing to do: the deferral is worked on the post-election share of the pay.",
)
def first_year_prior_services(context) -> Iterator[Hit]:
    for participant_view in view_of(context).electing:
        participant, p_index = participant_view.participant, participant_view.index
        for found in participant_view.in_force.values():
            election = found.election
            if election is None or found.position is None or not found.only_after_the_election:
                continue
            if election.kind == "salary":
                continue  # reached payroll by payroll (DESIGN.md, "The Plan's arithmetic")
            share = first_year_share(election)
            if share >= 1:
                continue
            start, end = earned_over(election)
            shown = (100 * share).quantize(Decimal("0.01"), rounding=ROUND_DOWN)
            yield Hit(
                participant.id,
                election_path(p_index, found.position, "percent"),
                f"first-year {kind_words(election)} election of {election.percent}% made "
                f"{election.made_on} reaches only the pay for services after it: {shown}% of the "
                f"pay for {start} to {end}, to which the {election.percent}% applies.",
            )


@timing_rule(
    "RRP-PBC-LATE",
    route="performance-based",
    title="Performance-based election later than six months before the period ends",
    severity="error",
    cites=[plan("2.03(b)"), code("409A(a)(4)(B)(iii)"), reg("1.409A-2(a)(8)")],
    explanation=(
        "An election for Performance-Based Compensation must be made no later than six months "
        "before the end of the performance period (a December 31 end gives June 30). For a "
        'period ending at another month-end (September 30) "six months before" reads as '
        "March 30 or March 31: a date that passes one reading only is a warning."
    ),
    sources=[rrp_src.PLAN_2_03_B_PBC, src.CODE_409A_A_4_B, src.REG_2_A_8],
    remedy=_TIMING_REMEDY,
)
def pbc_late(
    participant: Participant, p_index: int, e_index: int, election: RRPElection
) -> Iterator[Hit]:
    reading = in_time_for_performance_based(election)
    if reading == "yes":
        return
    period, made = performance_period_of(election), election.made_on
    strict, lenient = performance_based_readings(period)
    path = election_path(p_index, e_index, "made_on")
    if reading == "no":
        yield Hit(
            participant.id,
            path,
            f"performance-based election made {made}, later than six months before "
            f"the period ends {period.end} (last day {lenient})",
        )
    else:
        yield Hit(
            participant.id,
            path,
            f"performance-based election made {made}: six months before "
            f"{period.end} is {strict} or {lenient} depending "
            "on how a month-end is counted; timely on the second reading only",
            remedy=ASK_COUNSEL,
            severity="warning",
        )


@timing_rule(
    "RRP-PBC-NOT-QUALIFIED",
    route="performance-based",
    title="Relies on performance-based timing, but the pay is not Performance-Based",
    severity="error",
    cites=[plan("1.18"), reg("1.409A-1(e)")],
    explanation=(
        "Performance-Based Compensation needs a performance period of at least 12 consecutive "
        "months and criteria established in writing no later than 90 days after it begins. An "
        "election that needs the six-month route fails when either is missing; an unrecorded "
        "criteria date is a warning."
    ),
    sources=[rrp_src.PLAN_1_18, src.REG_1_E],
    remedy=_TIMING_REMEDY,
)
def pbc_not_qualified(
    participant: Participant, p_index: int, e_index: int, election: RRPElection
) -> Iterator[Hit]:
    period = performance_period_of(election)
    base = election_path(p_index, e_index, "performance_period")
    if not performance_period_long_enough(period):
        yield Hit(
            participant.id,
            f"{base}.end",
            f"performance period {period.start} to {period.end} is under 12 consecutive months",
        )
    reading = criteria_in_time(period)
    if reading == "doubtful":
        yield Hit(
            participant.id,
            base,
            "the facts do not say when the performance criteria were established, so "
            "performance-based timing cannot be confirmed",
            remedy="Add criteria_established_on to the performance_period.",
            severity="warning",
        )
    elif reading == "no":
        yield Hit(
            participant.id,
            f"{base}.criteria_established_on",
            f"criteria established {period.criteria_established_on}, more than 90 days after "
            f"the period began {period.start} (last day {criteria_last_day(period)})",
        )


@timing_rule(
    "RRP-PBC-SERVICE-GAP",
    route="performance-based",
    title="Not employed continuously through the performance-based election",
    severity="error",
    cites=[reg("1.409A-2(a)(8)")],
    explanation="The six-month route requires continuous service from the later of the start of "
    "the performance period and the date the criteria were set, through the election.",
    sources=[src.REG_2_A_8],
    remedy=_TIMING_REMEDY,
)
def pbc_service_gap(
    participant: Participant, p_index: int, e_index: int, election: RRPElection
) -> Iterator[Hit]:
    if not hired_in_time(participant, election):
        yield Hit(
            participant.id,
            fact_path("participants", p_index, "hired_on"),
            f"hired {participant.hired_on}, after {service_from(performance_period_of(election))}: "
            "not employed continuously from the later of the period start and the criteria date",
        )
    termination = participant.termination
    if termination is not None and not employed_at_election(participant, election):
        yield Hit(
            participant.id,
            fact_path("participants", p_index, "termination", "on"),
            f"employment ended {termination.on}, before the election {election.made_on}",
        )
