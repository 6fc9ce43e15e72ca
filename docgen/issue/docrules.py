"""The DOC-* rules applied to one rendered document: read its PDF and DOCX back and run each
rule's predicate (checks/documents.py) over the text."""

from __future__ import annotations

from dataclasses import dataclass

from checks.documents import (
    absent_facts,
    clause_mark_problems,
    docx_return_problems,
    format_mismatch,
    return_page_problems,
    unfilled_blanks,
)
from docgen.core.documents import ReturnPart
from docgen.render.readback import docx_reading, html_text, pdf_pages


@dataclass(frozen=True)
class DocProblem:
    """One DOC-* rule broken by one document (the caller turns it into a checker Finding)."""

    rule: str
    subject: str
    document: str
    message: str


def check_document(
    subject: str,
    document: str,
    *,
    pdf_text: str | None,
    docx_text: str | None,
    key_facts: list[str],
    html: str | None = None,
    clauses: tuple[set[str], set[str]] | None = None,
    pdf_pages: list[str] | None = None,
    docx_page_starts: list[str] | None = None,
    return_part: ReturnPart | None = None,
) -> list[DocProblem]:
    """Every DOC-* rule over one document's read-back text; a format that was not made is None.

    ``clauses`` is (the drafted clauses the check expected in this copy, every clause its kind
    has): the rendered HTML's drafted marks must be exactly the expected ones. ``pdf_pages`` and
    ``docx_page_starts`` (the PDF page by page, the DOCX's forced page starts) are read for a
    document with a part to be filed (``return_part``).
    """
    problems: list[DocProblem] = []
    texts = {"PDF": pdf_text, "DOCX": docx_text}
    if html is not None and pdf_text is None and docx_text is None:
        texts = {"HTML": html_text(html)}
    for label, text in texts.items():
        if text is None:
            continue
        for blank in unfilled_blanks(text):
            problems.append(
                DocProblem(
                    "DOC-UNFILLED-BLANK", subject, document, f"{label}: unfilled blank {blank}"
                )
            )
        for fact in absent_facts(text, key_facts):
            problems.append(
                DocProblem(
                    "DOC-FACT-ABSENT", subject, document, f'{label}: key fact "{fact}" is missing'
                )
            )
    if pdf_text is not None and docx_text is not None:
        difference = format_mismatch(pdf_text, docx_text)
        if difference:
            problems.append(DocProblem("DOC-FORMAT-MISMATCH", subject, document, difference))
    if return_part is not None:
        for label, found in (
            ("PDF", return_page_problems(pdf_pages, return_part) if pdf_pages else []),
            (
                "DOCX",
                docx_return_problems(docx_page_starts, return_part)
                if docx_page_starts is not None
                else [],
            ),
        ):
            problems.extend(
                DocProblem("DOC-RETURN-PAGE", subject, document, f"{label}: {problem}")
                for problem in found
            )
    if html is not None and clauses is not None:
        expected, known = clauses
        for message in clause_mark_problems(html, expected, known):
            problems.append(DocProblem("DOC-DRAFTED-CLAUSE", subject, document, message))
    return problems


def check_rendered(
    subject: str,
    document: str,
    *,
    pdf: bytes | None,
    docx: bytes | None,
    key_facts: list[str],
    html: str | None = None,
    clauses: tuple[set[str], set[str]] | None = None,
    return_part: ReturnPart | None = None,
) -> list[DocProblem]:
    """Read a rendered document's PDF and DOCX back and apply every DOC-* rule.

    A document is only called wrong after its PDF has also been read by pypdf's own extractor.
    """

    docx_read, starts = docx_reading(docx) if docx is not None else (None, None)
    if return_part is None:
        starts = None

    def run(pages: list[str] | None) -> list[DocProblem]:
        return check_document(
            subject,
            document,
            pdf_text="\n".join(pages) if pages is not None else None,
            docx_text=docx_read,
            key_facts=key_facts,
            html=html,
            clauses=clauses,
            pdf_pages=pages,
            docx_page_starts=starts,
            return_part=return_part,
        )

    problems = run(pdf_pages(pdf) if pdf is not None else None)
    if pdf is not None and any(p.rule != "DOC-DRAFTED-CLAUSE" for p in problems):
        problems = run(pdf_pages(pdf, thorough=True))
    return problems
