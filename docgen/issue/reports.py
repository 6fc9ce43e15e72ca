"""What issuing reports: DOC-* problems as findings, refusals, and the report as issued."""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from docgen.checker.rules import get_rule
from docgen.core.citations import cited_for
from docgen.core.errors import IssueRefused
from docgen.core.findings import Finding, Report
from docgen.core.safe_text import json_text
from docgen.issue.docrules import DocProblem
from docgen.kinds import kind_of
from docgen.load import LoadedFacts


class IssueRefusedByFindings(IssueRefused):
    """Issuance refused: the checker (or a DOC-* rule on the rendered text) found errors. Exit 1."""

    def __init__(
        self,
        report: Report,
        stage_of_refusal: str = "check",
        holdable: Sequence[str] = (),
        held: Sequence[str] = (),
        spared: Sequence[str] = (),
        packetless: Sequence[str] = (),
        stage: str = "",
    ):
        self.report = report
        self.stage_of_refusal = stage_of_refusal
        self.holdable = list(holdable)
        self.held = list(held)  # packets this batch already holds back (--hold)
        self.spared = list(spared)  # errors the blank form this batch sends corrects
        self.packetless = list(packetless)  # errors about someone with no packet to hold
        errors = len(report.errors)
        what = "the checker" if stage_of_refusal == "check" else "the rendered documents"
        message = (
            f"Refused: {what} found {errors} error{'s' if errors != 1 else ''}; "
            "nothing was written."
        )
        if self.packetless:
            one = len(self.packetless) == 1
            message += (
                f" The errors about {', '.join(self.packetless)} stop it: "
                f"{'that person gets' if one else 'those people get'} no documents at stage "
                f"{stage or 'this stage'}, so there is no packet to hold; resolve "
                "them in the facts."
            )
        if self.spared:
            message += (
                f" The errors about {', '.join(self.spared)} do not stop it: the blank form "
                "this batch sends is there to correct them."
            )
        if self.holdable:
            # Every error is about a packet of its own: the others can go out while counsel decides.
            # The command to run holds these and the packets already held: all of them at once.
            holds = " ".join(f"--hold {subject}" for subject in [*self.held, *self.holdable])
            one = len(self.holdable) == 1
            blocking = len([f for f in report.errors if f.subject in self.holdable])
            besides = ""
            if self.held:
                are = "is" if len(self.held) == 1 else "are"
                besides = f" ({', '.join(self.held)} {are} held already)"
            # Named beside the errors that cannot be held, never as if they were all.
            concern = (
                ("The other error concerns" if blocking == 1 else "The other errors concern")
                if self.packetless
                else ("It concerns" if blocking == 1 else "They concern")
            )
            now = (
                f"once the errors about {', '.join(self.packetless)} are resolved"
                if self.packetless
                else "now"
            )
            message += (
                f" {concern} {', '.join(self.holdable)} only{besides}: to issue everyone else "
                f"{now}, and "
                f"record in the manifest why {'that packet was' if one else 'those packets were'} "
                f"held, run the batch again with {holds}."
            )
        super().__init__(message)


def templates_sha256(override: Path | None = None) -> str:
    """One digest over every template file, so an edited template makes an issued folder stale;
    a company's folder of templates (``templates_dir``) is part of it."""
    import hashlib

    from docgen.core.drafts import DRAFT_TEMPLATES
    from docgen.core.resources import templates_dir

    digest = hashlib.sha256()
    for label, root in (("", templates_dir()), ("templates_dir/", override)):
        if root is None or not root.is_dir():
            continue
        for name, sha in _file_digests(root).items():
            if not label and name.startswith(f"{DRAFT_TEMPLATES}/"):
                continue  # the drafts' own templates (docgen section16) make no stage document
            digest.update(f"{label}{name}".encode() + b"\0")
            digest.update(bytes.fromhex(sha))
    return digest.hexdigest()


def _file_digests(root: Path) -> dict[str, str]:
    """Each file's SHA-256 by its path under ``root``. Every issued PDF's record names the
    templates' digest: the files are read and hashed again only when one of them has changed
    (its size or modification time), not once per document."""
    files = [p for p in sorted(root.rglob("*")) if p.is_file() and "__pycache__" not in p.parts]
    signature = []
    for path in files:
        status = path.stat()
        signature.append((path.relative_to(root).as_posix(), status.st_mtime_ns, status.st_size))
    return dict(_hashed(root, tuple(signature)))


@functools.lru_cache(maxsize=16)
def _hashed(root: Path, signature: tuple[tuple[str, int, int], ...]) -> tuple[tuple[str, str], ...]:
    import hashlib

    return tuple(
        (name, hashlib.sha256((root / name).read_bytes()).hexdigest()) for name, _, _ in signature
    )


def template_overrides(loaded: LoadedFacts) -> dict[str, Any] | None:
    """For the manifest: the company's templates folder and each file's SHA-256, or None."""
    override = loaded.templates_override
    if override is None:
        return None
    return {"folder": loaded.facts.templates_dir, "files": _file_digests(override)}


def clause_approvals(report: Report) -> list[dict[str, Any]]:
    """For the manifest: each drafted clause the issued documents carry, and each company
    template whose wording is its own (unit "company template"), with its approval."""
    return [
        {
            "clause": review.id,
            "unit": review.unit,
            "status": review.status,
            "sha256": review.sha256,
            "documents": list(review.documents),
            "source": review.source,
            "approved_by": review.approval.by if review.approval else None,
            "approved_on": review.approval.on.isoformat() if review.approval else None,
        }
        for review in report.clauses
    ]


def doc_findings(loaded: LoadedFacts, problems: list[DocProblem], head: str) -> list[Finding]:
    """DOC-* problems as checker findings, each about one subject's copy of one document."""
    authorities = kind_of(loaded.facts).authorities
    findings = []
    for problem in problems:
        rule = get_rule(problem.rule)
        findings.append(
            rule.finding(
                problem.subject,
                f"{problem.subject}/{problem.document}",
                problem.message,
                citations=cited_for(rule.citations, authorities) or rule.citations,
            )
        )
    return findings


def portable_report(report: Report, extra: Iterable[Finding] = ()) -> Report:
    """The report as issued: file names without folders (no absolute path in an issued file)."""

    def base(name: str) -> str:
        return Path(name).name if name else name

    findings = [dataclasses.replace(f, file=base(f.file)) for f in (*report.findings, *extra)]
    facts = dataclasses.replace(report.facts, file=base(report.facts.file))
    return Report.build(
        facts,
        report.as_of,
        report.stage,
        findings,
        report.subjects,
        report.names,
        clauses=report.clauses,
        defaulted=report.defaulted,
    )


def dumps(data: Any) -> bytes:
    """An issued JSON file: sorted keys, and no raw unsafe character (docgen.core.safe_text)."""
    text = json_text(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))
    return (text + "\n").encode("utf-8")
