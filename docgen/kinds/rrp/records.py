"""The RRP's filings as rows (A20): ``elections_csv`` (one row per Deferral Election received),
``beneficiaries_csv`` (one row per Beneficiary designated) and ``allocations_csv`` (one row per
fund of the investment allocation, Plan 3.05(b)), each naming the participant by ``participant_id``.
Every field a facts file's election, Beneficiary or allocation holds has its column."""

from __future__ import annotations

from docgen.core.record_rows import RecordRows, RowField

ELECTIONS = RecordRows(
    field="elections_csv",
    subject_column="participant_id",
    into="elections",
    noun="Deferral Election",
    fields=(
        RowField("plan_year", ("plan_year",), "whole"),
        RowField("kind", ("kind",)),
        RowField("percent", ("percent",)),
        RowField("made_on", ("made_on",), "date"),
        RowField("performance_start", ("performance_period", "start"), "date"),
        RowField("performance_end", ("performance_period", "end"), "date"),
        RowField(
            "criteria_established_on", ("performance_period", "criteria_established_on"), "date"
        ),
        RowField("revoked_on", ("revoked_on",), "date"),
        RowField("status", ("status",)),
        RowField("reason", ("reason",)),
        RowField("decided_by", ("decided_by",)),
        RowField("form_sha256", ("form_sha256",)),
        RowField("received_as", ("received_as",)),
        RowField("signed_on", ("signed_on",)),
        RowField("recorded_by", ("recorded_by",)),
        RowField("recorded_on", ("recorded_on",)),
    ),
)
BENEFICIARIES = RecordRows(
    field="beneficiaries_csv",
    subject_column="participant_id",
    into="beneficiaries",
    noun="Beneficiary",
    fields=(
        RowField("name", ("name",)),
        RowField("relationship", ("relationship",)),
        RowField("percent", ("percent",)),
        RowField("contingent", ("contingent",), "boolean"),
    ),
)
ALLOCATIONS = RecordRows(
    field="allocations_csv",
    subject_column="participant_id",
    into="investments",
    key="fund",
    noun="fund",
    fields=(RowField("percent", ("percent",)),),
)
RECORDS = (ELECTIONS, BENEFICIARIES, ALLOCATIONS)
