"""A returned form's Filing in words, as the workspace shows it before it is recorded: one group
of fields per thing the filing records (an election, the investment allocation, the
Beneficiaries), each field in the on-file copy's words, what the form said shown as written."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from docgen.core.dates import long_date
from docgen.core.filings import Append, Filing, Put

# A filing's fields in the order and the words the on-file copy uses (the rest follow, named by
# their fact name); what the form said is shown as it was written, never reworded.
LABELS = {
    "grant_id": "Grant",
    "kind": "Pay deferred",
    "plan_year": "Plan Year",
    "performance_period": "Performance period",
    "percent": "Percent deferred",
    "pay_on": "Payment on",
    "pay_date": "Payment date",
    "filed_on": "Filed (received) on",
    "made_on": "Made (received) on",
    "printed_name": "Printed name",
    "name_accepted": "Printed name accepted because",
    "signed_on": "Date signed",
    "received_as": "How received",
    "recorded_by": "Recorded by",
    "recorded_on": "Recorded on",
    "form_sha256": "The form's SHA-256",
}
HOW = {"pdf": "a filled PDF", "paper": "a paper form (docgen elect)"}
PAY_ON = {  # Exhibit I, Section III, as its options read
    "separation": "(a) Separation from Service",
    "date": "(b) a date",
    "earlier_of_separation_or_date": "(c) the earlier of Separation from Service or a date",
}


def shown(value: Any, key: str = "") -> str:
    if isinstance(value, date):
        return long_date(value)
    if isinstance(value, Decimal | int) and key in ("percent", "share"):
        return f"{value}%"
    if key == "received_as":
        return HOW.get(str(value), str(value))
    if key == "pay_on":
        return PAY_ON.get(str(value), str(value))
    if key == "kind":
        return str(value).replace("_", "-")
    if key == "form_sha256":
        return f"{str(value)[:16]}…"
    if isinstance(value, dict) and {"start", "end"} <= set(value):
        return f"{shown(value['start'])} to {shown(value['end'])}"
    return str(value)


def _item(value: dict[str, Any]) -> list[tuple[str, str]]:
    keys = [k for k in LABELS if k in value] + [k for k in value if k not in LABELS]
    return [(LABELS.get(k, k.replace("_", " ").capitalize()), shown(value[k], k)) for k in keys]


def _list(path: str, values: Any) -> list[tuple[str, str]]:
    if path == "investments" and isinstance(values, dict):  # fund: percent
        return [(str(fund), f"{percent}%") for fund, percent in values.items()]
    if path == "beneficiaries" and isinstance(values, list):
        rows = []
        for entry in values:
            who = str(entry.get("name", ""))
            if entry.get("relationship"):
                who += f" ({entry['relationship']})"
            rank = "contingent" if entry.get("contingent") else "primary"
            rows.append((who, f"{rank}, {entry.get('percent')}%"))
        return rows
    return [(path, shown(values))]


HEADINGS = {"investments": "Investment allocation", "beneficiaries": "Beneficiaries"}


def filing_words(filing: Filing) -> list[tuple[str, list[tuple[str, str]]]]:
    """``filing`` in words: (heading, [(label, value)]) per thing it records, in the form's
    order."""
    groups: list[tuple[str, list[tuple[str, str]]]] = []
    for edit in filing.edits:
        where = edit.path[0]
        if isinstance(edit, Append) and isinstance(edit.value, dict):
            title = "Election" if where == "elections" else where.capitalize()
            if "kind" in edit.value:
                title = f"{shown(edit.value['kind'], 'kind').capitalize()} election"
            groups.append((title, _item(edit.value)))
        elif isinstance(edit, Put):
            groups.append((HEADINGS.get(where, where.capitalize()), _list(where, edit.value)))
    return groups
