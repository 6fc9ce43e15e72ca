"""The words the rules rest on: seed text quoted word for word, and Code/Treas. Reg. described.

The Plan, Notice and Exhibit I passages are quoted from docs/source-forms exactly (a test checks
each appears in its seed). Code and Treas. Reg. provisions are *described*, not quoted
(``quoted=False``): counsel should read the provision itself.
"""

from __future__ import annotations

from docgen.core.citations import Citation
from docgen.core.rules import SourceText


def plan(pinpoint: str) -> Citation:
    return Citation("Plan", pinpoint)


def code(pinpoint: str) -> Citation:
    return Citation("Code", pinpoint)


def reg(pinpoint: str) -> Citation:
    return Citation("Treas. Reg.", pinpoint)


def notice(pinpoint: str) -> Citation:
    return Citation("Notice", pinpoint)


def exhibit(pinpoint: str = "") -> Citation:
    return Citation("Exhibit I", pinpoint)


def _words(text: str) -> str:
    return " ".join(text.split())


def quote(citation: Citation, text: str) -> SourceText:
    """Seed text, word for word (line breaks in this file are not in the source)."""
    return SourceText(citation, _words(text))


def describe(citation: Citation, text: str) -> SourceText:
    """A Code or Treas. Reg. provision described, not quoted."""
    return SourceText(citation, _words(text), quoted=False)


# ------------------------------------------------------------------ the Notice and Exhibit I

NOTICE_A = quote(
    notice("A"),
    """
    all the Restricted Stock Units will vest and become nonforfeitable on the [____]
    anniversary of the Grant Date (the “Specified Date”) or such earlier date as may be
    provided in this Notice of Grant or the Plan (collectively, the “Vesting Date”)
""",
)
NOTICE_C = quote(
    notice("C"),
    """
    The Company shall deliver all shares of Company Stock issuable pursuant to such vested
    Restricted Stock Units in the form of a single distribution within 60 days of the
    Payment Date.
""",
)
NOTICE_F1 = quote(
    notice("F.1"),
    """
    If you are a non-employee Director, you may have elected to defer the Payment Date set
    forth in Section C.1 by completing the form attached hereto as Exhibit I.
""",
)
NOTICE_F2 = quote(
    notice("F.2"),
    """
    if your Payment Date would otherwise be the date you elected in Section III of the
    attached Exhibit I, but you are a “specified employee” (as defined in Code Section
    409A(a)(2)(B)(i)) as of your Separation from Service (as defined in Code section 409A
    and the applicable regulations issued thereunder), then your Payment Date shall be
    delayed until the earlier of (1) the date that is six months following your Separation
    from Service, or (2) the date of your death.
""",
)
NOTICE_F3 = quote(
    notice("F.3"),
    """
    Any deferral election with respect to the Restricted Stock Units covered by this Notice
    of Grant must have been made using the form attached as Exhibit I and will not be
    effective unless it was filed with the Company prior to [______, 20__]. Your deferral
    election is irrevocable and subsequent deferral elections are not permitted
""",
)
EXHIBIT_INTRO = quote(
    exhibit(),
    """
    As a non-employee Director of the CarMax, Inc. Board of Directors, you may use this form
    (“Election Form”) to elect to defer receipt of all Company Stock issuable pursuant to
    any Restricted Stock Units that may be granted to you with a [______, 20__] Date of
    Grant (the “20__ Units”).
""",
)
EXHIBIT_FILED = quote(
    exhibit(),
    """
    Page 2 of this Election Form must be filed with the Company prior to [______, 20__] (the
    Date of Grant).
""",
)
EXHIBIT_NO_CARRY_OVER = quote(
    exhibit(),
    """
    If you made a deferral election with respect to Restricted Stock Units granted prior to
    [______, 20__], such deferral election will not carry over to the 20__ Units.
""",
)
EXHIBIT_IRREVOCABLE = quote(
    exhibit(),
    """
    Your deferral election using this Election Form will be irrevocable with respect to the
    20__ Units as of the Date of Grant and subsequent deferral elections (as defined in Code
    section 409A(a)(4)(C)) will not be permitted.
""",
)
EXHIBIT_DEFAULT_PAYMENT = quote(
    exhibit(),
    """
    If you do not make an effective deferral election using this Election Form, payment for
    any vested 20__ Units will be made in shares of Company Stock in the form of a single
    distribution within 60 days following the earliest of: (i) your death, (ii) the date
    your service as a Director terminates as a result of your Disability, (iii) the
    occurrence of an event that is both a “change in control event” (as defined in Code
    section 409A(a)(2)(A)(v) and the applicable regulations issued thereunder) and a Change
    of Control, or (iv) the [____] anniversary of the Date of Grant.
""",
)
EXHIBIT_III = quote(
    exhibit("Section III"),
    """
    I elect to defer the receipt of all (100%) of the Company Stock issuable in settlement
    of any 20__ Units until:
""",
)

EXHIBIT_PAGE_2 = quote(
    exhibit(),
    """
    In order for your deferral election to be effective with respect to the 20__ Units,
    Sections III and IV (on Page 2) of this Election Form must be completed and Page 2 of this
    Election Form must be filed with the Company
""",
)

# -------------------------------------------------------------- the Retirement Restoration Plan

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

# ------------------------------------------------- Code and Treasury Regulations (described)

CODE_409A_A_2_B_I = describe(
    code("409A(a)(2)(B)(i)"),
    """
    A distribution to a specified employee of a public company on separation from service
    may not be made before the date six months after separation (or, if earlier, death).
""",
)
CODE_409A_A_3 = describe(
    code("409A(a)(3)"),
    """
    The time and form of distribution may not be accelerated except as regulations allow; a
    payment made before its payment event is an impermissible acceleration.
""",
)
CODE_409A_A_4_B = describe(
    code("409A(a)(4)(B)"),
    """
    Initial deferral elections: in general made before the close of the taxable year before
    the services are performed; within 30 days of first eligibility for a newly eligible
    participant (services after the election only); and for performance-based compensation
    over at least 12 months, no later than 6 months before the end of the period.
""",
)
CODE_409A_A_4_C = describe(
    code("409A(a)(4)(C)"),
    """
    A subsequent election to delay a payment or change its form must be made at least 12
    months ahead, may not take effect for 12 months, and must generally defer for five more
    years.
""",
)
REG_2_A_1 = describe(
    reg("1.409A-2(a)(1)"),
    """
    Initial deferral elections in general: an election may be changed until the last date on
    which it may be made; the election in effect when it becomes irrevocable is the one that
    governs.
""",
)
REG_2_A_3 = describe(
    reg("1.409A-2(a)(3)"),
    """
    General rule: an initial deferral election must be made and irrevocable by the close of
    the service provider's taxable year before the year in which the services are performed.
""",
)
REG_2_A_5 = describe(
    reg("1.409A-2(a)(5)"),
    """
    Forfeitable rights: where the service provider must keep providing services for at least
    12 months to avoid forfeiture, the election may be made within 30 days after obtaining
    the legally binding right, if made at least 12 months before the earliest date the
    forfeiture condition could lapse (lapse on death, disability or a change in control
    event is ignored).
""",
)
REG_2_A_7 = describe(
    reg("1.409A-2(a)(7)"),
    """
    Newly eligible participants: an election within 30 days after becoming eligible, for
    compensation for services after the election; for compensation earned over a period, the
    amount is pro-rated by the days left in the period after the election. A participant
    re-eligible after not being eligible for 24 months may be treated as newly eligible
    ((a)(7)(ii)).
""",
)
REG_2_A_8 = describe(
    reg("1.409A-2(a)(8)"),
    """
    Performance-based compensation: an election may be made no later than 6 months before
    the end of the performance period, provided the service provider performs services
    continuously from the later of the start of the period or the date the criteria are
    established through the election, and the amount is not then readily ascertainable.
""",
)
REG_1_E = describe(
    reg("1.409A-1(e)"),
    """
    Performance-based compensation: contingent on pre-established organizational or
    individual performance criteria over a performance period of at least 12 consecutive
    months; criteria set in writing no later than 90 days after the period begins, outcome
    substantially uncertain.
""",
)
REG_3_B = describe(
    reg("1.409A-3(b)"),
    """
    A payment is made on the designated date if made within a designated period after the
    payment event (such as 60 days) that does not let the service provider choose the year.
""",
)
PLAN_ADMINISTRATION = quote(
    plan("Article V"),
    """
    the Committee will have full power and discretion to administer the Plan, including as to
    all of its details
""",
)
