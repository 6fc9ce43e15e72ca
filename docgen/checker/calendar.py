"""Election windows: when each participant or director may elect, under which rule, as a table,
CSV or an RFC 5545 calendar (``docgen calendar``), for the windows still open on an as-of date.

Each kind lists its windows (docgen.kinds), and every last day comes from one function, the same
one the checker's routes use (docgen.core.dates, docgen.core.election_deadlines, the kind's own
timing), so the calendar and ``docgen check`` cannot disagree about a last day.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, Literal

from docgen import __version__
from docgen.core import dates
from docgen.core.safe_text import csv_text, for_terminal, ics_text
from docgen.core.windows import ElectionWindow, no_empty_window
from docgen.kinds import kind_of

Format = Literal["table", "csv", "ics"]


def election_windows(facts: Any) -> list[ElectionWindow]:
    """Every election window in ``facts``, person by person in file order."""
    kind = kind_of(facts)
    return [no_empty_window(window) for window in kind.windows(facts)]


def open_windows(facts: Any, as_of: date) -> list[ElectionWindow]:
    """The windows still open on ``as_of`` (their last day is that day or later) that were ever
    open to their person: a route that closed before someone was hired or first eligible (the
    prior-year deadline for a mid-year hire, route (a) for a newly appointed director) is not a
    route they can take, so it is left out."""
    return [
        window
        for window in election_windows(facts)
        if window.closes_on >= as_of
        and (window.eligible_from is None or window.closes_on >= window.eligible_from)
    ]


@dataclass(frozen=True)
class Deadline:
    """One last day shared by everyone whose window on the same route, for the same document,
    opens and closes on the same days: one calendar event, however many people it concerns."""

    windows: tuple[ElectionWindow, ...]

    @property
    def first(self) -> ElectionWindow:
        return self.windows[0]

    @property
    def key(self) -> str:
        """Stable across re-imports, and across people joining or leaving the deadline."""
        return f"{self.first.route}-{self.first.closes_on:%Y%m%d}"


def deadlines(windows: list[ElectionWindow]) -> list[Deadline]:
    """Windows grouped by deadline, in the order of each deadline's first window; per-person
    deadlines (a first-year route) stay one event per person."""
    groups: dict[tuple[Any, ...], list[ElectionWindow]] = {}
    for w in windows:
        groups.setdefault(
            (w.document, w.route, w.opens_on, w.closes_on, w.rule, w.note), []
        ).append(w)
    return [Deadline(tuple(group)) for group in groups.values()]


def calendar_name(facts: Any) -> str:
    return kind_of(facts).calendar_name(facts)


def stamp_date(facts: Any) -> date:
    """DTSTAMP comes from the facts, never the clock, so the same facts give the same bytes."""
    return kind_of(facts).stamp_date(facts)


def uid_prefix(facts: Any) -> str:
    return kind_of(facts).calendar_uid(facts)


CSV_COLUMNS = ("subject", "name", "document", "route", "opens_on", "closes_on", "rule", "note")


def as_csv(windows: list[ElectionWindow]) -> str:
    """RFC 4180 CSV, each cell safe to open in a spreadsheet (docgen.core.safe_text.csv_cell)."""
    return csv_text(
        CSV_COLUMNS,
        (
            [
                w.subject,
                w.name,
                w.document,
                w.route,
                w.opens_on.isoformat() if w.opens_on else "",
                w.closes_on.isoformat(),
                w.rule,
                w.note or "",
            ]
            for w in windows
        ),
    )


def as_table(windows: list[ElectionWindow], title: str):
    from rich import box
    from rich.table import Table
    from rich.text import Text

    def cell(text: str) -> Text:  # Text, never a string rich would read as markup
        return Text(for_terminal(text))

    table = Table(title=cell(title), title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("who", no_wrap=True)
    table.add_column("name")
    table.add_column("opens", no_wrap=True)
    table.add_column("closes", no_wrap=True)
    table.add_column("rule", ratio=1)
    for w in windows:
        rule = w.rule if not w.note else f"{w.rule}. Note: {w.note}"
        table.add_row(
            cell(w.subject),
            cell(w.name),
            w.opens_on.isoformat() if w.opens_on else "-",
            w.closes_on.isoformat(),
            cell(rule),
        )
    return table


def ics_escape(text: str) -> str:
    """RFC 5545 3.3.11 TEXT: backslash, semicolon and comma escaped; newlines as \\n; no raw
    control character (docgen.core.safe_text.ics_text)."""
    return ics_text(text)


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


# Reminders at 9:00 on the day a week before and on the day before the last day, relative to the
# start of the all-day event (midnight of the last day).
REMINDERS = (("-P6DT15H", 7, "In a week"), ("-PT15H", 1, "Tomorrow"))


def _event(deadline: Deadline, facts: Any, stamp: str, as_of: date) -> list[str]:
    w = deadline.first
    people = deadline.windows
    if len(people) == 1:
        summary = f"Last day to elect: {w.name} ({w.subject}), {w.document}, {w.route}"
    else:
        noun = kind_of(facts).subject_noun
        summary = f"Last day to elect: {w.document}, {w.route} ({len(people)} {noun}s)"
    description = f"Last day: {dates.long_date(w.closes_on)}. Rule: {w.rule}."
    if w.opens_on:
        description += f"\nOpens: {dates.long_date(w.opens_on)}."
    if w.note:
        description += f"\nNote: {w.note}."
    if len(people) > 1:
        names = "; ".join(f"{p.name} ({p.subject})" for p in people)
        description += f"\nWho ({len(people)}): {names}."
    lines = [
        "BEGIN:VEVENT",
        f"UID:{uid_prefix(facts)}-{deadline.key}@docgen",
        f"DTSTAMP:{stamp}",
        f"DTSTART;VALUE=DATE:{_ics_date(w.closes_on)}",
        # DTEND of an all-day event is exclusive: the day after the last day.
        f"DTEND;VALUE=DATE:{_ics_date(w.closes_on + timedelta(days=1))}",
        f"SUMMARY:{ics_escape(summary)}",
        f"DESCRIPTION:{ics_escape(description)}",
        f"CATEGORIES:{ics_escape(w.document)}",
        "TRANSP:TRANSPARENT",
    ]
    for trigger, days_before, words in REMINDERS:
        if w.closes_on - timedelta(days=days_before) < as_of:
            continue  # a reminder already past on the as-of date would only fire at once
        lines += [
            "BEGIN:VALARM",
            "ACTION:DISPLAY",
            f"TRIGGER:{trigger}",
            f"DESCRIPTION:{ics_escape(f'{words}: {summary}')}",
            "END:VALARM",
        ]
    return [*lines, "END:VEVENT"]


def as_ics(windows: list[ElectionWindow], facts: Any, as_of: date) -> str:
    """An RFC 5545 calendar: one all-day VEVENT per deadline, on the last day (a window's first
    day, if it has one, is in the description), with the names of everyone it concerns and a
    reminder a week and a day before; CRLF line ends, folded at 75 octets, stable UIDs, and a
    DTSTAMP from the facts, never the clock."""
    stamp = f"{_ics_date(stamp_date(facts))}T000000Z"
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        f"PRODID:-//docgen//docgen {__version__}//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{ics_escape(calendar_name(facts))}",
    ]
    for deadline in deadlines(windows):
        lines += _event(deadline, facts, stamp, as_of)
    lines.append("END:VCALENDAR")
    return "".join(fold(line) + "\r\n" for line in lines)


def render(facts: Any, output_format: Format, as_of: date):
    """The windows still open on ``as_of``: ``csv`` and ``ics`` as text; ``table`` as a rich
    table to print."""
    windows = open_windows(facts, as_of)
    if output_format == "csv":
        return as_csv(windows)
    if output_format == "ics":
        return as_ics(windows, facts, as_of)
    title = f"{calendar_name(facts)}: windows open on {as_of.isoformat()}"
    if not windows:
        title += " (none: every window has closed)"
    return as_table(windows, title)
