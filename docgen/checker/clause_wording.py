"""Each drafted clause of a report as it reads in the cycle's documents: its fragment rendered for
the first copy that carries it, for the check report's section for counsel. (Only the HTML report
renders; `docgen check` as text or JSON never does.)"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from docgen.checker.clauses import included_clauses
from docgen.core.findings import Report
from docgen.kinds import kind_of
from docgen.render.html import render_clause


@dataclass(frozen=True)
class Wording:
    html: str  # the clause rendered, as it reads in that copy
    copy: str  # whose copy of which document, in words


def clause_wording(loaded: Any, report: Report) -> dict[str, Wording]:
    """Clause id -> its words as the first copy that carries it reads them."""
    facts = loaded.facts
    kind = kind_of(facts)
    wording: dict[str, Wording] = {}
    included = {spec.name: included_clauses(loaded, spec) for spec in kind.documents}
    for review in report.clauses:
        clause = kind.clause(review.id)
        if clause is None:
            continue
        for stage in review.stages:
            found = next(
                (
                    (subject, spec)
                    for subject, spec in kind.each_issued(facts, stage)
                    if clause in included[spec.name] and clause.used(facts, subject, stage)
                ),
                None,
            )
            if found is not None:
                subject, spec = found
                html = render_clause(loaded, spec.name, subject.id, stage, clause.fragment)
                copy = f"{subject.name}'s {spec.title} (stage {stage})"
                wording[review.id] = Wording(html, copy)
                break
    return wording
