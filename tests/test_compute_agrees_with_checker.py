"""`docgen compute`'s payment_due_on is the checker's last good payment day, for every sample
participant who left: a payment on it draws no payment finding, a payment the day after does."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from docgen.checker import run_checks
from docgen.compute import compute, payment_window
from docgen.loader import load_facts

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "rrp-2026.yaml"
PAYMENT_RULES = {"RRP-PAYMENT-WINDOW", "RRP-KEY-EMPLOYEE-PAYMENT"}
LEAVERS = [p.id for p in load_facts(SAMPLE).facts.participants if p.termination is not None]


def _paid_on(tmp_path: Path, subject: str, day) -> set[str]:
    data = YAML(typ="safe", pure=True).load(SAMPLE)
    person = next(p for p in data["participants"] if p["id"] == subject)
    person["payments"] = [{"on": day, "amount": "1000.00", "to": "participant"}]
    path = tmp_path / f"{subject}-{day}.json"
    path.write_text(json.dumps(data, default=str))
    report = run_checks(load_facts(path), day + timedelta(days=90))
    return {f.rule for f in report.findings if f.subject == subject} & PAYMENT_RULES


@pytest.mark.parametrize("subject", LEAVERS)
def test_payment_due_on_is_the_last_good_day(tmp_path, subject):
    loaded = load_facts(SAMPLE)
    computed = {row.id: row for row in compute(loaded.facts).participants}
    due = computed[subject].payment_due_on
    first, last = payment_window(loaded.facts, loaded.facts.participant(subject))
    assert due == last and first <= due
    assert _paid_on(tmp_path, subject, due) == set()
    assert _paid_on(tmp_path, subject, first) == set()
    assert _paid_on(tmp_path, subject, due + timedelta(days=1))
    assert _paid_on(tmp_path, subject, first - timedelta(days=1))
