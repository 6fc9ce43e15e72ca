"""Retirement Restoration Plan rules about a Participant's Account: investment allocations (Plan
3.05(b)) and Beneficiary designations (Plan 1.02 and the Beneficiary designation section).

They apply to anyone who may hold an Account, a former Participant included (DESIGN.md, "Who is a
Participant").
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

from checks import rrp_sources as rrp_src
from checks.rrp_sources import PLAN_1_02_DEFAULT, PLAN_BENEFICIARY_CHANGE, plan
from checks.sources import describe
from docgen.core.citations import Citation
from docgen.core.model import fact_path
from docgen.core.rules import CheckContext, Hit, rule
from docgen.kinds.rrp import kind as _kind  # noqa: F401  (the kind claiming these rules)
from docgen.kinds.rrp.facts import Participant
from docgen.kinds.rrp.terms import may_hold_account


def _account_holders(context: CheckContext) -> Iterator[tuple[int, Participant]]:
    for p_index, participant in enumerate(context.facts.participants):
        if may_hold_account(participant):
            yield p_index, participant


@rule(
    "RRP-INVESTMENT-ALLOCATION",
    title="Investment allocation not in whole percents summing to 100",
    severity="error",
    cites=[plan("3.05(b)")],
    explanation="Investment selections are made in increments of one percent (1%); a complete "
    "allocation sums to 100%. No selection at all is allowed (the default fund applies).",
    sources=[rrp_src.PLAN_3_05_B],
    remedy="Have the Participant restate the allocation in whole percents totalling 100.",
)
def investment_allocation(context: CheckContext) -> Iterator[Hit]:
    for p_index, participant in enumerate(context.facts.participants):
        if not participant.investments:
            continue
        path = fact_path("participants", p_index, "investments")
        fractional = [
            f"{fund} {share}%"
            for fund, share in participant.investments.items()
            if share % 1 != 0 or share < 0
        ]
        total = sum(participant.investments.values(), Decimal(0))
        problems = []
        if fractional:
            problems.append(f"not in whole percents: {', '.join(fractional)}")
        if total != 100:
            problems.append(f"sums to {total}%, not 100%")
        if problems:
            yield Hit(participant.id, path, f"investment allocation {'; '.join(problems)}.")


@rule(
    "RRP-BENEFICIARY-MISSING",
    title="No Beneficiary designated",
    severity="warning",
    cites=[plan("1.02"), plan("Beneficiary designation")],
    explanation="Each Participant must designate a Beneficiary at enrollment; without one the "
    "Plan's default order (Surviving Spouse, else the estate) applies. Checked for Eligible "
    "Employees and for anyone else who may hold an Account (a former Participant).",
    sources=[rrp_src.PLAN_BENEFICIARY_DESIGNATION, rrp_src.PLAN_1_02],
    remedy="Send the Participant a beneficiary designation with the enrollment form.",
)
def beneficiary_missing(context: CheckContext) -> Iterator[Hit]:
    for p_index, participant in _account_holders(context):
        if not any(not b.contingent for b in participant.beneficiaries):
            none = "no primary Beneficiary" if participant.beneficiaries else "no Beneficiary"
            yield Hit(
                participant.id,
                fact_path("participants", p_index, "beneficiaries"),
                f"{none} designated; the default order of Plan Section 1.02 applies.",
            )


# docgen's own form rule: the Plan has no election form, so docgen drafts one (issue 44: a
# citation of the Plan alone claimed for the Plan a rule its text does not state).
DESIGN_FORM_GAPS = Citation("DESIGN.md", "Gaps in the source forms")


@rule(
    "RRP-BENEFICIARY-SHARES",
    title="Beneficiary shares that do not total 100",
    severity="error",
    cites=[DESIGN_FORM_GAPS, plan("Beneficiary designation")],
    explanation="docgen's form rule, not the Plan's: the Plan requires a Beneficiary and says "
    "nothing of shares; the RRP Deferral Election Form, which docgen drafts where the Plan has "
    'none (DESIGN.md, "Gaps in the source forms"), asks for each Beneficiary\'s share. The '
    "primary Beneficiaries' shares total 100%, and so do the contingent Beneficiaries' (who "
    "take only if no primary Beneficiary survives). Shares that total more or less leave the "
    "settlement of the Account in doubt.",
    sources=[
        describe(
            DESIGN_FORM_GAPS,
            "docgen's rule for the form it drafts (the Plan has no Deferral Election Form): "
            "each group of Beneficiaries (primary; contingent) is named with shares that total "
            "100%. The Plan's text says nothing of shares.",
        ),
        rrp_src.PLAN_BENEFICIARY_DESIGNATION,
        PLAN_BENEFICIARY_CHANGE,
        PLAN_1_02_DEFAULT,
    ],
    remedy="Have the Participant restate the designation so each group's shares total 100%.",
)
def beneficiary_shares(context: CheckContext) -> Iterator[Hit]:
    for p_index, participant in enumerate(context.facts.participants):
        for contingent, group in ((False, "primary"), (True, "contingent")):
            shares = [b for b in participant.beneficiaries if b.contingent is contingent]
            total = sum((b.percent for b in shares), Decimal(0))
            if shares and total != 100:
                listed = ", ".join(f"{b.name} {b.percent.normalize():f}%" for b in shares)
                yield Hit(
                    participant.id,
                    fact_path("participants", p_index, "beneficiaries"),
                    f"{group} Beneficiary shares total {total.normalize():f}%, not 100% "
                    f"({listed}); docgen's form rule (the Plan says nothing of shares).",
                )
