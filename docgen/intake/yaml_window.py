"""A few subjects of a YAML facts file composed alone, where the whole file need not be: the lines
the loader found each subject on say where its text is, and the nodes of those lines are given
the offsets and lines they have in the whole file.

Recording one form into a 10,000-participant roster needs the nodes of one participant (where to
splice) and of its neighbours (the style a new list or field follows); composing the whole file
for them took longer than loading it. What is composed is checked to be exactly the subjects
expected, each starting on its own line; anything else (a list written in flow style, a subject
that shares a line, a text libyaml leaves to ruamel) gives None, and the caller composes the
whole file as before.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from docgen.load.yaml_libyaml import Declined, compose_with_libyaml

# How many subjects either side of an edited one are composed with it: the peers whose style a
# new list or field follows (docgen.intake.yaml_text).
NEIGHBOURS = 3


@dataclass(frozen=True)
class SubjectLines:
    """Where the loader found the subjects of a YAML facts file: the line (1-based) each
    subject the file lists starts on, in file order, its id, and the line of the first top-level
    field after the list (None: the list runs to the end of the file)."""

    starts: Sequence[int]
    ids: Sequence[str]
    stop: int | None


def window(
    text: str, layout: SubjectLines, index: int, offsets: LineOffsets
) -> tuple[list[Any], int] | None:
    """The nodes of the subjects around ``index`` (their marks as in the whole text) and the
    place of ``index`` among them; None where the lines do not hold exactly those subjects."""
    starts = layout.starts
    if not 0 <= index < len(starts) or offsets.lone_carriage_return:
        return None
    low, high = max(0, index - NEIGHBOURS), min(len(starts), index + NEIGHBOURS + 1)
    begin = offsets.of(starts[low])
    end_line = starts[high] if high < len(starts) else layout.stop
    end = offsets.of(end_line) if end_line is not None else len(text)
    if begin is None or end is None or begin >= end:
        return None
    try:
        root = compose_with_libyaml(text[begin:end])
    except Declined:
        return None
    if getattr(root, "id", None) != "sequence" or len(root.value) != high - low:
        return None
    shift_lines = starts[low] - 1
    _shift(root, begin, shift_lines)
    expected = zip(root.value, starts[low:high], layout.ids[low:high], strict=True)
    for node, line, subject_id in expected:
        if getattr(node, "id", None) != "mapping" or node.start_mark.line + 1 != line:
            return None
        if not any(key.value == "id" and value.value == subject_id for key, value in node.value):
            return None
    return list(root.value), index - low


class LineOffsets:
    """The offset where each line of a text begins (found once, at C speed)."""

    def __init__(self, text: str):
        self.text = text
        self._lengths: list[int] | None = None
        # A CR alone is a line break to libyaml: the loader's lines are then not these.
        self.lone_carriage_return = text.count("\r") != text.count("\r\n")

    def of(self, line: int) -> int | None:
        if self._lengths is None:  # the lengths of the lines before each line, newlines aside
            self._lengths = list(itertools.accumulate(map(len, self.text.split("\n")), initial=0))
        if not 1 <= line < len(self._lengths):
            return None
        return self._lengths[line - 1] + line - 1


def _shift(node: Any, offset: int, lines: int) -> None:
    """Every mark of ``node`` and its children moved by ``offset`` characters and ``lines``
    lines (the window's text begins at a line start, so columns stay as they are). libyaml's
    marks cannot be changed: each node is given new ones."""
    seen: set[int] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if id(current) in seen:  # a node reached twice (an alias) is moved once
            continue
        seen.add(id(current))
        for name in ("start_mark", "end_mark"):
            mark = getattr(current, name)
            moved = type(mark)(
                mark.name, mark.index + offset, mark.line + lines, mark.column, None, None
            )
            setattr(current, name, moved)
        if isinstance(current.value, list):
            for child in current.value:
                stack.extend(child if isinstance(child, tuple) else (child,))
