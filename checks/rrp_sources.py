"""The Retirement Restoration Plan's words its rules rest on, quoted from
docs/source-forms/retirement-restoration-plan.txt word for word (a test checks each against it).
checks/sources.py has the Code and Treas. Reg."""

from __future__ import annotations

from checks.sources import quote
from docgen.core.citations import Citation
from docgen.kinds.rrp.authorities import PLAN


def plan(pinpoint: str) -> Citation:
    return PLAN.cite(pinpoint)


PLAN_1_02 = quote(
    plan("1.02"),
    """
    If a Participant does not designate a Beneficiary or if the designated Beneficiary
    predeceased the Participant or is not in existence on the date of the Participant’s
    death, then Beneficiary means the Participant’s Surviving Spouse, or if there is no
    Surviving Spouse, the executor(s) or administrator(s) of the Participant’s estate.
""",
)
PLAN_1_11 = quote(
    plan("1.11"),
    """
    An Employee who is a member of a select group of management or highly compensated
    employees of the Company, as determined by the Committee.
""",
)
PLAN_1_14 = quote(
    plan("1.14"),
    """
    A Participant who meets the criteria in the preceding sentence will be considered a Key
    Employee for purposes of the Plan for the 12-month period commencing on the next
    following April 1.
""",
)
PLAN_1_18 = quote(
    plan("1.18"),
    """
    Compensation where the amount thereof, or entitlement thereto, is contingent on the
    satisfaction of pre-established organizational or individual performance criteria
    relating to a performance period of at least 12 consecutive months. Organizational or
    individual performance criteria are considered pre-established if established in writing
    by not later than 90 days after the commencement of the period of service to which the
    criteria relate, provided that the outcome is substantially uncertain at the time the
    criteria are established.
""",
)
PLAN_1_21 = quote(
    plan("1.21"),
    """
    The excess (if any) of (a) the Participant’s Compensation for the Plan Year over (b) the
    annual tax-qualified plan compensation limitation set forth under Code section
    401(a)(17), as adjusted for that Plan Year.
""",
)
PLAN_2_01 = quote(
    plan("2.01"),
    """
    An individual shall become a Participant in the Plan as of the first day of the first
    Plan Year in which such individual is an Eligible Employee whose Compensation for such
    Plan Year exceeds the compensation dollar limit imposed under Code section 401(a)(17)
    (for example, $265,000 for calendar year 2016).
""",
)
PLAN_2_03_A = quote(
    plan("2.03(a)"),
    """
    A Participant may elect to defer a percentage (in one percent (1%) increments) of his
    Plan Compensation under the Plan, up to seventy-five percent (75%) of his Plan
    Compensation for the applicable pay period.
""",
)
PLAN_2_03_B = quote(
    plan("2.03(b)"),
    """
    Except as provided in Plan Section 2.03(c), a Participant may make an irrevocable
    Deferral Election to defer Plan Compensation earned during a Plan Year only if such
    election is made no later than December 31 of the prior Plan Year, or by such earlier
    date as may be announced by the Committee.
""",
)
PLAN_2_03_B_PBC = quote(
    plan("2.03(b)"),
    """
    Notwithstanding the foregoing, if any portion of the Plan Compensation subject to a
    Deferral Election pertains to Performance-Based Compensation, such Deferral Election
    must be made and will become irrevocable no later than the date that is six months
    before the end of the performance period as permitted by the Committee.
""",
)
PLAN_FORM = quote(
    plan("2.03(b)"),
    """
    Each Deferral Election shall be made on a form provided by the Committee and shall
    specify such additional information as the Committee may require.
""",
)
PLAN_2_03_C = quote(
    plan("2.03(c)"),
    """
    In the first Plan Year in which an Eligible Employee becomes eligible to participate in
    the Plan, the Eligible Employee may make an initial Deferral Election within 30 days
    after he becomes eligible to participate in the Plan. Such Deferral Election shall only
    be valid with respect to Compensation paid for services rendered after the date of the
    initial deferral election.
""",
)
PLAN_3_05_A = quote(
    plan("3.05(a)"),
    """
    Investment options will be determined by the Plan Asset Committee. The Plan Asset
    Committee, in its sole and absolute discretion, may add or remove investment options from
    the Plan menu from time to time.
""",
)
PLAN_3_05_B = quote(
    plan("3.05(b)"),
    """
    shall select investment options at the time he files an application to become a
    Participant (any such selections shall be in increments of one percent (1%)).
""",
)
PLAN_BENEFICIARY_DESIGNATION = quote(
    plan("Beneficiary designation"),
    """
    At the time of enrollment in the Plan, each Participant must designate a Beneficiary to
    receive settlement of his Plan account in the event of his death during employment.
""",
)
PLAN_4_01_A = quote(
    plan("4.01(a)"),
    """
    Such payment shall be made within sixty (60) days following the earliest of (i) the
    Participant’s Termination of Employment, (ii) death or (iii) the date such Participant
    is determined to be Totally and Permanently Disabled.
""",
)
PLAN_4_01_B = quote(
    plan("4.01(b)"),
    """
    for a Participant who is entitled to a distribution upon Termination of Employment other
    than due to death or Total and Permanent Disability, and who is a Key Employee on the
    date of his Termination of Employment, the Plan shall pay the Participant the total
    vested value of the Participant’s Account on the first day of the month following the
    six-month anniversary of such Participant’s Termination of Employment.
""",
)
PLAN_ADMINISTRATION = quote(
    plan("Article V"),
    """
    the Committee will have full power and discretion to administer the Plan, including as to
    all of its details
""",
)
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
