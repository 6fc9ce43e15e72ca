"""Director RSU grant rules about the elections: the Notice, Exhibit I and Code 409A timing.

Each rule is one predicate over the facts (DESIGN.md, "Rule catalogue: Director RSU grant"). A form
counts for this grant only when it names the grant and comes from a non-employee director
(DESIGN.md, "Which Exhibit I governs", ``elections_for_grant``). A void form (another grant's, an
employee director's) is spoken of by its own rule, RSU-ELECTION-OTHER-GRANT or
RSU-ELECTION-EMPLOYEE-DIRECTOR, and by no other. The content rules (RSU-ELECTION-PARTIAL,
RSU-PAY-DATE-BEFORE-VESTING, RSU-ELECTION-409A-TIMING) judge the form that governs (DESIGN.md,
"Which Exhibit I governs"): a timely form a later timely form replaced draws only an info finding
saying what it would have broken and which form governs instead; a late form's content is moot
(RSU-ELECTION-LATE speaks of it). The rules that read the as-of date are in checks/rsu_as_of.py.
"""

from __future__ import annotations

from collections.abc import Iterator

from checks import rsu_sources as rsu_src
from checks import sources as src
from checks.rsu_sources import exhibit, notice
from checks.sources import code, reg
from docgen.core.dates import days_after, december_31_before, months_before_readings
from docgen.core.election_deadlines import first_year_election_deadline, vests_within_12_months
from docgen.core.model import fact_path
from docgen.core.rules import CheckContext, Hit, rule
from docgen.kinds.director_rsu import kind as _kind  # noqa: F401  (the kind claiming these rules)
from docgen.kinds.director_rsu.facts import Director, DirectorElection, DirectorGrantFacts
from docgen.kinds.director_rsu.settlement import vesting_outcome
from docgen.kinds.director_rsu.terms import (
    elections_for_grant,
    filing_history,
    judged_forms,
    scheduled_vesting_date,
    specified_date,
)

_ASK_COUNSEL = "Ask counsel which reading applies before relying on the election."
_SET_ASIDE = (
    "Record the form as not in effect: `docgen decide FILE --for ID --form N --ineffective "
    "--reason WHY --by NAME` (status: ineffective, reason, decided_by)"
)
_MIS_KEYED = "Change filed_on only if mis-keyed: it is the day the Company received the form."


def election_path(d_index: int, e_index: int, field: str) -> str:
    return fact_path("directors", d_index, "elections", e_index, field)


def directors_of(context: CheckContext) -> Iterator[tuple[int, Director]]:
    yield from enumerate(context.facts.directors)


def governing_forms(
    context: CheckContext,
) -> Iterator[tuple[int, Director, int, DirectorElection, DirectorElection | None]]:
    """The forms the content rules judge (``judged_forms``), with the form that replaced each."""
    for d_index, director in directors_of(context):
        for e_index, election, replaced_by in judged_forms(context.facts, director):
            yield d_index, director, e_index, election, replaced_by


def as_judged(hit: Hit, replaced_by: DirectorElection | None) -> Hit:
    """The finding as it stands: unchanged for the form that governs; for a form a later timely
    form replaced, info saying what it would have broken and which form governs instead."""
    if replaced_by is None:
        return hit
    return Hit(
        hit.subject,
        hit.path,
        f"{hit.message.rstrip('.')}; but this form was replaced: the form filed "
        f"{replaced_by.filed_on} governs instead (Treas. Reg. 1.409A-2(a)(1); Exhibit I), so "
        "this one has no effect.",
        remedy="Nothing to do: the later timely form governs.",
        severity="info",
    )


# ------------------------------------------------------------------------------ the rules


@rule(
    "RSU-ELECTION-LATE",
    title="Exhibit I filed on or after the filing deadline",
    severity="error",
    cites=[notice("F.3"), exhibit()],
    explanation=(
        "A deferral election is effective only if Exhibit I was filed with the Company PRIOR TO "
        "the date the form names (the election_deadline). A form filed on that date or later is "
        "not effective: the last form filed before the deadline governs, or, with none, the "
        "units are paid on the default Payment Date (Notice C.1)."
    ),
    sources=[rsu_src.NOTICE_F3, rsu_src.EXHIBIT_FILED],
    remedy=f"{_SET_ASIDE}: an earlier timely form, else the default Payment Date, governs. "
    f"{_MIS_KEYED}",
)
def election_late(context: CheckContext) -> Iterator[Hit]:
    deadline = context.facts.grant.election_deadline
    for d_index, director in directors_of(context):
        for e_index, election in elections_for_grant(context.facts, director):
            if election.filed_on >= deadline:
                yield Hit(
                    director.id,
                    election_path(d_index, e_index, "filed_on"),
                    f"Exhibit I filed {election.filed_on}, on or after the "
                    f"deadline {deadline}; it had to be filed before it.",
                )


@rule(
    "RSU-DEADLINE-AFTER-GRANT",
    title="Filing deadline later than the Date of Grant",
    severity="error",
    cites=[exhibit()],
    explanation=(
        'Exhibit I must be filed prior to a date it calls "the Date of Grant"; a deadline set '
        "after the grant date would let a director elect after the units were granted, which "
        "the form does not allow."
    ),
    sources=[rsu_src.EXHIBIT_FILED],
    remedy="Set grant.election_deadline to the grant date or earlier.",
)
def deadline_after_grant(context: CheckContext) -> Iterator[Hit]:
    grant = context.facts.grant
    if grant.election_deadline > grant.grant_date:
        yield Hit(
            grant.id,
            "grant.election_deadline",
            f"election_deadline {grant.election_deadline} is after the grant date "
            f"{grant.grant_date}.",
        )


def _timing_problems(
    facts: DirectorGrantFacts, director: Director, election: DirectorElection
) -> tuple[list[str], list[str]]:
    """The 409A routes an election fails, and the routes it passes on one reading only.

    Returns ``(failures, doubts)``; both empty means some route makes it timely.
    """
    grant = facts.grant
    filed = election.filed_on
    failures: list[str] = []
    # (a) the prior-year rule: on or before December 31 before the grant year.
    prior_year_deadline = december_31_before(grant.grant_date.year)
    if filed <= prior_year_deadline:
        return [], []
    failures.append(
        f"(a) not on or before December 31 before the grant year ({prior_year_deadline})"
    )
    # (b) the forfeitable-right rule, open only if vesting takes at least 12 months.
    vesting = scheduled_vesting_date(grant)
    doubts: list[str] = []
    if not vests_within_12_months(grant.grant_date, vesting):
        last_30_days = days_after(grant.grant_date, 30)
        strict, lenient = months_before_readings(vesting, 12)
        if filed > last_30_days:
            failures.append(f"(b) more than 30 days after the grant date (last day {last_30_days})")
        elif filed > lenient:
            failures.append(
                f"(b) less than 12 months before the earliest vesting date "
                f"{vesting} (last day {lenient})"
            )
        elif filed > strict:
            doubts.append(
                f"(b) filed {filed}: 12 months before the earliest vesting "
                f"date {vesting} is {strict} or "
                f"{lenient} depending on how a month-end is counted"
            )
        else:
            return [], []
    else:
        failures.append(
            f"(b) closed: the units can vest on {vesting}, under 12 months after the grant date"
        )
    # (c) a newly eligible director: within 30 days of first eligibility.
    if director.first_eligible_on is not None:
        last_day = first_year_election_deadline(director.first_eligible_on)
        if filed <= last_day:
            return [], []
        failures.append(
            f"(c) more than 30 days after first eligibility "
            f"{director.first_eligible_on} (last day {last_day})"
        )
    return failures, doubts


@rule(
    "RSU-ELECTION-409A-TIMING",
    title="Deferral election timely under no Code 409A route",
    severity="error",
    cites=[
        code("409A(a)(4)(B)"),
        reg("1.409A-2(a)(3)"),
        reg("1.409A-2(a)(5)"),
        reg("1.409A-2(a)(7)"),
    ],
    explanation=(
        "An initial deferral election must be timely under at least one 409A route: (a) made by "
        "December 31 before the grant year; (b) where the units cannot vest for at least 12 "
        "months, made within 30 days after the grant and at least 12 months before the earliest "
        "vesting date (acceleration on death, disability or a change in control ignored, an "
        "annual-meeting vesting date not); (c) for a newly eligible director, within 30 days of "
        "first eligibility. When none applies the finding lists what failed on each open route. "
        'A filing date that passes route (b) on one reading of "12 months" only is a warning. '
        "The form that governs is judged; a form it replaced draws info only, and a late form "
        "(RSU-ELECTION-LATE) is not judged: it never governed. A form timely under route (b) "
        "alone whose units vest on death, disability or a change in control event within 12 "
        "months of the grant is a warning: whether the (a)(5) election holds for them is for "
        "counsel."
    ),
    sources=[src.CODE_409A_A_4_B, src.REG_2_A_3, src.REG_2_A_5, src.REG_2_A_7],
    remedy="Ask counsel whether another route applies; if none does: "
    f"{_SET_ASIDE[0].lower()}{_SET_ASIDE[1:]}.",
)
def election_409a_timing(context: CheckContext) -> Iterator[Hit]:
    facts = context.facts
    for d_index, director, e_index, election, replaced_by in governing_forms(context):
        failures, doubts = _timing_problems(facts, director, election)
        path = election_path(d_index, e_index, "filed_on")
        if doubts:
            hit = Hit(
                director.id,
                path,
                f"Exhibit I filed {election.filed_on} is timely on one "
                f"reading only: {'; '.join(doubts)}; otherwise {'; '.join(failures)}.",
                remedy=_ASK_COUNSEL,
                severity="warning",
            )
        elif failures:
            hit = Hit(
                director.id,
                path,
                f"Exhibit I filed {election.filed_on} is timely under no "
                f"409A route: {'; '.join(failures)}.",
            )
        else:
            early = early_vesting_under_route_b(facts, director, election)
            if early is None or replaced_by is not None:
                continue
            hit = Hit(
                director.id,
                path,
                f"Exhibit I filed {election.filed_on} is timely only under route (b) (Treas. "
                f"Reg. 1.409A-2(a)(5)), and the units vested early, {early}, within 12 months of "
                "the grant. The 12-month condition ignores a lapse on death, disability or a "
                "change in control event, but an election under (a)(5) may not hold for "
                "compensation that vests on one within the 12 months. Reading taken: the "
                "election is applied as filed; counsel decides whether the default Payment "
                "Date (Notice C.1) applies instead.",
                remedy=_ASK_COUNSEL,
                severity="warning",
            )
        yield as_judged(hit, replaced_by)


def early_vesting_under_route_b(
    facts: DirectorGrantFacts, director: Director, election: DirectorElection
) -> str | None:
    """A form timely only under route (b) whose units vested on a Section B event less than 12
    months after the grant: the event and its date in words, else None (DESIGN.md, "Readings left
    to counsel")."""
    grant = facts.grant
    if election.filed_on <= december_31_before(grant.grant_date.year):
        return None  # route (a)
    first = director.first_eligible_on
    if first is not None and election.filed_on <= first_year_election_deadline(first):
        return None  # route (c)
    outcome = vesting_outcome(facts, director)
    if outcome.vested_on is None or outcome.vested_on == scheduled_vesting_date(grant):
        return None
    if not vests_within_12_months(grant.grant_date, outcome.vested_on):
        return None
    return outcome.because


@rule(
    "RSU-VESTING-UNDER-12-MONTHS",
    title="Earliest vesting under 12 months after grant",
    severity="warning",
    cites=[reg("1.409A-2(a)(5)")],
    explanation=(
        "When the units can vest (for example at an annual meeting) less than 12 months after "
        "the grant date, the 30-day forfeitable-right route of Treas. Reg. 1.409A-2(a)(5) is "
        "closed: elections must be made by December 31 before the grant year (or by a newly "
        "eligible director within 30 days)."
    ),
    sources=[src.REG_2_A_5, rsu_src.NOTICE_A],
    remedy="Collect elections before the grant year, or set the vesting date 12 months out.",
)
def vesting_under_12_months(context: CheckContext) -> Iterator[Hit]:
    grant = context.facts.grant
    vesting = scheduled_vesting_date(grant)
    if vests_within_12_months(grant.grant_date, vesting):
        path = (
            "grant.vesting.annual_meeting_date"
            if grant.vesting.annual_meeting_date == vesting
            else "grant.vesting.anniversary"
        )
        yield Hit(
            grant.id,
            path,
            f"the units can vest on {vesting}, less than 12 months after the "
            f"grant date {grant.grant_date}: elections must precede "
            f"{grant.grant_date.year}.",
        )


@rule(
    "RSU-ELECTION-PARTIAL",
    title="Election of less (or more) than all units",
    severity="error",
    cites=[exhibit("Section III")],
    explanation="Exhibit I defers all (100%) of the Company Stock or nothing; a partial "
    "election is not one the form offers. The form that governs is judged; a timely form that a "
    "later timely form replaced draws info only (Treas. Reg. 1.409A-2(a)(1): an election may be "
    "changed until the last permissible date), and a late form's content is moot.",
    sources=[rsu_src.EXHIBIT_III, rsu_src.EXHIBIT_INTRO],
    remedy="Have the director file a form electing 100% (or correct percent if misrecorded).",
    remedied_by_blank_form=True,
)
def election_partial(context: CheckContext) -> Iterator[Hit]:
    for d_index, director, e_index, election, replaced_by in governing_forms(context):
        if election.percent != 100:
            hit = Hit(
                director.id,
                election_path(d_index, e_index, "percent"),
                f"the election defers {election.percent}%; Exhibit I allows all (100%) only.",
            )
            yield as_judged(hit, replaced_by)


@rule(
    "RSU-ELECTION-AFTER-IRREVOCABLE",
    title="A further election after the first became irrevocable",
    severity="error",
    cites=[notice("F.3"), code("409A(a)(4)(C)")],
    explanation=(
        "An election filed before the deadline becomes irrevocable as of the Date of Grant; a "
        "later form for the same grant filed on or after that date is a subsequent deferral "
        "election, which the Notice and Exhibit I do not permit. (Before the Date of Grant a "
        "later timely form supersedes an earlier one; a late form never governed, so nothing "
        "became irrevocable through it.)"
    ),
    sources=[rsu_src.NOTICE_F3, rsu_src.EXHIBIT_IRREVOCABLE, src.CODE_409A_A_4_C],
    remedy="The earlier election stands. Record the later form as not in effect.",
)
def election_after_irrevocable(context: CheckContext) -> Iterator[Hit]:
    grant_date = context.facts.grant.grant_date
    for d_index, director in directors_of(context):
        for e_index, election, governing in filing_history(context.facts, director):
            if governing is not None and election.filed_on >= grant_date:
                yield Hit(
                    director.id,
                    election_path(d_index, e_index, "filed_on"),
                    f"a further election filed {election.filed_on}, after the "
                    f"election filed {governing.filed_on} became irrevocable on the "
                    f"grant date {grant_date}.",
                )


@rule(
    "RSU-ELECTION-OTHER-GRANT",
    title="Election names another grant",
    severity="error",
    cites=[exhibit()],
    explanation="An Exhibit I election applies to the units of the Date of Grant it names; an "
    "election made for earlier units does not carry over. The form is void for this grant: this "
    "rule speaks of it and no other election rule does.",
    sources=[rsu_src.EXHIBIT_NO_CARRY_OVER, rsu_src.EXHIBIT_INTRO],
    remedy="Obtain a form for this grant, or correct grant_id if the form names this grant.",
)
def election_other_grant(context: CheckContext) -> Iterator[Hit]:
    grant_id = context.facts.grant.id
    for d_index, director in directors_of(context):
        for e_index, election in enumerate(director.elections):
            if election.grant_id != grant_id:
                yield Hit(
                    director.id,
                    election_path(d_index, e_index, "grant_id"),
                    f"the election names grant {election.grant_id}, not {grant_id}; "
                    "elections do not carry over.",
                )


@rule(
    "RSU-ELECTION-EMPLOYEE-DIRECTOR",
    title="Election by a director who is an employee",
    severity="error",
    cites=[notice("F.1"), exhibit()],
    explanation="Only a non-employee Director may elect to defer under Exhibit I. An employee "
    "director's form is void: this rule speaks of it and no other election rule does, and the "
    "default Payment Date (Notice C.1) applies.",
    sources=[rsu_src.NOTICE_F1, rsu_src.EXHIBIT_INTRO],
    remedy="Record the form as not in effect, or correct employee: false if not an employee.",
)
def election_employee_director(context: CheckContext) -> Iterator[Hit]:
    grant_id = context.facts.grant.id
    for d_index, director in directors_of(context):
        if not director.employee:
            continue
        for e_index, election in enumerate(director.elections):
            if election.grant_id == grant_id:  # another grant's form: RSU-ELECTION-OTHER-GRANT
                yield Hit(
                    director.id,
                    fact_path("directors", d_index, "elections", e_index),
                    f"{director.name} is an employee; Exhibit I is for non-employee Directors "
                    "only, so the form filed "
                    f"{election.filed_on} is void and the default Payment Date applies.",
                )


@rule(
    "RSU-PAY-DATE-BEFORE-VESTING",
    title="Elected payment date before the Vesting Date",
    severity="error",
    cites=[notice("A"), notice("F.1")],
    explanation="An elected payment date must not fall before the scheduled Vesting Date: the "
    "Specified Date (the vesting anniversary) or the earlier annual meeting when the grant vests "
    "then. A date before it would pay units that have not vested; a date on it pays vested "
    "units (Notice C.1(iv) pays the default on that same anniversary). The form that governs is "
    "judged; a timely form it replaced draws info only, and a late form's content is moot.",
    sources=[rsu_src.NOTICE_A, rsu_src.NOTICE_F1],
    remedy="Have the director elect a later date, or record the form as not in effect.",
    remedied_by_blank_form=True,
)
def pay_date_before_vesting(context: CheckContext) -> Iterator[Hit]:
    grant = context.facts.grant
    vests = scheduled_vesting_date(grant)
    which = (
        "the annual meeting"
        if vests != specified_date(grant)
        else "the Specified Date, the vesting anniversary"
    )
    for d_index, director, e_index, election, replaced_by in governing_forms(context):
        if election.pay_date is not None and election.pay_date < vests:
            hit = Hit(
                director.id,
                election_path(d_index, e_index, "pay_date"),
                f"elected payment date {election.pay_date} is before the Vesting Date {vests} "
                f"({which}): the units would not have vested.",
            )
            yield as_judged(hit, replaced_by)


@rule(
    "RSU-DEFAULT-PAYMENT-BEFORE-VESTING",
    title="Default payment anniversary before the vesting anniversary",
    severity="error",
    cites=[notice("A"), notice("C.1")],
    explanation="Absent an election the units are paid on an anniversary of the grant; that "
    "anniversary cannot precede the Specified Date on which they vest.",
    sources=[rsu_src.NOTICE_A, rsu_src.EXHIBIT_DEFAULT_PAYMENT],
    remedy="Set default_payment_anniversary to the vesting anniversary or later.",
)
def default_payment_before_vesting(context: CheckContext) -> Iterator[Hit]:
    grant = context.facts.grant
    if grant.default_payment_anniversary < grant.vesting.anniversary:
        yield Hit(
            grant.id,
            "grant.default_payment_anniversary",
            f"default payment on anniversary {grant.default_payment_anniversary}, before the "
            f"vesting anniversary {grant.vesting.anniversary}.",
        )
