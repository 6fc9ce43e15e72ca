"""The directors' Exhibit I forms as rows (A20): ``elections_csv``, one row per form received,
naming the director by ``director_id``; several forms per director, superseded and not-in-effect
ones included. Every field a facts file's election holds has its column (the form's SHA-256
too, which a roster row does not keep)."""

from __future__ import annotations

from docgen.core.record_rows import RecordRows, RowField

_FIELDS = (
    "grant_id",
    "filed_on",
    "percent",
    "pay_on",
    "pay_date",
    "status",
    "reason",
    "decided_by",
    "form_sha256",
    "received_as",
    "printed_name",
    "name_accepted",
    "signed_on",
    "recorded_by",
    "recorded_on",
    "signature_seen_by",
)
ELECTIONS = RecordRows(
    field="elections_csv",
    subject_column="director_id",
    into="elections",
    noun="Exhibit I form",
    fields=tuple(
        # pay_on is "separation" or "date", not a date
        RowField(name, (name,), "date" if name.endswith(("ed_on", "_date")) else "text")
        for name in _FIELDS
    ),
)
RECORDS = (ELECTIONS,)
