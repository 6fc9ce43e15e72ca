"""The calendar's last day on each route is the checker's last good day: one reading of the law.

For every route window the calendar shows, an election made on its closing day passes the rule
that guards that route, and one made the day after is flagged (error, or a warning where the law
leaves the boundary ambiguous).
"""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from docgen.calendar import election_windows
from docgen.checker import run_checks
from docgen.loader import load_facts

ROOT = Path(__file__).resolve().parent.parent
CASES = [
    # sample, subject, route, the date field of the subject's first election, the rule
    ("rrp-2026.yaml", "e1006", "first-year", "made_on", "RRP-FIRST-YEAR-LATE"),
    ("rrp-2026.yaml", "e1007", "first-year", "made_on", "RRP-FIRST-YEAR-LATE"),
    ("rrp-2026.yaml", "e1009", "performance-based-2026-12-31", "made_on", "RRP-PBC-LATE"),
    ("rrp-2026.yaml", "e1010", "performance-based-2027-02-28", "made_on", "RRP-PBC-LATE"),
    ("director-grant-2026.yaml", "jsmith", "409a-b", "filed_on", "RSU-ELECTION-409A-TIMING"),
    ("director-grant-2026.yaml", "akhan", "409a-c", "filed_on", "RSU-ELECTION-409A-TIMING"),
    ("director-grant-2026.yaml", "jsmith", "exhibit-i", "filed_on", "RSU-ELECTION-LATE"),
]


def _with_date(tmp_path: Path, sample: str, subject: str, field: str, day) -> Path:
    yaml = YAML(typ="safe", pure=True)
    data = yaml.load(ROOT / "samples" / sample)
    people = data.get("participants") or data.get("directors")
    person = next(p for p in people if p["id"] == subject)
    person["elections"][0][field] = day
    path = tmp_path / f"{subject}-{day}.json"
    path.write_text(json.dumps(data, default=str))
    return path


@pytest.mark.parametrize(("sample", "subject", "route", "field", "rule"), CASES)
def test_last_day_passes_and_the_next_day_is_flagged(tmp_path, sample, subject, route, field, rule):
    loaded = load_facts(ROOT / "samples" / sample)
    (window,) = [
        w for w in election_windows(loaded.facts) if w.subject == subject and w.route == route
    ]
    as_of = window.closes_on + timedelta(days=40)

    def rules_on(day):
        facts = load_facts(_with_date(tmp_path, sample, subject, field, day))
        report = run_checks(facts, as_of)
        return {f.rule for f in report.findings if f.subject == subject}

    assert rule not in rules_on(window.closes_on)
    assert rule in rules_on(window.closes_on + timedelta(days=1))
