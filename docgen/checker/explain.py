"""`docgen explain`: one rule, its citations, the text it rests on, and two worked examples."""

from __future__ import annotations

import textwrap

from docgen.checker.cases import examples
from docgen.checker.rules import get_rule
from docgen.core.resources import design_doc, read_template
from docgen.core.rules import DOCUMENT
from docgen.core.wording import wording_of, wording_sha256
from docgen.kinds import all_kinds


def explain_rule(rule_id: str) -> str:
    """`docgen explain`: the rule, its citations and source text, and two worked examples."""
    entry = get_rule(rule_id)

    def wrap(text: str, indent: str = "  ") -> str:
        return textwrap.fill(text, 96, initial_indent=indent, subsequent_indent=indent)

    lines = [
        f"{entry.id}: {entry.title}",
        f"  severity: {entry.severity}; applies to: {entry.applies_to}"
        + (f"; stages: {', '.join(entry.stages)}" if entry.stages else ""),
        f"  cites: {'; '.join(str(c) for c in entry.citations)}",
        "",
        "What it checks:",
        wrap(entry.explanation),
    ]
    if any(c.authority == "DESIGN.md" for c in entry.citations):
        lines.append(f"  DESIGN.md ships with docgen: {design_doc()}")
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
    if entry.id == CLAUSE_RULE:
        lines += ["", *_drafted_wording()]
        return "\n".join(lines) + "\n"
    if entry.applies_to == DOCUMENT:
        lines += ["", "Checked on the rendered documents (batch, render, verify)."]
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


CLAUSE_RULE = "DOC-DRAFTED-CLAUSE"


def _drafted_wording() -> list[str]:
    """Every clause docgen drafts, with its built-in text and SHA-256: what counsel approves."""
    lines = [
        "The drafted clauses (built-in wording; `docgen clauses FACTS` shows a cycle's own, with "
        "its approvals):"
    ]
    for kind in all_kinds():
        for clause in kind.clauses:
            text = wording_of(read_template(clause.fragment)[0])
            lines += [
                "",
                f"  {clause.id}: {clause.title} ({clause.section}; {', '.join(clause.documents)})",
                f"    sha256: {wording_sha256(text)}",
                textwrap.fill(
                    f"why: {clause.rationale}",
                    96,
                    initial_indent="    ",
                    subsequent_indent="      ",
                ),
                f"    cites: {'; '.join(str(c) for c in clause.citations)}",
                f"    wording (templates/{clause.fragment}):",
                *(f"      | {line}" for line in text.rstrip(chr(10)).splitlines()),
            ]
    return lines


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
