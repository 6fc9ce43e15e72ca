"""After the grant: each director's Form 4 for the grant is due before the end of the second
business day after the grant date (DESIGN.md A22), counted on the SEC's business days
(docgen.core.business_days)."""

from __future__ import annotations

from collections.abc import Iterator

from checks.sources import describe
from docgen.core.business_days import UncoveredYear, days_skipped, form4_due
from docgen.core.dates import long_date
from docgen.core.model import fact_path
from docgen.core.rules import CheckContext, Hit, rule
from docgen.kinds.director_rsu import kind as _kind  # noqa: F401  (the kind claiming these rules)
from docgen.kinds.director_rsu.authorities import (
    EDGAR_XML,
    EXCHANGE_ACT,
    REGULATION_S_T,
    SEC_RULE,
    US_CODE_TITLE_5,
)
from docgen.kinds.director_rsu.edgar_codes import state_problem
from docgen.kinds.director_rsu.form4 import reported_address
from docgen.kinds.director_rsu.settlement import grant_not_made

EXCHANGE_ACT_16_A_2_C = describe(
    EXCHANGE_ACT.cite("16(a)(2)(C)"),
    """
    A director must file a statement of a change in beneficial ownership before the end of the
    second business day following the day on which the subject transaction has been executed.
""",
)
RULE_16A_3_G_1 = describe(
    SEC_RULE.cite("16a-3(g)(1)"),
    """
    A Form 4 must be filed to report transactions exempt from section 16(b) under Rule 16b-3(d),
    among them a grant of equity to a director approved by the board, before the end of the
    second business day following the day on which the transaction was executed.
""",
)
REG_S_T_11 = describe(
    REGULATION_S_T.cite("Rule 11"),
    """
    A business day is any day other than a Saturday, Sunday or Federal holiday.
""",
)
USC_5_6103 = describe(
    US_CODE_TITLE_5.cite("6103"),
    """
    The legal public holidays; one that falls on a Saturday is observed the Friday before, and one
    that falls on a Sunday the Monday after (6103(b); Executive Order 11582).
""",
)


@rule(
    "RSU-FORM4-DUE",
    title="Form 4 for the grant filed after its due date",
    severity="error",
    cites=[
        EXCHANGE_ACT.cite("16(a)(2)(C)"),
        SEC_RULE.cite("16a-3(g)(1)"),
        REGULATION_S_T.cite("Rule 11"),
        US_CODE_TITLE_5.cite("6103"),
    ],
    explanation="Each director's grant is a change in beneficial ownership reported on Form 4 "
    "before the end of the second business day after the grant date. Business days exclude "
    "Saturdays, Sundays and Federal holidays on their observed days "
    "(checks/parameters/holidays). A form4_filed_on after the due date is a late filing, which "
    "the proxy statement must disclose (Regulation S-K Item 405); a filing on the due date is "
    "timely. Without form4_filed_on nothing is judged: `docgen calendar` shows the due date.",
    sources=[EXCHANGE_ACT_16_A_2_C, RULE_16A_3_G_1, REG_S_T_11, USC_5_6103],
    remedy="File the Form 4 now if it is not filed, and tell counsel: the late filing is "
    "disclosed under Item 405. If form4_filed_on is mistyped, correct it.",
)
def form4_due_rule(context: CheckContext) -> Iterator[Hit]:
    grant_date = context.facts.grant.grant_date
    recorded = [
        (index, director)
        for index, director in enumerate(context.facts.directors)
        if director.form4_filed_on is not None
    ]
    if not recorded:
        return
    try:
        due = form4_due(grant_date)
    except UncoveredYear as error:
        for index, director in recorded:
            yield Hit(
                director.id,
                fact_path("directors", index, "form4_filed_on"),
                f"the Form 4 due date cannot be counted: {error.problems[0].what}; "
                "whether the filing was timely is not judged.",
                remedy=error.problems[0].fix or "",
                severity="warning",
            )
        return
    skipped = days_skipped(grant_date, due)
    past = f" (past {', '.join(skipped)})" if skipped else ""
    for index, director in recorded:
        filed = director.form4_filed_on
        path = fact_path("directors", index, "form4_filed_on")
        if filed > due:
            yield Hit(
                director.id,
                path,
                f"Form 4 filed {filed}, after its due date {long_date(due)}: the end of the "
                f"second business day after the grant date {grant_date}{past}.",
            )
        elif filed < grant_date:
            yield Hit(
                director.id,
                path,
                f"Form 4 recorded as filed {filed}, before the grant date {grant_date}: it "
                "cannot report a grant not yet made. Check form4_filed_on.",
                severity="warning",
            )


EDGAR_STATE = describe(
    EDGAR_XML.cite("X0508, rptOwnerState"),
    """
    The reporting owner's state or country is one of EDGAR's state and country codes: a United
    States address gives the state's two-letter code, a foreign address EDGAR's code for the
    country; EDGAR rejects a submission with any other.
""",
)
EDGAR_CIK = describe(
    EDGAR_XML.cite("X0508, issuerCik and rptOwnerCik"),
    """
    The issuer and each reporting owner are identified by the Central Index Key EDGAR assigned
    to each; the reporting owner's is its own, not the issuer's, and no CIK is zero.
""",
)


@rule(
    "RSU-FORM4-STATE-CODE",
    title="Form 4 address with a state or country EDGAR does not take",
    severity="error",
    cites=[EDGAR_XML.cite("X0508, rptOwnerState")],
    explanation="The address a Form 4 reports gives EDGAR's code for the state (USPS: VA, NY, "
    "DC ...) or, abroad, for the country (two characters, one a digit at least: X0 for the "
    "United Kingdom, A6 for Ontario). A code that is neither (ZZ; GB, an ISO code EDGAR does not "
    "use) makes EDGAR reject the filing. Judged once the director's address is one a Form 4 "
    "can report (`docgen section16` names an address it cannot read).",
    sources=[EDGAR_STATE],
    remedy="Correct the state in the address, or give a foreign address as edgar_address with "
    "EDGAR's country code (EDGAR's list of state and country codes).",
)
def form4_state_code(context: CheckContext) -> Iterator[Hit]:
    facts = context.facts
    for index, director in enumerate(facts.directors):
        if grant_not_made(facts, director) is not None:
            continue
        address = reported_address(facts, director)
        problem = None if address is None else state_problem(address.state)
        if problem is not None:
            if facts.company.form4_address == "company":
                path = "company.address"
            elif director.edgar_address is not None:
                path = fact_path("directors", index, "edgar_address", "state")
            else:
                path = fact_path("directors", index, "address")
            yield Hit(director.id, path, f"the Form 4 address's state: {problem}.")
            if facts.company.form4_address == "company":
                return  # one address for every director: said once


@rule(
    "RSU-FORM4-CIK",
    title="Form 4 CIK EDGAR would reject",
    severity="error",
    cites=[EDGAR_XML.cite("X0508, issuerCik and rptOwnerCik")],
    explanation="A Form 4 names the issuer and the reporting person by their EDGAR CIKs. A CIK "
    "of zero is no one's; a director whose CIK is the issuer's would file as the company.",
    sources=[EDGAR_CIK],
    remedy="Look the CIK up on EDGAR (the director's own, from the Form ID EDGAR approved) and "
    "correct it.",
    across_subjects=True,
)
def form4_cik(context: CheckContext) -> Iterator[Hit]:
    facts = context.facts
    issuer = facts.company.cik
    if issuer is not None and int(issuer) == 0:
        yield Hit(facts.grant.id, "company.cik", f"the issuer's CIK {issuer!r} is zero.")
    for index, director in enumerate(facts.directors):
        cik = director.cik
        if cik is None:
            continue
        path = fact_path("directors", index, "cik")
        if int(cik) == 0:
            yield Hit(director.id, path, f"{director.name}'s CIK {cik!r} is zero.")
        elif issuer is not None and int(cik) == int(issuer):
            yield Hit(
                director.id,
                path,
                f"{director.name}'s CIK {cik} is the issuer's (company.cik {issuer}): the Form 4 "
                "would report the company as its own reporting person.",
            )
