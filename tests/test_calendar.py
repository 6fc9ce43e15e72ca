"""Election windows (docgen.calendar): the rules' boundaries; an .ics a calendar program reads."""

from __future__ import annotations

import csv
import io
import re
from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from docgen.check.calendar import as_ics, election_windows, fold, ics_escape
from docgen.core import dates
from docgen.kinds.director_rsu.facts import DirectorGrantFacts
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
        elif name == "END":
            assert stack.pop() == value
        elif stack[-1] == "VEVENT":
            events[-1].setdefault(name, []).append((params, value))
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
    assert dates.first_year_election_deadline(eligible) == last_day
    assert dates.is_within_days_after(last_day, eligible, 30)
    assert not dates.is_within_days_after(last_day + timedelta(days=1), eligible, 30)


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
    assert dates.performance_based_election_deadline(period_end) == last_day
    # The checker's strict reading is the same day (one rule, two callers).
    assert dates.months_before_readings(period_end, 6)[0] == last_day


# ------------------------------------------------------------------------ director windows


def grant_facts(grant: dict | None = None, **director) -> DirectorGrantFacts:
    base = {
        "id": "2026-annual", "grant_date": "2026-06-23", "notice_date": "2026-06-01",
        "election_deadline": "2026-06-23", "fair_market_value": "45.10",
    }  # fmt: skip
    base.update(grant or {})
    return DirectorGrantFacts.model_validate({
        "kind": "director-rsu-grant",
        "company": {"name": "CarMax, Inc.", "secretary_phone": "(804) 747-0422",
                    "governing_law": "Commonwealth of Virginia"},
        "stock_plan": "Plan", "form_10k_fiscal_year": 2026, "grant": base,
        "directors": [{"id": "jsmith", "name": "Jane Q. Smith", "units": 100, **director}],
    })  # fmt: skip


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
    assert dates.forfeitable_right_election_deadline(date(2026, 6, 23), date(2027, 6, 22)) is None


def test_route_b_on_a_leap_day_grant():
    # Granted Feb 29, 2028; vests Feb 28, 2029 (the anniversary, clamped) = exactly 12 months
    # on the clamped reading, so route (b) is open and closes Feb 28, 2028 (12 months before),
    # the day before the grant itself.
    assert dates.forfeitable_right_election_deadline(date(2028, 2, 29), date(2029, 2, 28)) == date(
        2028, 2, 28
    )
    facts = grant_facts({"grant_date": "2028-02-29", "notice_date": "2028-02-01",
                         "election_deadline": "2028-02-29"})  # fmt: skip
    window = windows_by_key(facts)["jsmith-409a-b"]
    assert (window.opens_on, window.closes_on) == (None, date(2028, 2, 28))
    # The day before: a grant on Feb 28, 2028 vests Feb 28, 2029; (b) closes Feb 28, 2028.
    window = windows_by_key(grant_facts({"grant_date": "2028-02-28"}))["jsmith-409a-b"]
    assert (window.opens_on, window.closes_on, window.note) == (None, date(2028, 2, 28), None)


def test_newly_eligible_director_and_employee_director():
    windows = windows_by_key(grant_facts(first_eligible_on="2026-05-20"))
    assert windows["jsmith-409a-c"].closes_on == date(2026, 6, 19)
    assert election_windows(grant_facts(employee=True)) == []


# ------------------------------------------------------------------------ .ics


def test_ics_parses_and_matches_the_windows(samples):
    facts = load_facts(samples / "director-grant-2026.yaml").facts
    data = as_ics(election_windows(facts), facts).encode("utf-8")
    events = parse_ics(data)
    windows = election_windows(facts)
    assert len(events) == len(windows)
    uids = [event["UID"][0][1] for event in events]
    assert len(set(uids)) == len(uids)
    for event, window in zip(events, windows, strict=True):
        assert event["UID"][0][1] == f"rsu-2026-annual-{window.key}@docgen"
        assert event["DTSTAMP"][0][1] == "20260623T000000Z"  # the Notice date, not the clock
        (params, start), (_, end) = event["DTSTART"][0], event["DTEND"][0]
        assert params == ";VALUE=DATE"
        # All-day events: DTEND is the day after the last day.
        assert ics_date(end) == window.closes_on + timedelta(days=1)
        assert ics_date(start) == (window.opens_on or window.closes_on)
        summary = unescape(event["SUMMARY"][0][1])
        assert window.name in summary and window.subject in summary
        assert unescape(event["DESCRIPTION"][0][1]).startswith(
            f"Last day: {dates.long_date(window.closes_on)}."
        )
    # Escaping: "Exhibit I, grant 2026-annual" keeps its comma only as "\,".
    assert b"Exhibit I\\, grant" in data and b"Notice F.3\\; Exhibit I" in data
    # A name with a non-ASCII letter survives folding.
    assert any("García" in unescape(e["SUMMARY"][0][1]) for e in events)


def test_ics_is_byte_for_byte_stable(cli, samples, tmp_path):
    first, second = tmp_path / "a.ics", tmp_path / "b.ics"
    for path in (first, second):
        result = cli("calendar", samples / "rrp-2026.yaml", "--format", "ics", "-o", path)
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
    escaped = ics_escape(text.replace("\r", ""))
    assert unescape(escaped) == text.replace("\r", "")
    assert re.search(r"(?<!\\)[,;]", escaped.replace("\\\\", "")) is None


# ------------------------------------------------------------------------ CLI


def test_cli_table_and_csv(cli, samples):
    table = cli("calendar", samples / "rrp-2026-year.yaml")
    assert table.exit_code == 0 and "2026-04-01" in table.stdout
    rows = list(csv.DictReader(io.StringIO(
        cli("calendar", samples / "director-grant-2026.yaml", "--format", "csv").stdout
    )))  # fmt: skip
    assert {row["route"] for row in rows} >= {"exhibit-i", "409a-a", "409a-b"}
    assert all(row["closes_on"] for row in rows)


def test_cli_table_to_a_file(cli, samples, tmp_path):
    path = tmp_path / "windows.txt"
    result = cli("calendar", samples / "rrp-2026.yaml", "-o", path)
    assert result.exit_code == 0 and "e1006" in path.read_text()


def test_cli_bad_input(cli, samples, tmp_path):
    result = cli("calendar", samples / "rrp-2026.yaml", "--format", "ical")
    assert result.exit_code == 2
    result = cli("calendar", samples / "rrp-2026.yaml", "--format", "ics",
                 "-o", tmp_path / "missing" / "x.ics")  # fmt: skip
    assert result.exit_code == 2 and "no folder" in result.stderr
    assert "Traceback" not in result.stderr
    result = cli("calendar", tmp_path / "nope.yaml")
    assert result.exit_code == 2


def test_ics_written_with_o_keeps_crlf_line_endings(cli, samples, tmp_path):
    target = tmp_path / "elections.ics"
    result = cli("calendar", samples / "rrp-2026.yaml", "--format", "ics", "-o", target)
    assert result.exit_code == 0 and f"Wrote {target}." in result.stderr
    data = target.read_bytes()
    assert data.startswith(b"BEGIN:VCALENDAR\r\n") and b"\n" not in data.replace(b"\r\n", b"")
