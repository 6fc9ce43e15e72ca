"""The grant's terms, each defined once: the Specified Date and the Vesting Date, the forms that
count for this grant, the election that governs payment (and the forms it superseded), and the
Payment Date. The rules (checks/rsu*.py), the documents and the calendar all use these."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

from docgen.core.dates import anniversary, six_month_anniversary
from docgen.core.model import decision_words, fact_path, is_in_effect
from docgen.kinds.director_rsu.facts import Director, DirectorElection, DirectorGrantFacts, Grant


def specified_date(grant: Grant) -> date:
    """DESIGN.md, "The Specified Date": the vesting anniversary of the Grant Date (Notice A: "the
    [____] anniversary of the Grant Date (the 'Specified Date')"). An annual meeting never moves
    it: the units then vest on the earlier date (:func:`scheduled_vesting_date`)."""
    return anniversary(grant.grant_date, grant.vesting.anniversary)


def scheduled_vesting_date(grant: Grant) -> date:
    """DESIGN.md, "The Specified Date": the Vesting Date on continued service, the Specified Date
    "or such earlier date as may be provided" (Notice A): the annual meeting when
    ``annual_meeting_date`` is set and earlier.

    This is also the earliest date the units could vest on continued service alone: Treas. Reg.
    1.409A-2(a)(5) ignores acceleration on death, disability or a change in control, while an
    annual-meeting vesting date is not an acceleration and counts.
    """
    on = specified_date(grant)
    meeting = grant.vesting.annual_meeting_date
    return min(on, meeting) if meeting is not None else on


def default_payment_date(grant: Grant) -> date:
    """Notice C.1 (iv): the default anniversary of the Grant Date."""
    return anniversary(grant.grant_date, grant.default_payment_anniversary)


def elections_for_grant(
    facts: DirectorGrantFacts, director: Director
) -> Iterator[tuple[int, DirectorElection]]:
    """The director's Exhibit I forms that count for this grant, in filing order (``filed_on``;
    the file's order breaks a tie), each with its position in the file.

    DESIGN.md, "Which Exhibit I governs": a form naming another grant, or any form of an employee
    director, is void for this grant. Those forms are not yielded: RSU-ELECTION-OTHER-GRANT or
    RSU-ELECTION-EMPLOYEE-DIRECTOR speaks of them and no other election rule does.
    """
    if director.employee:
        return  # Notice F.1, Exhibit I: for non-employee Directors only.
    named = [
        (index, election)
        for index, election in enumerate(director.elections)
        if election.grant_id == facts.grant.id
    ]
    yield from sorted(named, key=lambda item: (item[1].filed_on, item[0]))


def filing_history(
    facts: DirectorGrantFacts, director: Director
) -> Iterator[tuple[int, DirectorElection, DirectorElection | None]]:
    """Each form that counts for this grant, in filing order, with the election that governed
    when it was filed (None: none yet).

    A form governs from its filing when it was filed prior to ``election_deadline`` (Notice F.3,
    Exhibit I) and, if an election already governed, before the Date of Grant: until then a later
    timely form supersedes an earlier one (Treas. Reg. 1.409A-2(a)(1)); from then the earlier one
    is irrevocable (Notice F.3, Exhibit I) and a further form changes nothing.
    """
    governing: DirectorElection | None = None
    for index, election in elections_for_grant(facts, director):
        yield index, election, governing
        if _takes_over(facts.grant, election, governing):
            governing = election


def _takes_over(
    grant: Grant, election: DirectorElection, governing: DirectorElection | None
) -> bool:
    if not is_in_effect(election):
        return False  # on record but not in effect (status: ineffective): governs nothing
    if election.filed_on >= grant.election_deadline:
        return False  # late: not effective
    return governing is None or election.filed_on < grant.grant_date


@dataclass(frozen=True)
class ElectionRecord:
    """What a director's forms come to for this grant (DESIGN.md, "Which Exhibit I governs")."""

    effective: DirectorElection | None  # governs payment; None: the Notice C.1 default applies
    superseded: tuple[DirectorElection, ...]  # timely forms a later timely form replaced


def election_record(facts: DirectorGrantFacts, director: Director) -> ElectionRecord:
    """The effective election (the last form naming this grant filed before the deadline, as
    :func:`filing_history` reads it) and the timely forms it superseded, in filing order."""
    governed: list[DirectorElection] = []
    for _, election, governing in filing_history(facts, director):
        if _takes_over(facts.grant, election, governing):
            governed.append(election)
    if not governed:
        return ElectionRecord(None, ())
    return ElectionRecord(governed[-1], tuple(governed[:-1]))


def judged_forms(
    facts: DirectorGrantFacts, director: Director
) -> Iterator[tuple[int, DirectorElection, DirectorElection | None]]:
    """DESIGN.md, "Which Exhibit I governs": the forms whose content the content rules judge,
    each with the form that replaced it (None: it governs, or it is on record as not in effect).

    The form that governs is judged at the rule's own severity; a timely form that a later
    timely form replaced (Treas. Reg. 1.409A-2(a)(1): an election "may be changed at any time
    before the last permissible date") is judged only to say, as info, what it would have
    broken; a form on record as not in effect is judged as any finding inside it (info). A form
    filed on or after the deadline, or a further form after the first became irrevocable, never
    governed: its content is moot (RSU-ELECTION-LATE, RSU-ELECTION-AFTER-IRREVOCABLE speak of it).
    """
    record = election_record(facts, director)
    for index, election in elections_for_grant(facts, director):
        if election is record.effective:
            yield index, election, None
        elif any(election is replaced for replaced in record.superseded):
            yield index, election, record.effective
        elif not is_in_effect(election) and election.filed_on < facts.grant.election_deadline:
            yield index, election, None


def effective_election(facts: DirectorGrantFacts, director: Director) -> DirectorElection | None:
    """The Exhibit I that governs payment; None when the Notice C.1 default Payment Date applies
    (no form, only late forms or forms not in effect, or an employee director)."""
    return election_record(facts, director).effective


def forms_not_in_effect(facts: DirectorGrantFacts) -> dict[str, str]:
    """Each Exhibit I on record as not in effect, by its fact path, with the decision in words
    (the checker reports findings inside these at info: the decision has been made)."""
    return {
        fact_path("directors", d_index, "elections", e_index): decision_words(election)
        for d_index, director in enumerate(facts.directors)
        for e_index, election in enumerate(director.elections)
        if not is_in_effect(election)
    }


def is_409a_event(director: Director) -> bool:
    """DESIGN.md, "What the Notice says happens to the units": a Change of Control is a payment
    event (Exhibit I (iii)) only when it is also a change in control event under Treas. Reg.
    1.409A-3(i)(5) (``change_in_control_is_409a_event``); not recorded, it is taken as one (the
    checker warns). False when no Change of Control is on record."""
    settlement = director.settlement
    if settlement is None or settlement.change_in_control_on is None:
        return False
    return settlement.change_in_control_is_409a_event is not False


def payment_date(facts: DirectorGrantFacts, director: Director) -> tuple[date | None, str]:
    """The Payment Date that has occurred (Notice C.1 / F.1), and the event that fixed it.

    Without an election: the earliest of death, Disability, a change in control, and the
    default anniversary. With one: the earliest of the elected date, death, Disability and a
    change in control. ``None`` when no payment event has occurred.
    """
    settlement = director.settlement
    events: list[tuple[date, str]] = []
    if settlement is not None:
        change_in_control = settlement.change_in_control_on if is_409a_event(director) else None
        for day, name in (
            (settlement.death_on, "death"),
            (settlement.disability_on, "disability"),
            (change_in_control, "change in control"),
        ):
            if day is not None:
                events.append((day, name))
    election = effective_election(facts, director)
    separation = settlement.separation_on if settlement else None
    if election is None:
        events.append((default_payment_date(facts.grant), "default anniversary"))
    else:
        if election.pay_on in ("separation", "earlier_of_separation_or_date") and separation:
            events.append((separation, "separation"))
        elected = election.pay_date  # given exactly when pay_on names a date (DirectorElection)
        if election.pay_on in ("date", "earlier_of_separation_or_date") and elected is not None:
            events.append((elected, "elected date"))
    if not events:
        return None, ""
    return min(events)


def specified_employee_delay(facts: DirectorGrantFacts, director: Director) -> date | None:
    """Notice F.2: the delayed Payment Date of a specified employee paid on separation."""
    day, event = payment_date(facts, director)
    if day is None or event != "separation" or not director.specified_employee:
        return None
    delayed = six_month_anniversary(day)  # "the date that is six months following"
    death = director.settlement.death_on if director.settlement else None
    return min(delayed, death) if death is not None else delayed


def fixed_date_delay(facts: DirectorGrantFacts, director: Director) -> tuple[date, date] | None:
    """DESIGN.md, "Readings left to counsel": a specified employee whose Payment Date is the date
    elected in Section III, falling on or after the Separation from Service but less than six
    months after it. Notice F.2's words ("if your Payment Date would otherwise be the date you
    elected in Section III ... shall be delayed") may reach it: returns (the elected date, the
    date those words would delay it to, the earlier of six months after separation and death),
    or None where the question does not arise."""
    settlement = director.settlement
    if not director.specified_employee or settlement is None or settlement.separation_on is None:
        return None
    day, event = payment_date(facts, director)
    if day is None or event != "elected date":
        return None
    separation = settlement.separation_on
    delayed = six_month_anniversary(separation)
    if settlement.death_on is not None:
        delayed = min(delayed, settlement.death_on)
    if not separation <= day < delayed:
        return None
    return day, delayed
