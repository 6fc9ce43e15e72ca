"""A YAML facts file read with a line for every fact: PyYAML composes the text (through libyaml,
its C composer, where PyYAML has it) under docgen's YAML 1.2 core schema (docgen.load.yaml_core),
and one walker turns the nodes into facts, recording each fact's line as it goes.

What a facts file may hold is decided by the walker: numbers as their source text (never through
a float), no Python tags (nothing is constructed but the core schema's scalars), no merge keys,
no key twice, nesting bounded, and aliases counted so an alias bomb is refused in milliseconds
instead of expanding. A ``%YAML 1.1`` directive, which would turn ``yes`` into true and ``02450``
into 1,320, is refused.

A text libyaml refuses is composed again by PyYAML's pure-Python composer, which names the
problem and its line in the words docgen prints (libyaml's are terser: "did not find expected
key" for "expected <block end>, but found '-'"). A facts file is read whole, so a population past
a few thousand people belongs in a roster CSV the facts name, read row by row
(docs/fact-files.md).
"""

from __future__ import annotations

import re
from typing import Any

import yaml
from yaml.reader import ReaderError

from docgen.core.errors import LoadError, Problem
from docgen.core.model import PathKey
from docgen.core.safe_text import describe
from docgen.load.source import format_path
from docgen.load.yaml_core import (
    MAP,
    MERGE,
    SCALAR_TAGS,
    SEQ,
    STR,
    Loader,
    NotABoolean,
    NotAValue,
    PurePythonLoader,
    construct,
)

MAX_ALIAS_VISITS = 20_000  # values reached again through aliases; a real facts file needs few
MAX_DEPTH = 20  # nested mappings and lists; the deepest fact in a facts file is 7 levels down
_DIRECTIVE = re.compile(r"^%YAML[ \t]+(\S+)", re.MULTILINE)


def read_yaml(text: str, shown: str) -> tuple[Any, dict[PathKey, int]]:
    """The facts in ``text`` as plain data, and the line of every fact path; LoadError with every
    problem found (``shown`` names the file in the messages)."""
    root = _compose(text, shown)
    _refuse_other_versions(text, shown)
    if root is None:
        raise LoadError(
            [
                Problem(
                    shown, None, "", "file has no content", fix="Start from a sample in samples/."
                )
            ]
        )
    # A text with no "*" has no alias: no node can be reached twice, nor contain itself.
    walker = _Walker(shown, aliases="*" in text)
    walker.lines[()] = root.start_mark.line + 1
    try:
        data = walker.value(root, ())
    except _TooDeep as deep:
        raise _too_deep(shown, deep.node.start_mark.line + 1) from None
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
    if walker.problems:
        raise LoadError(walker.problems)
    return data, walker.lines


def _composed(text: str, loader_class: type[PurePythonLoader] | type[Loader]) -> Any:
    """The document's root node (None for a document with no content)."""
    loader = loader_class(text)
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()


def _compose(text: str, shown: str) -> Any:
    try:
        return _composed(text, Loader)
    except (yaml.YAMLError, RecursionError) as error:
        failure: BaseException = error
    # What libyaml refused, PyYAML's pure-Python composer words, and says where (should it read
    # the text, libyaml's own words are given).
    try:
        _composed(text, PurePythonLoader)
    except (yaml.YAMLError, RecursionError) as error:
        failure = error
    if isinstance(failure, RecursionError):
        raise _too_deep(shown, _line_too_deep(text)) from None
    raise _refusal(failure, text, shown) from None


def _line_too_deep(text: str) -> int | None:
    """The line of the first value nested deeper than MAX_DEPTH: what libyaml refuses past 1,000
    levels, and the pure-Python composer past Python's recursion limit, the parser (which keeps
    no stack of its own) reads level by level."""
    depth = 0
    try:
        for event in yaml.parse(text, Loader=PurePythonLoader):
            if isinstance(event, yaml.ScalarEvent | yaml.CollectionStartEvent):
                if depth >= MAX_DEPTH:
                    return event.start_mark.line + 1 if event.start_mark else None
                if isinstance(event, yaml.CollectionStartEvent):
                    depth += 1
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError:
        pass
    return None


def _refusal(error: BaseException, text: str, shown: str) -> LoadError:
    """The load error for a text PyYAML refused, in PyYAML's words and at its line."""
    if isinstance(error, ReaderError):
        # A control character YAML does not allow anywhere (ESC, BEL, ...): say which, and where.
        at = error.position
        line = text.count("\n", 0, at) + 1 if isinstance(at, int) else None
        char = chr(error.character) if isinstance(error.character, int) else "?"
        return LoadError(
            [
                Problem(
                    shown,
                    line,
                    "",
                    f"contains {describe(char)}, a control character YAML does not allow",
                    fix="Delete it: retype the value on that line.",
                )
            ]
        )
    if isinstance(error, yaml.MarkedYAMLError):
        mark = error.problem_mark or error.context_mark
        what = (error.problem or error.context or "not valid YAML").strip()
        return LoadError(
            [
                Problem(
                    shown,
                    mark.line + 1 if mark else None,
                    "",
                    f"not valid YAML: {what}",
                    fix="Check the indentation and quoting on that line (use spaces, not tabs).",
                )
            ]
        )
    return LoadError(
        [Problem(shown, None, "", f"not valid YAML: {error}", fix="Check the file's syntax.")]
    )


def _refuse_other_versions(text: str, shown: str) -> None:
    """Only YAML 1.2 is read: a 1.1 directive would change what plain values mean. (The parser
    reads only as far as the first document's start to say which version it declares.)"""
    version = None
    for event in yaml.parse(text, Loader=Loader):
        if isinstance(event, yaml.DocumentStartEvent):
            version = event.version
            break
    if version is None or tuple(version) == (1, 2):
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


class _TooDeep(Exception):
    def __init__(self, node: yaml.Node):
        self.node = node


class _TooLarge(Exception):
    def __init__(self, node: yaml.Node):
        self.node = node


def _short_tag(tag: str) -> str:
    return tag.replace("tag:yaml.org,2002:", "!!")


class _Walker:
    """Turns a composed node tree into plain data, recording each fact path's line in
    ``lines`` (1-based: a key's line for a mapping's value, an item's own for a list's)."""

    def __init__(self, shown: str, aliases: bool):
        self.shown = shown
        self.lines: dict[PathKey, int] = {}
        self.problems: list[Problem] = []
        self.aliases = aliases
        self.alias_visits = 0
        self._seen: set[int] = set()
        self._open: set[int] = set()  # the collections being walked, to find one inside itself

    def problem(
        self, node: yaml.Node, path: PathKey, what: str, fix: str, got: str | None = None
    ) -> None:
        self.problems.append(
            Problem(self.shown, node.start_mark.line + 1, format_path(path), what, got, fix)
        )

    def value(self, node: yaml.Node, path: PathKey) -> Any:
        """The value of ``node``, which the facts hold at ``path``."""
        if len(path) >= MAX_DEPTH:
            raise _TooDeep(node)
        if self.aliases and self._reached_again(node, path):
            return None
        if isinstance(node, yaml.ScalarNode):
            return self._scalar(node, path)
        if node.tag not in (MAP, SEQ):
            self.problem(
                node,
                path,
                f"unsupported YAML tag {_short_tag(node.tag)}",
                "Remove the tag; write a plain value.",
            )
            return None
        self._open.add(id(node))
        try:
            if isinstance(node, yaml.MappingNode):
                return self._mapping(node, path)
            return self._items(node, path)
        finally:
            self._open.discard(id(node))

    def _scalar(self, node: yaml.ScalarNode, path: PathKey) -> Any:
        tag = node.tag
        if tag == STR:
            return node.value
        if tag not in SCALAR_TAGS:  # !!python/object and friends: never constructed
            self.problem(
                node,
                path,
                f"unsupported YAML tag {_short_tag(tag)}",
                "Remove the tag; write a plain value.",
            )
            return None
        try:
            return construct(tag, node.value)
        except NotABoolean:
            self.problem(node, path, "expected true or false", "Write true or false.", node.value)
            return None
        except NotAValue:
            return node.value  # e.g. 2026-02-30: the model says what is wrong with it

    def _reached_again(self, node: yaml.Node, path: PathKey) -> bool:
        """Count what aliases make us read again, so an alias bomb stops in milliseconds while a
        large plain file is never refused for its size; True for an alias inside the very value
        it names."""
        if id(node) in self._seen:
            self.alias_visits += 1
            if self.alias_visits > MAX_ALIAS_VISITS:
                raise _TooLarge(node)
        else:
            self._seen.add(id(node))
        if id(node) in self._open:
            self.problem(node, path, "an alias refers to itself", "Write the value out in full.")
            return True
        return False

    def _items(self, node: yaml.Node, path: PathKey) -> list[Any]:
        items = []
        for index, item in enumerate(node.value):
            child = (*path, index)
            self.lines[child] = item.start_mark.line + 1
            items.append(self.value(item, child))
        return items

    def _mapping(self, node: yaml.MappingNode, path: PathKey) -> dict[str, Any]:
        if node.value and len(path) >= MAX_DEPTH - 1:
            raise _TooDeep(node.value[0][0])  # its keys are a level deeper than MAX_DEPTH
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                self.problem(key_node, path, "a key must be a plain name", "Write the key as text.")
                continue
            key = key_node.value
            if key == "<<" and key_node.tag == MERGE:
                self.problem(
                    key_node,
                    path,
                    "merge keys (<<) are not supported",
                    "Write the fields out in full.",
                )
                continue
            child = (*path, key)
            if key in result:
                self.problem(
                    key_node, child, "this key appears twice", "Keep one of the two entries."
                )
                continue
            self.lines[child] = key_node.start_mark.line + 1
            result[key] = self.value(value_node, child)
        return result
