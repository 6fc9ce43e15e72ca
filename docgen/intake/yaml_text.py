"""Editing a YAML facts file as text: new entries spliced in where they belong, every other byte
left as the user wrote it (comments, blank lines, key order, quoting, ``null``, flow or block
style, the spaces inside ``{ }``).

ruamel.yaml's round-trip mode was tried and is not used to write: it re-emits the whole file,
and on the samples it turns ``null`` into an empty value, ``{ a: 1 }`` into ``{a: 1}`` and
realigns comments. The loader's composer (PyYAML, under docgen's YAML 1.2 core schema) is used
instead, to find where each field is (the character offsets of every node). The new text is
written in the style of its neighbours: a new list item like the list's last item, a new list
like the same list of a nearby subject, a new field at the subject's own indentation. A value
that is replaced (an investment allocation, a Beneficiary designation) is rewritten in its old
style; comments inside it go with it.
"""

from __future__ import annotations

import functools
import json
import re
from datetime import date
from decimal import Decimal
from typing import Any

from docgen.core.collector import paused_for_a_population
from docgen.core.errors import DocgenError, LoadError
from docgen.core.numbers import SourceNumber
from docgen.load.yaml_core import Loader
from docgen.load.yaml_facts import read_yaml

# A node of PyYAML's composer (a ScalarNode, SequenceNode or MappingNode), with its marks.
YamlNode = Any

# How many subjects either side of an edited one set the style of what is added to it.
NEIGHBOURS = 3

_TIGHT_BRACE = re.compile(r"[{\[][^\s}\]]")
_LOOSE_BRACE = re.compile(r"[{\[] [^}\]]")
_YAML11_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null", "~"}


class YamlEditError(DocgenError, ValueError):
    """The facts file has a shape docgen cannot add to without rewriting it. Exit code 2."""


class YamlText:
    """One YAML facts file's text, and the splices to make in it (applied all at once)."""

    def __init__(self, text: str):
        self.text = text
        self._root: YamlNode = None
        self._composed = False
        self.newline = "\r\n" if "\r\n" in text else "\n"
        self.splices: list[tuple[int, int, str]] = []
        self.loose = len(_LOOSE_BRACE.findall(text)) > len(_TIGHT_BRACE.findall(text))

    @property
    def root(self) -> YamlNode:
        """The whole document's nodes, composed when first asked for."""
        if not self._composed:
            # A large file is half a million nodes, none in a cycle (docgen.core.collector).
            with paused_for_a_population():
                self._root, self._composed = _compose(self.text), True
        return self._root

    # -- finding nodes

    def subjects(self, list_field: str) -> list[YamlNode]:
        """The subjects the file itself lists (a roster's are not in it), in file order."""
        people = _value(self.root, list_field)
        found = people.value if _is(people, "sequence") else []
        if not all(_is(node, "mapping") for node in found):
            raise YamlEditError(f"an entry of {list_field} is not a mapping")
        return list(found)

    def subject(self, list_field: str, index: int) -> tuple[YamlNode, list[YamlNode]]:
        """The subject at ``index`` of the list, and the peers whose style a new entry follows:
        up to NEIGHBOURS subjects either side."""
        people = self.subjects(list_field)
        if index >= len(people):
            raise YamlEditError(f"{list_field}[{index}] is not in the file")
        before, after = people[max(0, index - NEIGHBOURS) : index], people[index + 1 :]
        return people[index], before + after[:NEIGHBOURS]

    def span(self, subject: YamlNode) -> tuple[int, int]:
        """Where the subject's text is (every edit of it falls inside, or at its end)."""
        start = subject.start_mark.index
        return start, subject.end_mark.index if _flow(subject) else self._after(subject)

    # -- edits

    def append(self, subject: YamlNode, key: str, items: list[dict[str, Any]], peers: list):
        """Add ``items`` at the end of the subject's list ``key`` (created if absent)."""
        value = self._own(subject, key)
        if subject.flow_style:
            self._flow_append(subject, key, value, items)
        elif value is None:
            style = self._list_style(key, peers, subject)
            lines = [self._key_line(subject, key)] + self._block_items(items, *style)
            self._insert(self._after(subject), lines)
        elif not _is(value, "sequence"):
            raise YamlEditError(f"{key} is not a list")
        elif value.flow_style and value.value:
            end = value.value[-1].end_mark.index
            self.splices.append((end, end, "".join(", " + self._flow(item) for item in items)))
        elif value.flow_style:
            self._empty_flow_to_block(subject, key, value, items, peers)
        else:
            last = value.value[-1]
            dash = self._dash_column(last)
            kind = "flow" if getattr(last, "flow_style", False) else "block"
            lines = self._block_items(items, kind, dash, last.start_mark.column)
            self._insert(self._after(value), lines)

    def put(self, subject: YamlNode, key: str, new: Any, peers: list) -> None:
        """Set the subject's field ``key`` to ``new``, in the style of what was there."""
        value = self._own(subject, key)
        quoted = _keys_quoted(value) or any(_keys_quoted(_value(p, key)) for p in peers)
        if subject.flow_style or (value is not None and _flow(value)):
            text = self._flow(new, quoted)
            if value is None:
                end = subject.value[-1][1].end_mark.index
                self.splices.append((end, end, f", {key}: {text}"))
            else:
                self.splices.append((value.start_mark.index, value.end_mark.index, text))
            return
        if value is None:
            peer_flow = any(_flow(_value(p, key)) for p in peers if _value(p, key) is not None)
            column = subject.value[0][0].start_mark.column
            if peer_flow or not new:
                line = f"{' ' * column}{key}: {self._flow(new, quoted)}"
                self._insert(self._after(subject), [line])
            else:
                lines = [self._key_line(subject, key)]
                lines += self._block_value(new, column + 2, quoted)
                self._insert(self._after(subject), lines)
            return
        start = _line_start(self.text, value.start_mark.index)
        if _is(value, "sequence"):
            column = self._dash_column(value.value[0])
        else:
            column = value.start_mark.column
        end = self._after(value)
        block = self._block_value(new, column, quoted)
        self.splices.append((start, end, "".join(line + self.newline for line in block)))

    def amend(self, subject: YamlNode, key: str, index: int, values: dict[str, Any]) -> None:
        """Set fields of item ``index`` of the subject's list ``key`` (`docgen decide`): a value
        replaced where it stands, a new field on its own line at the item's indentation (or
        after the last in a ``{ }`` item), a field set to None taken out with its line, or with
        its comma in a ``{ }`` item (written ``null`` where neither can be: the first field of a
        ``{ }`` item, a block field sharing its line with the item's dash)."""
        items = self._own(subject, key)
        if not _is(items, "sequence") or index >= len(items.value):
            raise YamlEditError(f"{key}[{index}] is not in the file")
        item = items.value[index]
        if not _is(item, "mapping") or not item.value:
            raise YamlEditError(f"{key}[{index}] is not a mapping of fields")
        added: list[str] = []
        for name, new in values.items():
            old = _value(item, name)
            if old is not None and not _is(old, "scalar"):
                raise YamlEditError(f"{key}[{index}].{name} is not a single value")
            at = next((n for n, (k, _) in enumerate(item.value) if k.value == name), 0)
            if old is not None and new is None and _flow(item) and at > 0:
                # ", name: value" out of a { } item, from the end of the field before it
                self.splices.append((item.value[at - 1][1].end_mark.index, old.end_mark.index, ""))
            elif old is not None and (new is not None or not self._own_line(item, name)):
                start, end = old.start_mark.index, old.end_mark.index
                self.splices.append((start, end, _scalar(new, flow=_flow(item))))
            elif old is not None:
                key_node = next(k for k, v in item.value if v is old)
                start = _line_start(self.text, key_node.start_mark.index)
                self.splices.append((start, self._after(old), ""))
            elif new is not None:
                added.append(f"{name}: {_scalar(new, flow=_flow(item))}")
        if not added:
            return
        if _flow(item):
            end = item.value[-1][1].end_mark.index
            self.splices.append((end, end, "".join(", " + field for field in added)))
        else:
            column = item.value[0][0].start_mark.column
            self._insert(self._after(item), [" " * column + field for field in added])

    def _own_line(self, item: YamlNode, name: str) -> bool:
        """Whether field ``name`` of a block mapping is alone on its line(s): nothing before
        its key but indentation, nothing after its value but a comment."""
        if _flow(item):
            return False
        for number, (key_node, value) in enumerate(item.value):
            if key_node.value != name:
                continue
            at = key_node.start_mark.index
            if self.text[_line_start(self.text, at) : at].strip():
                return False  # the item's dash, or another field, before it
            following = item.value[number + 1 :]
            return not following or following[0][0].start_mark.line > value.end_mark.line
        return False

    # -- the result

    def result(self) -> str:
        text = self.text
        ordered = sorted(self.splices, key=lambda s: (s[0], s[1]))
        for (_, end_a, _), (start_b, _, _) in zip(ordered, ordered[1:], strict=False):
            if start_b < end_a:
                raise YamlEditError("two changes overlap in the file")
        pieces, at = [], 0  # in one pass, not a copy of the text per splice
        for start, end, new in ordered:
            pieces += [text[at:start], new]
            at = end
        return "".join([*pieces, text[at:]])

    # -- helpers

    def _own(self, subject: YamlNode, key: str) -> YamlNode:
        """The subject's own value for ``key``; an alias (``*name``) of another entry's value is
        refused: adding to it would change every entry that shares it."""
        value = _value(subject, key)
        if value is not None and not (
            subject.start_mark.index <= value.start_mark.index <= _content_end(subject)
        ):
            raise YamlEditError(
                f"{key} is written as an alias (*name) of another entry's; write it out in full "
                "to record a form in it"
            )
        return value

    def _insert(self, at: int, lines: list[str]) -> None:
        prefix = "" if at == 0 or self.text[at - 1] == "\n" else self.newline
        self.splices.append((at, at, prefix + "".join(line + self.newline for line in lines)))

    def _after(self, node: YamlNode) -> int:
        """Where the text after a node's last content begins: the start of the next line."""
        end = _content_end(node)
        if end > 0 and self.text[end - 1] == "\n":
            return end
        newline = self.text.find("\n", end)
        return len(self.text) if newline < 0 else newline + 1

    def _key_line(self, subject: YamlNode, key: str) -> str:
        return f"{' ' * subject.value[0][0].start_mark.column}{key}:"

    def _dash_column(self, item: YamlNode) -> int:
        start = _line_start(self.text, item.start_mark.index)
        dash = self.text.rfind("-", start, item.start_mark.index)
        if dash < 0:
            raise YamlEditError("a list item without its dash")
        return dash - start

    def _list_style(self, key: str, peers: list, subject: YamlNode) -> tuple[str, int, int]:
        """How another subject writes the same list: (flow or block items, dash column and
        content column relative to the key); else block items two spaces in."""
        key_column = subject.value[0][0].start_mark.column
        for peer in reversed(peers):
            found = _value(peer, key)
            if _is(found, "sequence") and not found.flow_style and found.value:
                peer_key = peer.value[0][0].start_mark.column
                item = found.value[-1]
                dash = self._dash_column(item) - peer_key + key_column
                content = item.start_mark.column - peer_key + key_column
                return ("flow" if getattr(item, "flow_style", False) else "block", dash, content)
        return "block", key_column + 2, key_column + 4

    def _empty_flow_to_block(self, subject, key, value, items, peers) -> None:
        """``key: []`` becomes a block list under the key; a comment after it stays put."""
        start, end = value.start_mark.index, value.end_mark.index
        line_end = self.text.find("\n", end)
        line_end = len(self.text) if line_end < 0 else line_end
        rest = self.text[end:line_end].rstrip("\r")
        if rest.strip():
            self.splices.append((start, end, " " * (end - start)))
        else:
            before = start
            while before > 0 and self.text[before - 1] in " \t":
                before -= 1
            self.splices.append((before, end + len(rest), ""))
        at = line_end + 1 if line_end < len(self.text) else line_end
        self._insert(at, self._block_items(items, *self._list_style(key, peers, subject)))

    def _flow_append(self, subject, key, value, items) -> None:
        if value is None:
            end = subject.value[-1][1].end_mark.index
            listed = ", ".join(self._flow(item) for item in items)
            self.splices.append((end, end, f", {key}: [{listed}]"))
        elif _is(value, "sequence") and value.value:
            end = value.value[-1].end_mark.index
            self.splices.append((end, end, "".join(", " + self._flow(item) for item in items)))
        elif _is(value, "sequence"):
            listed = ", ".join(self._flow(item) for item in items)
            self.splices.append((value.start_mark.index, value.end_mark.index, f"[{listed}]"))
        else:
            raise YamlEditError(f"{key} is not a list")

    def _block_items(self, items, style: str, dash: int, content: int) -> list[str]:
        lines = []
        for item in items:
            if style == "flow":
                lines.append(f"{' ' * dash}- {self._flow(item)}")
                continue
            gap = " " * max(1, content - dash - 1)
            for number, (name, value) in enumerate(item.items()):
                lead = f"{' ' * dash}-{gap}" if number == 0 else " " * content
                literal = _literal(value, content + 2)
                if literal is not None:
                    lines += [f"{lead}{name}: {literal[0]}", *literal[1:]]
                else:
                    lines.append(f"{lead}{name}: {self._inline(value)}")
        return lines

    def _block_value(self, value: Any, column: int, quoted: bool) -> list[str]:
        pad = " " * column
        if isinstance(value, dict):
            return [
                f"{pad}{_scalar(k, quoted=quoted)}: {self._inline(v)}" for k, v in value.items()
            ]
        lines = []
        for item in value:
            for number, (name, entry) in enumerate(item.items()):
                lead = f"{pad}- " if number == 0 else pad + "  "
                lines.append(f"{lead}{name}: {self._inline(entry)}")
        return lines

    def _inline(self, value: Any) -> str:
        return self._flow(value) if isinstance(value, (dict, list)) else _scalar(value)

    def _flow(self, value: Any, quoted: bool = False) -> str:
        space = " " if self.loose else ""
        if isinstance(value, dict):
            inner = ", ".join(
                f"{_scalar(k, flow=True, quoted=quoted)}: {self._flow(v)}" for k, v in value.items()
            )
            return f"{{{space}{inner}{space}}}" if inner else "{}"
        if isinstance(value, list):
            return f"[{', '.join(self._flow(item) for item in value)}]"
        return _scalar(value, flow=True)


def _literal(value: Any, column: int) -> list[str] | None:
    """Text of several lines as a literal block (``|``, its lines at ``column``), as counsel
    reads a wording in `docgen clauses`' block; None for a value that is not such text, or that
    a literal block cannot hold as it is (a blank or space-ended line, a control character)."""
    if not isinstance(value, str) or "\n" not in value.rstrip("\n"):
        return None
    lines = value.rstrip("\n").split("\n")
    if any(not line.strip() or line != line.rstrip() or not line.isprintable() for line in lines):
        return None
    header = "|" if value.endswith("\n") and not value.endswith("\n\n") else None
    if header is None:
        return None
    if lines[0].startswith(" "):
        header = "|2"  # the first line's own indentation is content, not the block's
    return [header, *(" " * column + line for line in lines)]


def _compose(text: str) -> YamlNode:
    """The document's nodes, with where each one is (marks in characters): the loader read the
    same text, so it composes."""
    loader = Loader(text)
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()


def _is(node: Any, shape: str) -> bool:
    """Whether ``node`` is a ``"scalar"``, ``"sequence"`` or ``"mapping"`` node (PyYAML's
    ``Node.id``)."""
    return getattr(node, "id", None) == shape


def _value(mapping: Any, key: str) -> YamlNode:
    if not _is(mapping, "mapping"):
        return None
    for key_node, value_node in mapping.value:
        if _is(key_node, "scalar") and key_node.value == key:
            return value_node
    return None


def _flow(node: YamlNode) -> bool:
    return bool(getattr(node, "flow_style", False)) and not _is(node, "scalar")


def _keys_quoted(node: YamlNode) -> bool:
    return (
        _is(node, "mapping")
        and bool(node.value)
        and all(key.style in ('"', "'") for key, _ in node.value)
    )


def _content_end(node: YamlNode) -> int:
    """The offset just after a node's last content (a block node's own end mark is at the next
    token, past any trailing comments and blank lines)."""
    if _is(node, "scalar") or _flow(node) or not node.value:
        return node.end_mark.index
    if _is(node, "mapping"):
        key, value = node.value[-1]
        return max(key.end_mark.index, _content_end(value))
    return _content_end(node.value[-1])


def _line_start(text: str, index: int) -> int:
    return text.rfind("\n", 0, index) + 1


def _scalar(value: Any, *, flow: bool = False, quoted: bool = False) -> str:
    """A value as YAML: dates ISO, numbers plain, text plain where it reads back as the same
    text (in a flow collection too, when ``flow``), else double-quoted."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return format(value.normalize(), "f") if value == value.to_integral_value() else str(value)
    if isinstance(value, int):
        return str(value)
    text = str(value)
    if quoted or not _plain_is_safe(text, flow):
        return json.dumps(text, ensure_ascii=False)
    return text


@functools.lru_cache(maxsize=4096)  # a pure function of its text; forms repeat their values
def _plain_is_safe(text: str, flow: bool) -> bool:
    if not text or text != text.strip() or text.lower() in _YAML11_WORDS:
        return False
    if flow and any(char in text for char in ",[]{}"):
        return False
    # As a value and as a key, in block context and (when ``flow``) inside [ ] and { }, read by
    # the loader's own reader.
    one = SourceNumber("1")
    contexts = [(f"k: {text}\n", {"k": text}), (f"{text}: 1\n", {text: one})]
    if flow:
        contexts += [
            (f"k: [{text}]\n", {"k": [text]}),
            (f"{{{text}: 1}}\n", {text: one}),
            (f"{{k: {text}}}\n", {"k": text}),
        ]
    for document, expected in contexts:
        try:
            if read_yaml(document, "")[0] != expected:
                return False
        except LoadError:  # any parse trouble: quote it
            return False
    return True
