"""Election windows: when each participant or director may elect, under which rule, as a table,
CSV or an RFC 5545 calendar (``docgen calendar``).

Every deadline comes from one function in :mod:`docgen.core.dates`, the same ones the checker's
routes use, so the calendar and ``docgen check`` cannot disagree about a last day.
"""

from __future__ import annotations

import csv
import io
from datetime import date, timedelta
from typing import Any, Literal

from docgen import __version__
from docgen.core import dates
from docgen.core.windows import ElectionWindow, no_empty_window
from docgen.kinds import kind_of

Format = Literal["table", "csv", "ics"]


def election_windows(facts: Any) -> list[ElectionWindow]:
    """Every election window in ``facts``, person by person in file order."""
    kind = kind_of(facts)
    windows = kind.windows(facts) if kind.windows else []
    return [no_empty_window(window) for window in windows]


def calendar_name(facts: Any) -> str:
    kind = kind_of(facts)
    return kind.calendar_name(facts) if kind.calendar_name else kind.cycle_name(facts)


def stamp_date(facts: Any) -> date:
    """DTSTAMP comes from the facts, never the clock, so the same facts give the same bytes."""
    return kind_of(facts).stamp_date(facts)


def uid_prefix(facts: Any) -> str:
    kind = kind_of(facts)
    return (kind.calendar_uid or kind.cycle_name)(facts)


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


def as_ics(windows: list[ElectionWindow], facts: Any) -> str:
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


def render(facts: Any, output_format: Format):
    """``csv`` and ``ics`` as text; ``table`` as a rich table to print."""
    windows = election_windows(facts)
    if output_format == "csv":
        return as_csv(windows)
    if output_format == "ics":
        return as_ics(windows, facts)
    return as_table(windows, calendar_name(facts))


def calendar_file(path, output_format: Format):
    """Load a facts file (either kind) and render its election windows."""
    from docgen.load import load_facts

    return render(load_facts(path).facts, output_format)
