"""Retirement Restoration Plan rules: Deferral Elections (Plan 2.03), investments, payments.

Election timing follows DESIGN.md: an election is timely when ANY route open to it makes it
timely: the prior-year deadline (always open), the first-year route (a Participant whose
``first_eligible_on`` falls in the election's Plan Year) and the performance-based route
(``kind: performance_based``). When none does, each open route's failures are reported under
its own rule. A route that passes on one reading of an ambiguous boundary only makes the
election doubtful: its findings are warnings and nothing else is reported.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import ROUND_DOWN, Decimal

from checks import sources as src
from checks.sources import code, plan, reg
from docgen.checker import CheckContext, Hit, rule
from docgen.compute import key_employee_payment_date
from docgen.dates import (
    add_months,
    days_after,
    days_in_period,
    december_31_before,
    first_year_election_deadline,
    months_before_readings,
)
from docgen.facts import Participant, PerformancePeriod, RRPElection, RRPPlanYearFacts
from docgen.parameters import compensation_limit

RRP = "rrp-plan-year"
_ASK_COUNSEL = "Ask counsel which reading applies before relying on the election."
ONE_DAY = timedelta(days=1)
TIMING_RULES = (
    "RRP-ELECTION-LATE", "RRP-FIRST-YEAR-LATE", "RRP-NOT-NEWLY-ELIGIBLE",
    "RRP-FIRST-YEAR-PRIOR-SERVICES", "RRP-PBC-LATE", "RRP-PBC-NOT-QUALIFIED",
    "RRP-PBC-SERVICE-GAP",
)  # fmt: skip


def _participants(context: CheckContext) -> Iterator[tuple[int, Participant]]:
    yield from enumerate(context.facts.participants)


def _kind(election: RRPElection) -> str:
    """The election's kind in words: salary, bonus, performance-based."""
    return election.kind.replace("_", "-")


def _election_path(p_index: int, e_index: int, field_name: str) -> str:
    return f"participants[{p_index}].elections[{e_index}].{field_name}"


# ---------------------------------------------------------------------- election routes


@dataclass
class Route:
    """One route to a timely election and what, if anything, it failed on."""

    name: str
    problems: list[tuple[str, Hit]] = field(default_factory=list)  # (rule id, hit)

    @property
    def passes(self) -> bool:
        return not self.problems

    @property
    def doubtful(self) -> bool:
        return bool(self.problems) and all(hit.severity == "warning" for _, hit in self.problems)


def bonus_period(election: RRPElection) -> PerformancePeriod | tuple[date, date]:
    """The period the compensation is earned over: its performance period, else the Plan Year."""
    if election.performance_period is not None:
        return election.performance_period
    return date(election.plan_year, 1, 1), date(election.plan_year, 12, 31)


def _period_bounds(election: RRPElection) -> tuple[date, date]:
    period = bonus_period(election)
    if isinstance(period, PerformancePeriod):
        return period.start, period.end
    return period


def prorated_maximum(election: RRPElection) -> Decimal:
    """Treas. Reg. 1.409A-2(a)(7)(i): the most a first-year election may defer of pay earned
    over a period, in percent: 100 x days left in the period after the election / days in it."""
    start, end = _period_bounds(election)
    total = days_in_period(start, end)
    if election.made_on < start:
        left = total
    else:
        left = max(0, min(total, (end - election.made_on).days))
    return Decimal(100 * left) / Decimal(total)


def _prior_year_route(who: str, path: str, election: RRPElection) -> Route:
    route = Route("prior-year")
    deadline = december_31_before(election.plan_year)
    if election.made_on > deadline:
        route.problems.append(
            (
                "RRP-ELECTION-LATE",
                Hit(
                    who,
                    path,
                    f"{_kind(election)} election for {election.plan_year} made "
                    f"{election.made_on}, after December 31 before the Plan Year "
                    f"({deadline})",
                ),
            )
        )
    return route


def _first_year_route(
    who: str, p_index: int, e_index: int, participant: Participant, election: RRPElection
) -> Route:
    route = Route("first-year")
    eligible = participant.first_eligible_on
    path = _election_path(p_index, e_index, "made_on")
    last_day = first_year_election_deadline(eligible)
    if election.made_on > last_day:
        route.problems.append(
            (
                "RRP-FIRST-YEAR-LATE",
                Hit(
                    who,
                    path,
                    f"first-year election made {election.made_on}, more than 30 days after "
                    f"first eligibility {eligible} (last day {last_day})",
                ),
            )
        )
    previous = participant.previously_eligible_until
    if previous is not None:
        # Eligible at any time in the 24-month period ending on the new eligibility date.
        strict, lenient = months_before_readings(eligible, 24)
        prev_path = f"participants[{p_index}].previously_eligible_until"
        if previous > lenient:
            route.problems.append(
                (
                    "RRP-NOT-NEWLY-ELIGIBLE",
                    Hit(
                        who,
                        prev_path,
                        f"eligible until {previous}, within the 24 months before first "
                        f"eligibility {eligible}: not newly eligible",
                    ),
                )
            )
        elif previous > strict:
            route.problems.append(
                (
                    "RRP-NOT-NEWLY-ELIGIBLE",
                    Hit(
                        who,
                        prev_path,
                        f"eligible until {previous}: inside the 24 months before "
                        f"{eligible} if they begin on {strict + ONE_DAY} but not if they "
                        f"begin on {lenient + ONE_DAY} (a month-end is counted two ways)",
                        remedy=_ASK_COUNSEL,
                        severity="warning",
                    ),
                )
            )
    if election.kind in ("bonus", "performance_based"):
        maximum = prorated_maximum(election)
        if election.percent > maximum:
            start, end = _period_bounds(election)
            shown = maximum.quantize(Decimal("0.01"), rounding=ROUND_DOWN)
            route.problems.append(
                (
                    "RRP-FIRST-YEAR-PRIOR-SERVICES",
                    Hit(
                        who,
                        _election_path(p_index, e_index, "percent"),
                        f"first-year {_kind(election)} election of {election.percent}% made "
                        f"{election.made_on} covers pay for services before the election: "
                        f"at most {shown}% of the pay for {start} to {end} may "
                        "be deferred",
                    ),
                )
            )
    return route


def _performance_route(
    who: str, p_index: int, e_index: int, participant: Participant, election: RRPElection
) -> Route:
    route = Route("performance-based")
    period = election.performance_period
    base = _election_path(p_index, e_index, "performance_period")
    # Plan 1.18 / Treas. Reg. 1.409A-1(e): at least 12 consecutive months ...
    if add_months(period.start, 12) > days_after(period.end, 1):
        route.problems.append(
            (
                "RRP-PBC-NOT-QUALIFIED",
                Hit(
                    who,
                    f"{base}.end",
                    f"performance period {period.start} to {period.end} is under "
                    "12 consecutive months",
                ),
            )
        )
    # ... with criteria set in writing within 90 days after it begins.
    criteria = period.criteria_established_on
    if criteria is None:
        route.problems.append(
            (
                "RRP-PBC-NOT-QUALIFIED",
                Hit(
                    who,
                    base,
                    "the facts do not say when the performance criteria were established, so "
                    "performance-based timing cannot be confirmed",
                    remedy="Add criteria_established_on to the performance_period.",
                    severity="warning",
                ),
            )
        )
    elif criteria > days_after(period.start, 90):
        route.problems.append(
            (
                "RRP-PBC-NOT-QUALIFIED",
                Hit(
                    who,
                    f"{base}.criteria_established_on",
                    f"criteria established {criteria}, more than 90 days after the period "
                    f"began {period.start} (last day {days_after(period.start, 90)})",
                ),
            )
        )
    # Six months before the end of the period: two readings at a month-end.
    strict, lenient = months_before_readings(period.end, 6)
    made = election.made_on
    made_path = _election_path(p_index, e_index, "made_on")
    if made > lenient:
        route.problems.append(
            (
                "RRP-PBC-LATE",
                Hit(
                    who,
                    made_path,
                    f"performance-based election made {made}, later than six months before "
                    f"the period ends {period.end} (last day {lenient})",
                ),
            )
        )
    elif made > strict:
        route.problems.append(
            (
                "RRP-PBC-LATE",
                Hit(
                    who,
                    made_path,
                    f"performance-based election made {made}: six months before "
                    f"{period.end} is {strict} or {lenient} depending "
                    "on how a month-end is counted; timely on the second reading only",
                    remedy=_ASK_COUNSEL,
                    severity="warning",
                ),
            )
        )
    # Continuous service from the later of the period start and the criteria date.
    from_day = max(period.start, criteria) if criteria else period.start
    if participant.hired_on is not None and participant.hired_on > from_day:
        route.problems.append(
            (
                "RRP-PBC-SERVICE-GAP",
                Hit(
                    who,
                    f"participants[{p_index}].hired_on",
                    f"hired {participant.hired_on}, after {from_day}: not employed "
                    "continuously from the later of the period start and the criteria date",
                ),
            )
        )
    termination = participant.termination
    if termination is not None and termination.on < made:
        route.problems.append(
            (
                "RRP-PBC-SERVICE-GAP",
                Hit(
                    who,
                    f"participants[{p_index}].termination.on",
                    f"employment ended {termination.on}, before the election {made}",
                ),
            )
        )
    return route


def election_routes(
    participant: Participant, p_index: int, e_index: int, election: RRPElection
) -> list[Route]:
    """Every route open to this election, each with what it failed on."""
    who = participant.id
    routes = [_prior_year_route(who, _election_path(p_index, e_index, "made_on"), election)]
    eligible = participant.first_eligible_on
    if eligible is not None and eligible.year == election.plan_year:
        routes.append(_first_year_route(who, p_index, e_index, participant, election))
    if election.kind == "performance_based":
        routes.append(_performance_route(who, p_index, e_index, participant, election))
    return routes


def timing_problems(
    participant: Participant, p_index: int, e_index: int, election: RRPElection
) -> list[tuple[str, Hit]]:
    """The timing findings for one election: none if any route passes; warnings only if a
    route passes on one reading; otherwise every open route's failures."""
    if election.made_on <= december_31_before(election.plan_year):
        return []  # the prior-year route, always open, makes it timely
    routes = election_routes(participant, p_index, e_index, election)
    if any(route.passes for route in routes):
        return []
    doubtful = [route for route in routes if route.doubtful]
    if doubtful:
        return [problem for route in doubtful for problem in route.problems]
    open_routes = ", ".join(route.name for route in routes)
    return [
        (
            rule_id,
            Hit(
                hit.subject,
                hit.path,
                f"{hit.message} (routes open: {open_routes}).",
                hit.remedy,
                hit.severity,
            ),
        )
        for route in routes
        for rule_id, hit in route.problems
    ]


def all_timing_problems(facts: RRPPlanYearFacts) -> dict[str, list[Hit]]:
    """Every election's timing findings, by rule id (one pass serves the seven timing rules)."""
    found: dict[str, list[Hit]] = {rule_id: [] for rule_id in TIMING_RULES}
    for p_index, participant in enumerate(facts.participants):
        if not participant.eligible_employee:
            continue  # RRP-NOT-PARTICIPANT: no election is available at all
        for e_index, election in enumerate(participant.elections):
            for rule_id, hit in timing_problems(participant, p_index, e_index, election):
                found[rule_id].append(hit)
    return found


def _timing_hits(context: CheckContext, rule_id: str) -> list[Hit]:
    """This rule's share of the one timing pass made per run of the checker."""
    if "rrp-timing" not in context.shared:
        context.shared["rrp-timing"] = all_timing_problems(context.facts)
    return context.shared["rrp-timing"][rule_id]


_TIMING_REMEDY = (
    "Do not give effect to the election for this Plan Year; the Participant may "
    "elect for the next Plan Year by December 31."
)


@rule(
    "RRP-ELECTION-LATE",
    title="Deferral Election after December 31 before the Plan Year",
    severity="error",
    cites=[plan("2.03(b)"), code("409A(a)(4)(B)(i)"), reg("1.409A-2(a)(3)")],
    applies_to=RRP,
    explanation=(
        "A Deferral Election for a Plan Year must be made by December 31 of the prior Plan Year, "
        "unless the first-year route (Plan 2.03(c)) or the performance-based route makes it "
        "timely. Reported when no open route does; the other routes' failures are reported "
        "under their own rules."
    ),
    sources=[src.PLAN_2_03_B, src.CODE_409A_A_4_B, src.REG_2_A_3],
    remedy=_TIMING_REMEDY,
)
def election_late(context: CheckContext) -> Iterator[Hit]:
    return _timing_hits(context, "RRP-ELECTION-LATE")


@rule(
    "RRP-FIRST-YEAR-LATE",
    title="First-year election more than 30 days after eligibility",
    severity="error",
    cites=[plan("2.03(c)"), code("409A(a)(4)(B)(ii)"), reg("1.409A-2(a)(7)")],
    applies_to=RRP,
    explanation="In the first Plan Year of eligibility an initial Deferral Election may be made "
    "within 30 days after becoming eligible (day 30 is the last good day).",
    sources=[src.PLAN_2_03_C, src.REG_2_A_7],
    remedy=_TIMING_REMEDY,
)
def first_year_late(context: CheckContext) -> Iterator[Hit]:
    return _timing_hits(context, "RRP-FIRST-YEAR-LATE")


@rule(
    "RRP-NOT-NEWLY-ELIGIBLE",
    title="First-year route used by someone eligible in the prior 24 months",
    severity="error",
    cites=[reg("1.409A-2(a)(7)(ii)")],
    applies_to=RRP,
    explanation=(
        "A Participant who was eligible at any time in the 24 months ending on the new "
        "eligibility date is not newly eligible and cannot use the 30-day first-year route. "
        "Where a month-end makes the start of the 24 months uncertain, this is a warning."
    ),
    sources=[src.REG_2_A_7, src.PLAN_2_03_C],
    remedy=_TIMING_REMEDY,
)
def not_newly_eligible(context: CheckContext) -> Iterator[Hit]:
    return _timing_hits(context, "RRP-NOT-NEWLY-ELIGIBLE")


@rule(
    "RRP-FIRST-YEAR-PRIOR-SERVICES",
    title="First-year bonus election reaches pay for services already performed",
    severity="error",
    cites=[plan("2.03(c)"), reg("1.409A-2(a)(7)(i)")],
    applies_to=RRP,
    explanation=(
        "A first-year election is valid only for pay for services after the election. For pay "
        "earned over a period (a bonus, performance-based pay) the deferral is limited to "
        "100 x (days left in the period after the election) / (days in the period) percent."
    ),
    sources=[src.PLAN_2_03_C, src.REG_2_A_7],
    remedy="Reduce the elected percent to the pro-rated maximum.",
)
def first_year_prior_services(context: CheckContext) -> Iterator[Hit]:
    return _timing_hits(context, "RRP-FIRST-YEAR-PRIOR-SERVICES")


@rule(
    "RRP-PBC-LATE",
    title="Performance-based election later than six months before the period ends",
    severity="error",
    cites=[plan("2.03(b)"), code("409A(a)(4)(B)(iii)"), reg("1.409A-2(a)(8)")],
    applies_to=RRP,
    explanation=(
        "An election for Performance-Based Compensation must be made no later than six months "
        "before the end of the performance period (a December 31 end gives June 30). For a "
        'period ending at another month-end (September 30) "six months before" reads as '
        "March 30 or March 31: a date that passes one reading only is a warning."
    ),
    sources=[src.PLAN_2_03_B_PBC, src.CODE_409A_A_4_B, src.REG_2_A_8],
    remedy=_TIMING_REMEDY,
)
def pbc_late(context: CheckContext) -> Iterator[Hit]:
    return _timing_hits(context, "RRP-PBC-LATE")


@rule(
    "RRP-PBC-NOT-QUALIFIED",
    title="Relies on performance-based timing, but the pay is not Performance-Based",
    severity="error",
    cites=[plan("1.18"), reg("1.409A-1(e)")],
    applies_to=RRP,
    explanation=(
        "Performance-Based Compensation needs a performance period of at least 12 consecutive "
        "months and criteria established in writing no later than 90 days after it begins. An "
        "election that needs the six-month route fails when either is missing; an unrecorded "
        "criteria date is a warning."
    ),
    sources=[src.PLAN_1_18, src.REG_1_E],
    remedy=_TIMING_REMEDY,
)
def pbc_not_qualified(context: CheckContext) -> Iterator[Hit]:
    return _timing_hits(context, "RRP-PBC-NOT-QUALIFIED")


@rule(
    "RRP-PBC-SERVICE-GAP",
    title="Not employed continuously through the performance-based election",
    severity="error",
    cites=[reg("1.409A-2(a)(8)")],
    applies_to=RRP,
    explanation="The six-month route requires continuous service from the later of the start of "
    "the performance period and the date the criteria were set, through the election.",
    sources=[src.REG_2_A_8],
    remedy=_TIMING_REMEDY,
)
def pbc_service_gap(context: CheckContext) -> Iterator[Hit]:
    return _timing_hits(context, "RRP-PBC-SERVICE-GAP")


# ---------------------------------------------------------------------- election amount


@rule(
    "RRP-DEFERRAL-OVER-MAX",
    title="Deferral above the Plan maximum",
    severity="error",
    cites=[plan("2.03(a)")],
    applies_to=RRP,
    explanation="A Participant may defer up to 75% of Plan Compensation (the plan's "
    "max_deferral_percent).",
    sources=[src.PLAN_2_03_A],
    remedy="Reduce the election to the maximum or less.",
)
def deferral_over_max(context: CheckContext) -> Iterator[Hit]:
    maximum = context.facts.plan.max_deferral_percent
    for p_index, participant in _participants(context):
        for e_index, election in enumerate(participant.elections):
            if election.percent > maximum:
                yield Hit(
                    participant.id,
                    _election_path(p_index, e_index, "percent"),
                    f"{_kind(election)} election of {election.percent}% is above the "
                    f"{maximum}% maximum.",
                )


@rule(
    "RRP-DEFERRAL-INCREMENT",
    title="Deferral not in whole-percent increments",
    severity="error",
    cites=[plan("2.03(a)")],
    applies_to=RRP,
    explanation="Deferrals are elected in one percent (1%) increments of Plan Compensation: a "
    "whole number of percent, not negative.",
    sources=[src.PLAN_2_03_A],
    remedy="Round the election to a whole percent the Participant confirms.",
)
def deferral_increment(context: CheckContext) -> Iterator[Hit]:
    for p_index, participant in _participants(context):
        for e_index, election in enumerate(participant.elections):
            if election.percent % 1 != 0 or election.percent < 0:
                yield Hit(
                    participant.id,
                    _election_path(p_index, e_index, "percent"),
                    f"{_kind(election)} election of {election.percent}% is not a whole "
                    "percent (1% increments).",
                )


# -------------------------------------------------------------------- who may participate


@rule(
    "RRP-NOT-PARTICIPANT",
    title="Election by someone who is not an Eligible Employee",
    severity="error",
    cites=[plan("1.11"), plan("2.01")],
    applies_to=RRP,
    explanation="Only an Eligible Employee (a member of the select group, a common-law "
    "employee on the U.S. payroll) may become a Participant and elect to defer.",
    sources=[src.PLAN_1_11, src.PLAN_2_01],
    remedy="Remove the election, or correct eligible_employee if the Committee selected them.",
)
def not_participant(context: CheckContext) -> Iterator[Hit]:
    for p_index, participant in _participants(context):
        if not participant.eligible_employee and participant.elections:
            yield Hit(
                participant.id,
                f"participants[{p_index}].eligible_employee",
                f"{participant.name} is not an Eligible Employee but has "
                f"{len(participant.elections)} election(s).",
            )


@rule(
    "RRP-NO-PLAN-COMPENSATION",
    title="Compensation not above the 401(a)(17) limit: the election defers nothing",
    severity="warning",
    cites=[plan("1.21"), plan("2.01")],
    applies_to=RRP,
    explanation="Plan Compensation is Compensation above the Code 401(a)(17) limit for the Plan "
    "Year (from checks/parameters, or plan.compensation_limit). Without it the "
    "Participant does not participate and an election defers nothing.",
    sources=[src.PLAN_1_21, src.PLAN_2_01],
    remedy="Confirm the Compensation figure; if right, the election has no effect this year.",
)
def no_plan_compensation(context: CheckContext) -> Iterator[Hit]:
    limit = compensation_limit(context.facts)
    for p_index, participant in _participants(context):
        if (
            participant.eligible_employee
            and participant.elections
            and participant.compensation <= limit
        ):
            yield Hit(
                participant.id,
                f"participants[{p_index}].compensation",
                f"Compensation ${participant.compensation:,} is not above the "
                f"{context.facts.plan_year} limit of ${limit:,}: no Plan Compensation to defer.",
            )


@rule(
    "RRP-INVESTMENT-ALLOCATION",
    title="Investment allocation not in whole percents summing to 100",
    severity="error",
    cites=[plan("3.05(b)")],
    applies_to=RRP,
    explanation="Investment selections are made in increments of one percent (1%); a complete "
    "allocation sums to 100%. No selection at all is allowed (the default fund applies).",
    sources=[src.PLAN_3_05_B],
    remedy="Have the Participant restate the allocation in whole percents totalling 100.",
)
def investment_allocation(context: CheckContext) -> Iterator[Hit]:
    for p_index, participant in _participants(context):
        if not participant.investments:
            continue
        path = f"participants[{p_index}].investments"
        fractional = [
            f"{fund} {share}%"
            for fund, share in participant.investments.items()
            if share % 1 != 0 or share < 0
        ]
        total = sum(participant.investments.values(), Decimal(0))
        problems = []
        if fractional:
            problems.append(f"not in whole percents: {', '.join(fractional)}")
        if total != 100:
            problems.append(f"sums to {total}%, not 100%")
        if problems:
            yield Hit(participant.id, path, f"investment allocation {'; '.join(problems)}.")


@rule(
    "RRP-BENEFICIARY-MISSING",
    title="No Beneficiary designated",
    severity="warning",
    cites=[plan("1.02"), plan("Beneficiary designation")],
    applies_to=RRP,
    explanation="Each Participant must designate a Beneficiary at enrollment; without one the "
    "Plan's default order (Surviving Spouse, else the estate) applies.",
    sources=[src.PLAN_BENEFICIARY_DESIGNATION, src.PLAN_1_02],
    remedy="Send the Participant a beneficiary designation with the enrollment form.",
)
def beneficiary_missing(context: CheckContext) -> Iterator[Hit]:
    for p_index, participant in _participants(context):
        if participant.eligible_employee and not participant.beneficiaries:
            yield Hit(
                participant.id,
                f"participants[{p_index}].beneficiaries",
                "no Beneficiary designated; the default order of Plan Section 1.02 applies.",
            )


# ------------------------------------------------------------------------------ payments


@rule(
    "RRP-KEY-EMPLOYEE-PAYMENT",
    title="Key Employee paid before the six-month delay",
    severity="error",
    cites=[plan("4.01(b)"), code("409A(a)(2)(B)(i)")],
    applies_to=RRP,
    explanation=(
        "A Key Employee on the date of Termination of Employment (other than death or "
        "disability) is paid on the first day of the month following the six-month anniversary "
        "of termination, not earlier. Key Employee status runs for the 12 months from the April 1 "
        "after each December 31 determination (Plan 1.14)."
    ),
    sources=[src.PLAN_4_01_B, src.PLAN_1_14, src.CODE_409A_A_2_B_I],
    remedy="Hold payment to the delayed date; if already paid, ask counsel about 409A correction.",
)
def key_employee_payment(context: CheckContext) -> Iterator[Hit]:
    for p_index, participant in _participants(context):
        delayed = key_employee_payment_date(context.facts, participant)
        if delayed is None:
            continue
        for pay_index, payment in enumerate(participant.payments):
            if payment.to == "participant" and payment.on < delayed:
                yield Hit(
                    participant.id,
                    f"participants[{p_index}].payments[{pay_index}].on",
                    f"payment {payment.on} to a Key Employee terminated "
                    f"{participant.termination.on} is before {delayed}, "
                    "the first day of the month following the six-month anniversary.",
                )


@rule(
    "RRP-PAYMENT-WINDOW",
    title="Payment before its event or more than 60 days after it",
    severity="error",
    cites=[plan("4.01(a)"), code("409A(a)(3)"), plan("4.01(b)"), reg("1.409A-3(d)")],
    applies_to=RRP,
    explanation=(
        "The Account is paid within 60 days following the earliest of Termination of "
        "Employment, death or disability (day 60 is the last good day), never before. A Key "
        "Employee is paid ON the first day of the month following the six-month anniversary "
        "(Plan 4.01(b)): a payment later than that day but within 60 days of it is a warning "
        "(the Plan's words say 'on'; whether 4.01(a)'s 60 days or Treas. Reg. 1.409A-3(d)'s "
        "grace reaches it is for counsel), later than that an error. Payments to an alternate "
        "payee (Plan 4.01(c)) are not checked."
    ),
    sources=[src.PLAN_4_01_A, src.PLAN_4_01_B, src.CODE_409A_A_3],
    remedy="Correct the recorded date if wrong; otherwise ask counsel about 409A correction.",
)
def payment_window(context: CheckContext) -> Iterator[Hit]:
    for p_index, participant in _participants(context):
        termination = participant.termination
        delayed = key_employee_payment_date(context.facts, participant)
        for pay_index, payment in enumerate(participant.payments):
            if payment.to == "alternate_payee":
                continue
            path = f"participants[{p_index}].payments[{pay_index}].on"
            if termination is None:
                yield Hit(
                    participant.id,
                    path,
                    f"payment {payment.on} with no Termination of Employment, "
                    "death or disability on record.",
                )
                continue
            event, what = termination.on, f"{termination.reason} on {termination.on}"
            if delayed is not None and payment.to == "participant":
                if payment.on < delayed:
                    continue  # RRP-KEY-EMPLOYEE-PAYMENT reports it
                event, what = delayed, f"the Key Employee date {delayed}"
                if delayed < payment.on <= days_after(delayed, 60):
                    yield Hit(
                        participant.id,
                        path,
                        f"payment {payment.on} is after {delayed}, the day Plan 4.01(b) says a "
                        "Key Employee is paid on; it is within 60 days of it, which Plan 4.01(a) "
                        "allows other payments.",
                        remedy="Ask counsel whether the payment date needs correcting.",
                        severity="warning",
                    )
                    continue
            if payment.on < event:
                yield Hit(
                    participant.id,
                    path,
                    f"payment {payment.on} is before its event ({what}).",
                )
            elif payment.on > days_after(event, 60):
                yield Hit(
                    participant.id,
                    path,
                    f"payment {payment.on} is more than 60 days after {what} "
                    f"(last day {days_after(event, 60)}).",
                )
