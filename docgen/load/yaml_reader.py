"""YAML read safely, with a line for every fact: only the core scalar types, no Python tags, no
merge keys, and aliases counted so an alias bomb is refused in milliseconds instead of expanding."""

from __future__ import annotations

import io
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.constructor import SafeConstructor
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode

from docgen.core.errors import LoadError, Problem
from docgen.core.model import PathKey
from docgen.load.source import format_path

MAX_ALIAS_VISITS = 20_000  # values reached again through aliases; a real facts file needs few
_CORE_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:timestamp",
}
_COLLECTION_TAGS = {"tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"}


def _short_tag(tag: str) -> str:
    return tag.replace("tag:yaml.org,2002:", "!!")


class _Walker:
    """Turns a composed YAML node tree into plain data, recording each path's line."""

    def __init__(
        self, shown: str, lines: dict[PathKey, tuple[str, int]], constructor: SafeConstructor
    ):
        self.shown = shown
        self.lines = lines
        self.problems: list[Problem] = []
        self.alias_visits = 0
        self._seen: set[int] = set()
        self.constructor = constructor
        self._stack: set[int] = set()

    def problem(
        self, node: Node, path: PathKey, what: str, fix: str, got: str | None = None
    ) -> None:
        self.problems.append(
            Problem(self.shown, node.start_mark.line + 1, format_path(path), what, got, fix)
        )

    def walk(self, node: Node, path: PathKey) -> Any:
        # Count only what aliases make us read again, so an alias bomb stops in milliseconds
        # while a large plain file (10,000 participants) is never refused for its size.
        if id(node) in self._seen:
            self.alias_visits += 1
            if self.alias_visits > MAX_ALIAS_VISITS:
                raise _TooLarge(node)
        else:
            self._seen.add(id(node))
        self.lines.setdefault(path, (self.shown, node.start_mark.line + 1))
        if id(node) in self._stack:
            self.problem(node, path, "an alias refers to itself", "Write the value out in full.")
            return None
        allowed = _CORE_TAGS if isinstance(node, ScalarNode) else _COLLECTION_TAGS
        if node.tag not in allowed:  # !!python/object and friends: never constructed
            self.problem(
                node,
                path,
                f"unsupported YAML tag {_short_tag(node.tag)}",
                "Remove the tag; write a plain value.",
            )
            return None
        if isinstance(node, ScalarNode):
            return self._scalar(node)
        self._stack.add(id(node))
        try:
            if isinstance(node, MappingNode):
                return self._mapping(node, path)
            return [self.walk(item, path + (index,)) for index, item in enumerate(node.value)]
        finally:
            self._stack.discard(id(node))

    def _mapping(self, node: MappingNode, path: PathKey) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                self.problem(
                    key_node,
                    path,
                    "merge keys (<<) are not supported",
                    "Write the fields out in full.",
                )
                continue
            if not isinstance(key_node, ScalarNode):
                self.problem(key_node, path, "a key must be a plain name", "Write the key as text.")
                continue
            key = str(key_node.value)
            child = path + (key,)
            if key in result:
                self.problem(
                    key_node, child, "this key appears twice", "Keep one of the two entries."
                )
                continue
            self.lines[child] = (self.shown, key_node.start_mark.line + 1)
            result[key] = self.walk(value_node, child)
        return result

    def _scalar(self, node: ScalarNode) -> Any:
        if node.tag == "tag:yaml.org,2002:str":
            return node.value
        try:
            return self.constructor.construct_object(node, deep=True)
        except (ValueError, YAMLError):
            return node.value  # e.g. 2026-02-30: the model says what is wrong with it


class _TooLarge(Exception):
    def __init__(self, node: Node):
        self.node = node


def compose(text: str, shown: str) -> tuple[Any, dict[PathKey, tuple[str, int]]]:
    yaml = YAML(typ="safe", pure=True)
    try:
        root = yaml.compose(io.StringIO(text))
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark else None
        what = (error.problem or error.context or "not valid YAML").strip()
        raise LoadError(
            [
                Problem(
                    shown,
                    line,
                    "",
                    f"not valid YAML: {what}",
                    fix="Check the indentation and quoting on that line (use spaces, not tabs).",
                )
            ]
        ) from None
    except YAMLError as error:
        raise LoadError(
            [Problem(shown, None, "", f"not valid YAML: {error}", fix="Check the file's syntax.")]
        ) from None
    if root is None:
        raise LoadError(
            [
                Problem(
                    shown, None, "", "file has no content", fix="Start from a sample in samples/."
                )
            ]
        )
    lines: dict[PathKey, tuple[str, int]] = {}
    walker = _Walker(shown, lines, yaml.constructor)
    try:
        data = walker.walk(root, ())
    except _TooLarge as stop:
        raise LoadError(
            [
                Problem(
                    shown,
                    stop.node.start_mark.line + 1,
                    "",
                    f"aliases repeat more than {MAX_ALIAS_VISITS:,} values (an alias bomb?)",
                    fix="Write the facts out plainly; docgen does not expand repeated aliases.",
                )
            ]
        ) from None
    except RecursionError:
        raise LoadError(
            [
                Problem(
                    shown, None, "", "nested too deeply", fix="A facts file is a few levels deep."
                )
            ]
        ) from None
    if walker.problems:
        raise LoadError(walker.problems)
    return data, lines
