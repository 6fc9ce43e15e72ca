"""Editing a JSON facts file as text: new entries spliced in, every other byte as written.

The file is scanned once for where each value is (start and end offsets, like YAML's marks);
a new list item or field takes the indentation of its neighbours (or of the file's first
indented line), a list written on one line stays on one line, and non-ASCII text is written as
the file writes it (raw, or as \\u escapes).
"""

from __future__ import annotations

import json
import re
from datetime import date
from decimal import Decimal
from typing import Any

from docgen.core.json_scan import scanstring, skip_space
from docgen.intake.yaml_text import YamlEditError

_INDENT = re.compile(r"\n([ \t]+)\S")


class JsonNode:
    """A value of the document: where it starts and ends, and (read on first need) its members
    or items. Only the containers on the way to an edit are walked; every other value is skipped
    by the C decoder, so a 10,000-participant file costs one decode of the list, not a scan."""

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

    def _walk(self) -> tuple[list[tuple[str, int, JsonNode]], list[JsonNode]]:
        """(the members, the items): an object has only members, an array only items."""
        members: list[tuple[str, int, JsonNode]] = []
        items: list[JsonNode] = []
        if self.shape == "scalar":
            return members, items
        text, closing = self.text, "}" if self.shape == "object" else "]"
        at = _skip(text, self.start + 1)
        while text[at] != closing:
            if self.shape == "object":
                key, after = scanstring(text, at + 1)
                value = JsonNode(text, _skip(text, _skip(text, after) + 1), self._decoder)
                members.append((key, at, value))
            else:
                value = JsonNode(text, at, self._decoder)
                items.append(value)
            at = _skip(text, value.end)
            if text[at] == ",":
                at = _skip(text, at + 1)
        self._end = at + 1
        return members, items


def _skip(text: str, index: int) -> int:
    return skip_space(text, index)


def scan(text: str) -> JsonNode:
    """The document's top value; its parts are found as they are asked for."""
    return JsonNode(text, _skip(text, 0), json.JSONDecoder())


class JsonText:
    """One JSON facts file's text, and the splices to make in it (applied all at once)."""

    def __init__(self, text: str):
        self.text = text
        self.root = scan(text)
        self.newline = "\r\n" if "\r\n" in text else "\n"
        found = _INDENT.search(text)
        self.unit = found.group(1) if found else "  "
        self.ascii = "\\u" in text and not any(ord(char) > 127 for char in text)
        self.splices: list[tuple[int, int, str]] = []
        self._subjects: dict[str, list[JsonNode]] = {}

    def subjects(self, list_field: str) -> list[JsonNode]:
        """The subjects the file itself lists, in file order (found once per list)."""
        found = self._subjects.get(list_field)
        if found is None:
            people = _member(self.root, list_field)
            found = people.items if people is not None and people.shape == "array" else []
            if not all(node.shape == "object" for node in found):
                raise YamlEditError(f"an entry of {list_field} is not an object")
            self._subjects[list_field] = found
        return list(found)

    def subject(self, list_field: str, index: int) -> tuple[JsonNode, list[JsonNode]]:
        """The subject at ``index`` of the list, and its peers: none, as JSON's style comes from
        the file's own indentation, not from other subjects."""
        people = self.subjects(list_field)
        if index >= len(people):
            raise YamlEditError(f"{list_field}[{index}] is not in the file")
        return people[index], []

    def span(self, subject: JsonNode) -> tuple[int, int]:
        """Where the subject's text is: its object, braces included."""
        return subject.start, subject.end

    def append(self, subject: JsonNode, key: str, items: list[dict[str, Any]], peers: list):
        array = _member(subject, key)
        if array is None:
            self._add_member(subject, key, items)
            return
        if array.shape != "array":
            raise YamlEditError(f"{key} is not a list")
        indent = self._indent_of(array.start)
        if not array.items:
            inner = indent + self.unit
            body = f",{self.newline}".join(inner + self._dump(item, inner) for item in items)
            new = f"[{self.newline}{body}{self.newline}{indent}]"
            self.splices.append((array.start, array.end, new))
            return
        last = array.items[-1]
        if self._on_own_line(last.start):
            column = self._indent_of(last.start)
            new = "".join(f",{self.newline}{column}{self._dump(item, column)}" for item in items)
        else:
            new = "".join(", " + self._dump(item, None) for item in items)
        self.splices.append((last.end, last.end, new))

    def put(self, subject: JsonNode, key: str, new: Any, peers: list) -> None:
        old = _member(subject, key)
        if old is None:
            self._add_member(subject, key, new)
            return
        multi = "\n" in self.text[old.start : old.end]
        column = self._indent_of(old.start)
        self.splices.append((old.start, old.end, self._dump(new, column if multi else None)))

    def result(self) -> str:
        """The text with every splice made (in one pass: a copy of the text per splice would
        cost a hundred copies of a 10 MB roster for a hundred forms)."""
        pieces, at = [], 0
        for start, end, new in sorted(self.splices):
            pieces += [self.text[at:start], new]
            at = end
        return "".join([*pieces, self.text[at:]])

    # -- helpers

    def _add_member(self, subject: JsonNode, key: str, value: Any) -> None:
        if subject.members:
            key_start = subject.members[-1][1]
            last = subject.members[-1][2]
            if self._on_own_line(key_start):
                column = self._indent_of(key_start)
                dumped = self._dump(value, column)
                new = f",{self.newline}{column}{self._key(key)}: {dumped}"
            else:
                new = f", {self._key(key)}: {self._dump(value, None)}"
            self.splices.append((last.end, last.end, new))
        else:
            new = f"{{{self._key(key)}: {self._dump(value, None)}}}"
            self.splices.append((subject.start, subject.end, new))

    def _key(self, key: str) -> str:
        return json.dumps(key, ensure_ascii=self.ascii)

    def _dump(self, value: Any, column: str | None) -> str:
        """``value`` as JSON: on one line (``column`` None) or indented under ``column``."""
        plain = _plain(value)
        if column is None:
            return json.dumps(plain, ensure_ascii=self.ascii)
        dumped = json.dumps(plain, ensure_ascii=self.ascii, indent=self.unit)
        return dumped.replace("\n", self.newline + column)

    def _on_own_line(self, index: int) -> bool:
        start = self.text.rfind("\n", 0, index) + 1
        return not self.text[start:index].strip()

    def _indent_of(self, index: int) -> str:
        start = self.text.rfind("\n", 0, index) + 1
        line = self.text[start:index]
        return line[: len(line) - len(line.lstrip(" \t"))]


def _member(node: JsonNode | None, key: str) -> JsonNode | None:
    if node is None or node.shape != "object":
        return None
    return next((value for name, _, value in node.members if name == key), None)


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value
