"""Editing a JSON facts file as text: new entries spliced in, every other byte as written.

Where each value is (start and end offsets, like YAML's marks) is found as the loader finds a
fact's line (docgen.load.json_reader.JsonNode), walking only the containers on the way to an edit;
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

from docgen.intake.yaml_text import YamlEditError
from docgen.load.json_reader import JsonNode, scan

_INDENT = re.compile(r"\n([ \t]+)\S")


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

    def amend(self, subject: JsonNode, key: str, index: int, values: dict[str, Any]) -> None:
        """Set fields of item ``index`` of the subject's array ``key`` (`docgen decide`): a
        value replaced where it stands, new members after the last (in this order), a member
        set to None taken out with its comma."""
        array = _member(subject, key)
        if array is None or array.shape != "array" or index >= len(array.items):
            raise YamlEditError(f"{key}[{index}] is not in the file")
        item = array.items[index]
        if item.shape != "object" or not item.members:
            raise YamlEditError(f"{key}[{index}] is not an object with fields")
        members = item.members
        added: dict[str, Any] = {}
        for name, new in values.items():
            at = next((n for n, (member, _, _) in enumerate(members) if member == name), None)
            if at is None:
                if new is not None:
                    added[name] = new
                continue
            old = members[at][2]
            if new is not None:
                self.splices.append((old.start, old.end, self._dump(new, None)))
            elif at > 0:  # from the end of the member before it: its comma goes with it
                self.splices.append((members[at - 1][2].end, old.end, ""))
            elif len(members) > 1:
                self.splices.append((members[0][1], members[1][1], ""))
            else:
                self.splices.append((members[0][1], old.end, ""))
        if not added:
            return
        key_start, last = members[-1][1], members[-1][2]
        if self._on_own_line(key_start):
            column = self._indent_of(key_start)
            new_text = "".join(
                f",{self.newline}{column}{self._key(name)}: {self._dump(value, column)}"
                for name, value in added.items()
            )
        else:
            new_text = "".join(
                f", {self._key(name)}: {self._dump(value, None)}" for name, value in added.items()
            )
        self.splices.append((last.end, last.end, new_text))

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
