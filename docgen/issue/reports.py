"""What issuing reports: DOC-* problems as findings, refusals, and the report as issued."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from docgen.check.rules import get_rule
from docgen.core.errors import IssueRefused
from docgen.core.findings import Finding, Report
from docgen.issue.docrules import DocProblem
from docgen.load import LoadedFacts


class IssueRefusedByFindings(IssueRefused):
    """Issuance refused: the checker (or a DOC-* rule on the rendered text) found errors. Exit 1."""

    def __init__(self, report: Report, stage_of_refusal: str = "check"):
        self.report = report
        self.stage_of_refusal = stage_of_refusal
        errors = len(report.errors)
        what = "the checker" if stage_of_refusal == "check" else "the rendered documents"
        super().__init__(
            f"Refused: {what} found {errors} error{'s' if errors != 1 else ''}; "
            "nothing was written."
        )


def templates_sha256() -> str:
    """One digest over every template file, so an edited template makes an issued folder stale."""
    import hashlib

    from docgen.core.resources import templates_dir

    root = templates_dir()
    digest = hashlib.sha256()
    if root.is_dir():
        for path in sorted(
            p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts
        ):
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def doc_findings(loaded: LoadedFacts, problems: list[DocProblem], head: str) -> list[Finding]:
    """DOC-* problems as checker findings. DOC-DRAFTED-CLAUSE is one warning per document name,
    not one per director: the same drafted clauses sit in every copy."""
    findings = []
    drafted: dict[str, list[str]] = {}
    for problem in problems:
        if problem.rule == "DOC-DRAFTED-CLAUSE":
            drafted.setdefault(problem.document, []).append(problem.subject)
            continue
        findings.append(
            get_rule(problem.rule).finding(
                problem.subject, f"{problem.subject}/{problem.document}", problem.message
            )
        )
    for document, subjects in drafted.items():
        count = len(subjects)
        # The fact that clears this warning is drafted_clauses_approved_by: point at it.
        file, line = loaded.source.locate(("drafted_clauses_approved_by",))
        remedy = "Have counsel review the drafted clauses (marked in the DOCX), then " + (
            "set drafted_clauses_approved_by in the facts file."
            if "drafted_clauses_approved_by" in type(loaded.facts).model_fields
            else f"record the approval; a {loaded.facts.kind} file has no "
            "drafted_clauses_approved_by field yet."
        )
        findings.append(
            get_rule("DOC-DRAFTED-CLAUSE").finding(
                head,
                "drafted_clauses_approved_by",
                f"{document} ({count} cop{'ies' if count != 1 else 'y'}) carries clauses docgen "
                "drafted for gaps in the source form, not yet approved by counsel",
                remedy=remedy,
                file=file,
                line=line,
            )
        )
    return findings


def portable_report(report: Report, extra: Iterable[Finding] = ()) -> Report:
    """The report as issued: file names without folders (no absolute path in an issued file)."""

    def base(name: str) -> str:
        return Path(name).name if name else name

    findings = [dataclasses.replace(f, file=base(f.file)) for f in (*report.findings, *extra)]
    facts = dataclasses.replace(report.facts, file=base(report.facts.file))
    return Report.build(facts, report.as_of, report.stage, findings, report.subjects, report.names)


def dumps(data: Any) -> bytes:
    return (json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")
