"""The words of the law every kind's rules rest on, and how a rule's sources are written.

Code and Treas. Reg. provisions are *described*, not quoted (``quoted=False``): counsel should read
the provision itself. Each kind's own documents are quoted word for word from docs/source-forms
(checks/rsu_sources.py: the Notice and Exhibit I; checks/rrp_sources.py: the Plan), and a test
checks each quotation against the source form its authority names.
"""

from __future__ import annotations

from docgen.core.citations import CODE, DESIGN, TREAS_REG, Citation
from docgen.core.rules import SourceText


def code(pinpoint: str) -> Citation:
    return CODE.cite(pinpoint)


def reg(pinpoint: str) -> Citation:
    return TREAS_REG.cite(pinpoint)


def _words(text: str) -> str:
    return " ".join(text.split())


def quote(citation: Citation, text: str) -> SourceText:
    """Seed text, word for word (line breaks in this file are not in the source)."""
    return SourceText(citation, _words(text))


def describe(citation: Citation, text: str) -> SourceText:
    """A Code or Treas. Reg. provision described, not quoted."""
    return SourceText(citation, _words(text), quoted=False)


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
REG_3_D = describe(
    reg("1.409A-3(d)"),
    """
    A payment is treated as made upon the designated date if it is made no earlier than 30 days
    before that date (and the service provider may not designate the taxable year of payment).
""",
)
CODE_416_I = describe(
    code("416(i)"),
    """
    A key employee is an employee who is an officer above the dated compensation threshold, a
    5-percent owner, or a 1-percent owner with compensation above $150,000. A specified
    employee under Code 409A(a)(2)(B)(i) is a key employee of a public company: an employee.
""",
)
REG_3_I_5 = describe(
    reg("1.409A-3(i)(5)"),
    """
    A change in control event is a change in the ownership or effective control of the
    corporation, or in the ownership of a substantial portion of its assets, as the regulation
    defines each; a plan's own Change of Control need not be one.
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


# docgen's own intake-safety rule (issue 44), not the law's: the design's words, described.
NAMES_MATCHED_TO_PEOPLE = describe(
    DESIGN.cite("Names matched to people"),
    """
    intake matches the name a returned form prints to the person it was issued to, by its
    letters. Two people whose names are the same after Unicode NFKC, without invisible format
    characters and with each look-alike letter of another script read as the Latin letter it
    imitates (the skeleton of Unicode Technical Standard #39, section 4) cannot be told apart
    by their names: confirm they are two people and spell each as it is.
""",
)
