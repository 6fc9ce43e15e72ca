"""JSON through the C parser, its lines found only when asked, along the asked path.

Numbers are handed on as their source text (docgen.core.numbers), as YAML's are: never through a
float, and never through ``int`` (a 4,301-digit integer would stop Python's), so the field's type
reads or refuses them with a message. Nesting deeper than the parser allows is refused with its
line; anything shallower that no fact can hold is refused by the model, field by field.
"""

from __future__ import annotations

import bisect
import json
import re
from typing import Any, cast

from docgen.core.errors import LoadError, Problem
from docgen.core.json_scan import scanstring, skip_space
from docgen.core.model import PathKey
from docgen.core.numbers import SourceNumber
from docgen.load.source import SourceMap
from docgen.load.yaml_reader import MAX_DEPTH


class _DuplicateKey(Exception):
    pass


def _pairs_without_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise _DuplicateKey
    return result


# An integer written -0 (which ``int`` reads as 0) ends like this; the pattern starts with a
# literal, so the engine finds each candidate at C speed (a pattern starting with the character
# before the number tried every offset of the text: 42 ms of a 10,000-participant file against 4).
_NEGATIVE_ZERO_END = re.compile(r"-0[ \t\n\r]*[,\]}]")
_SPACE = " \t\n\r"


def _negative_zero(text: str) -> bool:
    """True if the text has an integer -0 as a value: ``-0`` ending a value (before ``,``, ``]``
    or ``}``) and starting one (after ``:``, ``[`` or ``,``, white space aside). Inside a string
    the same characters are taken too, which only costs reading every integer as its text."""
    for found in _NEGATIVE_ZERO_END.finditer(text):
        before = found.start() - 1
        while before >= 0 and text[before] in _SPACE:
            before -= 1
        if before >= 0 and text[before] in ":[,":
            return True
    return False


class _JsonLocator:
    """Finds the line of a path in a JSON text, descending only along that path.

    Each container's members are listed as far as a path asks, on first need, by letting the C
    decoder skip over each member's value before the one asked for (``raw_decode``): locating
    ``participants[9985]`` skips the members before ``participants`` and the 9,985 participants
    before it, never the whole array as a member of the file (a second parse of a 10,000
    participant file), so 500 findings in a 6 MB file cost a few C-speed passes instead of a
    Python loop over a million tokens.
    """

    def __init__(self, text: str, members: Members | None = None):
        self.text = text
        # The plain decoder skips at C speed; should an integer be too long for ``int`` (over
        # 4,300 digits), numbers are skipped as text instead, so the locator never stops.
        self.decoder = json.JSONDecoder()
        self.members: Members = dict(members or {})
        # Lines are counted forward from the nearest offset already counted (each rule's findings
        # come in file order, so each line break is counted about once per pass over the file).
        self.counted: list[int] = [0]  # offsets whose line is known, ascending
        self.lines_at: list[int] = [1]  # their lines

    def _skip(self, index: int) -> int:
        return skip_space(self.text, index)

    def _member(self, path: PathKey, start: int, label: str | int) -> tuple[int, int] | None:
        """(offset of its key or value, offset of its value) of one member of the container at
        ``start``: the members before it are listed once, and the rest only when asked for."""
        found = self.members.get(path)
        if found is None:
            found = self.members[path] = _Members(self.text[start] == "{", self._skip(start + 1))
        entry = found.entries.get(label)
        if entry is not None or found.done:
            return entry
        text, entries = self.text, found.entries
        index, position, is_object = found.next_at, found.position, found.is_object
        if found.resume_after is not None:  # the value of the member last asked for: skip it now
            index = self._after(found.resume_after)
        while index < len(text) and text[index] not in "}]":
            if is_object:
                key, after = scanstring(text, index + 1)
                value_at = self._skip(self._skip(after) + 1)  # past the ':'
                member: str | int = key
            else:
                value_at, member = index, position
            entries.setdefault(member, (index, value_at))
            position += 1
            if member == label:  # the rest is listed when a later member is asked for
                found.resume_after, found.position = value_at, position
                return entries[member]
            index = self._after(value_at)
        found.done = True
        return entries.get(label)

    def _after(self, value_at: int) -> int:
        """The offset of the next member after the value at ``value_at`` (past its comma)."""
        index = self._skip(self._value_end(value_at))
        if index < len(self.text) and self.text[index] == ",":
            index = self._skip(index + 1)
        return index

    def _value_end(self, at: int) -> int:
        try:
            return self.decoder.raw_decode(self.text, at)[1]
        except ValueError as error:
            if isinstance(error, json.JSONDecodeError):
                raise
            self.decoder = json.JSONDecoder(parse_int=str, parse_float=str, parse_constant=str)
            return self.decoder.raw_decode(self.text, at)[1]

    def line_at(self, offset: int) -> int:
        """The line (1-based) of the character at ``offset``."""
        at = bisect.bisect_right(self.counted, offset) - 1
        known = self.counted[at]
        line = self.lines_at[at] + self.text.count("\n", known, offset)
        self.counted.insert(at + 1, offset)
        self.lines_at.insert(at + 1, line)
        return line

    def offset(self, path: PathKey) -> int | None:
        at, walked = self._skip(0), cast(PathKey, ())
        for part in path:
            if self.text[at] not in "{[":
                return None
            entry = self._member(walked, at, part)
            if entry is None:
                return None
            walked = walked + (part,)
            if walked == path:
                return entry[0]
            at = entry[1]
        return at

    def line(self, path: PathKey) -> int | None:
        try:
            offset = self.offset(path)
        except (ValueError, IndexError):
            return None
        if offset is None:
            return None
        return self.line_at(offset)


class _Members:
    """The members of one container listed so far, and where listing stopped."""

    def __init__(self, is_object: bool, first_at: int):
        self.is_object = is_object
        self.entries: dict[str | int, tuple[int, int]] = {}
        self.next_at = first_at
        self.resume_after: int | None = None  # listing resumes after the value at this offset
        self.position = 0
        self.done = False


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


# Where the members of each container read so far start (docgen.load.json_reader._JsonLocator).
Members = dict[PathKey, "_Members"]


def _parse(text: str) -> tuple[Any, Members]:
    """JSON with every decimal as its source text (never a float) and integers as ``int`` (exact,
    and at C speed for a 10,000-participant file); should one be too long for ``int`` (over 4,300
    digits), every integer is read as its text instead, so the field's type refuses it with its
    path and line like any other number. With the value, where the top-level members and the
    items of the top-level lists start, as far as this reading found them (``_walk``)."""
    options: dict[str, Any] = {
        "object_pairs_hook": _pairs_without_duplicates,
        "parse_float": SourceNumber,
        "parse_constant": SourceNumber,  # NaN, Infinity: refused by the field's type
    }
    if _negative_zero(text):  # int("-0") is 0: keep the sign for the field to refuse
        return json.loads(text, parse_int=SourceNumber, **options), {}
    try:
        walked = _walk(text, json.JSONDecoder(**options))
    except (ValueError, IndexError, RecursionError):  # json.loads words it, or reads it below
        walked = None
    if walked is not None:
        return walked
    try:
        return json.loads(text, **options), {}
    except json.JSONDecodeError:
        raise
    except ValueError:  # int()'s limit on digits
        return json.loads(text, parse_int=SourceNumber, **options), {}


def _walk(text: str, decoder: json.JSONDecoder) -> tuple[dict[str, Any], Members] | None:
    """The top-level object read member by member, and each top-level list item by item, by the
    C decoder, so that this one reading also finds where each of them starts: the locator never
    reads a long list again to find the line of a fact in it (a second reading of the file's
    participants, for a file with findings all through it). The value is the one ``json.loads``
    gives with the same decoder, hooks included, each called in the same order.

    None, or an error, for a text this walk does not take (anything but an object at the top,
    anything but valid JSON): ``json.loads`` then reads the whole text, and words its problem.
    """
    decode, end = decoder.raw_decode, len(text)
    at = skip_space(text, 0)
    if at >= end or text[at] != "{":
        return None
    root = _Members(True, skip_space(text, at + 1))
    members: Members = {(): root}
    pairs: list[tuple[str, Any]] = []
    at = root.next_at
    while text[at] != "}" or pairs:
        if text[at] != '"':
            return None
        key, after = scanstring(text, at + 1)
        colon = skip_space(text, after)
        if text[colon] != ":":
            return None
        value_at = skip_space(text, colon + 1)
        root.entries.setdefault(key, (at, value_at))
        if text[value_at] == "[":
            listed = members[(key,)] = _Members(False, value_at)
            value, after = _walk_list(text, value_at, decode, listed)
        else:
            value, after = decode(text, value_at)
        pairs.append((key, value))
        at = skip_space(text, after)
        if text[at] == ",":
            at = skip_space(text, at + 1)
        elif text[at] == "}":
            break
        else:
            return None
    if skip_space(text, at + 1) != end:
        return None
    root.done = True
    hook = cast(Any, decoder.object_pairs_hook)
    return hook(pairs), members


def _walk_list(text: str, at: int, decode: Any, listed: _Members) -> tuple[list[Any], int]:
    """The items of the list at ``at``, each read by the C decoder, and the offset past it;
    where each item starts goes into ``listed``."""
    items: list[Any] = []
    entries = listed.entries
    at = skip_space(text, at + 1)
    if text[at] != "]":
        while True:
            entries[len(items)] = (at, at)
            item, after = decode(text, at)
            items.append(item)
            at = skip_space(text, after)
            if text[at] == "]":
                break
            if text[at] != ",":
                raise ValueError("not a list the walk takes")  # json.loads words it
            at = skip_space(text, at + 1)
    listed.done = True
    return items, at + 1


def load_json(text: str, shown: str) -> tuple[Any, SourceMap] | None:
    """Fast path for JSON: the C parser, lines indexed lazily. None means "read it as YAML"."""
    try:
        data, members = _parse(text)
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
    except _DuplicateKey:
        return None  # the YAML reader names the duplicate key and its line
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
    return data, json_source(text, shown, members)


def json_source(text: str, shown: str, members: Members | None = None) -> SourceMap:
    """Where each fact of a JSON text is, found when a line is first asked for; ``members``:
    where the containers' members start, as far as reading the text found them."""
    return SourceMap(shown, find=_JsonLocator(text, members).line)
