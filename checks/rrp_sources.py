"""More of the Retirement Restoration Plan's words the RRP rules rest on (Amendments A3-A7), quoted
from docs/source-forms/retirement-restoration-plan.txt word for word (tests/test_rrp_rules.py
checks each against the seed), and Code 401(a)(17) described. checks/sources.py has the rest."""

from __future__ import annotations

from checks.sources import code, describe, plan, quote

PLAN_1_14_DETERMINATION = quote(
    plan("1.14"),
    """
    A Participant who, as of December 31^st of a calendar year, meets the requirements of Code
    section 409A(a)(2)(B)(i) to be treated as a “specified employee” of the Company
""",
)
PLAN_2_03_B_ROLLOVER = quote(
    plan("2.03(b)"),
    """
    A Deferral Election will rollover and apply to subsequent Plan Years and performance
    periods, as applicable, unless the Participant revokes such election or timely files a new
    Deferral Election in accordance with Code section 409A.
""",
)
PLAN_2_03_B_FORM = quote(
    plan("2.03(b)"),
    """
    Each Deferral Election shall be made on a form provided by the Committee and shall specify
    such additional information as the Committee may require.
""",
)
PLAN_2_03_C_WINDOW = quote(
    plan("2.03(c)"),
    """
    the Eligible Employee may make an initial Deferral Election within 30 days after he becomes
    eligible to participate in the Plan.
""",
)
PLAN_1_02_DEFAULT = quote(
    plan("1.02"),
    """
    The person or entity specified by a Participant by the method prescribed by the Committee
    for that purpose.
""",
)
PLAN_BENEFICIARY_CHANGE = quote(
    plan("Beneficiary designation"),
    """
    A Participant may, from time to time, change a Beneficiary or Beneficiaries under the Plan.
""",
)
PLAN_4_01_A_BENEFICIARY = quote(
    plan("4.01(a)"),
    """
    In the event of a Participant’s Termination of Employment (including due to death) or Total
    and Permanent Disability, the Plan shall pay the Participant or his Beneficiary, as the case
    may be, the total vested value of the Participant’s Account.
""",
)
CODE_401_A_17 = describe(
    code("401(a)(17)"),
    """
    The annual compensation limit a qualified plan may take into account, adjusted for
    cost-of-living increases and published by the IRS for each calendar year. Plan Compensation
    (Plan 1.21) is Compensation above it, so a wrong figure changes every deferral and match.
""",
)
