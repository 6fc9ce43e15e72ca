"""Election windows: when each participant or director may elect, under which rule, as a table,
CSV or an RFC 5545 calendar (``docgen calendar``).

Every deadline comes from one function in :mod:`docgen.dates`, the same ones the checker's
routes use, so the calendar and ``docgen check`` cannot disagree about a last day.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import Literal

from docgen import __version__, dates
from docgen.facts import DirectorGrantFacts, Facts, Participant, RRPPlanYearFacts

Format = Literal["table", "csv", "ics"]


@dataclass(frozen=True)
class ElectionWindow:
    """One route to a timely election for one person: the days it is open."""

    subject: str  # participant or director id
    name: str
    document: str  # the form the election is made on
    route: str  # short, stable: prior-year, first-year, performance-based, exhibit-i, 409a-b ...
    rule: str  # the rule in words, with its citation
    opens_on: date | None  # None: the rule sets no first day
    closes_on: date  # the last day an election is timely on this route
    note: str | None = None
    period_end: date | None = None  # a performance-based route: the end of its period

    @property
    def key(self) -> str:
        return f"{self.subject}-{self.route}"


# ----------------------------------------------------------------------------- the windows


def election_windows(facts: Facts) -> list[ElectionWindow]:
    """Every election window in ``facts``, person by person in file order."""
    if isinstance(facts, RRPPlanYearFacts):
        windows = rrp_windows(facts)
    else:
        windows = director_windows(facts)
    return [_no_empty_window(window) for window in windows]


def _no_empty_window(window: ElectionWindow) -> ElectionWindow:
    """A route whose last day falls before its first (a short performance period, a leap-day
    grant) has no open day: shown by its last day alone, with a note, never as a negative span."""
    if window.opens_on is None or window.closes_on >= window.opens_on:
        return window
    note = f"no day is open on this route: its last day is before {window.opens_on}"
    return replace(window, opens_on=None, note=note)


def rrp_windows(facts: RRPPlanYearFacts) -> list[ElectionWindow]:
    """Each Eligible Employee's routes to a Deferral Election for the Plan Year (Plan 2.03)."""
    return [
        window
        for participant in facts.participants
        if participant.eligible_employee  # Plan 1.11, 2.01: only an Eligible Employee may elect.
        for window in participant_windows(facts, participant)
    ]


def participant_windows(facts: RRPPlanYearFacts, participant: Participant) -> list[ElectionWindow]:
    """One participant's routes: the prior-year deadline, the first-year route when this is the
    first Plan Year of eligibility, one performance-based route per performance period."""
    year = facts.plan_year
    document = f"RRP Deferral Election {year}"
    who = (participant.id, participant.name, document)
    windows = [ElectionWindow(
        *who, "prior-year",
        "December 31 before the Plan Year (Plan 2.03(b); Treas. Reg. 1.409A-2(a)(3))",
        None, dates.december_31_before(year),
    )]  # fmt: skip
    eligible = participant.first_eligible_on
    if eligible is not None and eligible.year == year:
        windows.append(ElectionWindow(
            *who, "first-year",
            "within 30 days after first becoming eligible (Plan 2.03(c); "
            "Treas. Reg. 1.409A-2(a)(7))",
            eligible, dates.first_year_election_deadline(eligible),
            "reaches only pay for services after the election",
        ))  # fmt: skip
    seen: set[tuple[date, date]] = set()
    for election in participant.elections:
        period = election.performance_period
        if election.kind != "performance_based" or election.plan_year != year:
            continue
        if (period.start, period.end) in seen:
            continue
        seen.add((period.start, period.end))
        closes = dates.performance_based_election_deadline(period.end)
        other = dates.add_months_month_end(period.end, -6)
        note = None
        if other != closes:
            note = (
                f"counting six months from a month-end the other way gives {other}; "
                "this is the earlier, safe day"
            )
        windows.append(ElectionWindow(
            *who, f"performance-based-{period.end.isoformat()}",
            f"six months before the performance period {period.start} to {period.end} ends "
            "(Plan 1.18, 2.03(b); Treas. Reg. 1.409A-2(a)(8))",
            period.start, closes, note, period.end,
        ))  # fmt: skip
    return [_no_empty_window(window) for window in windows]


def director_windows(facts: DirectorGrantFacts) -> list[ElectionWindow]:
    """Each non-employee director's Exhibit I deadline and Code 409A routes for the grant."""
    from checks.rsu import earliest_vesting  # the checker's own reading of the vesting terms

    grant = facts.grant
    document = f"Exhibit I, grant {grant.id}"
    vesting = earliest_vesting(grant)
    route_b = dates.forfeitable_right_election_deadline(grant.grant_date, vesting)
    windows: list[ElectionWindow] = []
    for director in facts.directors:
        if director.employee:
            continue  # Notice F.1, Exhibit I: for non-employee Directors only.
        who = (director.id, director.name, document)
        windows.append(ElectionWindow(
            *who, "exhibit-i",
            f"Exhibit I must be filed prior to {dates.long_date(grant.election_deadline)} "
            "(Notice F.3; Exhibit I)",
            None, dates.day_before(grant.election_deadline),
        ))  # fmt: skip
        windows.append(ElectionWindow(
            *who, "409a-a",
            "(a) December 31 before the grant year (Code 409A(a)(4)(B); "
            "Treas. Reg. 1.409A-2(a)(3))",
            None, dates.december_31_before(grant.grant_date.year),
        ))  # fmt: skip
        if route_b is not None:
            windows.append(ElectionWindow(
                *who, "409a-b",
                f"(b) within 30 days after the grant and at least 12 months before the earliest "
                f"vesting {vesting} (Treas. Reg. 1.409A-2(a)(5))",
                # "On or before the 30th day after" the grant: an election before the grant date
                # counts too, as RSU-ELECTION-409A-TIMING reads it, so the window has no first day.
                None, route_b,
            ))  # fmt: skip
        if director.first_eligible_on is not None:
            windows.append(ElectionWindow(
                *who, "409a-c",
                "(c) within 30 days after first becoming eligible (Treas. Reg. 1.409A-2(a)(7))",
                director.first_eligible_on,
                dates.first_year_election_deadline(director.first_eligible_on),
            ))  # fmt: skip
    return windows


def calendar_name(facts: Facts) -> str:
    if isinstance(facts, RRPPlanYearFacts):
        return f"{facts.company.name} Retirement Restoration Plan elections, {facts.plan_year}"
    return f"{facts.company.name} director RSU elections, grant {facts.grant.id}"


def stamp_date(facts: Facts) -> date:
    """DTSTAMP comes from the facts, never the clock, so the same facts give the same bytes:
    the Notice date for a grant, December 31 before the Plan Year for the RRP."""
    if isinstance(facts, RRPPlanYearFacts):
        return dates.december_31_before(facts.plan_year)
    return facts.grant.notice_date


def uid_prefix(facts: Facts) -> str:
    if isinstance(facts, RRPPlanYearFacts):
        return f"rrp-{facts.plan_year}"
    return f"rsu-{facts.grant.id}"


# ----------------------------------------------------------------------------- output


CSV_COLUMNS = ("subject", "name", "document", "route", "opens_on", "closes_on", "rule", "note")


def as_csv(windows: list[ElectionWindow]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for w in windows:
        writer.writerow([
            w.subject, w.name, w.document, w.route, w.opens_on.isoformat() if w.opens_on else "",
            w.closes_on.isoformat(), w.rule, w.note or "",
        ])  # fmt: skip
    return buffer.getvalue()


def as_table(windows: list[ElectionWindow], title: str):
    from rich import box
    from rich.table import Table

    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("who", no_wrap=True)
    table.add_column("name")
    table.add_column("opens", no_wrap=True)
    table.add_column("closes", no_wrap=True)
    table.add_column("rule", ratio=1)
    for w in windows:
        rule = w.rule if not w.note else f"{w.rule}. Note: {w.note}"
        table.add_row(w.subject, w.name, w.opens_on.isoformat() if w.opens_on else "-",
                      w.closes_on.isoformat(), rule)  # fmt: skip
    return table


def ics_escape(text: str) -> str:
    """RFC 5545 3.3.11 TEXT: backslash, semicolon and comma escaped; newlines as \\n."""
    return (
        text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
        .replace("\r\n", "\\n").replace("\n", "\\n")
    )  # fmt: skip


def fold(line: str) -> str:
    """RFC 5545 3.1: lines longer than 75 octets are folded (CRLF then a space), never inside a
    UTF-8 character."""
    out: list[str] = []
    current, size, limit = "", 0, 75
    for char in line:
        width = len(char.encode("utf-8"))
        if size + width > limit:
            out.append(current)
            current, size, limit = " ", 1, 75
        current += char
        size += width
    out.append(current)
    return "\r\n".join(out)


def _ics_date(day: date) -> str:
    return day.strftime("%Y%m%d")


def as_ics(windows: list[ElectionWindow], facts: Facts) -> str:
    """An RFC 5545 calendar: one all-day VEVENT per window (the whole window when it has a first
    day, else its last day), CRLF line ends, folded at 75 octets, stable UIDs."""
    stamp = f"{_ics_date(stamp_date(facts))}T000000Z"
    prefix = uid_prefix(facts)
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        f"PRODID:-//docgen//docgen {__version__}//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{ics_escape(calendar_name(facts))}",
    ]
    for w in windows:
        first = w.opens_on or w.closes_on
        if w.opens_on:
            summary = f"Election window: {w.name} ({w.subject}), {w.document}, {w.route}"
        else:
            summary = f"Last day to elect: {w.name} ({w.subject}), {w.document}, {w.route}"
        description = f"Last day: {dates.long_date(w.closes_on)}. Rule: {w.rule}."
        if w.note:
            description += f"\nNote: {w.note}."
        lines += [
            "BEGIN:VEVENT",
            f"UID:{prefix}-{w.key}@docgen",
            f"DTSTAMP:{stamp}",
            f"DTSTART;VALUE=DATE:{_ics_date(first)}",
            # DTEND of an all-day event is exclusive: the day after the last day.
            f"DTEND;VALUE=DATE:{_ics_date(w.closes_on + timedelta(days=1))}",
            f"SUMMARY:{ics_escape(summary)}",
            f"DESCRIPTION:{ics_escape(description)}",
            f"CATEGORIES:{ics_escape(w.document)}",
            "TRANSP:TRANSPARENT",
            "END:VEVENT",
        ]
    lines.append("END:VCALENDAR")
    return "".join(fold(line) + "\r\n" for line in lines)


def render(facts: Facts, output_format: Format):
    """``csv`` and ``ics`` as text; ``table`` as a rich table to print."""
    windows = election_windows(facts)
    if output_format == "csv":
        return as_csv(windows)
    if output_format == "ics":
        return as_ics(windows, facts)
    return as_table(windows, calendar_name(facts))


def calendar_file(path, output_format: Format):
    """Load a facts file (either kind) and render its election windows."""
    from docgen.loader import load_facts

    return render(load_facts(path).facts, output_format)
