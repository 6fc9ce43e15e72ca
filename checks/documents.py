"""Rendered-document rules (DOC-*): registered here for the catalogue; checked in docgen/verify.py.

Their predicates read rendered text, not facts, so ``check`` is None here and ``run_checks``
never runs them. ``docgen/verify.py`` builds their findings with
``get_rule("DOC-...").finding(subject, path, message)``.
"""

from __future__ import annotations

from checks import sources as src
from checks.sources import exhibit, notice
from docgen.checker import Rule, SourceText, register_rule
from docgen.findings import Citation

DESIGN_DOCUMENTS = Citation("DESIGN.md", "Rendered documents")
DESIGN_GAPS = Citation("DESIGN.md", "Gaps in the source forms")

register_rule(
    Rule(
        id="DOC-UNFILLED-BLANK",
        title="A blank left in the output",
        severity="error",
        citations=(notice(""), exhibit(), DESIGN_DOCUMENTS),
        explanation="Every blank of the source form ([____], 20__, [NAME, ###-###-####) must be "
        "filled from the facts before a document is issued.",
        applies_to="document",
        sources=(src.NOTICE_F3, src.EXHIBIT_INTRO),
        remedy="Supply the missing fact, or fix the template that left the blank.",
    )
)

register_rule(
    Rule(
        id="DOC-FACT-ABSENT",
        title="A key fact missing from the output text",
        severity="error",
        citations=(notice("A"), exhibit(), DESIGN_DOCUMENTS),
        explanation="Each issued document must carry its key facts (name, grant date, units, fair "
        "market value, deadline), read back from the rendered PDF or DOCX.",
        applies_to="document",
        sources=(src.NOTICE_A, src.EXHIBIT_FILED),
        remedy="Re-render; if the fact is still missing, fix the template.",
    )
)

register_rule(
    Rule(
        id="DOC-FORMAT-MISMATCH",
        title="PDF and DOCX text differ",
        severity="error",
        citations=(DESIGN_DOCUMENTS, Citation("DESIGN.md", "One template, two formats")),
        explanation="The PDF and the DOCX come from one rendered template and must carry the same "
        "text (after whitespace normalisation), so counsel redlines what is issued.",
        applies_to="document",
        sources=(
            SourceText(
                Citation("DESIGN.md", "One template, two formats"),
                "The two carry the same text; a test proves it.",
                quoted=True,
            ),
        ),
        remedy="Re-render both formats from the same facts; report the difference as a bug.",
    )
)

register_rule(
    Rule(
        id="DOC-DRAFTED-CLAUSE",
        title="Drafted clauses not yet approved by counsel",
        severity="warning",
        citations=(
            notice("B"),
            notice("C.1"),
            notice("F.1"),
            exhibit("Sections III-IV"),
            DESIGN_GAPS,
        ),
        explanation="The seed form lacks Section B, C.1, the F.1 list and Exhibit I's fill-in "
        "parts; "
        "docgen drafts them from the form's own words. Until counsel approves them "
        "(drafted_clauses_approved_by), each document carrying them is flagged.",
        applies_to="document",
        sources=(src.NOTICE_F1, src.EXHIBIT_DEFAULT_PAYMENT),
        remedy="Have counsel review the drafted clauses and record drafted_clauses_approved_by.",
    )
)
