"""Director RSU grants: the Notice of Restricted Stock Unit Grant and its Exhibit I, per cycle."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from docgen.core.windows import ElectionWindow, FilingDue
from docgen.kinds.director_rsu.authorities import AUTHORITIES
from docgen.kinds.director_rsu.clauses import CLAUSES
from docgen.kinds.director_rsu.documents import DOCUMENTS
from docgen.kinds.director_rsu.facts import DirectorGrantFacts
from docgen.kinds.director_rsu.intake import INTAKE
from docgen.kinds.director_rsu.records import RECORDS
from docgen.kinds.director_rsu.roster import COLUMNS, ROSTER_COLUMNS, read_roster, record_in_row
from docgen.kinds.director_rsu.terms import forms_not_in_effect
from docgen.kinds.director_rsu.windows import director_windows, form4_filings
from docgen.kinds.registry import (
    ComputeFormat,
    ComputesPlan,
    DraftsFilings,
    ExportsOCF,
    GrantsStockAwards,
    Kind,
    Roster,
    register_kind,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rich.console import RenderableType

    from docgen.core.awards import FiscalYear, ProxyAward
    from docgen.core.drafts import Drafts, Earlier, MissingFact
    from docgen.core.ocf import IssuedDocument, OCFCycle

NAME = "director-rsu-grant"


class DirectorRSU(
    Kind[DirectorGrantFacts],
    ComputesPlan[DirectorGrantFacts],
    GrantsStockAwards[DirectorGrantFacts],
    ExportsOCF[DirectorGrantFacts],
    DraftsFilings[DirectorGrantFacts],
):
    """A grant's Notices and Exhibit I election forms, director by director; its arithmetic,
    its awards for the proxy, its OCF export and each director's Form 4 draft."""

    def head(self, facts: DirectorGrantFacts) -> tuple[str, str]:
        return facts.grant.id, "the grant"

    def cycle_name(self, facts: DirectorGrantFacts) -> str:
        return facts.grant.id

    def windows(self, facts: DirectorGrantFacts) -> list[ElectionWindow]:
        return director_windows(facts)

    def filing_drafts(
        self, facts: DirectorGrantFacts, drafted_on: date, earlier: Earlier
    ) -> Drafts:
        """Each director's Form 4 draft for the grant (DESIGN.md, "After the grant"); a 4/A for
        a director whose Form 4 is filed, compared with the earlier draft."""
        # here, not at the top: only `docgen section16` drafts them
        from docgen.kinds.director_rsu.form4_view import form4_drafts

        return form4_drafts(facts, drafted_on, earlier)

    # EDGAR rejects a Form 4 whose owner's state or CIK it does not take (EDGAR Ownership XML
    # Technical Specification, X0508): checks/rsu_section16.py.
    filing_draft_rules = ("RSU-FORM4-STATE-CODE", "RSU-FORM4-CIK")

    def filing_draft_gaps(self, facts: DirectorGrantFacts) -> list[MissingFact]:
        from docgen.kinds.director_rsu.form4 import missing_facts

        return missing_facts(facts)

    def filings_due(self, facts: DirectorGrantFacts) -> list[FilingDue]:
        """Each director's Form 4 for the grant (RSU-FORM4-DUE)."""
        return form4_filings(facts)

    def calendar_name(self, facts: DirectorGrantFacts) -> str:
        return f"{facts.company.name} director RSU elections, grant {facts.grant.id}"

    def calendar_uid(self, facts: DirectorGrantFacts) -> str:
        return f"rsu-{facts.grant.id}"

    def stamp_date(self, facts: DirectorGrantFacts) -> date:
        """The Notice date: the same facts give the same calendar bytes."""
        return facts.grant.notice_date

    def not_in_effect(self, facts: DirectorGrantFacts) -> dict[str, str]:
        return forms_not_in_effect(facts)

    def compute(self, facts: DirectorGrantFacts, output_format: ComputeFormat) -> RenderableType:
        """Each director's Vesting Date, dividend-equivalent units, shares and Payment Date."""
        # here, not at the top: only `docgen compute` works the figures out
        from docgen.kinds.director_rsu.arithmetic import compute
        from docgen.kinds.director_rsu.report import render as compute_view

        return compute_view(compute(facts), output_format)

    def proxy_awards(self, facts: DirectorGrantFacts, year: FiscalYear) -> list[ProxyAward]:
        """Each director's award: its grant-date fair value and its units outstanding at the
        fiscal year-end (docgen.kinds.director_rsu.proxy)."""
        from docgen.kinds.director_rsu.proxy import proxy_awards  # only `docgen proxy` needs it

        return proxy_awards(facts, year)

    def ocf_cycle(
        self, facts: DirectorGrantFacts, as_of: date, documents: Sequence[IssuedDocument]
    ) -> OCFCycle:
        """The cycle as Open Cap Format objects (docgen.kinds.director_rsu.ocf)."""
        from docgen.kinds.director_rsu.ocf import ocf_cycle  # only `docgen export-ocf` needs it

        return ocf_cycle(facts, as_of, documents)


KIND = register_kind(
    DirectorRSU(
        name=NAME,
        model=DirectorGrantFacts,
        title="Director restricted stock unit grant",
        stages=("grant", "elections"),
        subjects_field="directors",
        subject_noun="director",
        rule_modules=(
            "checks.rsu",
            "checks.rsu_as_of",
            "checks.rsu_payments",
            "checks.rsu_not_in_effect",
            "checks.rsu_values",
            "checks.rsu_section16",
            "checks.rsu_names",
        ),
        documents=DOCUMENTS,
        roster=Roster(
            "directors_csv", "directors", ROSTER_COLUMNS, read_roster, record_in_row, cells=COLUMNS
        ),
        records=RECORDS,
        intake=INTAKE,
        case_base="director",
        clauses=CLAUSES,
        authorities=AUTHORITIES,
        ocf_stage="grant",
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
    )
)
