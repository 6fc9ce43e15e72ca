"""Election windows (docgen.checker.calendar): the rules' boundaries; an .ics a calendar program
reads."""

from __future__ import annotations

import csv
import io
import re
from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from docgen.checker.calendar import (
    as_ics,
    deadlines,
    election_windows,
    fold,
    ics_escape,
    open_windows,
)
from docgen.core import dates
from docgen.core.election_deadlines import (
    first_year_election_deadline,
    forfeitable_right_election_deadline,
)
from docgen.core.safe_text import is_unsafe, visible
from docgen.kinds.director_rsu.facts import DirectorGrantFacts
from docgen.kinds.rrp.facts import PerformancePeriod
from docgen.kinds.rrp.timing import performance_based_readings
from docgen.load import load_facts


def windows_by_key(facts):
    return {w.key: w for w in election_windows(facts)}


# ------------------------------------------------------------------------ a tiny RFC 5545 reader


def parse_ics(data: bytes) -> list[dict[str, list[tuple[str, str]]]]:
    """Check the physical form (CRLF, 75-octet lines), unfold, and return the VEVENTs as
    {NAME: [(params, value), ...]}, raising AssertionError on anything malformed."""
    assert data.endswith(b"\r\n")
    physical = data[:-2].split(b"\r\n")
    for line in physical:
        assert b"\n" not in line and b"\r" not in line, "bare LF or CR"
        assert len(line) <= 75, f"line of {len(line)} octets: {line!r}"
        line.decode("utf-8")  # folding never splits a UTF-8 character
    logical: list[str] = []
    for line in physical:
        text = line.decode("utf-8")
        if text.startswith((" ", "\t")):
            logical[-1] += text[1:]
        else:
            logical.append(text)
    stack: list[str] = []
    events: list[dict[str, list[tuple[str, str]]]] = []
    for text in logical:
        match = re.fullmatch(r"([A-Z0-9-]+)((?:;[A-Z0-9-]+=[^:;]+)*):(.*)", text)
        assert match, f"not a content line: {text!r}"
        name, params, value = match.groups()
        if name == "BEGIN":
            stack.append(value)
            if value == "VEVENT":
                events.append({})
            elif value == "VALARM":
                assert stack[-2] == "VEVENT", "an alarm outside an event"
                events[-1].setdefault("VALARM", []).append(("", {}))
        elif name == "END":
            assert stack.pop() == value
        elif stack[-1] == "VEVENT":
            events[-1].setdefault(name, []).append((params, value))
        elif stack[-1] == "VALARM":
            events[-1]["VALARM"][-1][1][name] = value
    assert stack == []
    return events


def unescape(value: str) -> str:
    return re.sub(r"\\([\\;,nN])", lambda m: "\n" if m.group(1) in "nN" else m.group(1), value)


def ics_date(value: str) -> date:
    return date(int(value[:4]), int(value[4:6]), int(value[6:]))


# ------------------------------------------------------------------------ RRP windows


def test_rrp_sample_windows(samples):
    facts = load_facts(samples / "rrp-2026-year.yaml").facts
    windows = windows_by_key(facts)
    # Prior-year rule: December 31 before the Plan Year, no first day.
    assert windows["e1001-prior-year"].closes_on == date(2025, 12, 31)
    assert windows["e1001-prior-year"].opens_on is None
    # First-year: eligible March 2 -> last day March 2 + 30 days = April 1.
    first = windows["e1006-first-year"]
    assert (first.opens_on, first.closes_on) == (date(2026, 3, 2), date(2026, 4, 1))
    # e1007 eligible July 1 -> July 31 (the sample's election on the last good day).
    assert windows["e1007-first-year"].closes_on == date(2026, 7, 31)
    # Performance-based, calendar period: Dec 31 less six months = June 30; both readings agree.
    pbc = windows["e1009-performance-based-2026-12-31"]
    assert (pbc.opens_on, pbc.closes_on, pbc.note) == (date(2026, 1, 1), date(2026, 6, 30), None)
    # Fiscal period ending Feb 28, 2027: Aug 28, 2026 on the safe reading, Aug 31 on the other.
    fiscal = windows["e1010-performance-based-2027-02-28"]
    assert fiscal.closes_on == date(2026, 8, 28)
    assert "2026-08-31" in fiscal.note
    # Not an Eligible Employee: no window (Plan 1.11, 2.01).
    assert not any(w.subject == "e1018" for w in windows.values())
    # No first-year window for someone not newly eligible this Plan Year.
    assert "e1001-first-year" not in windows


@pytest.mark.parametrize(
    ("eligible", "last_day"),
    [
        (date(2026, 1, 31), date(2026, 3, 2)),  # 28-day February
        (date(2028, 1, 31), date(2028, 3, 1)),  # leap year: Feb 29 counts
        (date(2026, 12, 2), date(2027, 1, 1)),  # runs into the next year
    ],
)
def test_first_year_deadline_boundaries(eligible, last_day):
    assert first_year_election_deadline(eligible) == last_day
    assert (last_day - eligible).days == 30  # the 30th day after is the last good day


@pytest.mark.parametrize(
    ("period_end", "last_day"),
    [
        (date(2026, 12, 31), date(2026, 6, 30)),
        (date(2027, 2, 28), date(2026, 8, 28)),  # clamped reading; Aug 31 is the other
        (date(2028, 2, 29), date(2027, 8, 29)),  # leap-year period end
        (date(2026, 8, 31), date(2026, 2, 28)),  # Aug 31 less six months: end of February
        (date(2028, 8, 31), date(2028, 2, 29)),
    ],
)
def test_performance_based_deadline_boundaries(period_end, last_day):
    # The window's last day is the checker's strict reading (one rule, two callers).
    period = PerformancePeriod(start=date(2025, 1, 1), end=period_end)
    assert performance_based_readings(period)[0] == last_day
    assert dates.add_months(period_end, -6) == last_day


# ------------------------------------------------------------------------ director windows


def grant_facts(grant: dict | None = None, **director) -> DirectorGrantFacts:
    base = {
        "id": "2026-annual",
        "grant_date": "2026-06-23",
        "notice_date": "2026-06-01",
        "election_deadline": "2026-06-23",
        "fair_market_value": "45.10",
    }
    base.update(grant or {})
    return DirectorGrantFacts.model_validate(
        {
            "kind": "director-rsu-grant",
            "company": {
                "name": "CarMax, Inc.",
                "secretary_phone": "(804) 747-0422",
                "governing_law": "Commonwealth of Virginia",
            },
            "stock_plan": "Plan",
            "form_10k_fiscal_year": 2026,
            "grant": base,
            "directors": [{"id": "jsmith", "name": "Jane Q. Smith", "units": 100, **director}],
        }
    )


def test_exhibit_i_closes_the_day_before_the_deadline():
    # "prior to June 23" -> the last good day is June 22.
    windows = windows_by_key(grant_facts())
    assert windows["jsmith-exhibit-i"].closes_on == date(2026, 6, 22)
    assert windows["jsmith-409a-a"].closes_on == date(2025, 12, 31)


def test_route_b_closes_twelve_months_before_a_one_year_vesting():
    # Grant June 23, 2026, vests June 23, 2027 (exactly 12 months): route (b) is open, and
    # "at least 12 months before" vesting is June 23, 2026 itself, before grant + 30 (July 23).
    # "On or before the 30th day after" has no first day: an election in May counts (the checker
    # accepts the sample's May elections on this route).
    window = windows_by_key(grant_facts())["jsmith-409a-b"]
    assert (window.opens_on, window.closes_on) == (None, date(2026, 6, 23))


def test_route_b_closes_thirty_days_after_a_grant_that_vests_later():
    # Two-year vesting: June 23, 2028 less 12 months = June 23, 2027, after grant + 30 days
    # (July 23, 2026), so the 30 days bind.
    window = windows_by_key(grant_facts({"vesting": {"anniversary": 2}}))["jsmith-409a-b"]
    assert window.closes_on == date(2026, 7, 23)


def test_route_b_is_closed_when_an_annual_meeting_can_vest_the_units_sooner():
    # Annual meeting June 22, 2027: one day under 12 months after the grant.
    facts = grant_facts({"vesting": {"annual_meeting_date": "2027-06-22"}})
    assert "jsmith-409a-b" not in windows_by_key(facts)
    assert forfeitable_right_election_deadline(date(2026, 6, 23), date(2027, 6, 22)) is None


def test_route_b_on_a_leap_day_grant():
    # Granted Feb 29, 2028; vests Feb 28, 2029 (the anniversary, clamped) = exactly 12 months
    # on the clamped reading, so route (b) is open and closes Feb 28, 2028 (12 months before),
    # the day before the grant itself.
    assert forfeitable_right_election_deadline(date(2028, 2, 29), date(2029, 2, 28)) == date(
        2028, 2, 28
    )
    facts = grant_facts(
        {"grant_date": "2028-02-29", "notice_date": "2028-02-01", "election_deadline": "2028-02-29"}
    )
    window = windows_by_key(facts)["jsmith-409a-b"]
    assert (window.opens_on, window.closes_on) == (None, date(2028, 2, 28))
    # The day before: a grant on Feb 28, 2028 vests Feb 28, 2029; (b) closes Feb 28, 2028.
    window = windows_by_key(grant_facts({"grant_date": "2028-02-28"}))["jsmith-409a-b"]
    assert (window.opens_on, window.closes_on, window.note) == (None, date(2028, 2, 28), None)


def test_newly_eligible_director_and_employee_director():
    windows = windows_by_key(grant_facts(first_eligible_on="2026-05-20"))
    assert windows["jsmith-409a-c"].closes_on == date(2026, 6, 19)
    # An employee director makes no Exhibit I election, but still reports the grant on Form 4
    # (Exchange Act 16(a) reaches every director): only that window is left.
    left = election_windows(grant_facts(employee=True))
    assert [(w.route, w.closes_on) for w in left] == [("form4", date(2026, 6, 25))]


def test_the_form4_due_date_is_a_window_until_the_filing_is_recorded():
    windows = windows_by_key(grant_facts())
    form4 = windows["jsmith-form4"]
    assert (form4.opens_on, form4.closes_on) == (date(2026, 6, 23), date(2026, 6, 25))
    assert "Exchange Act Section 16(a)(2)(C); Rule 16a-3(g)(1)" in form4.rule
    assert "jsmith-form4" not in windows_by_key(grant_facts(form4_filed_on="2026-06-24"))


# ------------------------------------------------------------------------ .ics


def test_ics_has_one_event_per_deadline_with_everyone_named(samples):
    facts = load_facts(samples / "director-grant-2026.yaml").facts
    as_of = date(2026, 6, 1)
    windows = open_windows(facts, as_of)
    data = as_ics(windows, facts, as_of).encode("utf-8")
    events = parse_ics(data)
    groups = deadlines(windows)
    # Ten directors: one Exhibit I deadline and one route (b) deadline shared by all, and the
    # newly eligible director's own route (c); route (a) closed on December 31, 2025. Then each
    # director's Form 4 for the grant, due June 25, 2026 (RSU-FORM4-DUE).
    assert [(g.first.route, len(g.windows)) for g in groups] == [
        ("exhibit-i", 10),
        ("409a-b", 10),
        ("409a-c", 1),
        ("form4", 10),
    ]
    assert len(events) == 4
    uids = [event["UID"][0][1] for event in events]
    assert uids == [
        "rsu-2026-annual-exhibit-i-20260622@docgen",
        "rsu-2026-annual-409a-b-20260623@docgen",
        "rsu-2026-annual-409a-c-20260701@docgen",
        "rsu-2026-annual-form4-20260625@docgen",
    ]
    for event, group in zip(events, groups, strict=True):
        window = group.first
        assert event["DTSTAMP"][0][1] == "20260623T000000Z"  # the Notice date, not the clock
        (params, start), (_, end) = event["DTSTART"][0], event["DTEND"][0]
        assert params == ";VALUE=DATE"
        # An all-day event on the last day: DTEND is the day after it.
        assert ics_date(start) == window.closes_on
        assert ics_date(end) == window.closes_on + timedelta(days=1)
        description = unescape(event["DESCRIPTION"][0][1])
        assert description.startswith(f"Last day: {dates.long_date(window.closes_on)}.")
        for person in group.windows:
            assert f"{person.name} ({person.subject})" in (
                description if len(group.windows) > 1 else unescape(event["SUMMARY"][0][1])
            )
        alarms = [alarm for _, alarm in event["VALARM"]]
        assert [a["TRIGGER"] for a in alarms] == ["-P6DT15H", "-PT15H"]
        assert all(a["ACTION"] == "DISPLAY" and a["DESCRIPTION"] for a in alarms)
    assert "Who (10): Jane Q. Smith (jsmith); Roberto García (rgarcia);" in unescape(
        events[0]["DESCRIPTION"][0][1]
    )
    assert "(10 directors)" in unescape(events[0]["SUMMARY"][0][1])
    # The first-year route opens on the day the director joined: said in the description.
    assert "Opens: June 1, 2026." in unescape(events[2]["DESCRIPTION"][0][1])
    # Escaping: "Exhibit I, grant 2026-annual" keeps its comma only as "\,".
    assert b"Exhibit I\\, grant" in data and b"Notice F.3\\; Exhibit I" in data
    assert any("García" in unescape(e["DESCRIPTION"][0][1]) for e in events)


def test_forty_participants_on_one_december_31_are_one_event(samples):
    # The Plan Year's records, with its three mid-year hires, seen from before the year began.
    facts = load_facts(samples / "rrp-2026-year.yaml").facts
    as_of = date(2025, 12, 1)
    events = parse_ics(as_ics(open_windows(facts, as_of), facts, as_of).encode())
    prior = [e for e in events if "prior-year" in e["UID"][0][1]]
    assert len(prior) == 1 and prior[0]["UID"][0][1] == "rrp-2026-prior-year-20251231@docgen"
    description = unescape(prior[0]["DESCRIPTION"][0][1])
    eligible = [p for p in facts.participants if p.eligible_employee]
    hired_later = {"e1006", "e1007", "e1008"}  # hired in 2026: December 31, 2025 was never theirs
    assert {p.id for p in eligible if p.hired_on and p.hired_on.year == 2026} == hired_later
    for participant in eligible:
        assert (f"({participant.id})" in description) is (participant.id not in hired_later)
    assert "(e1018)" not in description  # not an Eligible Employee (Plan 1.11)
    # Each first-year deadline differs: one event per person.
    first_year = [e for e in events if "first-year" in e["UID"][0][1]]
    assert len(first_year) == 3
    assert all("Who (" not in unescape(e["DESCRIPTION"][0][1]) for e in first_year)


@pytest.mark.parametrize(
    ("as_of", "shown"),
    [
        (date(2026, 6, 22), True),  # the Exhibit I window's last day: still open
        (date(2026, 6, 23), False),  # the day after: closed, left out
    ],
)
def test_only_windows_still_open_on_the_as_of_date(as_of, shown):
    windows = open_windows(grant_facts(), as_of)
    assert ("jsmith-exhibit-i" in {w.key for w in windows}) is shown
    assert "jsmith-409a-a" not in {w.key for w in windows}  # December 31, 2025 has passed


def test_route_a_is_left_out_for_a_director_appointed_after_it_closed():
    facts = grant_facts(first_eligible_on="2026-02-01")
    assert {w.route for w in open_windows(facts, date(2025, 12, 1))} == {
        "exhibit-i",
        "409a-b",
        "409a-c",
        "form4",  # the grant's Form 4: not an election, due whenever the director was appointed
    }
    # The same day, a director who served in 2025 could still elect under route (a).
    assert "409a-a" in {w.route for w in open_windows(grant_facts(), date(2025, 12, 1))}


@pytest.mark.parametrize(
    ("as_of", "triggers"),
    [
        (date(2026, 6, 15), ["-P6DT15H", "-PT15H"]),  # a week before June 22: both to come
        (date(2026, 6, 16), ["-PT15H"]),  # the week-ahead reminder would be in the past
        (date(2026, 6, 21), ["-PT15H"]),  # the day before: still to come
        (date(2026, 6, 22), []),  # the last day itself
    ],
)
def test_reminders_a_week_and_a_day_before_never_in_the_past(as_of, triggers):
    facts = grant_facts()
    events = parse_ics(as_ics(open_windows(facts, as_of), facts, as_of).encode())
    exhibit = next(e for e in events if "exhibit-i" in e["UID"][0][1])
    assert [alarm["TRIGGER"] for _, alarm in exhibit.get("VALARM", [])] == triggers


def test_a_deadline_keeps_its_uid_when_someone_joins_it():
    one = grant_facts()
    two = DirectorGrantFacts.model_validate(
        {
            **one.model_dump(),
            "directors": [
                *one.model_dump()["directors"],
                {"id": "BW1000", "name": "Avery Brooks", "units": 10},
            ],
        }
    )
    as_of = date(2026, 6, 1)
    uids = [
        [e["UID"][0][1] for e in parse_ics(as_ics(open_windows(f, as_of), f, as_of).encode())]
        for f in (one, two)
    ]
    assert uids[0] == uids[1]


def test_ics_is_byte_for_byte_stable(cli, samples, tmp_path):
    first, second = tmp_path / "a.ics", tmp_path / "b.ics"
    for path in (first, second):
        result = cli(
            "calendar",
            samples / "rrp-2026.yaml",
            "--format",
            "ics",
            "-o",
            path,
            "--as-of",
            "2025-12-01",
        )
        assert result.exit_code == 0
    assert first.read_bytes() == second.read_bytes()
    events = parse_ics(first.read_bytes())
    assert events[0]["DTSTAMP"][0][1] == "20251231T000000Z"


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=400))
def test_folding_keeps_lines_short_and_unfolds_to_the_original(text):
    line = "DESCRIPTION:" + ics_escape(text)
    folded = fold(line)
    parts = folded.split("\r\n")
    assert all(len(part.encode("utf-8")) <= 75 for part in parts)
    assert parts[0] + "".join(part[1:] for part in parts[1:]) == line


@given(st.text(max_size=60))
def test_escaping_round_trips(text):
    """Back to the text, with any control character but a line break as a visible escape (an
    iCalendar TEXT value carries none raw, RFC 5545 3.3.11)."""
    escaped = ics_escape(text)
    assert unescape(escaped) == visible(text, keep="\n")
    assert re.search(r"(?<!\\)[,;]", escaped.replace("\\\\", "")) is None
    assert not any(is_unsafe(char) for char in escaped)


# ------------------------------------------------------------------------ CLI


def test_cli_table_and_csv(cli, samples):
    table = cli("calendar", samples / "rrp-2026-year.yaml", "--as-of", "2025-12-01")
    assert table.exit_code == 0 and "2026-04-01" in table.stdout
    rows = list(
        csv.DictReader(
            io.StringIO(
                cli(
                    "calendar",
                    samples / "director-grant-2026.yaml",
                    "--format",
                    "csv",
                    "--as-of",
                    "2025-12-01",
                ).stdout
            )
        )
    )
    assert {row["route"] for row in rows} >= {"exhibit-i", "409a-a", "409a-b"}
    assert all(row["closes_on"] for row in rows)


def test_cli_table_to_a_file(cli, samples, tmp_path):
    path = tmp_path / "windows.txt"
    result = cli("calendar", samples / "rrp-2026.yaml", "-o", path, "--as-of", "2025-12-01")
    assert result.exit_code == 0 and "e1006" in path.read_text()


def test_cli_bad_input(cli, samples, tmp_path):
    result = cli("calendar", samples / "rrp-2026.yaml", "--format", "ical")
    assert result.exit_code == 2
    result = cli(
        "calendar",
        samples / "rrp-2026.yaml",
        "--format",
        "ics",
        "-o",
        tmp_path / "missing" / "x.ics",
    )
    assert result.exit_code == 2 and "no folder" in result.stderr
    assert "Traceback" not in result.stderr
    result = cli("calendar", tmp_path / "nope.yaml")
    assert result.exit_code == 2
    result = cli("calendar", samples / "rrp-2026.yaml", "--as-of", "12/01/2025")
    assert result.exit_code == 2 and "--as-of: expected a date as YYYY-MM-DD" in result.stderr


def test_cli_says_when_every_window_has_closed(cli, samples):
    result = cli("calendar", samples / "rrp-2026.yaml", "--as-of", "2027-01-01")
    assert result.exit_code == 0
    assert "windows open on 2027-01-01 (none: every window has closed)" in result.stdout


def test_ics_written_with_o_keeps_crlf_line_endings(cli, samples, tmp_path):
    target = tmp_path / "elections.ics"
    result = cli("calendar", samples / "rrp-2026.yaml", "--format", "ics", "-o", target)
    assert result.exit_code == 0 and f"Wrote {target}." in result.stderr
    data = target.read_bytes()
    assert data.startswith(b"BEGIN:VCALENDAR\r\n") and b"\n" not in data.replace(b"\r\n", b"")
