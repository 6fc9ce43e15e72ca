"""Director RSU grants: the Notice of Restricted Stock Unit Grant and its Exhibit I, per cycle."""

from __future__ import annotations

from docgen.kinds.director_rsu.clauses import CLAUSES
from docgen.kinds.director_rsu.documents import DOCUMENTS
from docgen.kinds.director_rsu.facts import DirectorGrantFacts
from docgen.kinds.director_rsu.intake import INTAKE
from docgen.kinds.director_rsu.roster import ROSTER_COLUMNS, read_roster, record_in_row
from docgen.kinds.director_rsu.terms import forms_not_in_effect
from docgen.kinds.director_rsu.windows import director_windows
from docgen.kinds.registry import RETIRED_APPROVAL, Kind, Roster, register_kind

NAME = "director-rsu-grant"

KIND = register_kind(
    Kind(
        name=NAME,
        model=DirectorGrantFacts,
        title="Director restricted stock unit grant",
        stages=("grant", "elections"),
        subjects_field="directors",
        subject_noun="director",
        head=lambda facts: (facts.grant.id, "the grant"),
        cycle_name=lambda facts: facts.grant.id,
        rule_modules=(
            "checks.rsu",
            "checks.rsu_as_of",
            "checks.rsu_payments",
            "checks.not_in_effect",
        ),  # fmt: skip
        documents=DOCUMENTS,
        roster=Roster("directors_csv", "directors", ROSTER_COLUMNS, read_roster, record_in_row),
        windows=director_windows,
        calendar_name=lambda facts: (
            f"{facts.company.name} director RSU elections, grant {facts.grant.id}"
        ),
        # The Notice date: the same facts give the same calendar bytes.
        stamp_date=lambda facts: facts.grant.notice_date,
        not_in_effect=forms_not_in_effect,
        intake=INTAKE,
        case_base="director",
        clauses=CLAUSES,
        default_terms=(
            (("grant", "vesting", "anniversary"), "docgen's default; the Notice leaves it blank"),
            (
                ("grant", "vesting", "accelerate_on"),
                "docgen's default: every event of the drafted Notice Section B",
            ),
            (
                ("grant", "default_payment_anniversary"),
                "docgen's default; Exhibit I, Section II leaves it blank",
            ),
            (
                ("company", "publicly_traded"),
                "docgen's default: the specified-employee delay of Code 409A(a)(2)(B)(i) applies",
            ),
        ),
        retired_fields={"drafted_clauses_approved_by": RETIRED_APPROVAL},
        calendar_uid=lambda facts: f"rsu-{facts.grant.id}",
    )
)
