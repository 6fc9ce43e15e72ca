"""A numbered heading ("C.", a tab's width, "Payment for Restricted Stock Units") read as one line
by text extractors that go by layout, through /ActualText (ISO 32000-1 14.9.4).

The heading's number sits in a half-inch box (print.css, ``h2 .enum``), and the gap after it is
wider than poppler's `pdftotext` (and readers built on it) allows inside a block: it takes the
number for a block of its own, left of the page's text column, and where a list with hanging
numbers comes just before the heading (Notice B's list, then "C."), reads "C." above that list
and the heading's words after it (issue 44). The tags already give the heading in order, and
PDFium reads it right; the page is drawn as before. The heading's marked content is wrapped in
one span whose /ActualText is the heading's words, which a layout reader takes as one run
across the whole line: "C. Payment for Restricted Stock Units", in place.

Works on the PDF's own objects as WeasyPrint hands them to the finisher (pydyf), through
docgen.render.pdf_structure's walk of the structure tree and its lookup of marked content.
"""

from __future__ import annotations

import re
from typing import Any

from docgen.render.html_tree import Node, parse_html
from docgen.render.pdf_structure import descendants, marked_at, page_contents, structure_root

_SPACE = re.compile(r"\s+")


def numbered_headings(html: str) -> list[str | None]:
    """Each ``h2`` of the HTML in document order: its words when it opens with its number
    (``<span class="enum">``), else None."""
    found: list[str | None] = []

    def text(node: Node) -> str:
        return "".join(c if isinstance(c, str) else text(c) for c in node.children)

    def walk(node: Node) -> None:
        for child in node.children:
            if not isinstance(child, Node):
                continue
            if child.tag == "h2":
                first = next(
                    (c for c in child.children if not (isinstance(c, str) and not c.strip())), None
                )
                numbered = isinstance(first, Node) and "enum" in first.classes
                found.append(_SPACE.sub(" ", text(child)).strip() if numbered else None)
            else:
                walk(child)

    walk(parse_html(html))
    return found


def join_numbered_headings(pdf: Any, headings: list[str | None]) -> None:
    """Give each numbered heading of ``pdf`` its words as /ActualText (``headings``: from
    :func:`numbered_headings`, in the order the structure tree holds the H2 elements). A
    document whose H2 elements are not the HTML's, one for one, is left as it is."""
    import pydyf

    root = structure_root(pdf)
    if root is None:
        return
    elements = [e for e in descendants(pdf, root) if e.get("S") == "/H2"]
    if len(elements) != len(headings):
        return
    contents = page_contents(pdf)
    for element, words in zip(elements, headings, strict=True):
        marks = element.get("K", ())
        if words is None or not marks or not all(isinstance(m, int) for m in marks):
            continue
        stream = contents.get(element.get("Pg"))
        if stream is None:
            continue
        span = _span(stream.stream, marks[0], marks[-1])
        if span is None:
            continue
        start, end = span
        stream.stream[end:end] = [b"EMC"]
        # A text string in UTF-16BE with its byte order mark, in hex (ISO 32000-1 7.9.2.2):
        # nothing in it reads as a string or an operator to a reader scanning the stream.
        actual = b"<feff" + words.encode("utf-16-be").hex().encode("ascii") + b">"
        stream.stream[start:start] = ["/Span", pydyf.Dictionary({"ActualText": actual}), b"BDC"]


def _span(operations: list[Any], first: int, last: int) -> tuple[int, int] | None:
    """Where a span around the marked content ``first`` to ``last`` begins and ends (the end
    index is just past the last one's EMC), widened over the q and Q that open or close inside
    it so that it holds whole graphics states; None when that would take in anything else."""
    begin = marked_at(operations, first)
    close = marked_at(operations, last)
    if begin is None or close is None or close < begin:
        return None
    depth, end = 0, close + 2
    while end < len(operations):
        if operations[end] in (b"BDC", b"BMC"):
            depth += 1
        elif operations[end] == b"EMC":
            if depth == 0:
                break
            depth -= 1
        end += 1
    else:
        return None
    end += 1
    start = begin - 1  # the tag before the property list
    opened = 0  # q not yet closed inside, and Q closing what opened before
    lowest = 0
    for operation in operations[start:end]:
        if operation == b"q":
            opened += 1
        elif operation == b"Q":
            opened -= 1
            lowest = min(lowest, opened)
    for _ in range(-lowest):  # Q inside closing a q before: take that q in
        if start == 0 or operations[start - 1] != b"q":
            return None
        start -= 1
    for _ in range(opened - lowest):  # q inside still open: take its Q in
        if end >= len(operations) or operations[end] != b"Q":
            return None
        end += 1
    return start, end
