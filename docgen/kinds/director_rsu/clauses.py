"""The clauses docgen drafts for the director documents, where the seed Notice and Exhibit I are
silent (DESIGN.md, "Gaps in the source forms"). Each one's words are its fragment,
templates/clauses/<id>.html.j2; which copies carry it is decided here from the facts, so
`docgen check` knows the cycle's clauses without rendering (a test renders every sample and
compares the marks it finds with these predicates)."""

from __future__ import annotations

from docgen.core.citations import CODE, TREAS_REG, Citation
from docgen.core.clauses import Clause
from docgen.kinds.director_rsu.authorities import EXHIBIT_I, NOTICE_OF_GRANT
from docgen.kinds.director_rsu.facts import Director, DirectorGrantFacts


def _notice(pinpoint: str) -> Citation:
    return NOTICE_OF_GRANT.cite(pinpoint)


def _exhibit(pinpoint: str = "") -> Citation:
    return EXHIBIT_I.cite(pinpoint)


def _code(pinpoint: str) -> Citation:
    return CODE.cite(pinpoint)


def _reg(pinpoint: str) -> Citation:
    return TREAS_REG.cite(pinpoint)


def _annual_meeting(facts: DirectorGrantFacts, director: Director, stage: str) -> bool:
    return facts.grant.vesting.annual_meeting_date is not None


def _deadline_before_grant(facts: DirectorGrantFacts, director: Director, stage: str) -> bool:
    return facts.grant.election_deadline != facts.grant.grant_date


def _grant_copy(facts: DirectorGrantFacts, director: Director, stage: str) -> bool:
    return stage == "grant"


NOTICE = ("notice",)
EXHIBIT = ("exhibit-i",)


def _heading(number: str, words: str) -> Clause:
    return Clause(
        id=f"exhibit-i.heading-{number.lower()}",
        title=f"Exhibit I, heading of Section {number}",
        documents=EXHIBIT,
        section=f"Exhibit I, Section {number} (heading)",
        rationale=f"The seed form refers to its Sections II, III and IV (“Sections III and IV (on "
        f"Page 2)”, “Section II above”) but prints no headings; Section {number} is headed "
        f"“{words}” after what it does, so the form's own references can be followed.",
        citations=(_exhibit(f"Section {number}"),),
    )


CLAUSES: tuple[Clause, ...] = (
    Clause(
        id="notice.grant-summary",
        title="Grant summary table",
        documents=NOTICE,
        section="Notice, after the opening paragraph",
        rationale="The seed grants units “as set forth herein” but sets out no number of units, "
        "Grant Date Fair Market Value or Specified Date. The table states them from the facts, "
        "in the Notice's own defined terms, before the terms that use them.",
        citations=(_notice(""), _notice("A")),
    ),
    Clause(
        id="notice.a-annual-meeting-vesting",
        title="Vesting at an earlier annual meeting",
        documents=NOTICE,
        section="Notice, Section A",
        rationale="The seed vests on “the [____] anniversary of the Grant Date (the “Specified "
        "Date”) or such earlier date as may be provided in this Notice of Grant or the Plan "
        "(collectively, the “Vesting Date”)”. Where the grant also vests at an earlier annual "
        "meeting of shareholders (grant.vesting.annual_meeting_date), Section A names that "
        "earlier date as one the units vest on, after the Specified Date's definition and without "
        "redefining it: the Specified Date stays the anniversary (DESIGN.md, “The Specified "
        "Date”).",
        citations=(_notice("A"), _reg("1.409A-2(a)(5)")),
        used=_annual_meeting,
    ),
    Clause(
        id="notice.b-accelerated-vesting",
        title="Section B, Accelerated Vesting",
        documents=NOTICE,
        section="Notice, Section B",
        rationale="The seed's Section B is a heading with no body, though Section A refers to "
        "termination “for any reason other than those described in Section B”. The body vests "
        "the units on the events the facts name (grant.vesting.accelerate_on): death; a "
        "Disability that is also a Code 409A(a)(2)(C) disability; and a Change of Control that "
        "is also a change in control event under Code 409A(a)(2)(A)(v), so that an accelerated "
        "vesting date is never a payment event the Code does not allow.",
        citations=(_notice("A"), _notice("B"), _code("409A(a)(2)(C)"), _code("409A(a)(2)(A)(v)")),
    ),
    Clause(
        id="notice.c1-payment-date",
        title="Section C.1, Payment Date (no election)",
        documents=NOTICE,
        section="Notice, Section C.1",
        rationale="The seed's Section C refers to “the Payment Date” and Sections E, F and G to "
        "“Section C.1”, but C.1 is missing. Its list is Exhibit I's own: payment follows the "
        "earliest of death, termination for Disability, a change in control event that is also "
        "a Change of Control, or the default_payment_anniversary of the Grant Date.",
        citations=(_notice("C.1"), _exhibit("Section II"), _reg("1.409A-3(a)")),
    ),
    Clause(
        id="notice.f1-payment-date",
        title="Section F.1, Payment Date (with an election)",
        documents=NOTICE,
        section="Notice, Section F.1",
        rationale="The seed's F.1 ends “will be the earliest of:” with no list. The list is "
        "Exhibit I's Section II for an effective election: the date elected in Section III, "
        "death, termination for Disability, and a change in control event that is also a "
        "Change of Control.",
        citations=(_notice("F.1"), _exhibit("Section II"), _exhibit("Section III")),
    ),
    Clause(
        id="exhibit-i.director-line",
        title="The director the form is for",
        documents=EXHIBIT,
        section="Exhibit I, above Section I",
        rationale="The seed form names no one; the line names the director the copy is for, so "
        "a returned Page 2 is matched to the right person.",
        citations=(_exhibit(),),
    ),
    _heading("I", "Deferral Election"),
    Clause(
        id="exhibit-i.deadline-before-grant",
        title="A filing deadline before the Date of Grant",
        documents=EXHIBIT,
        section="Exhibit I, Section I",
        rationale="The seed's deadline reads “prior to [______, 20__] (the Date of Grant)”. "
        "Where the facts set the deadline earlier than the grant date, “(the Date of Grant)” "
        "would be false; the form says “(before the Date of Grant)” instead.",
        citations=(_exhibit("Section I"),),
        used=_deadline_before_grant,
    ),
    _heading("II", "Payment of the grant year's Units"),
    Clause(
        id="exhibit-i.ii-payment-list",
        title="Section II, payment on an effective election",
        documents=EXHIBIT,
        section="Exhibit I, Section II",
        rationale="The seed's Section II ends “within 60 days following the earlier of:” and "
        "then refers to “(1) or (2), above”. (1) is the date elected in Section III; (2) "
        "repeats the seed's own events for payment without an election, less the anniversary.",
        citations=(_exhibit("Section II"), _reg("1.409A-3(a)")),
    ),
    Clause(
        id="exhibit-i.page-two-line",
        title="Page 2 names the director and the grant",
        documents=EXHIBIT,
        section="Exhibit I, top of Page 2",
        rationale="The seed has the director file Page 2 alone (“Page 2 of this Election Form "
        "must be filed with the Company”), which names no one. The line opening Page 2 names "
        "the director, the grant year's Units, the Company and the Date of Grant, so a returned "
        "Page 2 is not anonymous; DOC-RETURN-PAGE checks that it opens the page.",
        citations=(_exhibit("Section I"),),
    ),
    _heading("III", "Election"),
    Clause(
        id="exhibit-i.iii-choices",
        title="Section III, the three payment choices",
        documents=EXHIBIT,
        section="Exhibit I, Section III",
        rationale="The seed's Section III ends “... Units until:” with no choices. The three "
        "offered are the payment dates Code 409A permits a director to elect: Separation from "
        "Service, a specified date on or after the Specified Date (Notice A and F.1; on that day "
        "the units have vested, and Notice C.1(iv) pays the default then), or the earlier "
        "of the two. In the blank form they are fillable fields (DESIGN A10).",
        citations=(_exhibit("Section III"), _notice("F.1"), _code("409A(a)(2)(A)")),
    ),
    Clause(
        id="exhibit-i.iii-on-file",
        title="Section III, the election on file",
        documents=EXHIBIT,
        section="Exhibit I, Section III (grant copy)",
        rationale="The copy issued with the grant shows the election the Company holds: the "
        "choice and its filing date, or that no form was filed before the deadline and Section "
        "II's payment without an election applies.",
        citations=(_exhibit("Section III"), _notice("F.3")),
        used=_grant_copy,
    ),
    _heading("IV", "Signature"),
    Clause(
        id="exhibit-i.iv-signature",
        title="Section IV, signature and receipt",
        documents=EXHIBIT,
        section="Exhibit I, Section IV",
        rationale="The seed asks that “Sections III and IV (on Page 2)” be completed and filed "
        "but has no Section IV. It is the director's signature, printed name and date signed, "
        "and the Company's receipt date, which proves filing “prior to” the deadline.",
        citations=(_exhibit("Section IV"), _exhibit("Section I")),
    ),
)
