"""Messages name no other company's values (issue 44): a new company's user is never shown the
sample company's address, ticker or people as if they were examples of their own. Field
descriptions (the reference docs) and comments may cite the samples; messages may not: docgen's
own, the rules' (checks/: a finding's message, remedy and explanation) and the templates' (the
check report, the workspace's screens, the cover letters)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_VALUES = (
    "Richmond",
    "23220",
    "EXCO",
    "jsmith",
    "CarMax",
    "747-0422",
    "(804)",
    "Jane Roe",
    "Kiran Patel",
    "kpatel",
    "hmueller",
    "Pat Lee",
    "e1001",
    "KMX",
)
# Where a message names the seed Plan as the source of a default Plan term
# (RRP-PLAN-TERM-DEFAULTED): whose term it is, said so the user confirms their own, not an example.
PROVENANCE = ("CarMax, Inc. Retirement Restoration Plan", "the CarMax Plan's term")
JINJA_COMMENT = re.compile(r"\{#.*?#\}", re.DOTALL)


def _quoted_in_python(path: Path) -> list[tuple[int, str]]:
    """Each line of a module's code that is not a comment, a docstring (or a quote of the seed
    documents, checks/*_sources.py, which are the Plan's and the forms' own words, cited) or a
    field's description."""
    found = []
    in_docstring = False
    in_description = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        stripped = line.strip()
        if stripped.count('"""') == 1:
            in_docstring = not in_docstring
            continue
        one_line_docstring = stripped.startswith('"""') and stripped.endswith('"""')
        if in_docstring or one_line_docstring or stripped.startswith("#"):
            continue
        if "description=" in stripped:
            in_description = True
        elif in_description and not stripped.startswith('"'):
            in_description = False
        if in_description:
            continue
        found.append((number, line.split("  #")[0]))
    return found


def _samples_in(lines: list[tuple[int, str]], shown: str) -> list[str]:
    return [
        f"{shown}:{number}: {value}"
        for number, code in lines
        if not any(phrase in code for phrase in PROVENANCE)
        for value in SAMPLE_VALUES
        if value in code
    ]


def test_no_message_quotes_the_sample_company():
    found = []
    for folder in ("docgen", "checks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            found += _samples_in(_quoted_in_python(path), str(path.relative_to(ROOT)))
    assert not found, "\n".join(found)


def test_no_template_of_a_message_or_document_quotes_the_sample_company():
    found = []
    for path in sorted((ROOT / "templates").rglob("*.j2")):
        text = JINJA_COMMENT.sub(lambda m: "\n" * m.group().count("\n"), path.read_text("utf-8"))
        lines = list(enumerate(text.splitlines(), start=1))
        found += _samples_in(lines, str(path.relative_to(ROOT)))
    assert not found, "\n".join(found)


def test_the_scan_sees_a_rules_message_and_a_templates_text(tmp_path):
    """The scan itself: a sample value in a rule's message or a template's text is found; in a
    comment, a docstring or a Jinja comment it is not."""
    rule = tmp_path / "rule.py"
    rule.write_text(
        '"""A rule about CarMax."""\n# CarMax\nyield Hit(x, "write it like jsmith")\n',
        encoding="utf-8",
    )
    assert _samples_in(_quoted_in_python(rule), "rule.py") == ["rule.py:3: jsmith"]
    text = JINJA_COMMENT.sub("", "{# Richmond #}<p>Ask Jane Roe</p>")
    assert _samples_in([(1, text)], "t.j2") == ["t.j2:1: Jane Roe"]
