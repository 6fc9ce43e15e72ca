"""What a rule is: an id from the catalogue, its citations, the text it rests on, and one pure
predicate over the facts. The rules themselves live in the ``checks`` package; they register here
with :func:`rule` (or :func:`register_rule`), and docgen.checker runs them.

Which kind a rule belongs to is said once, by the kind: it lists its rule modules
(``Kind.rule_modules``, claimed here by :func:`claim_rule_modules` when the kind registers), and a
rule registered from one of them belongs to that kind. Only a rule of no kind (the DOC-* rules,
which read rendered documents) names what it applies to.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from docgen.core.citations import Citation
from docgen.core.findings import Finding, Severity
from docgen.core.safe_text import for_message

DOCUMENT = "document"  # ``applies_to`` of the DOC-* rules: they read rendered documents, not facts


@dataclass(frozen=True)
class SourceText:
    """The words a rule rests on, quoted, with where they come from."""

    citation: Citation
    text: str
    quoted: bool = True  # False: a description of the provision, not its wording


@dataclass(frozen=True)
class Hit:
    """What a predicate reports: the subject, the fact path, and what is wrong there.

    ``severity`` overrides the rule's own, for a boundary the law leaves ambiguous (a warning).
    """

    subject: str
    path: str
    message: str
    remedy: str = ""
    severity: Severity | None = None


@dataclass(frozen=True)
class CheckContext:
    """What a predicate may look at: the facts, the as-of date and the stage. Nothing else.

    ``view``: what the kind works out once per run from the facts for its rules (``Kind.view``:
    frozen, one entry per subject), or None."""

    facts: Any
    as_of: date
    stage: str
    view: Any = None


Predicate = Callable[[CheckContext], Iterable[Hit]]


@dataclass(frozen=True)
class Rule:
    id: str
    title: str
    severity: Severity
    citations: tuple[Citation, ...]
    explanation: str
    applies_to: str  # a kind's name (docgen.kinds), or DOCUMENT
    sources: tuple[SourceText, ...] = ()
    remedy: str = ""
    stages: tuple[str, ...] | None = None  # None: every stage of its kind
    check: Predicate | None = None
    # A finding about a recorded election that a new form corrects: it never holds a packet of
    # blank forms only (DocumentSpec.blank_at), the form that lets the person correct it.
    remedied_by_blank_form: bool = False
    # A rule whose findings about one subject depend on another subject's facts (or a finding
    # about the cycle on the subjects'): run over every subject even when only some changed
    # (`docgen intake` / `docgen elect` run the others over the subjects recorded only).
    across_subjects: bool = False
    # A rule about the day a stage is issued (blank forms too late, grant packets too early), not
    # about the words or the record: counsel's review copy, never issued, is made at any date.
    judges_issue_date: bool = False

    def applies_at(self, stage: str) -> bool:
        return self.stages is None or stage in self.stages

    def finding(
        self,
        subject: str,
        path: str,
        message: str,
        *,
        line: int | None = None,
        file: str = "",
        remedy: str | None = None,
        severity: Severity | None = None,
        citations: tuple[Citation, ...] | None = None,
        column: int | None = None,
    ) -> Finding:
        """A finding of this rule (how the DOC-* rules, which read documents, report);
        ``citations``: the finding's own (a rule of every kind cites, finding by finding, only
        what the facts' kind rests on), else the rule's."""
        return Finding(
            rule=self.id,
            severity=severity or self.severity,
            subject=subject,
            path=path,
            line=line,
            # what the facts hold, quoted in a report, as it really is (U+200B as \u200b)
            message=for_message(message, keep="\n"),
            citations=self.citations if citations is None else citations,
            remedy=for_message(self.remedy if remedy is None else remedy, keep="\n"),
            file=file,
            title=self.title,
            column=column,
        )


_REGISTRY: dict[str, Rule] = {}
_MODULE_KINDS: dict[str, str] = {}  # a rule module -> the kind that lists it


def claim_rule_modules(kind: str, modules: Iterable[str]) -> None:
    """Record that the rules registered from ``modules`` belong to ``kind`` (register_kind)."""
    for module in modules:
        owner = _MODULE_KINDS.setdefault(module, kind)
        if owner != kind:
            raise ValueError(f"rule module {module} is listed by kind {owner} and by {kind}")


def release_rule_modules(kind: str) -> None:
    """Forget the rule modules ``kind`` listed (unregister_kind)."""
    for module in [m for m, owner in _MODULE_KINDS.items() if owner == kind]:
        del _MODULE_KINDS[module]


def kind_of_module(module: str, rule_id: str) -> str:
    """The kind whose rule modules include ``module``: the kind of a rule registered from it."""
    try:
        return _MODULE_KINDS[module]
    except KeyError:
        raise ValueError(
            f"rule {rule_id} is registered from {module}, which no registered kind lists in its "
            "rule_modules"
        ) from None


def rule(
    id: str,
    *,
    title: str,
    severity: Severity,
    cites: Iterable[Citation],
    explanation: str,
    sources: Iterable[SourceText] = (),
    remedy: str = "",
    stages: tuple[str, ...] | None = None,
    applies_to: str | None = None,
    remedied_by_blank_form: bool = False,
    across_subjects: bool = False,
    judges_issue_date: bool = False,
) -> Callable[[Predicate], Predicate]:
    """Register the decorated predicate as rule ``id``, of the kind that lists the predicate's
    module among its rule modules (``applies_to`` only for a rule of no kind: DOCUMENT)."""

    def register(check: Predicate) -> Predicate:
        register_rule(
            Rule(
                id,
                title,
                severity,
                tuple(cites),
                explanation,
                applies_to or kind_of_module(check.__module__, id),
                tuple(sources),
                remedy,
                stages,
                check,
                remedied_by_blank_form,
                across_subjects,
                judges_issue_date,
            )
        )
        return check

    return register


def register_rule(entry: Rule) -> Rule:
    if entry.id in _REGISTRY and _REGISTRY[entry.id] != entry:
        raise ValueError(f"rule {entry.id} is registered twice")
    if not entry.citations:
        raise ValueError(f"rule {entry.id} has no citation")
    _REGISTRY[entry.id] = entry
    return entry


def unregister_rules(applies_to: str) -> None:
    """Forget every rule of one kind (a test's toy kind, once the test is done)."""
    for rule_id in [r.id for r in _REGISTRY.values() if r.applies_to == applies_to]:
        del _REGISTRY[rule_id]


def unregister_rule(rule_id: str) -> None:
    """Forget one rule (a test's toy rule, once the test is done)."""
    _REGISTRY.pop(rule_id, None)


def registered() -> dict[str, Rule]:
    """The rules registered so far, in registration order (docgen.checker imports the modules)."""
    return _REGISTRY
