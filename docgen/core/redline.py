"""A word-level redline of one wording against another (DESIGN.md, "Drafted clauses and
counsel's approval"): what counsel approved (or the built-in text) against what now prints, as a
list of runs, each kept, deleted or inserted. The terminal shows it as ``[-old-]{+new+}``, the
HTML report as ``<del>``/``<ins>``, the review DOCX as tracked changes."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Literal

_TOKEN = re.compile(r"\n|[^\S\n]+|[^\s]+")


@dataclass(frozen=True)
class Run:
    op: Literal["equal", "delete", "insert"]
    text: str


def redline(before: str, after: str) -> list[Run]:
    """The runs that turn ``before`` into ``after``, word by word (whitespace and line ends are
    their own tokens, so a changed word is shown alone)."""
    old, new = _TOKEN.findall(before), _TOKEN.findall(after)
    runs: list[Run] = []
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            runs.append(Run("equal", "".join(old[i1:i2])))
            continue
        if i2 > i1:
            runs.append(Run("delete", "".join(old[i1:i2])))
        if j2 > j1:
            runs.append(Run("insert", "".join(new[j1:j2])))
    return runs


def changed(runs: list[Run]) -> bool:
    return any(run.op != "equal" for run in runs)


def as_text(runs: list[Run]) -> str:
    """The redline for a terminal: deletions as ``[-words-]``, insertions as ``{+words+}``."""
    parts = []
    for run in runs:
        if run.op == "delete":
            parts.append(f"[-{run.text}-]")
        elif run.op == "insert":
            parts.append(f"{{+{run.text}+}}")
        else:
            parts.append(run.text)
    return "".join(parts)


def changes_only(runs: list[Run], context: int = 6) -> str:
    """The redline's changes only, each with up to ``context`` words before and after, joined
    by " … ", for a one-line message."""
    pieces = []
    index = 0
    while index < len(runs):
        if runs[index].op == "equal" or not runs[index].text.strip():
            index += 1
            continue
        start = index
        while index < len(runs) and runs[index].op != "equal":
            index += 1
        # Context from the same line only, whole words; "…" where it is cut short.
        before = runs[start - 1].text.split("\n")[-1].split() if start else []
        after = runs[index].text.split("\n")[0].split() if index < len(runs) else []
        lead = (["…"] if len(before) > context else []) + before[-context:]
        tail = after[:context] + (["…"] if len(after) > context else [])
        marks = [
            f"[-{' '.join(run.text.split())}-]"
            if run.op == "delete"
            else f"{{+{' '.join(run.text.split())}+}}"
            for run in runs[start:index]
            if run.text.strip()
        ]
        pieces.append(" ".join([*lead, *marks, *tail]))
    return " … ".join(pieces)
