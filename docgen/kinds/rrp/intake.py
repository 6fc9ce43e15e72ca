"""Returned RRP Deferral Election Forms into the facts: which fields (DESIGN.md, "Fillable forms")
carry which answer, and how the form is recorded: a Deferral Election per percentage written (Plan
2.03), made on the day the Committee received the form; the investment allocation (Plan 3.05(b)) and
the Beneficiary designation (primary and contingent) replaced only when the participant filled them
in (the form says: "To keep this designation, leave the table below blank").

The fields are matched to what they are about by the form's own tooltips, not by their number:
``allocation_N`` says which fund it is for ("Section V: percent in Stable Value Fund"),
``performance_percent_N`` which performance period and ``beneficiary_N`` whether it is a primary
or a contingent Beneficiary, so a form issued before the Plan Asset Committee's menu or the
periods changed is still read as the participant meant it.
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
    Put,
    ReturnedForm,
    how_received,
    parse_percent,
    signed_and_received,
)
from docgen.core.formats import percent_text
from docgen.core.model import decision_words, fact_path, is_in_effect
from docgen.kinds.rrp.documents import deadlines
from docgen.kinds.rrp.facts import Participant, RRPPlanYearFacts
from docgen.kinds.rrp.terms import elections_in_force

_FUND_TIP = re.compile(r"^Section [IVX]+: percent in (?P<fund>.+)$")
_PERIOD_TIP = re.compile(r"for the period ending (?P<end>.+)$")
_ROW = re.compile(r"^(beneficiary|relationship|share)_(\d+)$")
_ASK_AGAIN = (
    "Ask the participant to complete the form again, or record what the paper says with "
    "`docgen elect`."
)


def answers_from_form(
    facts: RRPPlanYearFacts,
    participant: Participant,
    values: Mapping[str, str | None],
    tooltips: Mapping[str, str],
) -> dict[str, Any]:
    """The answers a filled form gives, each field matched by its tooltip."""
    problems: list[str] = []
    performance, allocation = [], []
    rows: dict[int, dict[str, str | None]] = {}
    for name, value in sorted(values.items()):
        row = _ROW.match(name)
        if row:
            rows.setdefault(int(row.group(2)), {})[row.group(1)] = value
        if value is None:
            continue
        tip = tooltips.get(name, "")
        if name.startswith("performance_percent_"):
            period_end = _period_end(tip)
            if period_end is None:
                problems.append(f"{name}: the form does not say which performance period it is")
            else:
                performance.append((period_end, value))
        elif name.startswith("allocation_"):
            fund = _FUND_TIP.match(tip)
            if fund is None:
                problems.append(f"{name}: the form does not say which fund it is for")
            else:
                allocation.append((fund.group("fund"), value))
    if problems:
        raise FormRefused(problems, _ASK_AGAIN)
    return {
        "salary": values.get("salary_percent"),
        "bonus": values.get("bonus_percent"),
        "performance": performance,
        "allocation": allocation,
        "beneficiaries": [
            (
                f"row {n}",
                row.get("beneficiary"),
                row.get("relationship"),
                row.get("share"),
                "contingent" in tooltips.get(f"beneficiary_{n}", "").lower(),
            )
            for n, row in sorted(rows.items())
            if any(row.values())
        ],
        "date_signed": values.get("date_signed"),
        "received_on": values.get("received_on"),
    }


def _period_end(tooltip: str) -> date | None:
    """The end of the performance period a percentage field's tooltip names, if it names one."""
    found = _PERIOD_TIP.search(tooltip)
    if found is None:
        return None
    try:
        return dates.parse_written_date(found.group("end"))
    except dates.NotADate:
        return None


def answers_from_options(
    facts: RRPPlanYearFacts, participant: Participant, options: Mapping[str, Any]
) -> dict[str, Any]:
    """The answers `docgen elect` was given for a paper form: ``--performance-percent
    END=PERCENT`` (END the period's last day), ``--allocation FUND=PERCENT``,
    ``--beneficiary "NAME;RELATIONSHIP;SHARE[;contingent]"``."""
    problems: list[str] = []
    performance = []
    for text in options.get("performance-percent") or []:
        end, _, percent = text.partition("=")
        try:
            performance.append((dates.parse_written_date(end), percent))
        except dates.NotADate as error:
            problems.append(f"--performance-percent {text}: {error} (write END=PERCENT)")
    allocation = []
    for text in options.get("allocation") or []:
        fund, equals, percent = text.rpartition("=")
        if not equals or not fund.strip():
            problems.append(f"--allocation {text}: write FUND=PERCENT")
        else:
            allocation.append((fund.strip(), percent))
    beneficiaries = []
    for text in options.get("beneficiary") or []:
        parts = [part.strip() or None for part in text.split(";")]
        contingent = len(parts) == 4 and (parts[3] or "").lower() == "contingent"
        if len(parts) != 3 and not contingent:
            problems.append(f'--beneficiary {text}: write "NAME;RELATIONSHIP;SHARE[;contingent]"')
        else:
            beneficiaries.append((f"--beneficiary {text}", *parts[:3], contingent))
    if problems:
        raise FormRefused(problems)
    return {
        "salary": options.get("salary-percent"),
        "bonus": options.get("bonus-percent"),
        "performance": performance,
        "allocation": allocation,
        "beneficiaries": beneficiaries,
        "date_signed": options.get("signed-on"),
        "received_on": None,
    }


def record(
    facts: RRPPlanYearFacts,
    participant: Participant,
    answers: Mapping[str, Any],
    received_on: date,
    form_sha256: str | None,
    source: str,
) -> Filing:
    """Validate the answers and say what to record, in the order of the form's sections."""
    problems: list[str] = []
    elections: list[dict[str, Any]] = []
    for kind, field in (("salary", "salary_percent"), ("bonus", "bonus_percent")):
        if answers.get(kind) is not None:
            percent = _percent(answers[kind], field, problems)
            if percent is not None:
                elections.append(_election(facts, kind, percent, received_on))
    periods = _performance_periods(participant)
    for end, text in answers.get("performance") or []:
        period = periods.get(end)
        if period is None:
            problems.append(
                f"performance_percent: no performance-based pay for the period ending "
                f"{dates.long_date(end)} is on record for {participant.id}"
            )
            continue
        percent = _percent(text, f"performance-based ({dates.long_date(end)})", problems)
        if percent is not None:
            election = _election(facts, "performance_based", percent, received_on)
            elections.append({**election, "performance_period": period})
    investments = _allocation(facts, answers.get("allocation") or [], problems)
    beneficiaries = _beneficiaries(answers.get("beneficiaries") or [], problems)
    if not (elections or investments or beneficiaries) and not problems:
        problems.append("the form is blank: no percentage, allocation or Beneficiary is filled in")
    signed_and_received(answers, received_on, source, problems)
    if problems:
        raise FormRefused(problems, _ASK_AGAIN if source == "form" else "")
    if form_sha256 is not None:
        elections = [{**election, "form_sha256": form_sha256} for election in elections]
    how = how_received(answers, source, problems)
    if problems:
        raise FormRefused(problems, "")
    elections = [{**election, **how} for election in elections]
    edits: list[Any] = [Append(("elections",), election) for election in elections]
    if investments:
        edits.append(Put(("investments",), investments))
    if beneficiaries:
        edits.append(Put(("beneficiaries",), beneficiaries))
    _not_recorded_yet(participant, elections, investments, beneficiaries, form_sha256)
    return Filing(
        subject=participant.id,
        filed_on=received_on,
        edits=tuple(edits),
        summary=_summary(elections, investments, beneficiaries, received_on),
    )


def _election(facts: RRPPlanYearFacts, kind: str, percent: Any, made_on: date) -> dict[str, Any]:
    return {"kind": kind, "plan_year": facts.plan_year, "percent": percent, "made_on": made_on}


def _percent(text: str, field: str, problems: list[str]) -> Any:
    try:
        return parse_percent(text)
    except ValueError as error:
        problems.append(f"{field}: {error}")
        return None


def _performance_periods(participant: Participant) -> dict[date, dict[str, Any]]:
    """The performance periods on record, by their last day (the form names them so)."""
    periods = {}
    for election in participant.elections:
        period = election.performance_period
        if election.kind == "performance_based" and period is not None:
            periods[period.end] = {
                key: value for key, value in period.model_dump().items() if value is not None
            }
    return periods


def _allocation(
    facts: RRPPlanYearFacts, allocation: list[tuple[str, str]], problems: list[str]
) -> dict[str, Any]:
    menu = list(facts.plan.investment_options)  # Plan 3.05(a): the Plan Asset Committee's
    chosen: dict[str, Any] = {}
    for fund, text in allocation:
        if fund not in menu:
            problems.append(
                f"allocation: {fund!r} is not an investment option on the form ({', '.join(menu)})"
            )
        elif fund in chosen:
            problems.append(f"allocation: {fund} is given twice")
        else:
            percent = _percent(text, f"allocation to {fund}", problems)
            if percent is not None:
                chosen[fund] = percent
    return chosen


def _beneficiaries(rows: list[tuple], problems: list[str]) -> list[dict[str, Any]]:
    found = []
    for label, name, relationship, share, contingent in rows:
        if name is None:
            problems.append(f"beneficiary ({label}): a relationship or share without a name")
            continue
        if share is None:
            problems.append(
                f"share ({label}): no share is written for {name} (write 100 for a sole "
                "Beneficiary)"
            )
            continue
        percent = _percent(share, f"share ({label})", problems)
        if percent is None:
            continue
        entry: dict[str, Any] = {"name": name}
        if relationship is not None:
            entry["relationship"] = relationship
        entry["percent"] = percent
        if contingent:
            entry["contingent"] = True
        found.append(entry)
    return found


def _not_recorded_yet(
    participant: Participant,
    elections: list[dict[str, Any]],
    investments: dict[str, Any],
    beneficiaries: list[dict[str, Any]],
    form_sha256: str | None,
) -> None:
    """The same form twice is refused: the same file, or everything it says already on
    record, its elections made the same day."""
    if form_sha256 is not None and any(e.form_sha256 == form_sha256 for e in participant.elections):
        raise FormRefused([f"{participant.id}: this very file is already recorded"], _NOTHING)
    on_record = [(e.kind, e.plan_year, e.percent, e.made_on) for e in participant.elections]
    new = [(e["kind"], e["plan_year"], e["percent"], e["made_on"]) for e in elections]
    same_investments = not investments or investments == dict(participant.investments)
    same_beneficiaries = not beneficiaries or [
        (b["name"], b.get("relationship"), b["percent"], b.get("contingent", False))
        for b in beneficiaries
    ] == [(b.name, b.relationship, b.percent, b.contingent) for b in participant.beneficiaries]
    if all(item in on_record for item in new) and same_investments and same_beneficiaries:
        raise FormRefused(
            [f"{participant.id}: everything this form says is already on record"], _NOTHING
        )


_NOTHING = "Nothing to do; `docgen status` shows what is on record."


def _summary(elections, investments, beneficiaries, received_on: date) -> str:
    parts = [f"{e['kind'].replace('_', '-')} {percent_text(e['percent'])}%" for e in elections]
    if investments:
        parts.append("investment allocation")
    if beneficiaries:
        parts.append(f"{len(beneficiaries)} Beneficiar{'y' if len(beneficiaries) == 1 else 'ies'}")
    return f"{', '.join(parts)}, received {dates.long_date(received_on)}"


def returned(facts: RRPPlanYearFacts, participant: Participant) -> list[ReturnedForm]:
    """The participant's Deferral Elections made for this Plan Year, each marked as governing when
    it is the election in force for its part of pay (Plan 2.03(b); DESIGN.md, "Elections roll
    over"), and an earlier year's election rolled over and in force (not returned this cycle)."""
    year = facts.plan_year
    governing = {found.position for found in elections_in_force(participant, year).values()}
    forms = []
    for index, election in enumerate(participant.elections):
        this_cycle = election.plan_year == year
        if not this_cycle and index not in governing:
            continue
        summary = f"{election.kind.replace('_', '-')} {percent_text(election.percent)}%"
        if not this_cycle:
            summary += f" (for {election.plan_year}, rolled over)"
        forms.append(
            ReturnedForm(
                path=fact_path("elections", index),
                filed_on=election.made_on,
                summary=summary,
                governs=index in governing,
                not_in_effect=None if is_in_effect(election) else decision_words(election),
                this_cycle=this_cycle,
            )
        )
    return forms


def printed(facts: RRPPlanYearFacts, participant: Participant) -> list[PrintedIdentity]:
    """Page 1 names the Plan Year ("Plan Year 2026") and the participant ("Participant: [name]
    (ID [id])")."""
    return [
        PrintedIdentity(1, "the Plan Year", f"Plan Year {facts.plan_year}"),
        PrintedIdentity(1, "the participant", f"{participant.name} (ID {participant.id})"),
    ]


INTAKE = FormIntake(
    document="rrp-election",
    stage="enrollment",
    answers_from_form=answers_from_form,
    answers_from_options=answers_from_options,
    record=record,
    options=(
        "salary-percent",
        "bonus-percent",
        "performance-percent",
        "allocation",
        "beneficiary",
        "signed-on",
    ),
    expects_form=lambda facts, participant: participant.eligible_employee,
    returned=returned,
    deadline=lambda facts, participant: deadlines(facts, participant)["deadline_on"],
    printed=printed,
    fields=re.compile(
        r"salary_percent|bonus_percent|performance_percent_[1-9][0-9]*|allocation_[1-9][0-9]*"
        r"|(?:beneficiary|relationship|share)_[1-9][0-9]*|date_signed|received_on"
    ),
)
