"""The DOC-* rules applied to one rendered copy: read its PDF and DOCX back once and run every
registered DOC rule (checks/documents.py, docgen.core.document_rules) over the copy and its
read-back."""

from __future__ import annotations

from dataclasses import dataclass

import checks.documents  # noqa: F401  (registers the DOC rules)
from docgen.core.document_rules import EACH_TEXT, Reading, document_rules, reads_back
from docgen.core.documents import CheckedCopy
from docgen.render.readback import ReadBack


@dataclass(frozen=True)
class DocProblem:
    """One DOC-* rule broken by one document (the caller turns it into a checker Finding)."""

    rule: str
    subject: str
    document: str
    message: str


def check_document(copy: CheckedCopy, reading: Reading) -> list[DocProblem]:
    """Every registered DOC rule over one copy and what it read back as, in the rules' order
    (docgen.core.document_rules): the rules over one text, each text in turn, then the rest."""
    rules = document_rules()
    found: list[tuple[str, str]] = []
    for label, text in reading.texts.items():
        for entry in rules:
            if entry.reads == EACH_TEXT:
                found.extend((entry.id, f"{label}: {m}") for m in entry.predicate(copy, text))
    for entry in rules:
        if entry.reads != EACH_TEXT:
            found.extend((entry.id, message) for message in entry.predicate(copy, reading))
    return [DocProblem(rule, copy.subject_id, copy.name, message) for rule, message in found]


def check_rendered(copy: CheckedCopy, *, pdf: bytes | None, docx: bytes | None) -> list[DocProblem]:
    """Read a rendered copy's PDF and DOCX back and apply every DOC-* rule. With neither (a
    preview), the rules read the copy's HTML's own text.

    A document is only called wrong after its PDF has also been read by pypdf's own extractor:
    when a rule that judges the read-back finds a problem, the PDF is read that way and every
    rule runs again.
    """
    reading = ReadBack.of(pdf, docx, copy.html)
    problems = check_document(copy, reading)
    if pdf is not None and any(reads_back(problem.rule) for problem in problems):
        problems = check_document(copy, reading.thoroughly())
    return problems
