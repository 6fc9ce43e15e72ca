"""A JSON facts file read by the standard library's parser, and a fact's line found only when a
message asks for it.

Numbers are handed on as their source text (docgen.core.numbers), as YAML's are: never through a
float, and never through ``int`` (``-0`` would lose its sign, and a 4,301-digit integer stops
Python's), so the field's type reads or refuses them with a message. A key written twice in one
object is refused at its line. Nesting deeper than the parser allows is refused with its line;
anything shallower that no fact can hold is refused by the model, field by field.

Where each value is in the text (:class:`JsonNode`) is found by walking only the containers on
the way to it, every other value skipped by the standard library's decoder; docgen.intake's JSON
editor finds where to splice the same way.
"""

from __future__ import annotations

import bisect
import json
import re
from typing import Any

from docgen.core.errors import LoadError, Problem
from docgen.core.model import PathKey
from docgen.core.numbers import SourceNumber
from docgen.load.source import SourceMap, format_path
from docgen.load.yaml_facts import MAX_DEPTH


def load_json(text: str, shown: str) -> tuple[Any, SourceMap]:
    """The facts in ``text`` and where each is; LoadError where the text is not JSON, or holds a
    key twice (``shown`` names the file in the messages)."""
    duplicated = False

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal duplicated
        members = dict(pairs)
        duplicated = duplicated or len(members) != len(pairs)
        return members

    try:
        data = json.loads(
            text,
            object_pairs_hook=pairs_hook,
            parse_float=SourceNumber,
            parse_int=SourceNumber,
            parse_constant=SourceNumber,  # NaN, Infinity: refused by the field's type
        )
        if duplicated:
            raise LoadError(_duplicate_keys(text, shown))
    except json.JSONDecodeError as error:
        raise LoadError(
            [
                Problem(
                    shown,
                    error.lineno,
                    "",
                    f"not valid JSON: {error.msg}",
                    fix=f"Look at column {error.colno}: a missing comma, quote or brace.",
                )
            ]
        ) from None
    except RecursionError:
        raise LoadError(
            [
                Problem(
                    shown,
                    _deep_line(text),
                    "",
                    f"nested more than {MAX_DEPTH} levels deep",
                    fix="A facts file is a few levels deep; check the brackets.",
                )
            ]
        ) from None
    return data, json_source(text, shown)


def json_source(text: str, shown: str) -> SourceMap:
    """Where each fact of a JSON text is, found when a line is first asked for."""
    return SourceMap(shown, find=_Locator(text).line)


class JsonNode:
    """A value of a JSON text: where it starts and ends, and (found on first need) its members
    or items. Only the containers asked about are walked; every value inside one is skipped by
    the standard library's decoder, so a 10,000-participant list costs one decode, not a scan."""

    def __init__(self, text: str, start: int, decoder: json.JSONDecoder):
        self.text, self.start, self._decoder = text, start, decoder
        char = text[start]
        self.shape = "object" if char == "{" else "array" if char == "[" else "scalar"
        self._end: int | None = None
        self._members: list[tuple[str, int, JsonNode]] | None = None
        self._items: list[JsonNode] | None = None

    @property
    def end(self) -> int:
        if self._end is None:
            _, self._end = self._decoder.raw_decode(self.text, self.start)
        return self._end

    @property
    def members(self) -> list[tuple[str, int, JsonNode]]:
        """Each member of an object: its key, the key's offset, its value."""
        if self._members is None:
            self._members, self._items = self._walk()
        return self._members

    @property
    def items(self) -> list[JsonNode]:
        if self._items is None:
            self._members, self._items = self._walk()
        return self._items

    def member(self, key: str) -> tuple[int, JsonNode] | None:
        """The offset of the member ``key`` and its value; None for no such member."""
        if self.shape != "object":
            return None
        return next(((at, value) for name, at, value in self.members if name == key), None)

    def _walk(self) -> tuple[list[tuple[str, int, JsonNode]], list[JsonNode]]:
        """(the members, the items): an object has only members, an array only items."""
        members: list[tuple[str, int, JsonNode]] = []
        items: list[JsonNode] = []
        if self.shape == "scalar":
            return members, items
        text, closing = self.text, "}" if self.shape == "object" else "]"
        at = skip_space(text, self.start + 1)
        while text[at] != closing:
            if self.shape == "object":
                key, after = self._decoder.raw_decode(text, at)
                value = JsonNode(text, skip_space(text, skip_space(text, after) + 1), self._decoder)
                members.append((key, at, value))
            else:
                value = JsonNode(text, at, self._decoder)
                items.append(value)
            at = skip_space(text, value.end)
            if text[at] == ",":
                at = skip_space(text, at + 1)
        self._end = at + 1
        return members, items


_SPACE = re.compile(r"[ \t\n\r]*")  # JSON's white space (RFC 8259, section 2)


def skip_space(text: str, index: int) -> int:
    """The offset of the first character at or after ``index`` that is not JSON white space."""
    found = _SPACE.match(text, index)  # the pattern matches the empty string too
    return found.end() if found is not None else index


def scan(text: str) -> JsonNode:
    """The top value of a JSON text the parser has read; its parts are found as asked for.
    Numbers are skipped as their text (``int`` would refuse 4,301 digits)."""
    decoder = json.JSONDecoder(parse_int=str, parse_float=str, parse_constant=str)
    return JsonNode(text, skip_space(text, 0), decoder)


class _Locator:
    """The line of a fact path: a member's key's line, or a list item's own."""

    def __init__(self, text: str):
        self.text = text
        self.root = scan(text)
        self._breaks: list[int] | None = None  # the offset of every newline, found once

    def line(self, path: PathKey) -> int | None:
        node, at = self.root, self.root.start
        try:
            for part in path:
                if isinstance(part, int):
                    if node.shape != "array" or not 0 <= part < len(node.items):
                        return None
                    node = node.items[part]
                    at = node.start
                else:
                    found = node.member(part)
                    if found is None:
                        return None
                    at, node = found
        except (ValueError, IndexError):  # a text the parser refused: no line
            return None
        return self.line_at(at)

    def line_at(self, offset: int) -> int:
        """The line (1-based) of the character at ``offset``."""
        if self._breaks is None:
            self._breaks = [found.start() for found in re.finditer("\n", self.text)]
        return bisect.bisect_left(self._breaks, offset) + 1


def _duplicate_keys(text: str, shown: str) -> list[Problem]:
    """A problem for each key written again in the same object, at its line (the value of a
    key written twice is not looked into)."""
    locator, problems = _Locator(text), []

    def walk(node: JsonNode, path: PathKey) -> None:
        if node.shape == "array":
            for index, item in enumerate(node.items):
                walk(item, (*path, index))
            return
        seen = set()
        for key, at, value in node.members:
            child = (*path, key)
            if key in seen:
                problems.append(
                    Problem(
                        shown,
                        locator.line_at(at),
                        format_path(child),
                        "this key appears twice",
                        fix="Keep one of the two entries.",
                    )
                )
                continue
            seen.add(key)
            walk(value, child)

    walk(locator.root, ())
    return problems


def _deep_line(text: str) -> int | None:
    """The line where the JSON text first nests deeper than MAX_DEPTH (for the refusal only: a
    file the parser read needs no such walk, as no fact takes a nested value)."""
    depth, in_string, escaped = 0, False, False
    for index, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return text.count("\n", 0, index) + 1
        elif char in "]}":
            depth -= 1
    return None
