"""The clauses of the RRP Deferral Election Form. The Plan has no seed form (it says only that
"Each Deferral Election shall be made on a form provided by the Committee", Plan 2.03(b)), so
every part of the form is drafted from the Plan's own words; each part's words are its fragment,
templates/clauses/<id>.html.j2, and every copy of the form carries all of them."""

from __future__ import annotations

from docgen.core.citations import CODE, TREAS_REG, Citation
from docgen.core.clauses import Clause
from docgen.kinds.rrp.authorities import PLAN


def _plan(pinpoint: str) -> Citation:
    return PLAN.cite(pinpoint)


FORM = ("rrp-election",)

CLAUSES: tuple[Clause, ...] = (
    Clause(
        id="rrp-election.participant-lines",
        title="The participant and their deadline",
        documents=FORM,
        section="RRP Deferral Election Form, above Section I",
        rationale="Names the participant the copy is for and puts their own deadline first: "
        "December 31 before the Plan Year, or 30 days after first becoming eligible.",
        citations=(_plan("2.03(b)"), _plan("2.03(c)")),
    ),
    Clause(
        id="rrp-election.i-when-to-file",
        title="Section I, When to File",
        documents=FORM,
        section="RRP Deferral Election Form, Section I",
        rationale="Restates the Plan's timing rules as they apply to the participant: the prior "
        "Plan Year's December 31 (or an earlier date the Committee announces); the first-year "
        "30 days, for services after the election only; six months before the end of a "
        "performance period for Performance-Based Compensation; that an election is "
        "irrevocable and rolls over to later Plan Years until revoked or replaced, a change "
        "taking effect only for a later Plan Year; and the election on file.",
        citations=(
            _plan("2.03(b)"),
            _plan("2.03(c)"),
            CODE.cite("409A(a)(4)(B)"),
            TREAS_REG.cite("1.409A-2(a)(7)"),
        ),
    ),
    Clause(
        id="rrp-election.ii-amount",
        title="Section II, Amount of Your Deferral",
        documents=FORM,
        section="RRP Deferral Election Form, Section II",
        rationale="Offers what Plan 2.03(a) allows, in whole percents up to the Plan's maximum "
        "of Plan Compensation, the pay above the year's Code 401(a)(17) limit (Plan 1.21, the "
        "top slice of the year's pay, DESIGN A6), with a separate figure for base salary, the "
        "bonus (over its own service period) and each performance period.",
        citations=(_plan("2.03(a)"), _plan("1.21"), CODE.cite("401(a)(17)")),
    ),
    Clause(
        id="rrp-election.iii-match",
        title="Section III, Matching Restoration Contributions and Vesting",
        documents=FORM,
        section="RRP Deferral Election Form, Section III",
        rationale="States the match of Plan 3.04 in its words (a rate of the deferral, capped at "
        'a percent of "Plan Compensation for such pay period": all of it, not only the part '
        "deferred from) with a worked example, and the "
        "vesting of Plan 3.06: the elective account always, the restoration accounts for a "
        "Participant credited with an Hour of Service from January 1, 2017.",
        citations=(_plan("3.04"), _plan("3.06")),
    ),
    Clause(
        id="rrp-election.iv-payment",
        title="Section IV, Payment of Your Account",
        documents=FORM,
        section="RRP Deferral Election Form, Section IV",
        rationale="Tells the participant when and how the Account is paid, since the Plan "
        "allows no later election of either: a lump sum in cash within 60 days of the earliest "
        "of Termination of Employment, death or Total and Permanent Disability, and a Key "
        "Employee's six-month delay.",
        citations=(_plan("4.01(a)"), _plan("4.01(b)"), _plan("4.02")),
    ),
    Clause(
        id="rrp-election.v-investment",
        title="Section V, Investment Allocation",
        documents=FORM,
        section="RRP Deferral Election Form, Section V",
        rationale="The deemed investment election of Plan 3.05: options the Plan Asset "
        "Committee determines, whole percents totalling 100%, the default when none is made, "
        "daily changes, and that the investments are deemed only; the table shows the "
        "allocation on file and any fund no longer offered.",
        citations=(_plan("3.05(a)"), _plan("3.05(b)"), _plan("3.05(d)")),
    ),
    Clause(
        id="rrp-election.vi-beneficiary",
        title="Section VI, Beneficiary Designation",
        documents=FORM,
        section="RRP Deferral Election Form, Section VI",
        rationale="The Plan requires a Beneficiary designation at enrollment and says who is "
        "paid when no designated Beneficiary survives (Plan 1.02); the section shows the "
        "designation on file and takes primary and contingent Beneficiaries in whole-percent "
        "shares, a new designation revoking earlier ones.",
        citations=(_plan("Beneficiary designation"), _plan("1.02")),
    ),
    Clause(
        id="rrp-election.vii-signature",
        title="Section VII, Signature",
        documents=FORM,
        section="RRP Deferral Election Form, Section VII",
        rationale="The participant's signature under the Plan's name, acknowledging that the "
        "election becomes irrevocable at the deadline, that the Plan is unfunded and the "
        "participant an unsecured creditor (Plan Article VIII), and that the investments only "
        "measure the Account (Plan 3.05(d)); and the Committee's receipt date, which proves the "
        "election was made in time.",
        citations=(_plan("2.03(b)"), _plan("Article VIII"), _plan("3.05(d)")),
    ),
)
