"""The Retirement Restoration Plan: a Plan Year's Deferral Elections, contributions and payments."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any

from docgen.core.dates import december_31_before
from docgen.core.errors import Problem
from docgen.core.parameters import has_value
from docgen.core.windows import ElectionWindow
from docgen.kinds.registry import ComputesPlan, Kind, Roster, RunsPayroll, register_kind
from docgen.kinds.rrp.authorities import AUTHORITIES
from docgen.kinds.rrp.clauses import CLAUSES
from docgen.kinds.rrp.documents import DOCUMENTS
from docgen.kinds.rrp.facts import RRPPlanYearFacts
from docgen.kinds.rrp.intake import INTAKE
from docgen.kinds.rrp.records import RECORDS
from docgen.kinds.rrp.roster import COLUMNS, ROSTER_COLUMNS, read_roster, record_in_row
from docgen.kinds.rrp.terms import forms_not_in_effect
from docgen.kinds.rrp.view import PlanYearView, plan_year_view
from docgen.kinds.rrp.windows import rrp_windows

if TYPE_CHECKING:
    from collections.abc import Collection

    from rich.console import RenderableType

    from docgen.kinds.registry import Locates, PayDateTotals
    from docgen.kinds.rrp.report import Format

NAME = "rrp-plan-year"


def _restated(section: str) -> str:
    return f"Plan Section {section}, as restated January 1, 2017"


class RRPPlanYear(
    Kind[RRPPlanYearFacts], ComputesPlan[RRPPlanYearFacts], RunsPayroll[RRPPlanYearFacts]
):
    """A Plan Year: its Deferral Election Forms at enrollment, its records checked after; its
    arithmetic and its payroll feed."""

    def head(self, facts: RRPPlanYearFacts) -> tuple[str, str]:
        return f"plan-year-{facts.plan_year}", "the Plan Year"

    def cycle_name(self, facts: RRPPlanYearFacts) -> str:
        return f"rrp-{facts.plan_year}"

    def default_stage(self, facts: RRPPlanYearFacts, as_of: date) -> str:
        """DESIGN.md, "Stages and issued folders": enrollment up to December 31 before the Plan
        Year; the year's records after."""
        return "enrollment" if as_of <= december_31_before(facts.plan_year) else "year"

    def windows(self, facts: RRPPlanYearFacts) -> list[ElectionWindow]:
        return rrp_windows(facts)

    def calendar_name(self, facts: RRPPlanYearFacts) -> str:
        return f"{facts.company.name} Retirement Restoration Plan elections, {facts.plan_year}"

    def stamp_date(self, facts: RRPPlanYearFacts) -> date:
        """December 31 before the Plan Year: the same facts give the same calendar bytes."""
        return december_31_before(facts.plan_year)

    def load_problems(self, facts: RRPPlanYearFacts, source: Locates) -> list[Problem]:
        """A Plan Year with no published 401(a)(17) limit and no plan.compensation_limit."""
        if facts.plan.compensation_limit is not None:
            return []
        if has_value("irs_401a17_compensation_limit", facts.plan_year):
            return []
        file, line = source.locate(("plan_year",))
        return [
            Problem(
                file,
                line,
                "plan_year",
                f"no published 401(a)(17) compensation limit for {facts.plan_year}",
                str(facts.plan_year),
                f"Add plan.compensation_limit: for {facts.plan_year} once the IRS publishes it, "
                "or add the figure to checks/parameters/irs_401a17_compensation_limit.yaml.",
            )
        ]

    def compute(self, facts: RRPPlanYearFacts, output_format: Format) -> RenderableType:
        # here, not at the top: only `docgen compute` works the figures out (figures.py)
        from docgen.kinds.rrp.arithmetic import compute
        from docgen.kinds.rrp.report import render as compute_view

        return compute_view(compute(facts), output_format)

    def payroll(
        self, facts: RRPPlanYearFacts, output_format: Format, pay_date: date | None = None
    ) -> RenderableType:
        # here, not at the top: only `docgen payroll` works the paychecks out
        from docgen.kinds.rrp.payroll import render as payroll_view
        from docgen.kinds.rrp.payroll import render_pay_date

        if pay_date is None:
            return payroll_view(facts, output_format)
        layout = facts.payroll.layout if facts.payroll is not None else None
        return render_pay_date(facts, output_format, pay_date, layout)

    def figures_of(self, facts: RRPPlanYearFacts, ids: Collection[str]) -> dict[str, Any]:
        from docgen.kinds.rrp.arithmetic import compute

        return compute(facts, ids).as_json()

    def paychecks_of(self, facts: RRPPlanYearFacts, ids: Collection[str]) -> dict[str, Any]:
        from docgen.kinds.rrp.payroll import paychecks_of

        return paychecks_of(facts, ids)

    def totals_by_pay_date(self, facts: RRPPlanYearFacts) -> PayDateTotals:
        from docgen.kinds.rrp.payroll import totals_by_pay_date

        return totals_by_pay_date(facts)

    def not_in_effect(self, facts: RRPPlanYearFacts) -> dict[str, str]:
        return forms_not_in_effect(facts)

    def view(self, facts: RRPPlanYearFacts) -> PlanYearView:
        return plan_year_view(facts)


KIND = register_kind(
    RRPPlanYear(
        name=NAME,
        model=RRPPlanYearFacts,
        title="Retirement Restoration Plan Year",
        # enrollment: the Deferral Election Forms; year: the year's records, checked, no documents.
        stages=("enrollment", "year"),
        subjects_field="participants",
        subject_noun="participant",
        # in catalogue order (`docgen rules`): the forms not in effect have come first
        rule_modules=(
            "checks.rrp_not_in_effect",
            "checks.rrp_timing",
            "checks.rrp",
            "checks.rrp_accounts",
            "checks.rrp_payments",
            "checks.rrp_names",
        ),
        documents=DOCUMENTS,
        roster=Roster(
            "participants_csv",
            "participants",
            ROSTER_COLUMNS,
            read_roster,
            record_in_row,
            inherits=("plan_year",),  # a row's elections are for the facts' Plan Year
            cells=COLUMNS,
        ),
        records=RECORDS,
        intake=INTAKE,
        case_base="rrp",
        clauses=CLAUSES,
        authorities=AUTHORITIES,
        default_terms=(
            (("plan", "max_deferral_percent"), _restated("2.03(a)")),
            (("plan", "match_rate_percent"), _restated("3.04")),
            (("plan", "match_cap_percent"), _restated("3.04")),
            (("plan", "retirement_age"), _restated("1.24")),
            (("plan", "retirement_hours_of_service"), _restated("3.02")),
            (("plan", "years_of_vesting_service_to_vest"), _restated("3.06(b)")),
            (("plan", "hour_of_service_vests_from"), _restated("3.06(b)")),
            (
                ("company", "publicly_traded"),
                "docgen's default: the Key Employee delay of Plan Section 4.01(b) applies",
            ),
        ),
    )
)
