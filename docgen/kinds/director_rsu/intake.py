"""Returned Exhibit I forms into the facts: which fields (DESIGN.md, "Fillable forms") carry which
answer, what a complete form must say, and how its election is recorded (a new entry in the
director's ``elections``, filed on the day the Company received it).

What a filled form must show (Exhibit I: "Sections III and IV (on Page 2) of this Election Form
must be completed"): one Section III option, the date that option asks for and no other, the
printed name of the director the form was issued to, and the date signed, on or before the day
the Company received it. Anything else is refused, never guessed: the secretary asks for the
form again, or records what the director wrote with `docgen elect`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date
from typing import Any

from docgen.core import dates
from docgen.core.filings import (
    Append,
    Filing,
    FormIntake,
    FormRefused,
    PrintedIdentity,
    ReturnedForm,
    how_received,
    same_person,
    signed_and_received,
    written_date,
)
from docgen.core.model import decision_words, fact_path, is_in_effect
from docgen.kinds.director_rsu.facts import Director, DirectorGrantFacts
from docgen.kinds.director_rsu.terms import effective_election
from docgen.kinds.director_rsu.windows import director_windows

OPTIONS = ("separation", "date", "earlier_of_separation_or_date")
NEEDS_DATE = ("date", "earlier_of_separation_or_date")
LETTER = {"separation": "(a)", "date": "(b)", "earlier_of_separation_or_date": "(c)"}
DATE_FIELDS = {option: f"pay_date_{option}" for option in NEEDS_DATE}


def answers_from_form(
    facts: DirectorGrantFacts,
    director: Director,
    values: Mapping[str, str | None],
    tooltips: Mapping[str, str],
) -> dict[str, Any]:
    """The answers a filled Exhibit I gives. A date written beside an option that is not the
    one marked makes the form unclear (which did the director mean?), so it is refused."""
    pay_on = values.get("pay_on")
    written = {option: values.get(name) for option, name in DATE_FIELDS.items()}
    stray = [
        f"{DATE_FIELDS[option]}: a date ({text}) is written beside option {LETTER[option]}, "
        f"but {'no option' if pay_on is None else 'option ' + LETTER.get(pay_on, pay_on)} "
        "is marked"
        for option, text in written.items()
        if text is not None and option != pay_on
    ]
    if stray:
        raise FormRefused(stray, "Ask the director which option is meant.")
    return {
        "pay_on": pay_on,
        "pay_date": written.get(pay_on) if pay_on in NEEDS_DATE else None,
        "printed_name": values.get("printed_name"),
        "date_signed": values.get("date_signed"),
        "received_on": values.get("received_on"),
    }


def answers_from_options(
    facts: DirectorGrantFacts, director: Director, options: Mapping[str, Any]
) -> dict[str, Any]:
    """The answers `docgen elect` was given for a paper Exhibit I."""
    return {
        "pay_on": options.get("pay-on"),
        "pay_date": options.get("pay-date"),
        "printed_name": options.get("printed-name"),
        "date_signed": options.get("signed-on"),
        "received_on": None,
    }


def record(
    facts: DirectorGrantFacts,
    director: Director,
    answers: Mapping[str, Any],
    received_on: date,
    form_sha256: str | None,
    source: str,
) -> Filing:
    """Validate the answers and say what to record: one new election, filed when received."""
    problems: list[str] = []
    pay_on = answers.get("pay_on")
    pay_date = None
    if pay_on is None:
        problems.append("pay_on: no Section III option is marked")
    elif pay_on not in OPTIONS:
        problems.append(f"pay_on: {pay_on!r} is not a Section III option ({', '.join(OPTIONS)})")
    elif pay_on in NEEDS_DATE:
        text = answers.get("pay_date")
        if text is None:
            field = DATE_FIELDS[pay_on] if source == "form" else "--pay-date"
            problems.append(f"{field}: option {LETTER[pay_on]} is marked but its date is blank")
        else:
            pay_date = written_date(text, DATE_FIELDS[pay_on], problems)
    elif answers.get("pay_date") is not None:
        problems.append("--pay-date: option (a), Separation from Service, takes no date")
    _signature_block(director, answers, received_on, source, problems)
    if problems or pay_on is None:  # (no option marked is a problem)
        raise FormRefused(problems, _ASK_AGAIN if source == "form" else "")
    election: dict[str, Any] = {
        "grant_id": facts.grant.id,
        "filed_on": received_on,
        "percent": 100,  # Exhibit I defers all (100%) or nothing (Section III)
        "pay_on": pay_on,
    }
    if pay_date is not None:
        election["pay_date"] = pay_date
    if form_sha256 is not None:
        election["form_sha256"] = form_sha256
    election.update(_how_received(answers, source, problems))
    name = answers.get("printed_name")
    if answers.get("accept_name") and name and not same_person(name, director.name):
        # --accept-name: the reason the name was accepted, beside the filing (never silent)
        election["name_accepted"] = answers["accept_name"]
    if problems:
        raise FormRefused(problems, "")
    _not_recorded_yet(director, election)
    chosen = LETTER[pay_on] + (f" {dates.long_date(pay_date)}" if pay_date else "")
    return Filing(
        subject=director.id,
        filed_on=received_on,
        edits=(Append(("elections",), election),),
        summary=f"Exhibit I option {chosen}, filed {dates.long_date(received_on)}",
    )


_ASK_AGAIN = (
    "Ask the director to complete the form again, or record what the paper says with "
    "`docgen elect`."
)


def _signature_block(
    director: Director,
    answers: Mapping[str, Any],
    received_on: date,
    source: str,
    problems: list[str],
) -> None:
    """Section IV: the printed name of the director the form was issued to, and its dates."""
    name = answers.get("printed_name")
    if name is None and source == "form":
        problems.append("printed_name: Section IV is not completed (no printed name)")
    elif name is not None and not same_person(name, director.name):
        if not answers.get("accept_name"):
            problems.append(
                f"printed_name: reads {name!r}, but the form was issued to {director.name}"
            )
    signed_and_received(answers, received_on, source, problems)


def _how_received(answers: Mapping[str, Any], source: str, problems: list[str]) -> dict[str, Any]:
    """What the on-file copy states of the form: how it arrived, the name as printed, the date
    signed as written and, for a paper form, who recorded it and when. Never a signature: that
    is signature_seen_by, which only whoever saw the signature sets."""
    how = how_received(answers, source, problems)
    if not answers.get("printed_name"):
        return how
    arrived = {"received_as": how.pop("received_as")}  # the printed name next, as on the form
    return {**arrived, "printed_name": answers["printed_name"], **how}


def _not_recorded_yet(director: Director, election: dict[str, Any]) -> None:
    """The same form twice is refused: the same file, or the same choice filed the same day."""
    for index, existing in enumerate(director.elections):
        same_file = election.get("form_sha256") and existing.form_sha256 == election["form_sha256"]
        same_choice = (
            existing.grant_id == election["grant_id"]
            and existing.filed_on == election["filed_on"]
            and existing.pay_on == election["pay_on"]
            and existing.pay_date == election.get("pay_date")
        )
        if same_file or same_choice:
            why = "this very file" if same_file else "the same choice, filed the same day"
            raise FormRefused(
                [
                    f"{director.id}: this form is already recorded ({why}: elections[{index}], "
                    f"filed {existing.filed_on})"
                ],
                "Nothing to do; `docgen status` shows what is on record.",
            )


def returned(facts: DirectorGrantFacts, director: Director) -> list[ReturnedForm]:
    """The director's forms on record that name this grant, with the one that governs."""
    governing = effective_election(facts, director)
    forms = []
    for index, election in enumerate(director.elections):
        if election.grant_id != facts.grant.id:
            continue
        chosen = {
            "separation": "(a) separation",
            "date": f"(b) {election.pay_date}",
            "earlier_of_separation_or_date": f"(c) separation or {election.pay_date}",
        }[election.pay_on]
        forms.append(
            ReturnedForm(
                path=fact_path("elections", index),
                filed_on=election.filed_on,
                summary=chosen,
                governs=election is governing,
                not_in_effect=None if is_in_effect(election) else decision_words(election),
            )
        )
    return forms


def deadline(facts: DirectorGrantFacts, director: Director) -> date | None:
    """The last day to file the director's Exhibit I (its window in `docgen calendar`)."""
    for window in director_windows(facts):
        if window.subject == director.id and window.route == "exhibit-i":
            return window.closes_on
    return None


def printed(facts: DirectorGrantFacts, director: Director) -> list[PrintedIdentity]:
    """Page 2, the page filed ("Page 2 of Exhibit I, the Election Form of [name], for the [year]
    Units of [company] (Date of Grant [date])"), names the director and the grant."""
    return [
        PrintedIdentity(2, "the director", director.name),
        # With its label: the page prints other dates too (the Specified Date, a year after
        # the grant, reads "June 23, 2027" on a 2026 form), and the bare date of next year's
        # grant would be found among them (issue 44).
        PrintedIdentity(2, "the grant", f"Date of Grant {dates.long_date(facts.grant.grant_date)}"),
    ]


INTAKE = FormIntake(
    document="exhibit-i",
    stage="elections",
    answers_from_form=answers_from_form,
    answers_from_options=answers_from_options,
    record=record,
    options=("pay-on", "pay-date", "printed-name", "signed-on"),
    expects_form=lambda facts, director: not director.employee,
    returned=returned,
    deadline=deadline,
    printed=printed,
    fields=re.compile(
        r"pay_on|pay_date_(?:date|earlier_of_separation_or_date)|printed_name|date_signed"
        r"|received_on"
    ),
)
