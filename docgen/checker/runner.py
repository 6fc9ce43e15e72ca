"""Running the rules: every rule of the facts' kind that applies at the stage, over the facts, and
counsel's approval of every drafted clause the stage's documents carry (DOC-DRAFTED-CLAUSE)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import date
from typing import Any

from docgen.checker.clauses import clause_findings, review_clauses
from docgen.checker.part import Part, part_of
from docgen.checker.rules import rules_of
from docgen.checker.seed_references import undefined_references
from docgen.core.collector import paused_for_a_population
from docgen.core.errors import DocgenError
from docgen.core.findings import FactsInfo, Finding, Report
from docgen.core.model import defaulted_terms
from docgen.core.rules import CheckContext, Rule
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
    loaded: LoadedFacts,
    as_of: date,
    stage: str | None = None,
    *,
    issuing: bool = True,
    only: Collection[str] | None = None,
) -> Report:
    """Run every rule that applies to this kind of facts file at this stage (default: its own).

    ``issuing=False`` runs the rules about the record only, as `docgen intake` and `docgen
    elect` do after recording a form: a rule limited to some stages (``Rule.stages``) judges
    issuing that stage's documents, and counsel's approval of the drafted clauses concerns the
    documents too; recording a form issues none.

    ``only`` (subject ids): the findings about those subjects and about the cycle, as the whole
    run finds them, for the cost of those subjects: each rule runs over the facts narrowed to
    them (docgen.checker.part), but a rule declared ``across_subjects`` runs over every subject
    and all its findings are kept. ``Report.checked`` then names them.

    A finding inside a form the facts record as not in effect (the kind's ``not_in_effect``) is
    reported at info: the decision it asks for has been made, and it blocks nothing.
    """
    with paused_for_a_population():  # the rules' views and findings (docgen.core.collector)
        return _run_checks(loaded, as_of, stage, issuing, only)


def about_the_record(report: Report) -> list[Finding]:
    """The findings of ``report`` that a run with ``issuing=False`` makes: those of the rules of
    every stage. A rule limited to some stages is the only kind that reads the stage (it judges
    issuing), so these findings are the same whatever stage ``report`` was checked at, and a
    check for issuing answers `docgen status` without a second run (tested against one)."""
    rules = rules_of(report.facts.kind)
    record = {entry.id for entry in rules if entry.stages is None and entry.check is not None}
    return [finding for finding in report.findings if finding.rule in record]


def _run_checks(
    loaded: LoadedFacts,
    as_of: date,
    stage: str | None,
    issuing: bool,
    only: Collection[str] | None,
) -> Report:
    facts = loaded.facts
    kind = kind_of(facts)
    stage = resolve_stage(facts, stage, as_of)
    rules = [
        entry
        for entry in rules_of(facts.kind)
        if entry.applies_at(stage) and entry.check is not None and (issuing or entry.stages is None)
    ]
    if only is None:
        findings = _findings(loaded, rules, facts, as_of, stage, None)
        subjects, names = subjects_of(facts)
    else:
        part = part_of(facts, kind, only)
        each = [entry for entry in rules if not entry.across_subjects]
        findings = _findings(loaded, each, part.facts, as_of, stage, part)
        across = [entry for entry in rules if entry.across_subjects]
        if across:
            findings += _findings(loaded, across, facts, as_of, stage, None)
        # The findings' order and names: of the people checked only, unless a rule across
        # people found something about another (its findings then take their place in the file).
        known = {kind.head(facts)[0], *part.ids}
        others = any(f.subject not in known for f in findings)
        subjects, names = subjects_of(facts if others else part.facts)
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
        checked=None if only is None else part.ids,
    )


def _findings(
    loaded: LoadedFacts,
    rules: list[Rule],
    facts: Any,
    as_of: date,
    stage: str,
    part: Part | None,
) -> list[Finding]:
    """The rules' findings over ``facts`` (the loaded facts, or ``part``'s narrowed facts, whose
    paths are turned back into the file's before they are located)."""
    if not rules:
        return []
    kind = kind_of(facts)
    context = CheckContext(facts, as_of, stage, kind.view(facts))
    not_in_effect = kind.not_in_effect(facts)
    findings: list[Finding] = []
    where = loaded.source.where
    for entry in rules:
        assert entry.check is not None
        for hit in entry.check(context):
            severity, message, remedy = hit.severity, hit.message, hit.remedy or None
            decision = _decision_over(not_in_effect, hit.path)
            if decision is not None and (severity or entry.severity) != "info":
                severity, remedy = "info", ""
                message = f"{message} The form is {decision}; it governs nothing."
            path = hit.path if part is None else part.path(hit.path)
            file, line, column = where(path)
            findings.append(
                entry.finding(
                    hit.subject,
                    path,
                    message,
                    line=line,
                    file=file,
                    remedy=remedy,
                    severity=severity,
                    column=column,
                )
            )
    return findings


def _decision_over(not_in_effect: dict[str, str], path: str) -> str | None:
    """The recorded decision about the form that holds ``path``, if that form is not in effect."""
    for prefix, decision in not_in_effect.items():
        if path == prefix or path.startswith((prefix + ".", prefix + "[")):
            return decision
    return None
