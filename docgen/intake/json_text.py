"""Editing a JSON facts file as text: new entries spliced in, every other byte as written.

The file is scanned once for where each value is (start and end offsets, like YAML's marks);
a new list item or field takes the indentation of its neighbours (or of the file's first
indented line), a list written on one line stays on one line, and non-ASCII text is written as
the file writes it (raw, or as \\u escapes).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from docgen.intake.yaml_text import YamlEditError

_SPACE = re.compile(r"[ \t\n\r]*")
_INDENT = re.compile(r"\n([ \t]+)\S")


@dataclass
class JsonNode:
    start: int
    end: int
    shape: str  # object, array, scalar
    members: list[tuple[str, int, JsonNode]] = field(default_factory=list)  # key, key start
    items: list[JsonNode] = field(default_factory=list)


def scan(text: str) -> JsonNode:
    """Where every value of a JSON document is."""
    decoder = json.JSONDecoder()

    def skip(index: int) -> int:
        return _SPACE.match(text, index).end()

    def value(index: int) -> JsonNode:
        index = skip(index)
        char = text[index]
        if char == "{":
            node = JsonNode(index, index, "object")
            at = skip(index + 1)
            while text[at] != "}":
                key, after = json.decoder.scanstring(text, at + 1)
                colon = skip(after)
                member = value(colon + 1)
                node.members.append((key, at, member))
                at = skip(member.end)
                if text[at] == ",":
                    at = skip(at + 1)
            node.end = at + 1
            return node
        if char == "[":
            node = JsonNode(index, index, "array")
            at = skip(index + 1)
            while text[at] != "]":
                item = value(at)
                node.items.append(item)
                at = skip(item.end)
                if text[at] == ",":
                    at = skip(at + 1)
            node.end = at + 1
            return node
        _, end = decoder.raw_decode(text, index)
        return JsonNode(index, end, "scalar")

    return value(0)


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

    def subjects(self, list_field: str) -> list[JsonNode]:
        """The subjects the file itself lists, in file order."""
        people = _member(self.root, list_field)
        found = people.items if people is not None and people.shape == "array" else []
        if not all(node.shape == "object" for node in found):
            raise YamlEditError(f"an entry of {list_field} is not an object")
        return list(found)

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
        text = self.text
        for start, end, new in sorted(self.splices, reverse=True):
            text = text[:start] + new + text[end:]
        return text

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
