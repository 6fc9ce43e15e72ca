"""YAML read safely, with a line for every fact: YAML 1.2's core scalar types only (a
``%YAML 1.1`` directive, which would turn ``yes`` into true and ``02450`` into 1,320, is refused),
numbers handed on as their source text (never through a float), no Python tags, no merge keys,
nesting bounded, and aliases counted so an alias bomb is refused in milliseconds instead of
expanding.

Two composers turn the text into nodes: libyaml (docgen.load.yaml_libyaml), at C speed, and
ruamel's pure-Python composer, which reads whatever libyaml declines and words every syntax error.
One walker (below) turns either's nodes into facts and lines, so every rule about what a facts
file may hold is applied in one place, whichever composer read it."""

from __future__ import annotations

import io
import re
from typing import Any

from docgen.core.errors import LoadError, Problem
from docgen.core.model import PathKey
from docgen.core.safe_text import describe
from docgen.load.source import format_path
from docgen.load.yaml_core import (
    COLLECTION_TAGS,
    MERGE,
    PLAIN,
    SCALAR_TAGS,
    STR,
    NotABoolean,
    NotAValue,
    construct,
    resolve_plain,
)
from docgen.load.yaml_libyaml import Declined, compose_with_libyaml

MAX_ALIAS_VISITS = 20_000  # values reached again through aliases; a real facts file needs few
MAX_DEPTH = 20  # nested mappings and lists; the deepest fact in a facts file is 7 levels down
_DIRECTIVE = re.compile(r"^%YAML[ \t]+(\S+)", re.MULTILINE)


def _short_tag(tag: str) -> str:
    return tag.replace("tag:yaml.org,2002:", "!!")


class _Walker:
    """Turns a composed YAML node tree into plain data, recording each path's line.

    Nodes come from libyaml (PyYAML's classes) or from ruamel (its own): the walker asks only what
    both answer alike: ``id`` (scalar, sequence or mapping), ``tag``, ``value`` and
    ``start_mark.line``. A plain scalar libyaml leaves unresolved (tag ``?``) is resolved here.
    """

    def __init__(
        self,
        shown: str,
        lines: dict[PathKey, int],
        aliases: bool = True,
        read_again_on_foreign_tags: bool = False,
    ):
        self.shown = shown
        self.read_again_on_foreign_tags = read_again_on_foreign_tags
        self.lines = lines
        self.problems: list[Problem] = []
        # A text with no "*" has no alias: no node can be reached twice, nor contain itself.
        self.aliases = aliases
        self.alias_visits = 0
        self._seen: set[int] = set()
        self._stack: set[int] = set()
        self._plain: dict[str, tuple[str, Any]] = {}

    def problem(
        self, node: Any, path: PathKey, what: str, fix: str, got: str | None = None
    ) -> None:
        self.problems.append(
            Problem(self.shown, node.start_mark.line + 1, format_path(path), what, got, fix)
        )

    def walk(self, node: Any, path: PathKey) -> Any:
        """The value of ``node``, which the facts hold at ``path``."""
        if self.aliases and self._reached_again(node, path):
            return None
        tag = node.tag
        if node.id == "scalar":
            if tag == PLAIN:
                # A roster repeats its plain values (2026, 100, salary, a date...): each distinct
                # text is resolved once. Every value a scalar can hold is immutable.
                known = self._plain.get(node.value)
                if known is None:
                    known = self._plain[node.value] = _plain_scalar(node.value)
                tag, value = known
                if tag in SCALAR_TAGS:
                    return value
            elif tag == STR:
                return node.value
            elif tag in SCALAR_TAGS:
                try:
                    return construct(tag, node.value)
                except NotABoolean:
                    self.problem(
                        node, path, "expected true or false", "Write true or false.", node.value
                    )
                    return None
                except NotAValue:
                    return node.value  # e.g. 2026-02-30: the model says what is wrong with it
        elif tag in COLLECTION_TAGS:
            if self.read_again_on_foreign_tags and len(path) >= MAX_DEPTH - 1:
                # libyaml nests up to 1,000 levels: ruamel, which stops at MAX_DEPTH, says where
                raise _ReadAgain
            if not self.aliases:
                return (
                    self._mapping(node, path) if node.id == "mapping" else self._items(node, path)
                )
            self._stack.add(id(node))
            try:
                return (
                    self._mapping(node, path) if node.id == "mapping" else self._items(node, path)
                )
            finally:
                self._stack.discard(id(node))
        # !!python/object and friends: never constructed; ruamel, which parses a malformed tag
        # otherwise than libyaml, names it
        if self.read_again_on_foreign_tags:
            raise _ReadAgain
        self.problem(
            node,
            path,
            f"unsupported YAML tag {_short_tag(tag)}",
            "Remove the tag; write a plain value.",
        )
        return None

    def _reached_again(self, node: Any, path: PathKey) -> bool:
        """Count what aliases make us read again, so an alias bomb stops in milliseconds while a
        large plain file (10,000 participants) is never refused for its size; True for an alias
        inside the very value it names."""
        if id(node) in self._seen:
            self.alias_visits += 1
            if self.alias_visits > MAX_ALIAS_VISITS:
                raise _TooLarge(node)
        else:
            self._seen.add(id(node))
        if id(node) in self._stack:
            self.problem(node, path, "an alias refers to itself", "Write the value out in full.")
            return True
        return False

    # The two loops below run once per fact of a 10,000-participant roster: what they look up
    # repeatedly is bound to a local name first.

    # Without aliases no node is reached twice: each one is let go as soon as it is read, so a
    # 50,000-participant roster never holds its whole node tree beside the facts read from it.

    def _items(self, node: Any, path: PathKey) -> list[Any]:
        lines, walk, release = self.lines, self.walk, not self.aliases
        items = []
        nodes = node.value
        for index, item in enumerate(nodes):
            child = path + (index,)
            lines[child] = item.start_mark.line + 1
            items.append(walk(item, child))
            if release:
                nodes[index] = None
        return items

    def _mapping(self, node: Any, path: PathKey) -> dict[str, Any]:
        lines, walk, release = self.lines, self.walk, not self.aliases
        result: dict[str, Any] = {}
        pairs = node.value
        for index, (key_node, value_node) in enumerate(pairs):
            if release:
                pairs[index] = None
            if key_node.id != "scalar":
                self.problem(key_node, path, "a key must be a plain name", "Write the key as text.")
                continue
            key = key_node.value
            if key == "<<" and _resolved_tag(key_node) == MERGE:
                self.problem(
                    key_node,
                    path,
                    "merge keys (<<) are not supported",
                    "Write the fields out in full.",
                )
                continue
            child = path + (key,)
            if key in result:
                self.problem(
                    key_node, child, "this key appears twice", "Keep one of the two entries."
                )
                continue
            lines[child] = key_node.start_mark.line + 1
            result[key] = walk(value_node, child)
        return result


def _plain_scalar(text: str) -> tuple[str, Any]:
    """A plain scalar's tag under the YAML 1.2 core schema, and its value when it has one (a
    plain true or false is always one of the core spellings)."""
    tag = resolve_plain(text)
    if tag not in SCALAR_TAGS:
        return tag, None
    try:
        return tag, construct(tag, text)
    except NotAValue:
        return tag, text  # e.g. 2026-02-30: the model says what is wrong with it


def _resolved_tag(node: Any) -> str:
    return resolve_plain(node.value) if node.tag == PLAIN else node.tag


class _TooLarge(Exception):
    def __init__(self, node: Any):
        self.node = node


def _refuse_other_versions(yaml: Any, text: str, shown: str) -> None:
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


def _compose_with_ruamel(text: str, shown: str) -> Any:
    from ruamel.yaml import YAML
    from ruamel.yaml.composer import MaxDepthExceededError
    from ruamel.yaml.error import MarkedYAMLError, YAMLError
    from ruamel.yaml.reader import ReaderError

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
    return root


def compose(text: str, shown: str) -> tuple[Any, dict[PathKey, int]]:
    """The facts in ``text`` as plain data, and the line of every fact path."""
    aliases = "*" in text
    try:
        return _walk(compose_with_libyaml(text), shown, aliases, libyaml=True)
    except (Declined, _ReadAgain):
        pass
    return _walk(_compose_with_ruamel(text, shown), shown, aliases)


class _ReadAgain(Exception):
    """libyaml composed a foreign tag: ruamel reads the file instead, so the refusal names the
    tag as ruamel spells it (the two parse a malformed tag differently)."""


def _walk(
    root: Any, shown: str, aliases: bool, libyaml: bool = False
) -> tuple[Any, dict[PathKey, int]]:
    if root is None:
        raise LoadError(
            [
                Problem(
                    shown, None, "", "file has no content", fix="Start from a sample in samples/."
                )
            ]
        )
    lines: dict[PathKey, int] = {(): root.start_mark.line + 1}
    walker = _Walker(shown, lines, aliases, read_again_on_foreign_tags=libyaml)
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
