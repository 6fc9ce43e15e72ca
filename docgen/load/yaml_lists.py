"""A large YAML facts file read with its top-level lists (the participants, the directors) composed
a few hundred items at a time, and the lines inside their items found when asked.

Reading 10,000 participants the usual way (docgen.load.yaml_reader.compose) builds libyaml's node
tree of the whole file at once (about 930 MB at 50,000 participants) and records a line for each
of its 340,000 fact paths, of which a check asks a few hundred. Here, instead:

- docgen.load.yaml_layout guesses from the text where each top-level block list and each of its
  items starts;
- the text outside those lists (the list's items blanked out, line for line, so every line stays
  where it is) is composed and walked the usual way, every path with its line;
- each run of CHUNK items is composed alone and must be exactly that many items, each starting
  on the line guessed; each item is walked by a walker that records no path and no line
  (_ItemWalker), and only the line each item starts on is kept;
- a line inside an item is found when asked (SourceMap's ``find``): that item's text is composed
  alone again, checked to be that one item (with its id), walked the usual way, and its lines
  moved down to where the item is; each item's lines are kept once found.

A run of items composed alone is read exactly as the whole file reads it: it starts where an
item starts (the first item, then the line after the run before, which composed to whole items),
so libyaml is in the same state there, and a run that ended inside something longer (a quoted
string, a flow collection) would not compose, or not to the items expected.

Anything else gives way to the usual reading of the whole file, which words every message: no
list the guess can trust, an alias anywhere (``*``), a text libyaml leaves to ruamel, a run that
is not the items expected, and any problem the walkers meet (a duplicate or merge key, a
foreign tag, a value that is no boolean, nesting too deep). So every value, message and line is
the one the usual reading gives.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from yaml.nodes import MappingNode, ScalarNode

from docgen.core.model import PathKey
from docgen.load.yaml_core import (
    COLLECTION_TAGS,
    MERGE,
    PLAIN,
    SCALAR_TAGS,
    STR,
    NotABoolean,
    NotAValue,
    construct,
)
from docgen.load.yaml_layout import ListLayout, top_level_lists
from docgen.load.yaml_libyaml import (
    Declined,
    available,
    compose_part,
    holds_a_flow_collection,
    json_like_key_possible,
    ruamel_must_read,
)
from docgen.load.yaml_reader import (
    MAX_DEPTH,
    _plain_scalar,
    _ReadAgain,
    _resolved_tag,
    _Walker,
    compose,
)

_UNKNOWN = object()

# Items composed in one libyaml call: enough that the calls cost nothing beside the parsing, few
# enough that one run's nodes are all of the node tree alive at a time.
CHUNK = 256

Find = Callable[[PathKey], "int | None"]


def read_yaml(text: str, shown: str) -> tuple[Any, dict[PathKey, int], Find | None]:
    """The facts in ``text``, the lines recorded as read, and where a line not recorded is found
    (None: every line is recorded)."""
    read = _by_lists(text, shown)
    if read is not None:
        return read
    data, lines = compose(text, shown)
    return data, lines, None


class _FlowCheck:
    """Where a JSON-like key may be, libyaml declines any text holding a flow collection that is
    not empty (docgen.load.yaml_libyaml): so does this reading, for each part. The text is
    searched for such a key only when a flow collection is met: a block-style roster of 10,000
    participants never pays the four scans of its whole text (23 ms)."""

    def __init__(self, text: str):
        self.text = text
        self._declines: bool | None = None

    def declines(self) -> bool:
        if self._declines is None:
            self._declines = json_like_key_possible(self.text)
        return self._declines


_NEVER_DECLINES = _FlowCheck("")  # an id's value, read alone: no text holds a key to decline


class _NotAsGuessed(Exception):
    """The text is not what its layout seemed: the whole file is read the usual way."""


def _by_lists(text: str, shown: str) -> tuple[Any, dict[PathKey, int], Find] | None:
    if "*" in text or not available() or ruamel_must_read(text):
        return None
    layouts = top_level_lists(text)
    if not layouts:
        return None
    flow = _FlowCheck(text)
    try:
        data, lines = _outside_lists(text, shown, layouts, flow)
        walker = _ItemWalker(flow)
        ids = {}
        for layout in layouts:
            items = walker.items(text, layout, lines)
            data[layout.field] = items
            ids[layout.field] = [_id_of(item) for item in items]
    except (Declined, _ReadAgain, _NotAsGuessed, RecursionError):
        return None
    return data, lines, _ItemLines(text, shown, layouts, ids).find


def _outside_lists(
    text: str, shown: str, layouts: list[ListLayout], flow: _FlowCheck
) -> tuple[dict[str, Any], dict[PathKey, int]]:
    """The facts outside the lists, every path with its line; each list's key holds None."""
    parts, at = [], 0
    for layout in layouts:
        begin = layout.starts[0]
        parts += [text[at:begin], "\n" * text.count("\n", begin, layout.end)]
        at = layout.end
    parts.append(text[at:])
    root = compose_part("".join(parts))
    if root is None or root.id != "mapping" or (holds_a_flow_collection(root) and flow.declines()):
        raise _NotAsGuessed
    lines: dict[PathKey, int] = {(): root.start_mark.line + 1}
    walker = _Walker(shown, lines, aliases=False, read_again_on_foreign_tags=True)
    data = walker.walk(root, ())
    if walker.problems or not isinstance(data, dict):
        raise _NotAsGuessed
    for layout in layouts:
        key = (layout.field,)
        if layout.field not in data or data[key[0]] is not None or lines[key] != layout.key_line:
            raise _NotAsGuessed
    return data, lines


class _ItemWalker:
    """An item's value, as docgen.load.yaml_reader's walker reads it, with no path and no line:
    what that walker would call a problem (or read again with ruamel) is _ReadAgain here."""

    def __init__(self, flow: _FlowCheck):
        self.flow = flow
        self._plain: dict[str, Any] = {}  # a plain scalar's text -> its value

    def items(self, text: str, layout: ListLayout, lines: dict[PathKey, int]) -> list[Any]:
        """The list's items, composed CHUNK at a time; each item's line goes into ``lines``."""
        found: list[Any] = []
        field, starts, item_lines, count = (
            layout.field,
            layout.starts,
            layout.lines,
            len(layout.starts),
        )
        walk = self.walk
        for first in range(0, count, CHUNK):
            last = min(first + CHUNK, count)
            end = starts[last] if last < count else layout.end
            root = compose_part(text[starts[first] : end])
            if root is None or root.id != "sequence" or len(root.value) != last - first:
                raise _NotAsGuessed
            nodes, shift = root.value, item_lines[first]
            for at, node in enumerate(nodes):
                index = first + at
                line = item_lines[index]
                if node.start_mark.line + shift != line:
                    raise _NotAsGuessed  # "-" alone on its line, two items on one...
                lines[(field, index)] = line
                found.append(walk(node, 2))
            del root, nodes  # one run's nodes alive at a time
        return found

    def walk(self, node: Any, depth: int) -> Any:
        """The value of ``node``, ``depth`` levels below the top of the file."""
        kind = type(node)
        if kind is ScalarNode:
            tag = node.tag
            if tag == PLAIN:
                value = self._plain.get(node.value, _UNKNOWN)
                return self._resolve(node.value) if value is _UNKNOWN else value
            if tag == STR:
                return node.value
            if tag in SCALAR_TAGS:
                try:
                    return construct(tag, node.value)
                except NotABoolean:
                    raise _ReadAgain from None
                except NotAValue:
                    return node.value
            raise _ReadAgain
        if node.tag not in COLLECTION_TAGS or depth >= MAX_DEPTH - 1:
            raise _ReadAgain
        if node.flow_style and node.value and self.flow.declines():
            raise _NotAsGuessed
        if kind is MappingNode:
            return self._mapping(node, depth)
        walk, known, below, items = self.walk, self._plain.get, depth + 1, []
        for item in node.value:
            if type(item) is ScalarNode and item.tag == PLAIN:  # an address line, a date...
                value = known(item.value, _UNKNOWN)
                items.append(self._resolve(item.value) if value is _UNKNOWN else value)
            else:
                items.append(walk(item, below))
        return items

    def _resolve(self, text: str) -> Any:
        """A plain scalar's value, kept for the next time the same text comes (a roster repeats
        its plain values: 2026, 100, salary, a date...)."""
        tag, value = _plain_scalar(text)
        if tag not in SCALAR_TAGS:
            raise _ReadAgain  # e.g. "=" or "<<" as a value: a tag the usual walker refuses
        self._plain[text] = value
        return value

    def _mapping(self, node: Any, depth: int) -> dict[str, Any]:
        # Runs once per key of every item: what it looks up repeatedly is bound locally first.
        walk, known, intern, result = self.walk, self._plain.get, sys.intern, {}
        below = depth + 1
        for key_node, value_node in node.value:
            if type(key_node) is not ScalarNode:
                raise _ReadAgain
            key = key_node.value
            if key in result or (key == "<<" and _resolved_tag(key_node) == MERGE):
                raise _ReadAgain
            # Every item repeats the same keys: one string each, not one per item.
            key = intern(key)
            if type(value_node) is ScalarNode and value_node.tag == PLAIN:
                value = known(value_node.value, _UNKNOWN)
                result[key] = self._resolve(value_node.value) if value is _UNKNOWN else value
            else:
                result[key] = walk(value_node, below)
        return result


class _ItemLines:
    """The lines inside the lists' items, found when asked and kept per item."""

    def __init__(
        self,
        text: str,
        shown: str,
        layouts: list[ListLayout],
        ids: dict[str, list[Any]],
    ):
        self.text, self.shown = text, shown
        self.layouts = {layout.field: layout for layout in layouts}
        self.ids = ids
        self._found: dict[tuple[str, int], dict[PathKey, int]] = {}

    def find(self, key: PathKey) -> int | None:
        if len(key) < 3:
            return None
        field, index = key[0], key[1]
        layout = self.layouts.get(field) if isinstance(field, str) else None
        if layout is None or not isinstance(index, int) or not 0 <= index < len(layout.starts):
            return None
        found = self._found.get((layout.field, index))
        if found is None:
            found = self._found[(layout.field, index)] = self._lines_of(layout, index)
        inside = found.get(tuple(key[2:]))
        return None if inside is None else inside + layout.lines[index]

    def _lines_of(self, layout: ListLayout, index: int) -> dict[PathKey, int]:
        """The lines inside item ``index`` (counted from the item's first line, 0), from its text
        composed alone; none, should that text not be exactly the item read (an ancestor's line
        is then given, never a wrong one)."""
        starts, count = layout.starts, len(layout.starts)
        end = starts[index + 1] if index + 1 < count else layout.end
        try:
            root = compose_part(self.text[starts[index] : end])
        except Declined:
            return {}
        if root is None or root.id != "sequence" or len(root.value) != 1:
            return {}
        node = root.value[0]
        if node.start_mark.line != 0 or not self._same_id(node, self.ids[layout.field][index]):
            return {}
        # The item was read once without a problem (or the whole file would have been read the
        # usual way): every key is a name, none twice, none a merge key, so the usual walker's
        # lines are each key's and each list item's, which is all this records.
        inside: dict[PathKey, int] = {}
        _record_lines(node, (), inside)
        return inside

    def _same_id(self, node: Any, expected: Any) -> bool:
        if type(node) is not MappingNode:
            return expected is None
        for key_node, value_node in node.value:
            if key_node.value == "id":
                try:
                    return bool(_ItemWalker(_NEVER_DECLINES).walk(value_node, 3) == expected)
                except (_ReadAgain, _NotAsGuessed):
                    return False
        return expected is None


def _record_lines(node: Any, path: PathKey, lines: dict[PathKey, int]) -> None:
    """The line (0-based) of each key and each list item under ``node``, by its path (a scalar
    has none of its own: its key's or its list item's is the one recorded)."""
    if type(node) is MappingNode:
        for key_node, value_node in node.value:
            child = (*path, key_node.value)
            lines[child] = key_node.start_mark.line
            if type(value_node) is not ScalarNode:
                _record_lines(value_node, child, lines)
    elif type(node) is not ScalarNode:
        for at, item in enumerate(node.value):
            child = (*path, at)
            lines[child] = item.start_mark.line
            if type(item) is not ScalarNode:
                _record_lines(item, child, lines)


def _id_of(item: Any) -> Any:
    return item.get("id") if isinstance(item, dict) else None
