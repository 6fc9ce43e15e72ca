"""Running the rules: every rule of the facts' kind that applies at the stage, over the facts, and
counsel's approval of every drafted clause the stage's documents carry (DOC-DRAFTED-CLAUSE)."""

from __future__ import annotations

from datetime import date
from typing import Any

from docgen.check.clauses import clause_findings, review_clauses
from docgen.check.rules import all_rules
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
        if kind.default_stage is not None and as_of is not None:
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


def run_checks(loaded: LoadedFacts, as_of: date, stage: str | None = None) -> Report:
    """Run every rule that applies to this kind of facts file at this stage (default: its own)."""
    facts = loaded.facts
    stage = resolve_stage(facts, stage, as_of)
    context = CheckContext(facts, as_of, stage)
    findings: list[Finding] = []
    locate = loaded.source.locate
    for entry in all_rules():
        if entry.applies_to != facts.kind or not entry.applies_at(stage) or entry.check is None:
            continue
        for hit in entry.check(context):
            file, line = locate(hit.path)
            findings.append(
                entry.finding(
                    hit.subject,
                    hit.path,
                    hit.message,
                    line=line,
                    file=file,
                    remedy=hit.remedy or None,
                    severity=hit.severity,
                )
            )
    subjects, names = subjects_of(facts)
    # The drafted clauses this stage's documents carry: counsel's approval of each one's exact
    # wording is checked here, from the facts and the templates' text, before anything renders.
    reviews = review_clauses(loaded, stage)
    findings.extend(clause_findings(loaded, reviews, subjects[0]))
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
