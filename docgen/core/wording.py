"""A template's wording as a lawyer reads it (DESIGN.md, "Drafted clauses and counsel's
approval"): the text with its blanks named (``[Grant Date]``, ``[Director's name]``), each
``{% if %}`` as an "If ...:" line with what it governs indented beneath, each loop as a "For
each ...:" line, an included clause as ``[Clause notice.b-accelerated-vesting]``, a fill-in field
as ``[____]``; no template syntax and no markup. Counsel approves this text, and its SHA-256 is
what an approval is bound to: the SHA-256 of the normalised wording's UTF-8 bytes, its lines
joined by a newline and ended by one. A whitespace or markup-only edit leaves it as it was; a
changed word always changes it.

How it is read: the template is parsed by Jinja (never rendered); its literal text is HTML, whose
block elements (p, div, li, tr, headings, br ...) end a line and whose other tags are dropped
(a tag closed and another opened with nothing between them reads as a space, so two cells or
spans never run together); entities are decoded; each line's whitespace is collapsed. A blank's
label is derived from its variable's name (``grant_date`` -> "Grant Date", ``director.name`` ->
"Director's name"), or taken from LABELS where the name alone reads badly.
"""

from __future__ import annotations

import functools
import hashlib
import html
import re
from typing import Any

# Blanks whose variable name reads badly as a label.
LABELS = {
    "loop.index": "number",
    "loop.index0": "number",
    "loop.first": "first of them",
    "loop.last": "last of them",
    "loop.revindex": "number left",
    "director.greeting": "Director's salutation",
    "fmv": "Fair Market Value",
}
INDENT = "  "
BLOCK_TAGS = (
    "p|div|li|tr|ol|ul|table|tbody|thead|tfoot|section|header|footer|article|h[1-6]|br|hr"
    "|blockquote|dl|dt|dd|caption|fieldset|legend|main|nav|aside|figure|figcaption|body|html"
)
_BLOCK = re.compile(rf"<\s*/?\s*(?:{BLOCK_TAGS})\b[^>]*>", re.IGNORECASE)
_HIDDEN = re.compile(r"<(head|style|script|title)\b.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
_INPUT = re.compile(r"<\s*(?:input|textarea|select)\b[^>]*>", re.IGNORECASE)
_ADJACENT = re.compile(r"</[^>]*> *<(?!/)[^>]*>")
_TAG = re.compile(r"<!--.*?-->|<!DOCTYPE[^>]*>|<[^>]*>", re.IGNORECASE | re.DOTALL)
_SPACE = re.compile(r"\s+")
_OPERATORS = {
    "eq": "is",
    "ne": "is not",
    "lt": "is before",
    "lteq": "is on or before",
    "gt": "is after",
    "gteq": "is on or after",
    "in": "is one of",
    "notin": "is not one of",
}
CLAUSE_PREFIX = "clauses/"


def label(name: str) -> str:
    """A blank's label: LABELS, else the dotted name in words ("Director's name")."""
    if name in LABELS:
        return LABELS[name]
    head, *rest = name.split(".")
    words = " ".join(part.capitalize() for part in head.split("_") if part)
    for part in rest:
        words += "'s " + " ".join(part.split("_"))
    return words or name


def _const(value: Any) -> str:
    if isinstance(value, str):
        return f"“{value}”"
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _dotted(node: Any) -> str | None:
    from jinja2 import nodes

    if isinstance(node, nodes.Name):
        return node.name
    if isinstance(node, nodes.Getattr):
        base = _dotted(node.node)
        return f"{base}.{node.attr}" if base else None
    return None


def expression(node: Any, blank: bool = False) -> str:
    """An expression in words; ``blank``: its variables in brackets, as in a condition."""
    from jinja2 import nodes

    def again(child: Any) -> str:
        return expression(child, blank)

    dotted = _dotted(node)
    if dotted is not None:
        return f"[{label(dotted)}]" if blank else label(dotted)
    if isinstance(node, nodes.Const):
        return _const(node.value)
    if isinstance(node, nodes.Filter | nodes.Test) and node.node is not None:
        inner = again(node.node)
        if isinstance(node, nodes.Test):
            return f"{inner} is {node.name.replace('_', ' ')}"
        return inner  # a filter formats a value; the value is the blank
    if isinstance(node, nodes.Not):
        return f"not {again(node.node)}"
    if isinstance(node, nodes.And | nodes.Or):
        word = "and" if isinstance(node, nodes.And) else "or"
        return f"{again(node.left)} {word} {again(node.right)}"
    if isinstance(node, nodes.Compare):
        words = again(node.expr)
        for operand in node.ops:
            words += f" {_OPERATORS.get(operand.op, operand.op)} {again(operand.expr)}"
        return words
    if isinstance(node, nodes.Getitem):
        return f"{again(node.node)} for {again(node.arg)}"
    if isinstance(node, nodes.Call):
        args = ", ".join(again(arg) for arg in node.args)
        return f"{again(node.node)} ({args})" if args else again(node.node)
    if isinstance(node, nodes.CondExpr):
        otherwise = f", otherwise {again(node.expr2)}" if node.expr2 is not None else ""
        return f"{again(node.expr1)} if {again(node.test)}{otherwise}"
    if isinstance(node, nodes.Tuple | nodes.List):
        return ", ".join(again(item) for item in node.items)
    if isinstance(node, nodes.Concat):
        return " ".join(again(item) for item in node.nodes)
    if isinstance(node, nodes.BinExpr):
        return f"{again(node.left)} {node.operator} {again(node.right)}"
    return type(node).__name__.lower()


class _Reader:
    """Walks a parsed template, gathering its HTML and its structure as indented lines."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.depth = 0
        self.markup: list[str] = []

    def flush(self) -> None:
        # A newline in the template's text is only whitespace; block elements end lines.
        text = _SPACE.sub(" ", "".join(self.markup))
        self.markup = []
        text = _HIDDEN.sub(" ", text)
        text = _INPUT.sub(" [____] ", text)
        text = _BLOCK.sub("\n", text)
        text = _ADJACENT.sub(" ", text)
        text = html.unescape(_TAG.sub("", text))
        for line in text.split("\n"):
            words = _SPACE.sub(" ", line).strip()
            if words:
                self.lines.append(INDENT * self.depth + words)

    def line(self, words: str) -> None:
        self.flush()
        self.lines.append(INDENT * self.depth + words)

    def nested(self, heading: str, body: list[Any]) -> None:
        self.line(heading)
        self.depth += 1
        self.walk(body)
        self.flush()
        self.depth -= 1

    def walk(self, body: list[Any]) -> None:
        for node in body:
            self.node(node)

    def in_tag(self) -> bool:
        """Whether the text so far ends inside an HTML tag (its attributes are not words)."""
        text = "".join(self.markup)
        return text.rfind("<") > text.rfind(">")

    def node(self, node: Any) -> None:
        from jinja2 import nodes

        if not isinstance(node, nodes.Output) and self.in_tag():
            return  # logic inside a tag chooses attributes, not words
        if isinstance(node, nodes.Output):
            for child in node.nodes:
                if isinstance(child, nodes.TemplateData):
                    self.markup.append(child.data)
                elif isinstance(child, nodes.Const) and isinstance(child.value, str):
                    self.markup.append(html.escape(child.value, quote=False))
                else:
                    self.markup.append(f"[{html.escape(expression(child), quote=False)}]")
        elif isinstance(node, nodes.If):
            self.nested(f"If {expression(node.test, True)}:", node.body)
            for branch in node.elif_:
                self.nested(f"Otherwise, if {expression(branch.test, True)}:", branch.body)
            if node.else_:
                self.nested("Otherwise:", node.else_)
        elif isinstance(node, nodes.For):
            target = expression(node.target)
            test = f", where {expression(node.test, True)}" if node.test is not None else ""
            self.nested(f"For each [{target}] of [{expression(node.iter)}]{test}:", node.body)
            if node.else_:
                self.nested("If there are none:", node.else_)
        elif isinstance(node, nodes.Include):
            name = node.template.value if isinstance(node.template, nodes.Const) else None
            if isinstance(name, str) and name.endswith(".css"):
                return  # the stylesheet: layout, no words
            if isinstance(name, str) and name.startswith(CLAUSE_PREFIX):
                self.line(f"[Clause {name[len(CLAUSE_PREFIX) :].removesuffix('.html.j2')}]")
            else:
                self.line(f"[Included: {name or expression(node.template)}]")
        elif isinstance(node, nodes.Macro):
            args = ", ".join(label(arg.name) for arg in node.args)
            called = f"{label(node.name)} ({args})" if args else label(node.name)
            self.nested(f"Where [{called}] reads:", node.body)
        elif isinstance(node, nodes.Assign):
            self.line(f"Where [{expression(node.target)}] is {expression(node.node)}.")
        elif isinstance(node, nodes.AssignBlock | nodes.Block | nodes.Scope | nodes.With):
            self.walk(node.body)
        elif isinstance(node, nodes.CallBlock | nodes.FilterBlock):
            self.walk(node.body)
        elif isinstance(node, nodes.Extends | nodes.Import | nodes.FromImport):
            return
        else:
            for child in node.iter_child_nodes():
                if isinstance(child, nodes.Stmt):
                    self.node(child)


@functools.cache
def _parser() -> Any:
    from jinja2 import Environment

    return Environment(trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)


def wording_of(template_text: str) -> str:
    """The wording of a template (a clause's fragment or a whole document template), as counsel
    reads it: one line per paragraph, blank or condition, with a final newline."""
    reader = _Reader()
    reader.walk(_parser().parse(template_text).body)
    reader.flush()
    return "\n".join(reader.lines) + "\n" if reader.lines else ""


def wording_sha256(wording: str) -> str:
    """The SHA-256 an approval is bound to: of the normalised wording's UTF-8 bytes."""
    return hashlib.sha256(wording.encode("utf-8")).hexdigest()
