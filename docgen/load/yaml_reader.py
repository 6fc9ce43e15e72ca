"""YAML read safely, with a line for every fact: YAML 1.2's core scalar types only (a
``%YAML 1.1`` directive, which would turn ``yes`` into true and ``02450`` into 1,320, is refused),
numbers handed on as their source text (never through a float), no Python tags, no merge keys,
nesting bounded, and aliases counted so an alias bomb is refused in milliseconds instead of
expanding."""

from __future__ import annotations

import io
import re
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.composer import MaxDepthExceededError
from ruamel.yaml.constructor import SafeConstructor
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode
from ruamel.yaml.reader import ReaderError

from docgen.core.errors import LoadError, Problem
from docgen.core.model import PathKey
from docgen.core.numbers import SourceNumber
from docgen.core.safe_text import describe
from docgen.load.source import format_path

MAX_ALIAS_VISITS = 20_000  # values reached again through aliases; a real facts file needs few
MAX_DEPTH = 20  # nested mappings and lists; the deepest fact in a facts file is 7 levels down
_BOOLEANS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False,
             "FALSE": False}  # fmt: skip
_NUMBER_TAGS = {"tag:yaml.org,2002:int", "tag:yaml.org,2002:float"}
_DIRECTIVE = re.compile(r"^%YAML[ \t]+(\S+)", re.MULTILINE)
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
            return self._scalar(node, path)
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

    def _scalar(self, node: ScalarNode, path: PathKey) -> Any:
        if node.tag == "tag:yaml.org,2002:str":
            return node.value
        if node.tag in _NUMBER_TAGS:
            # The field's type reads the digits as written (docgen.core.numbers), so
            # 99.99999999999999999 stays that number instead of becoming the float 100.0.
            return SourceNumber(node.value)
        if node.tag == "tag:yaml.org,2002:bool":
            if node.value not in _BOOLEANS:
                self.problem(
                    node, path, "expected true or false", "Write true or false.", node.value
                )
                return None
            return _BOOLEANS[node.value]
        if node.tag == "tag:yaml.org,2002:null":
            return None
        try:
            return self.constructor.construct_object(node, deep=True)
        except (ValueError, YAMLError):
            return node.value  # e.g. 2026-02-30: the model says what is wrong with it


class _TooLarge(Exception):
    def __init__(self, node: Node):
        self.node = node


def _refuse_other_versions(yaml: YAML, text: str, shown: str) -> None:
    """Only YAML 1.2 is read: a 1.1 directive would change what plain values mean."""
    version = getattr(yaml.resolver, "processing_version", (1, 2))
    if tuple(version) == (1, 2):
        return
    match = _DIRECTIVE.search(text)
    line = text.count("\n", 0, match.start()) + 1 if match else 1
    written = ".".join(str(part) for part in version)
    raise LoadError(
        [
            Problem(
                shown,
                line,
                "",
                f"a %YAML {written} directive: docgen reads YAML 1.2 only (under 1.1, yes and "
                "off are booleans and 02450 is the octal number 1,320)",
                fix="Delete the %YAML line.",
            )
        ]
    )


def _too_deep(shown: str, line: int | None) -> LoadError:
    return LoadError(
        [
            Problem(
                shown,
                line,
                "",
                f"nested more than {MAX_DEPTH} levels deep",
                fix="A facts file is a few levels deep; check the indentation and brackets.",
            )
        ]
    )


def compose(text: str, shown: str) -> tuple[Any, dict[PathKey, tuple[str, int]]]:
    yaml = YAML(typ="safe", pure=True)
    yaml.max_depth = MAX_DEPTH
    try:
        root = yaml.compose(io.StringIO(text))
    except MaxDepthExceededError as error:
        mark = error.problem_mark
        raise _too_deep(shown, mark.line + 1 if mark else None) from None
    except RecursionError:
        raise _too_deep(shown, None) from None
    except ReaderError as error:
        # A control character YAML does not allow anywhere (ESC, BEL, ...): say which, and where.
        line = text.count("\n", 0, error.position) + 1 if isinstance(error.position, int) else None
        char = chr(error.character) if isinstance(error.character, int) else "?"
        raise LoadError(
            [
                Problem(
                    shown,
                    line,
                    "",
                    f"contains {describe(char)}, a control character YAML does not allow",
                    fix="Delete it: retype the value on that line.",
                )
            ]
        ) from None
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
    _refuse_other_versions(yaml, text, shown)
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
        raise _too_deep(shown, None) from None
    if walker.problems:
        raise LoadError(walker.problems)
    return data, lines
