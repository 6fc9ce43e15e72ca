"""Inherited seed text that refers to something no document of the cycle defines
(DOC-SEED-UNDEFINED, info, for counsel). The seed Notice's Section I shifts the expenses "related
to the arbitration" when an action is not "deemed to be frivolous by the arbitrator", but neither
the Notice nor Exhibit I (nor the Plan's text docgen holds) provides for arbitration: the words
refer to nothing. docgen keeps the seed's words verbatim (it never redrafts them silently) and
reports them, quoted, so counsel can supply the missing clause or approve the text as it stands.
Read from the wording of each document template the stage issues (the company's own, or the
built-in), without rendering."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from docgen.checker.rules import get_rule
from docgen.core.findings import Finding
from docgen.core.resources import read_template
from docgen.core.wording import wording_of
from docgen.kinds import kind_of

RULE = "DOC-SEED-UNDEFINED"
_SECTION = re.compile(r"^([A-Z](?:\.\d+)?)\.\s")
_SENTENCE = re.compile(r"[^.;:]*(?:[.;:](?!\d)|$)")


@dataclass(frozen=True)
class Reference:
    """Words that presuppose a provision, and what would provide it."""

    words: tuple[str, ...]  # "the arbitrator", "the arbitration"
    defined_by: re.Pattern[str]  # text that would define it (an agreement to arbitrate)
    needs: str  # what is missing, in counsel's words


REFERENCES = (
    Reference(
        ("the arbitrator", "the arbitration"),
        re.compile(
            r"\b(?:settled|resolved|determined|submitted)\s+(?:exclusively\s+)?(?:by|to)\s+"
            r"(?:binding\s+)?arbitration\b|\bagree(?:s)?\s+to\s+arbitrate\b|"
            r"\barbitration\s+(?:clause|agreement|provision)\b",
            re.IGNORECASE,
        ),
        "a provision for arbitration (an agreement to arbitrate, its rules and who the "
        "arbitrator is)",
    ),
)


def _sentence_with(line: str, word: str) -> str:
    """The sentence of ``line`` that holds ``word``."""
    at = line.lower().find(word)
    start = max(line.rfind(". ", 0, at), line.rfind("; ", 0, at))
    start = 0 if start < 0 else start + 2
    end = line.find(". ", at)
    return line[start : end + 1 if end >= 0 else len(line)].strip()


def _section(lines: list[str], index: int) -> str | None:
    for line in reversed(lines[: index + 1]):
        found = _SECTION.match(line.strip())
        if found:
            return found.group(1)
    return None


def undefined_references(loaded: Any, stage: str, head: str) -> list[Finding]:
    """DOC-SEED-UNDEFINED, one info finding per document whose wording uses words of a
    Reference that no document of the stage defines."""
    kind = kind_of(loaded.facts)
    override = getattr(loaded, "templates_override", None)
    specs = {spec.name: spec for _subject, spec in kind.issued(loaded.facts, stage)}
    wordings = {
        name: wording_of(read_template(spec.template, override)[0]) for name, spec in specs.items()
    }
    every = "\n".join(wordings.values())
    rule = get_rule(RULE)
    findings = []
    for reference in REFERENCES:
        if reference.defined_by.search(every):
            continue
        for name, wording in wordings.items():
            lines = wording.splitlines()
            hits = [
                (index, line)
                for index, line in enumerate(lines)
                if any(word in line.lower() for word in reference.words)
            ]
            if not hits:
                continue
            index, line = hits[0]
            used = [word for word in reference.words if word in wording.lower()]
            quoted = _sentence_with(line, used[0])
            section = _section(lines, index)
            where = f"{specs[name].title}, Section {section}" if section else specs[name].title
            named = " and ".join(f"“{word}”" for word in used)
            message = (
                f"{where} (the seed's words) reads “{quoted}”: {named} refer to {reference.needs}"
                ", which no document of this stage contains."
            )
            remedy = (
                "For counsel: supply the missing provision (a company template, "
                "`docgen templates --export`), or confirm the seed's words as they stand."
            )
            findings.append(rule.finding(head, f"{head}/{name}", message, remedy=remedy))
    return findings
