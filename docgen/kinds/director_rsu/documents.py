"""The director documents: the Notice of Restricted Stock Unit Grant and its Exhibit I Election
Form. What each template is told, what each says about itself, and the key facts read back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from docgen.core import dates
from docgen.core.documents import DocumentMeta, DocumentSpec, ReturnPart
from docgen.core.formats import dollars, units_text
from docgen.core.model import is_in_effect
from docgen.kinds.director_rsu.facts import Director, DirectorGrantFacts
from docgen.kinds.director_rsu.terms import election_record, elections_for_grant, specified_date

# Section B events, in the order the Notice lists them; their words are the drafted clause
# notice.b-accelerated-vesting (templates/clauses/), so counsel's approval covers them.
ACCELERATION_ORDER = ("death", "disability", "change_of_control")

# Exhibit I, Section III: the three choices (drafted), as the form field titles name them.
_CHOICE_TITLES = {
    "separation": "Separation from Service",
    "date": "a specified date",
    "earlier_of_separation_or_date": "the earlier of Separation from Service or a specified date",
}


# Exhibit I's page 2 opens by naming whose form it is (the drafted clause
# exhibit-i.page-two-line, whose first words these are), so a returned page 2 alone is not
# anonymous; DOC-RETURN-PAGE checks that this line opens page 2 and Section IV closes it (were
# the two to differ, every Exhibit I would fail that rule, which the tests render).
RETURN_HEADER = "Page 2 of Exhibit I, the Election Form of"
RETURN_ENDS = "Received by the Company (for Company use)"


def _election_view(election: Any) -> dict[str, Any]:
    """An election form's choice and dates; its words on the form are the drafted clause
    exhibit-i.iii-on-file (templates/clauses/)."""
    pay_date = dates.long_date(election.pay_date) if election.pay_date else None
    return {
        "pay_on": election.pay_on,
        "pay_date": pay_date,
        "filed_on": dates.long_date(election.filed_on),
        "reason": election.reason,
        "decided_by": election.decided_by,
        # Section IV as received (exhibit-i.iv-signature states only what is on record).
        "received_as": election.received_as,
        "printed_name": election.printed_name,
        "signed_on": dates.long_date(election.signed_on) if election.signed_on else None,
        "recorded_by": election.recorded_by,
        "recorded_on": dates.long_date(election.recorded_on) if election.recorded_on else None,
        "signature_seen_by": election.signature_seen_by,
    }


def _not_in_effect(facts: DirectorGrantFacts, director: Director) -> list[Any]:
    """The forms naming this grant that are on record as not in effect, in filing order."""
    return [e for _, e in elections_for_grant(facts, director) if not is_in_effect(e)]


def _director_context(facts: DirectorGrantFacts, director: Director, stage: str) -> dict[str, Any]:
    grant = facts.grant
    vesting = grant.vesting
    # The on-file copy (stage grant) shows the election that governs (DESIGN.md, "Which Exhibit I
    # governs"), names the timely forms it superseded and the forms not in effect; the blank form
    # (stage elections) none.
    record = election_record(facts, director) if stage == "grant" else None
    election_view = None
    superseded: list[dict[str, Any]] = []
    if record is not None and record.effective is not None:
        election_view = _election_view(record.effective)
        superseded = [_election_view(form) for form in record.superseded]
    not_in_effect = _not_in_effect(facts, director) if stage == "grant" else []
    return {
        "company": facts.company.name,
        "stock_plan": facts.stock_plan,
        "secretary_phone": facts.company.secretary_phone,
        "governing_law": facts.company.governing_law,
        "form_10k_fiscal_year": str(facts.form_10k_fiscal_year),
        "notice_date": dates.long_date(grant.notice_date),
        "grant_date": dates.long_date(grant.grant_date),
        "grant_year": str(grant.grant_date.year),
        "election_deadline": dates.long_date(grant.election_deadline),
        "deadline_is_grant_date": grant.election_deadline == grant.grant_date,
        "vesting_anniversary": dates.ordinal_word(vesting.anniversary),
        "annual_meeting_date": (
            dates.long_date(vesting.annual_meeting_date) if vesting.annual_meeting_date else None
        ),
        "specified_date": dates.long_date(specified_date(grant)),
        "default_payment_anniversary": dates.ordinal_word(grant.default_payment_anniversary),
        "accelerate_on": [e for e in ACCELERATION_ORDER if e in vesting.accelerate_on],
        "units": units_text(director.units),
        "fair_market_value": dollars(grant.fair_market_value),
        "director": {
            "name": director.name,
            "greeting": director.greeting,
            "address": list(director.address),
        },
        "fillable": stage == "elections",
        "election": election_view,
        "superseded": superseded,
        "not_in_effect": [_election_view(form) for form in not_in_effect],
        "choice_titles": dict(_CHOICE_TITLES),
    }


def _director_meta(title: str) -> Callable[[DirectorGrantFacts, Director, str], DocumentMeta]:
    def meta(facts: DirectorGrantFacts, director: Director, stage: str) -> DocumentMeta:
        grant = facts.grant
        fillable = stage == "elections"
        subject = (
            f"{facts.stock_plan}: restricted stock units granted "
            f"{dates.long_date(grant.grant_date)} to {director.name}"
        )
        kind = "blank election form" if fillable else "grant"
        return DocumentMeta(
            title=f"{title} - {director.name}",
            author=facts.company.name,
            subject=subject,
            keywords=("Restricted Stock Units", title, grant.id, director.id, kind),
            # The Notice's date line; an issued document is dated its batch's --as-of instead
            # (docgen.render.html.document_meta). Never the clock: a re-render changes no byte.
            created=grant.notice_date,
            modified=grant.notice_date,
            fillable=fillable,
        )

    return meta


def _notice_key_facts(facts: DirectorGrantFacts, director: Director, stage: str) -> list[str]:
    grant = facts.grant
    return [
        director.name,
        dates.long_date(grant.grant_date),
        units_text(director.units),
        dollars(grant.fair_market_value),
        dates.long_date(grant.election_deadline),
        facts.company.secretary_phone,
    ]


def _exhibit_key_facts(facts: DirectorGrantFacts, director: Director, stage: str) -> list[str]:
    grant = facts.grant
    found = [
        director.name,
        dates.long_date(grant.grant_date),
        dates.long_date(grant.election_deadline),
    ]
    election = election_record(facts, director).effective if stage == "grant" else None
    if election is not None:
        found.append(dates.long_date(election.filed_on))
        if election.pay_date is not None:
            found.append(dates.long_date(election.pay_date))
    if stage == "grant":
        found.extend(dates.long_date(form.filed_on) for form in _not_in_effect(facts, director))
    return found


DOCUMENTS: tuple[DocumentSpec[DirectorGrantFacts], ...] = (
    DocumentSpec(
        name="notice",
        title="Notice of Restricted Stock Unit Grant",
        template="notice.html.j2",
        stages=("grant",),
        applies_to=lambda facts, director, stage: stage == "grant",
        context=_director_context,
        meta=_director_meta("Notice of Restricted Stock Unit Grant"),
        key_facts=_notice_key_facts,
    ),
    DocumentSpec(
        name="exhibit-i",
        title="Exhibit I Deferral Election Form",
        template="exhibit-i.html.j2",
        stages=("elections", "grant"),
        applies_to=lambda facts, director, stage: not director.employee,
        context=_director_context,
        meta=_director_meta("Exhibit I Deferral Election Form"),
        key_facts=_exhibit_key_facts,
        type_size=10.5,  # a two-page form: Sections I-II on page 1, III-IV on page 2
        blank_at=("elections",),  # at stage grant: the copy on file, printing the election
        return_part=ReturnPart(page=2, starts=RETURN_HEADER, ends=RETURN_ENDS),
    ),
)
