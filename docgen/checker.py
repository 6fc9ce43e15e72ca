"""The checker: a registry of rules (each with citations and the text it rests on) and run_checks.

A rule is one small unit: an id from DESIGN.md's catalogue, a title, a severity, structured
citations, a plain-English explanation, the source text it rests on, and ONE pure predicate
``check(context) -> iterable of Hit``. The rules themselves live in the ``checks`` package;
``DOC-*`` rules are registered there too, but their predicates over rendered text live in
``docgen/verify.py``, which builds findings with ``get_rule(id).finding(subject, path, message)``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from docgen.errors import DocgenError
from docgen.findings import Citation, FactsInfo, Finding, Report, Severity

if TYPE_CHECKING:
    from docgen.facts import Facts
    from docgen.loader import LoadedFacts

Stage = Literal["elections", "grant", "enrollment"]
STAGES: tuple[str, ...] = ("elections", "grant", "enrollment")
# Which stages a kind of facts file has, the default (DESIGN.md: `--stage` defaults to grant) first.
STAGES_BY_KIND: dict[str, tuple[str, ...]] = {
    "director-rsu-grant": ("grant", "elections"),
    "rrp-plan-year": ("enrollment",),
}


class StageError(DocgenError, ValueError):
    """A stage that this kind of facts file does not have. Exit code 2."""


def resolve_stage(kind: str, stage: str | None) -> str:
    """The stage to check and issue at: the one asked for, or the kind's default."""
    allowed = STAGES_BY_KIND.get(kind, STAGES)
    if stage is None:
        return allowed[0]
    if stage not in allowed:
        raise StageError(
            f"--stage {stage} does not apply to a {kind} file; "
            f"use {' or '.join(f'--stage {s}' for s in allowed)}, or leave --stage out."
        )
    return stage


Applies = Literal["director-rsu-grant", "rrp-plan-year", "document"]

# The modules that register rules, in catalogue order.
RULE_MODULES = ("checks.rsu", "checks.rrp", "checks.documents")


class UnknownRule(DocgenError, KeyError):
    """A rule id that is not in the catalogue. Exit code 2."""

    def __init__(self, rule_id: str, known: Iterable[str]):
        import difflib

        self.rule_id = rule_id
        guess = difflib.get_close_matches(rule_id.upper(), list(known), n=1)
        hint = f" Did you mean {guess[0]}?" if guess else ""
        self.message = f"no rule {rule_id} in the catalogue.{hint} Run `docgen rules` to list them."
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message


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

    ``shared`` lets rules that need the same analysis (the seven RRP election-timing rules)
    compute it once per run; it lives and dies with this one run of the checker.
    """

    facts: Facts
    as_of: date
    stage: str
    shared: dict = field(default_factory=dict, compare=False, repr=False)


Predicate = Callable[[CheckContext], Iterable[Hit]]


@dataclass(frozen=True)
class Rule:
    id: str
    title: str
    severity: Severity
    citations: tuple[Citation, ...]
    explanation: str
    applies_to: Applies
    sources: tuple[SourceText, ...] = ()
    remedy: str = ""
    stages: tuple[str, ...] = STAGES
    check: Predicate | None = field(default=None, compare=False)

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
    ) -> Finding:
        """A finding of this rule; how ``docgen/verify.py`` reports the DOC-* rules."""
        return Finding(
            rule=self.id,
            severity=severity or self.severity,
            subject=subject,
            path=path,
            line=line,
            message=message,
            citations=self.citations,
            remedy=self.remedy if remedy is None else remedy,
            file=file,
            title=self.title,
        )


_REGISTRY: dict[str, Rule] = {}
_loaded = False


def rule(
    id: str,
    *,
    title: str,
    severity: Severity,
    cites: Iterable[Citation],
    explanation: str,
    applies_to: Applies,
    sources: Iterable[SourceText] = (),
    remedy: str = "",
    stages: tuple[str, ...] = STAGES,
) -> Callable[[Predicate], Predicate]:
    """Register the decorated predicate as rule ``id``."""

    def register(check: Predicate) -> Predicate:
        register_rule(
            Rule(
                id,
                title,
                severity,
                tuple(cites),
                explanation,
                applies_to,
                tuple(sources),
                remedy,
                stages,
                check,
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


def _load_rules() -> None:
    global _loaded
    if not _loaded:
        for module in RULE_MODULES:
            importlib.import_module(module)
        _loaded = True


def all_rules() -> list[Rule]:
    """Every rule, in catalogue order (director RSU, then RRP, then rendered documents)."""
    _load_rules()
    return list(_REGISTRY.values())


def get_rule(rule_id: str) -> Rule:
    """The rule with this id; :class:`UnknownRule` (exit 2) if there is none."""
    _load_rules()
    try:
        return _REGISTRY[rule_id]
    except KeyError:
        raise UnknownRule(rule_id, _REGISTRY) from None


def subjects_of(facts: Facts) -> tuple[list[str], dict[str, str]]:
    """The subjects in file order (the grant or plan year first) and their names."""
    if facts.kind == "director-rsu-grant":
        people = [(d.id, d.name) for d in facts.directors]
        head = facts.grant.id
    else:
        people = [(p.id, p.name) for p in facts.participants]
        head = f"plan-year-{facts.plan_year}"
    names = dict(people)
    names[head] = "the grant" if facts.kind == "director-rsu-grant" else "the Plan Year"
    return [head, *(ident for ident, _ in people)], names


def run_checks(loaded: LoadedFacts, as_of: date, stage: str | None = None) -> Report:
    """Run every rule that applies to this kind of facts file at this stage (default: its own)."""
    facts = loaded.facts
    stage = resolve_stage(facts.kind, stage)
    context = CheckContext(facts, as_of, stage)
    findings: list[Finding] = []
    locate = loaded.source.locate
    for entry in all_rules():
        if entry.applies_to != facts.kind or stage not in entry.stages or entry.check is None:
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
    info = FactsInfo(loaded.source.file, facts.kind, loaded.sha256)
    return Report.build(info, as_of, stage, findings, subjects, names)


class OutputError(DocgenError, OSError):
    """The report could not be written where asked. Exit code 2."""


def write_report(path: Path, text: str) -> None:
    """Write a report (or any text output) atomically: a temporary file beside it, a rename."""
    import os
    import tempfile

    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise OutputError(f"{path}: no folder {folder}. Create it first, or write elsewhere.")
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
        # newline="": written as given (an .ics keeps its CRLF line endings everywhere).
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except OSError as error:
        raise OutputError(f"{path}: cannot write ({error.strerror}).") from None


def explain_rule(rule_id: str) -> str:
    """`docgen explain`: the rule, its citations and source text, and two worked examples."""
    import textwrap

    from docgen.rule_cases import examples

    entry = get_rule(rule_id)

    def wrap(text: str, indent: str = "  ") -> str:
        return textwrap.fill(text, 96, initial_indent=indent, subsequent_indent=indent)

    lines = [
        f"{entry.id}: {entry.title}",
        f"  severity: {entry.severity}; applies to: {entry.applies_to}"
        + (f"; stages: {', '.join(entry.stages)}" if entry.stages != STAGES else ""),
        f"  cites: {'; '.join(str(c) for c in entry.citations)}",
        "",
        "What it checks:",
        wrap(entry.explanation),
    ]
    if entry.remedy:
        lines += ["", "What to do when it fires:", wrap(entry.remedy)]
    if entry.sources:
        lines += ["", "The text it rests on:"]
        for source in entry.sources:
            lines.append(
                f"  {source.citation}{'' if source.quoted else ' (described, not quoted)'}:"
            )
            text = f"\u201c{source.text}\u201d" if source.quoted else source.text
            lines.append(wrap(text, "    "))
    if entry.applies_to == "document":
        lines += ["", "Checked on the rendered documents by docgen/verify.py (batch, verify)."]
        return "\n".join(lines) + "\n"
    passing, failing = examples(entry.id)
    for label, case in (("A passing example", passing), ("A failing example", failing)):
        lines += ["", f"{label}:"]
        if case is None:
            lines.append(
                "  (no test case found: the examples come from tests/cases/ in a checkout)"
            )
            continue
        lines += _example_lines(entry.id, case)
    return "\n".join(lines) + "\n"


def _example_lines(rule_id: str, case) -> list[str]:
    import io

    from ruamel.yaml import YAML

    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    buffer = io.StringIO()
    yaml.dump(case.overrides, buffer)
    lines = [
        f"  {case.name} (tests/cases/{case.file.name}; as of {case.as_of}, stage {case.stage})",
        "  the base facts, with:",
    ]
    lines += ["    " + line for line in buffer.getvalue().rstrip().splitlines()]
    report = case.run()
    found = [f for f in report.findings if f.rule == rule_id]
    if found:
        lines += [f"  -> {f.severity} {f.rule} ({f.subject}): {f.message}" for f in found]
    else:
        lines.append(f"  -> no {rule_id} finding")
    return lines
