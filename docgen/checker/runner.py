"""Running the rules: every rule of the facts' kind that applies at the stage, over the facts, and
counsel's approval of every drafted clause the stage's documents carry (DOC-DRAFTED-CLAUSE)."""

from __future__ import annotations

from datetime import date
from typing import Any

from docgen.checker.clauses import clause_findings, review_clauses
from docgen.checker.rules import rules_of
from docgen.checker.seed_references import undefined_references
from docgen.core.errors import DocgenError
from docgen.core.findings import FactsInfo, Finding, Report
from docgen.core.model import defaulted_terms
from docgen.core.rules import CheckContext
from docgen.kinds import kind_of
from docgen.load import LoadedFacts


class StageError(DocgenError, ValueError):
    """A stage that this kind of facts file does not have. Exit code 2."""


def resolve_stage(facts: Any, stage: str | None, as_of: date | None = None) -> str:
    """The stage to check and issue at: the one asked for, or the kind's default."""
    kind = kind_of(facts)
    allowed = kind.stages
    if stage is None:
        if as_of is not None:
            return kind.default_stage(facts, as_of)
        return allowed[0]
    if stage not in allowed:
        raise StageError(
            f"--stage {stage} does not apply to a {kind.name} file; "
            f"use {' or '.join(f'--stage {s}' for s in allowed)}, or leave --stage out."
        )
    return stage


def subjects_of(facts: Any) -> tuple[list[str], dict[str, str]]:
    """The subjects in file order (the grant or plan year first) and their names."""
    kind = kind_of(facts)
    head, words = kind.head(facts)
    people = [(s.id, s.name) for s in kind.subjects(facts)]
    names = dict(people)
    names[head] = words
    return [head, *(ident for ident, _ in people)], names


def run_checks(
    loaded: LoadedFacts, as_of: date, stage: str | None = None, *, issuing: bool = True
) -> Report:
    """Run every rule that applies to this kind of facts file at this stage (default: its own).

    ``issuing=False`` runs the rules about the record only, as `docgen intake` and `docgen
    elect` do after recording a form: a rule limited to some stages (``Rule.stages``) judges
    issuing that stage's documents, and counsel's approval of the drafted clauses concerns the
    documents too; recording a form issues none.

    A finding inside a form the facts record as not in effect (the kind's ``not_in_effect``) is
    reported at info: the decision it asks for has been made, and it blocks nothing.
    """
    facts = loaded.facts
    kind = kind_of(facts)
    stage = resolve_stage(facts, stage, as_of)
    context = CheckContext(facts, as_of, stage, kind.view(facts))
    not_in_effect = kind.not_in_effect(facts)
    findings: list[Finding] = []
    where = loaded.source.where
    for entry in rules_of(facts.kind):
        if not entry.applies_at(stage) or entry.check is None:
            continue
        if not issuing and entry.stages is not None:
            continue
        for hit in entry.check(context):
            file, line, column = where(hit.path)
            severity, message, remedy = hit.severity, hit.message, hit.remedy or None
            decision = _decision_over(not_in_effect, hit.path)
            if decision is not None and (severity or entry.severity) != "info":
                severity, remedy = "info", ""
                message = f"{message} The form is {decision}; it governs nothing."
            findings.append(
                entry.finding(
                    hit.subject,
                    hit.path,
                    message,
                    line=line,
                    file=file,
                    remedy=remedy,
                    severity=severity,
                    column=column,
                )
            )
    subjects, names = subjects_of(facts)
    # The drafted clauses this stage's documents carry: counsel's approval of each one's exact
    # wording is checked here, from the facts and the templates' text, before anything renders.
    # (Recording a form issues nothing: intake and elect leave the clauses to check and batch.)
    reviews = review_clauses(loaded, stage) if issuing else []
    findings.extend(clause_findings(loaded, reviews, subjects[0]))
    if issuing:  # inherited seed words that refer to nothing the documents define, for counsel
        findings.extend(undefined_references(loaded, stage, subjects[0]))
    info = FactsInfo(loaded.source.file, facts.kind, loaded.sha256)
    return Report.build(
        info,
        as_of,
        stage,
        findings,
        subjects,
        names,
        clauses=reviews,
        defaulted=defaulted_terms(facts, kind_of(facts).default_terms),
    )


def _decision_over(not_in_effect: dict[str, str], path: str) -> str | None:
    """The recorded decision about the form that holds ``path``, if that form is not in effect."""
    for prefix, decision in not_in_effect.items():
        if path == prefix or path.startswith((prefix + ".", prefix + "[")):
            return decision
    return None
