"""The DOC-* rules' own registry: each is a catalogue rule (docgen.core.rules) whose predicate
reads a rendered copy and what its PDF and DOCX read back as, instead of the facts.

A rule registers with :func:`document_rule` and is run by docgen.issue's ``check_document``, a
loop over :func:`document_rules`; a new DOC rule is one decorated function in
checks/documents.py. What a predicate reads decides what it is given and when it runs, and so
the order of the findings:

- :data:`EACH_TEXT`: ``(copy, text) -> messages``, over each text read back in turn, the PDF's
  then the DOCX's (or, when neither was made, the HTML's visible text), every such rule over
  one text before the next text; each message follows its format's label ("PDF: ...");
- :data:`READ_BACK`: ``(copy, reading) -> messages``, once, over the whole read-back;
- :data:`SOURCE`: ``(copy, reading) -> messages``, once, over the copy's HTML rather than what
  was read back; its findings do not call for reading the PDF again (docgen.issue.docrules).

Within each, rules run in the order they were registered.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from docgen.core.citations import Citation
from docgen.core.findings import Severity
from docgen.core.rules import DOCUMENT, Rule, SourceText, register_rule, unregister_rule

EACH_TEXT = "each text"
READ_BACK = "read-back"
SOURCE = "source"
READS = (EACH_TEXT, READ_BACK, SOURCE)  # the order the rules run in


class Reading(Protocol):
    """What a copy's PDF and DOCX read back as (docgen.render.readback.ReadBack)."""

    @property
    def texts(self) -> dict[str, str]:
        """Each text read back by its format's label: PDF, DOCX (or HTML when neither)."""
        ...

    @property
    def pdf_text(self) -> str | None: ...

    @property
    def docx_text(self) -> str | None: ...

    @property
    def pdf_pages(self) -> list[str] | None: ...

    @property
    def docx_page_starts(self) -> list[str] | None: ...


DocumentPredicate = Callable[..., Iterable[str]]


@dataclass(frozen=True)
class DocumentRule:
    """A DOC-* rule: its catalogue entry, what its predicate reads, and the predicate."""

    rule: Rule
    reads: str
    predicate: DocumentPredicate

    @property
    def id(self) -> str:
        return self.rule.id


_DOCUMENT_RULES: dict[str, DocumentRule] = {}


def document_rule(
    id: str,
    *,
    title: str,
    severity: Severity,
    cites: Iterable[Citation],
    explanation: str,
    reads: str,
    sources: Iterable[SourceText] = (),
    remedy: str = "",
) -> Callable[[DocumentPredicate], DocumentPredicate]:
    """Register the decorated predicate as DOC rule ``id``, reading what ``reads`` says."""
    if reads not in READS:
        raise ValueError(f"rule {id}: reads {reads!r}, expected one of {', '.join(READS)}")

    def register(predicate: DocumentPredicate) -> DocumentPredicate:
        entry = Rule(
            id=id,
            title=title,
            severity=severity,
            citations=tuple(cites),
            explanation=explanation,
            applies_to=DOCUMENT,
            sources=tuple(sources),
            remedy=remedy,
        )
        _DOCUMENT_RULES[id] = DocumentRule(register_rule(entry), reads, predicate)
        return predicate

    return register


def document_rules() -> list[DocumentRule]:
    """Every DOC rule in the order they run: by what they read, then as registered."""
    return sorted(_DOCUMENT_RULES.values(), key=lambda entry: READS.index(entry.reads))


def reads_back(rule_id: str) -> bool:
    """Whether DOC rule ``rule_id`` judges what was read back (not the copy's own HTML)."""
    entry = _DOCUMENT_RULES.get(rule_id)
    return entry is not None and entry.reads != SOURCE


def unregister_document_rule(rule_id: str) -> None:
    """Forget one DOC rule (a test's toy rule, once the test is done)."""
    _DOCUMENT_RULES.pop(rule_id, None)
    unregister_rule(rule_id)
