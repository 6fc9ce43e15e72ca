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
    EXCHANGE_ACT,
    REGULATION_S_T,
    SEC_RULE,
    US_CODE_TITLE_5,
)

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
