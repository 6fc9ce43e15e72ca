"""Write docs/rules.md, the rule catalogue, from the rule registry itself.

Run `python tools/rule_reference.py` after adding a rule or changing one's severity, kind,
citations, quoted text or cases (checks/*.py, tests/cases/<RULE-ID>.yaml); a test fails while
the catalogue is out of date, and tests/test_catalogue.py holds the registry to it, so a change of
severity is seen in review as a change to this one file.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from docgen.checker.cases import cases_dir, load_case_file  # noqa: E402
from docgen.checker.rules import all_rules  # noqa: E402
from docgen.core.rules import Rule, registered  # noqa: E402

INTRO = """# Rule catalogue

Every rule `docgen check` applies, with its severity, the kind of facts it reads, what it cites,
the words it rests on and the cases that test it. This page is generated from the rule registry
(`python tools/rule_reference.py`); `docgen rules` lists the same rules, and `docgen explain ID`
shows one with a passing and a failing example.

An `error` blocks issuance, a `warning` is shown and recorded, an `info` explains (what governs
in place of a form not in effect, say). The `document` rules read each rendered document back,
not the facts. A rule's cases live in `tests/cases/<ID>.yaml`: each builds its facts from a base
in `tests/cases/_bases.yaml` and says which findings must (*finds*) and must not (*finds no*)
come of them.
"""


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _anchor(rule_id: str) -> str:
    return rule_id.lower()


def _cases(entry: Rule) -> list[str]:
    path = cases_dir() / f"{entry.id}.yaml"
    if not path.is_file():
        return ["No cases: a document rule is tested on rendered documents (tests/test_*.py)."]
    lines = [f"Cases (`tests/cases/{path.name}`):", ""]
    for case in load_case_file(path):
        finds = [
            f"{rule_id} ({severity})" if severity else rule_id
            for rule_id, severity in case.expect.items()
        ]
        said = []
        if finds:
            said.append("finds " + ", ".join(finds))
        if case.absent:
            said.append("finds no " + ", ".join(case.absent))
        when = f"as of {case.as_of.isoformat()}, stage {case.stage}"
        lines.append(f"- {_cell(case.name)} ({when}): {'; '.join(said)}.")
    return lines


def _rule(entry: Rule) -> list[str]:
    stages = ", ".join(entry.stages) if entry.stages else "every stage of its kind"
    lines = [
        f"### {entry.id}",
        "",
        f"**{_cell(entry.title)}**",
        "",
        f"- severity: `{entry.severity}`",
        f"- kind: `{entry.applies_to}`",
        f"- stages: {stages}",
        *(["- reads across subjects: run over everyone after a recording"] * entry.across_subjects),
        f"- cites: {'; '.join(str(citation) for citation in entry.citations)}",
        "",
        _cell(entry.explanation),
        "",
    ]
    if entry.remedy:
        lines += [f"What to do when it fires: {_cell(entry.remedy)}", ""]
    if entry.sources:
        lines += ["The text it rests on:", ""]
        for source in entry.sources:
            how = "" if source.quoted else " (described, not quoted)"
            text = f"“{_cell(source.text)}”" if source.quoted else _cell(source.text)
            lines += [f"> {source.citation}{how}: {text}", ">"]
        lines[-1] = ""
    return [*lines, *_cases(entry), ""]


def render() -> str:
    all_rules()  # imports every kind's rule modules, so the registry is whole
    order = {entry.id: index for index, entry in enumerate(all_rules())}
    rules = sorted(registered().values(), key=lambda entry: order[entry.id])
    parts = [INTRO, "| id | severity | kind | title |", "| --- | --- | --- | --- |"]
    parts += [
        f"| [`{entry.id}`](#{_anchor(entry.id)}) | {entry.severity} | {entry.applies_to} | "
        f"{_cell(entry.title)} |"
        for entry in rules
    ]
    parts.append("")
    kinds = list(dict.fromkeys(entry.applies_to for entry in rules))
    for kind in kinds:
        parts += [f"## {kind}", ""]
        for entry in rules:
            if entry.applies_to == kind:
                parts += _rule(entry)
    return "\n".join(parts).rstrip() + "\n"


if __name__ == "__main__":
    target = ROOT / "docs" / "rules.md"
    target.write_text(render(), encoding="utf-8")
    print(f"wrote {target.relative_to(ROOT)}")
