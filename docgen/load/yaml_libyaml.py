"""YAML composed by libyaml, PyYAML's C parser, with its plain scalars resolved by the YAML 1.2
core schema (docgen.load.yaml_core) instead of PyYAML's YAML 1.1 resolver.

This is only a composer: it turns text into the same node tree ruamel's pure-Python composer
makes (a node per value, each with its tag, text and line), a hundred times sooner on a large
roster. What the nodes may hold (no foreign tags, no merge keys, aliases bounded) is decided once,
by the walker in docgen.load.yaml_reader, whichever composer made them. Anything libyaml refuses,
and the few texts where it and ruamel part (below), are left to ruamel, which names the problem in
docgen's words or reads the document the way it always has.
"""

from __future__ import annotations

import functools
import operator
from typing import Any

from docgen.load.yaml_core import MAP, PLAIN, SEQ, STR

# Where the two composers part, ruamel reads the text (all of these are rare in a facts file):
# - a tab: libyaml takes one inside a plain scalar or before a key's colon; ruamel refuses it;
# - NEL, LS and PS: libyaml counts them as line ends; ruamel, and every editor, does not;
# - a byte-order mark inside the text: libyaml skips it; ruamel reads it as a character;
# - a directive (%YAML, %TAG): it changes how the document's scalars resolve;
# - a quoted or bracketed key with its colon right after it (YAML 1.2's JSON-like key,
#   ``["a":1]``): libyaml takes it in a flow sequence, where ruamel refuses it. (Both refuse it
#   outside a flow collection, so a text that has one of these key ends, in a quoted value say,
#   ``"If [Accelerate On]:..."``, is still composed by libyaml, and declined only if what it
#   composed holds a flow collection that is not empty: json_like_key_possible.)
# Each is looked for with a substring search, at C speed: one regular expression with all of them
# as alternatives took a third of the time libyaml takes to compose a 5 MB roster.
_PARTING_CHARACTERS = ("\t", "\x85", "\u2028", "\u2029", "\ufeff")
_KEY_ENDS = ('":', "':", "]:", "}:")


def ruamel_must_read(text: str) -> bool:
    """True for a text where libyaml and ruamel part (above), whatever libyaml composes."""
    if text.startswith("%") or "\n%" in text:
        return True
    return any(character in text for character in _PARTING_CHARACTERS)


def json_like_key_possible(text: str) -> bool:
    """True for a text with a quote or bracket right before a colon and no space after it:
    where it is a key in a flow collection, libyaml and ruamel part (above)."""
    for key_end in _KEY_ENDS:
        at = text.find(key_end)
        while at != -1:
            if text[at + 2 : at + 3] not in (" ", "\n", "\r", ""):
                return True
            at = text.find(key_end, at + 2)
    return False


class Declined(Exception):
    """libyaml did not compose the text; the caller reads it with ruamel instead."""


@functools.cache
def _loader_class() -> type | None:
    """PyYAML's C parser with the YAML 1.2 core resolver; None where libyaml is not built in."""
    try:
        import yaml
        from yaml._yaml import CParser
    except ImportError:
        return None
    if not getattr(yaml, "__with_libyaml__", False):
        return None

    class CoreSchemaComposer(CParser):
        """CParser composes; these three methods are the resolver it calls for every node."""

        def resolve(self, kind: type, value: str | None, implicit: Any) -> str:
            if value is None:  # a sequence or a mapping
                return SEQ if kind is yaml.SequenceNode else MAP
            return PLAIN if implicit[0] else STR  # the walker resolves plain values it keeps

        # No path-dependent tags: CParser calls these two for every node, so they are C
        # callables that do nothing with their arguments, not Python methods (a tenth of the
        # composing time of a 10,000-participant roster).
        descend_resolver = operator.is_  # (parent, index) -> ignored
        ascend_resolver = tuple  # () -> ignored

    return CoreSchemaComposer


def available() -> bool:
    """True when PyYAML was built with libyaml (``yaml.__with_libyaml__``)."""
    return _loader_class() is not None


def compose_with_libyaml(text: str) -> Any:
    """The document's root node (None for a document with no content).

    Raises Declined when libyaml is not available, for a text ruamel must read (see above), and
    for anything libyaml refuses (its own messages are not docgen's, nor always about the same
    line).
    """
    if ruamel_must_read(text):
        raise Declined
    root = compose_part(text)
    if root is not None and json_like_key_possible(text) and holds_a_flow_collection(root):
        raise Declined
    return root


def compose_part(text: str) -> Any:
    """libyaml's root node of ``text`` (a part of a facts file, say), without the checks above,
    which the caller made on the whole file; Declined where libyaml refuses the text or is not
    available."""
    loader_class = _loader_class()
    if loader_class is None:
        raise Declined
    import yaml

    loader = loader_class(text)
    try:
        return loader.get_single_node()
    except (yaml.YAMLError, ValueError, TypeError):
        raise Declined from None
    finally:
        loader.dispose()


def holds_a_flow_collection(root: Any) -> bool:
    """True if any collection in the tree is written in flow style (``[...]``, ``{...}``) and
    holds something (an empty one, ``elections: []``, has no key in it)."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.id == "scalar":
            continue
        if node.flow_style and node.value:
            return True
        if node.id == "mapping":
            for key, value in node.value:
                stack.append(key)
                stack.append(value)
        else:
            stack.extend(node.value)
    return False


def has_anchors(text: str) -> bool:
    """True when the YAML text holds an anchor (``&name``) or an alias (``*name``), or does not
    parse (a ``&`` or ``*`` inside a value's text is neither)."""
    if "&" not in text and "*" not in text:
        return False
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        return any(
            isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None)
            for event in yaml.parse(text, Loader=loader)
        )
    except yaml.YAMLError:
        return True
