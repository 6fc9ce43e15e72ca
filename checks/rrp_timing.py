"""The RRP election-timing rules (Plan 2.03; Code 409A(a)(4)(B); Treas. Reg. 1.409A-2): each rule's
own condition under its own decorator, a pure function of (participant, election).

How the conditions combine into routes (prior-year, first-year, performance-based) is
checks/rrp_routes.py; each rule reports only its own share of that combination.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta
from decimal import ROUND_DOWN, Decimal

from checks import sources as src
from checks.rrp_routes import add_condition, election_path, timing_hits
from checks.sources import code, plan, reg
from docgen.core.dates import (
    add_months,
    days_after,
    december_31_before,
    first_year_election_deadline,
    months_before_readings,
)
from docgen.core.rules import Hit, rule
from docgen.kinds.rrp import NAME as RRP
from docgen.kinds.rrp.facts import Participant, RRPElection
from docgen.kinds.rrp.terms import period_share

ASK_COUNSEL = "Ask counsel which reading applies before relying on the election."
ONE_DAY = timedelta(days=1)
_TIMING_REMEDY = (
    "Do not give effect to the election for this Plan Year; the Participant may "
    "elect for the next Plan Year by December 31."
)


def kind_words(election: RRPElection) -> str:
    """The election's kind in words: salary, bonus, performance-based."""
    return election.kind.replace("_", "-")


def period_bounds(election: RRPElection) -> tuple[date, date]:
    """The period the pay is earned over: its performance period, else the Plan Year."""
    period = election.performance_period
    if period is not None:
        return period.start, period.end
    return date(election.plan_year, 1, 1), date(election.plan_year, 12, 31)


def prorated_maximum(election: RRPElection) -> Decimal:
    """Treas. Reg. 1.409A-2(a)(7)(i): the most a first-year election may defer of pay earned over
    a period, in percent: 100 x days left in the period after the election / days in it."""
    start, end = period_bounds(election)
    return 100 * period_share(election.made_on, start, end)


def timing_rule(rule_id: str, *, route: str, **catalogue):
    """Register a timing rule: its catalogue entry and its condition under ``route``."""

    def register(condition):
        add_condition(route, rule_id, condition)
        rule(rule_id, applies_to=RRP, **catalogue)(
            lambda context: timing_hits(context.facts, rule_id)
        )
        return condition

    return register


@timing_rule(
    "RRP-ELECTION-LATE",
    route="prior-year",
    title="Deferral Election after December 31 before the Plan Year",
    severity="error",
    cites=[plan("2.03(b)"), code("409A(a)(4)(B)(i)"), reg("1.409A-2(a)(3)")],
    explanation=(
        "A Deferral Election for a Plan Year must be made by December 31 of the prior Plan Year, "
        "unless the first-year route (Plan 2.03(c)) or the performance-based route makes it "
        "timely. Reported when no open route does; the other routes' failures are reported "
        "under their own rules."
    ),
    sources=[src.PLAN_2_03_B, src.CODE_409A_A_4_B, src.REG_2_A_3],
    remedy=_TIMING_REMEDY,
)
def election_late(
    participant: Participant, p_index: int, e_index: int, election: RRPElection
) -> Iterator[Hit]:
    deadline = december_31_before(election.plan_year)
    if election.made_on > deadline:
        yield Hit(
            participant.id,
            election_path(p_index, e_index, "made_on"),
            f"{kind_words(election)} election for {election.plan_year} made "
            f"{election.made_on}, after December 31 before the Plan Year ({deadline})",
        )


@timing_rule(
    "RRP-FIRST-YEAR-LATE",
    route="first-year",
    title="First-year election more than 30 days after eligibility",
    severity="error",
    cites=[plan("2.03(c)"), code("409A(a)(4)(B)(ii)"), reg("1.409A-2(a)(7)")],
    explanation="In the first Plan Year of eligibility an initial Deferral Election may be made "
    "within 30 days after becoming eligible (day 30 is the last good day).",
    sources=[src.PLAN_2_03_C, src.REG_2_A_7],
    remedy=_TIMING_REMEDY,
)
def first_year_late(
    participant: Participant, p_index: int, e_index: int, election: RRPElection
) -> Iterator[Hit]:
    eligible = participant.first_eligible_on
    last_day = first_year_election_deadline(eligible)
    if election.made_on > last_day:
        yield Hit(
            participant.id,
            election_path(p_index, e_index, "made_on"),
            f"first-year election made {election.made_on}, more than 30 days after "
            f"first eligibility {eligible} (last day {last_day})",
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
    sources=[src.REG_2_A_7, src.PLAN_2_03_C],
    remedy=_TIMING_REMEDY,
)
def not_newly_eligible(
    participant: Participant, p_index: int, e_index: int, election: RRPElection
) -> Iterator[Hit]:
    eligible, previous = participant.first_eligible_on, participant.previously_eligible_until
    if previous is None:
        return
    # Eligible at any time in the 24-month period ending on the new eligibility date.
    strict, lenient = months_before_readings(eligible, 24)
    path = f"participants[{p_index}].previously_eligible_until"
    if previous > lenient:
        yield Hit(
            participant.id,
            path,
            f"eligible until {previous}, within the 24 months before first "
            f"eligibility {eligible}: not newly eligible",
        )
    elif previous > strict:
        yield Hit(
            participant.id,
            path,
            f"eligible until {previous}: inside the 24 months before "
            f"{eligible} if they begin on {strict + ONE_DAY} but not if they "
            f"begin on {lenient + ONE_DAY} (a month-end is counted two ways)",
            remedy=ASK_COUNSEL,
            severity="warning",
        )


@timing_rule(
    "RRP-FIRST-YEAR-PRIOR-SERVICES",
    route="first-year",
    title="First-year bonus election reaches pay for services already performed",
    severity="error",
    cites=[plan("2.03(c)"), reg("1.409A-2(a)(7)(i)")],
    explanation=(
        "A first-year election is valid only for pay for services after the election. For pay "
        "earned over a period (a bonus, performance-based pay) the deferral is limited to "
        "100 x (days left in the period after the election) / (days in the period) percent."
    ),
    sources=[src.PLAN_2_03_C, src.REG_2_A_7],
    remedy="Reduce the elected percent to the pro-rated maximum.",
)
def first_year_prior_services(
    participant: Participant, p_index: int, e_index: int, election: RRPElection
) -> Iterator[Hit]:
    if election.kind not in ("bonus", "performance_based"):
        return
    maximum = prorated_maximum(election)
    if election.percent > maximum:
        start, end = period_bounds(election)
        shown = maximum.quantize(Decimal("0.01"), rounding=ROUND_DOWN)
        yield Hit(
            participant.id,
            election_path(p_index, e_index, "percent"),
            f"first-year {kind_words(election)} election of {election.percent}% made "
            f"{election.made_on} covers pay for services before the election: "
            f"at most {shown}% of the pay for {start} to {end} may be deferred",
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
    sources=[src.PLAN_2_03_B_PBC, src.CODE_409A_A_4_B, src.REG_2_A_8],
    remedy=_TIMING_REMEDY,
)
def pbc_late(
    participant: Participant, p_index: int, e_index: int, election: RRPElection
) -> Iterator[Hit]:
    period = election.performance_period
    # Six months before the end of the period: two readings at a month-end.
    strict, lenient = months_before_readings(period.end, 6)
    made = election.made_on
    path = election_path(p_index, e_index, "made_on")
    if made > lenient:
        yield Hit(
            participant.id,
            path,
            f"performance-based election made {made}, later than six months before "
            f"the period ends {period.end} (last day {lenient})",
        )
    elif made > strict:
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
    sources=[src.PLAN_1_18, src.REG_1_E],
    remedy=_TIMING_REMEDY,
)
def pbc_not_qualified(
    participant: Participant, p_index: int, e_index: int, election: RRPElection
) -> Iterator[Hit]:
    period = election.performance_period
    base = election_path(p_index, e_index, "performance_period")
    # Plan 1.18 / Treas. Reg. 1.409A-1(e): at least 12 consecutive months ...
    if add_months(period.start, 12) > days_after(period.end, 1):
        yield Hit(
            participant.id,
            f"{base}.end",
            f"performance period {period.start} to {period.end} is under 12 consecutive months",
        )
    # ... with criteria set in writing within 90 days after it begins.
    criteria = period.criteria_established_on
    if criteria is None:
        yield Hit(
            participant.id,
            base,
            "the facts do not say when the performance criteria were established, so "
            "performance-based timing cannot be confirmed",
            remedy="Add criteria_established_on to the performance_period.",
            severity="warning",
        )
    elif criteria > days_after(period.start, 90):
        yield Hit(
            participant.id,
            f"{base}.criteria_established_on",
            f"criteria established {criteria}, more than 90 days after the period "
            f"began {period.start} (last day {days_after(period.start, 90)})",
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
    period = election.performance_period
    criteria = period.criteria_established_on
    # Continuous service from the later of the period start and the criteria date.
    from_day = max(period.start, criteria) if criteria else period.start
    if participant.hired_on is not None and participant.hired_on > from_day:
        yield Hit(
            participant.id,
            f"participants[{p_index}].hired_on",
            f"hired {participant.hired_on}, after {from_day}: not employed "
            "continuously from the later of the period start and the criteria date",
        )
    termination = participant.termination
    if termination is not None and termination.on < election.made_on:
        yield Hit(
            participant.id,
            f"participants[{p_index}].termination.on",
            f"employment ended {termination.on}, before the election {election.made_on}",
        )
