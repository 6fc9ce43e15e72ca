"""Where the top-level block lists of a YAML facts file are, found in its text before it is parsed:
each list's key, the line its key is on, and the offset and line where each of its items starts.

This is a guess from the text's shape, at C speed (a few regular-expression searches whose
patterns begin with a newline, which the engine finds with a fast scan): a list is a top-level
key written alone on its line (``participants:``, a comment after it allowed), followed, past
blank and comment lines, by a line of N spaces, a dash and a space (or the line's end); its items
are the lines starting with exactly those N spaces and a dash, up to the first line that starts
at the first column with anything but a comment. A line indented less than the items, or as much
but not an item, makes the whole guess void (None): such a text is read the usual way.

A guess can still be wrong where a multi-line quoted string or a flow collection holds such
lines. docgen.load.yaml_lists never trusts it: it composes what the guess calls one item or a run
of items alone and checks that it is exactly that many items, each starting on the line
guessed, and reads the file the usual way where it is not.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

# A line at the first column that is not blank, a comment or a list item: a top-level key (or
# something a parser will refuse). The first line of the text is looked at on its own.
_TOP_LEVEL = re.compile(r"\n[^ \r\n#\-]")
_LIST_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_]*):(?:[ ]+#[^\r\n]*|[ ]*)\r?\n")
# Past blank and comment lines, the first item's indentation.
_FIRST_ITEM = re.compile(r"(?:[ ]*(?:#[^\r\n]*)?\r?\n)*( *)-(?:[ \r\n]|\Z)")


@dataclass(frozen=True)
class ListLayout:
    """A top-level block list as the text shows it: ``field``'s key on ``key_line`` (1-based), its
    items starting at ``starts`` (offsets of their lines' first character) on ``lines``, the
    items' text running to ``end`` (an offset: the next top-level line's, or the text's end)."""

    field: str
    key_line: int
    starts: list[int]
    lines: list[int]
    end: int


@dataclass(frozen=True)
class _Patterns:
    item: re.Pattern[str]
    stop: re.Pattern[str]


_BY_INDENT: dict[int, _Patterns] = {}


def _patterns(indent: int) -> _Patterns:
    """The item lines of a list indented ``indent`` spaces, and the first line that is neither an
    item nor indented more than one (nor blank, nor a comment)."""
    found = _BY_INDENT.get(indent)
    if found is None:
        spaces = " " * indent
        found = _BY_INDENT[indent] = _Patterns(
            re.compile(rf"\n{spaces}-(?=[ \r\n]|\Z)"),
            re.compile(rf"\n(?!{spaces}-(?:[ \r\n]|\Z)) {{0,{indent}}}[^ \r\n#]"),
        )
    return found


def _top_level_starts(text: str) -> Iterator[int]:
    if text[:1] not in ("", " ", "\r", "\n", "#", "-"):
        yield 0
    for top in _TOP_LEVEL.finditer(text):
        yield top.start() + 1


def top_level_lists(text: str) -> list[ListLayout] | None:
    """The top-level block lists the text seems to hold, in file order; None where its shape
    puts a line where none may be (see above), or a lone carriage return counts lines otherwise
    than newlines do."""
    if text.count("\r") != text.count("\r\n"):
        return None
    found: list[ListLayout] = []
    at = 0  # lines before this offset are inside a list already found
    line, counted = 1, 0
    for start in _top_level_starts(text):
        if start < at:
            continue
        key = _LIST_KEY.match(text, start)
        if key is None:
            continue
        item = _FIRST_ITEM.match(text, key.end())
        if item is None:
            continue
        indent = len(item.group(1))
        first = item.start(1)
        patterns = _patterns(indent)
        stop = patterns.stop.search(text, first - 1)
        end = len(text) if stop is None else stop.start() + 1
        if stop is not None and text[end] == " ":
            return None  # a line indented less than the items, or as much but not an item
        starts = [first] + [m.start() + 1 for m in patterns.item.finditer(text, first, end)]
        line += text.count("\n", counted, start)
        counted = start
        key_line = line
        lines = []
        for offset in starts:
            line += text.count("\n", counted, offset)
            counted = offset
            lines.append(line)
        found.append(ListLayout(key.group(1), key_line, starts, lines, end))
        at = end
    return found
