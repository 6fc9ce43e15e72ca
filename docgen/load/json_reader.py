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


_NEGATIVE_ZERO = re.compile(r"[:\[,][ \t\n\r]*-0[ \t\n\r]*[,\]}]")


class _JsonLocator:
    """Finds the line of a path in a JSON text, descending only along that path.

    Each container's members are listed once, on first need, by letting the C decoder skip over
    every member's value (``raw_decode``), so locating 500 findings in a 6 MB file costs a few
    C-speed passes instead of a Python loop over a million tokens.
    """

    def __init__(self, text: str):
        self.text = text
        # The plain decoder skips at C speed; should an integer be too long for ``int`` (over
        # 4,300 digits), numbers are skipped as text instead, so the locator never stops.
        self.decoder = json.JSONDecoder()
        self.members: dict[PathKey, dict[str | int, tuple[int, int]]] = {}
        # Lines are counted forward from the last offset asked (findings come in file order,
        # so each line break is counted once); one asked out of order builds the full index.
        self.last_offset, self.last_line = 0, 1
        self.newlines: list[int] | None = None

    def _skip(self, index: int) -> int:
        return skip_space(self.text, index)

    def _list_members(self, path: PathKey, start: int) -> dict[str | int, tuple[int, int]]:
        """Member -> (offset of its key or value, offset of its value) of the container at start."""
        cached = self.members.get(path)
        if cached is not None:
            return cached
        text, members = self.text, {}
        is_object = text[start] == "{"
        index = self._skip(start + 1)
        position = 0
        while index < len(text) and text[index] not in "}]":
            if is_object:
                key, after = scanstring(text, index + 1)
                value_at = self._skip(self._skip(after) + 1)  # past the ':'
                label: str | int = key
            else:
                value_at, label = index, position
            members[label] = (index, value_at)
            index = self._value_end(value_at)
            index = self._skip(index)
            if index < len(text) and text[index] == ",":
                index = self._skip(index + 1)
            position += 1
        self.members[path] = members
        return members

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
        if offset >= self.last_offset:
            self.last_line += self.text.count("\n", self.last_offset, offset)
            self.last_offset = offset
            return self.last_line
        if self.newlines is None:
            self.newlines = [match.start() for match in re.finditer("\n", self.text)]
        return bisect.bisect_right(self.newlines, offset - 1) + 1

    def offset(self, path: PathKey) -> int | None:
        at, walked = self._skip(0), cast(PathKey, ())
        for part in path:
            if self.text[at] not in "{[":
                return None
            entry = self._list_members(walked, at).get(part)
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


def _parse(text: str) -> Any:
    """JSON with every decimal as its source text (never a float) and integers as ``int`` (exact,
    and at C speed for a 10,000-participant file); should one be too long for ``int`` (over 4,300
    digits), every integer is read as its text instead, so the field's type refuses it with its
    path and line like any other number."""
    options: dict[str, Any] = {
        "object_pairs_hook": _pairs_without_duplicates,
        "parse_float": SourceNumber,
        "parse_constant": SourceNumber,  # NaN, Infinity: refused by the field's type
    }
    if _NEGATIVE_ZERO.search(text):  # int("-0") is 0: keep the sign for the field to refuse
        return json.loads(text, parse_int=SourceNumber, **options)
    try:
        return json.loads(text, **options)
    except json.JSONDecodeError:
        raise
    except ValueError:  # int()'s limit on digits
        return json.loads(text, parse_int=SourceNumber, **options)


def load_json(text: str, shown: str) -> tuple[Any, SourceMap] | None:
    """Fast path for JSON: the C parser, lines indexed lazily. None means "read it as YAML"."""
    try:
        data = _parse(text)
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
    return data, json_source(text, shown)


def json_source(text: str, shown: str) -> SourceMap:
    """Where each fact of a JSON text is, found when a line is first asked for."""
    return SourceMap(shown, find=_JsonLocator(text).line)
