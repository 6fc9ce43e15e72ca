"""Rendered-document rules (DOC-*): each registration with its predicate over a document's text.

Their predicates read rendered text, not facts, so a rule's ``check`` is None and ``run_checks``
never runs them; docgen.issue reads each document back (docgen.render.readback) and applies the
predicates here, reporting with ``get_rule("DOC-...").finding(subject, path, message)``.
"""

from __future__ import annotations

import re

from checks import sources as src
from checks.sources import exhibit, notice
from docgen.core.citations import Citation
from docgen.core.rules import DOCUMENT, Rule, SourceText, register_rule
from docgen.core.text import normalise

# DOC-UNFILLED-BLANK: the blanks the seed forms carry ("[_________, 20__]", "[NAME/ADDRESS]",
# "Dear [NAME]", "the [____] anniversary", "###-###-####"), plus a template tag that was never
# rendered. A bare run of underscores is NOT a blank: it is a signature line on Exhibit I.
UNFILLED_BLANKS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("[____", re.compile(r"\[\s*_{2,}")),
    ("20__", re.compile(r"(?<!\d)(?:19|20)__")),
    ("[NAME", re.compile(r"\[(?:NAME|ADDRESS|DATE|TITLE|COMPANY|AMOUNT|NUMBER)\b[^\]]{0,40}\]?")),
    ("###-###-####", re.compile(r"#{3}\s*-\s*#{3}\s*-\s*#{4}")),
    ("$____", re.compile(r"\$\s*_{2,}")),
    ("template tag", re.compile(r"\{\{|\}\}|\{%|%\}")),
)

_WHITESPACE = re.compile(r"\s+")


def _excerpt(text: str, start: int, end: int, width: int = 30) -> str:
    before = text[max(0, start - width) : start]
    after = text[end : end + width]
    return _WHITESPACE.sub(" ", f"{before}{text[start:end]}{after}").strip()


def unfilled_blanks(text: str) -> list[str]:
    """DOC-UNFILLED-BLANK: each blank left in ``text``, as an excerpt showing where it is."""
    found: list[tuple[int, str]] = []
    for label, pattern in UNFILLED_BLANKS:
        for match in pattern.finditer(text):
            found.append(
                (match.start(), f'{label} in "…{_excerpt(text, match.start(), match.end())}…"')
            )
    return [excerpt for _, excerpt in sorted(found)]


def absent_facts(text: str, key_facts: list[str]) -> list[str]:
    """DOC-FACT-ABSENT: the key facts (name, grant date, units, ...) not found in ``text``."""
    haystack = normalise(text)
    return [fact for fact in key_facts if normalise(fact) not in haystack]


def format_mismatch(pdf_text: str, docx_text: str) -> str | None:
    """DOC-FORMAT-MISMATCH: None when PDF and DOCX carry the same text, else where they part."""
    pdf, docx = normalise(pdf_text), normalise(docx_text)
    if pdf == docx:
        return None
    at = next(
        (i for i, (a, b) in enumerate(zip(pdf, docx, strict=False)) if a != b),
        min(len(pdf), len(docx)),
    )
    return (
        f'the texts part after "{pdf[max(0, at - 40) : at]}": '
        f'PDF reads "{pdf[at : at + 40]}", DOCX reads "{docx[at : at + 40]}" '
        f"(spaces removed; {len(pdf)} vs {len(docx)} characters)"
    )


_DRAFTED = re.compile(r"""data-provenance\s*=\s*["']?drafted\b""")


def has_drafted_clauses(html: str) -> bool:
    """DOC-DRAFTED-CLAUSE (with no approval on file): the HTML carries a clause docgen drafted."""
    return _DRAFTED.search(html) is not None


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
        applies_to=DOCUMENT,
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
        applies_to=DOCUMENT,
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
        applies_to=DOCUMENT,
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
        applies_to=DOCUMENT,
        sources=(src.NOTICE_F1, src.EXHIBIT_DEFAULT_PAYMENT),
        remedy="Have counsel review the drafted clauses and record drafted_clauses_approved_by.",
    )
)
