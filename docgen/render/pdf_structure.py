"""The structure tree WeasyPrint writes, tidied before the PDF is written: what assistive
technology reads (tables), and what every reader of the file pays for (one element per line).

These work on the PDF's own objects (pydyf dictionaries, references as ``b"12 0 R"``), not on
WeasyPrint's internals, and leave a document WeasyPrint did not tag as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from pydyf import Dictionary

_REFERENCE = re.compile(rb"(\d+) (\d+) R")


def tidy_structure(pdf: Any) -> None:
    """Every tidying, in order: tables (they look at cells), the running footers, then line
    spans; the elements left with nothing to say are dropped at the end."""
    if "StructTreeRoot" not in pdf.catalog:
        return  # not tagged
    _tidy_tables(pdf)
    dropped = _margins_as_artifacts(pdf) | _fold_line_spans(pdf)
    if dropped:
        _drop(pdf, dropped)


def _page_marks(pdf: Any) -> list[Any]:
    """The parent tree's arrays, one per page: marked-content id -> the element it belongs to."""
    root = _object(pdf, pdf.catalog["StructTreeRoot"])
    numbers = _object(pdf, root["ParentTree"])["Nums"]
    return [numbers[i] for i in range(1, len(numbers), 2) if isinstance(numbers[i], list)]


def _object(pdf: Any, reference: Any) -> Any:
    """The object ``reference`` (``b"12 0 R"``) names; None for anything else."""
    if not isinstance(reference, bytes):
        return None  # a marked-content id, or a direct value
    return pdf.objects[int(reference.split()[0])]


def _element(pdf: Any, kid: Any) -> Any:
    found = _object(pdf, kid)
    return found if isinstance(found, Dictionary) and found.get("Type") == "/StructElem" else None


def descendants(pdf: Any, node: Any) -> Iterator[Any]:
    """The structure elements under ``node``, in the tree's order (each before its children)."""
    for kid in node.get("K", ()):
        child = _element(pdf, kid)
        if child is not None:
            yield child
            yield from descendants(pdf, child)


def structure_root(pdf: Any) -> Any:
    """The structure tree's root; None for a document WeasyPrint did not tag."""
    return _object(pdf, pdf.catalog.get("StructTreeRoot"))


def page_contents(pdf: Any) -> dict[bytes, Any]:
    """Each page's content stream, by the page's reference (what an element's /Pg holds)."""
    return {page.reference: _object(pdf, page["Contents"]) for page in _pages(pdf)}


def marked_at(operations: list[Any], mcid: int) -> int | None:
    """The index of the property list ``<</MCID mcid>>`` in a page's operations."""
    for index, operation in enumerate(operations):
        if isinstance(operation, dict) and operation.get("MCID") == mcid:
            return index
    return None


_TABLE_PARTS = ("/Table", "/THead", "/TBody", "/TFoot", "/TR", "/TD")


def _tidy_tables(pdf: Any) -> None:
    """Tables as assistive technology reads them.

    A table with no header cell lays out a block (the signature lines with their labels under
    them) and holds no data: tagged as a Table, a screen reader would announce a grid of unnamed
    cells, so its table, row and cell elements become divisions, read in order. In a data table
    each header cell also gets its /Scope (a row's header beside data cells, else a column's),
    beside the /Headers WeasyPrint gives each data cell, so either way of associating works.
    """
    import pydyf

    def children(node: Any) -> list[Any]:
        found = (_element(pdf, kid) for kid in node.get("K", ()))
        return [child for child in found if child is not None]

    for table in [o for o in pdf.objects if isinstance(o, dict) and o.get("S") == "/Table"]:
        within = list(descendants(pdf, table))
        if not any(part.get("S") == "/TH" for part in within):
            for part in (table, *within):
                if part.get("S") in _TABLE_PARTS:
                    part["S"] = "/Div"
                    part.pop("A", None)  # the attributes of a table that is one no more
            continue
        for row in (part for part in within if part.get("S") == "/TR"):
            cells = children(row)
            scope = "/Row" if any(cell.get("S") == "/TD" for cell in cells) else "/Column"
            for cell in cells:
                if cell.get("S") == "/TH":
                    cell.setdefault("A", pydyf.Dictionary({"O": "/Table"}))["Scope"] = scope


def _margins_as_artifacts(pdf: Any) -> set[int]:
    """The running footer ("Page 1 of 4", from the stylesheet's @page rule) is pagination, not
    content. WeasyPrint marks it as content of elements it leaves out of the tree (an artifact
    inside the tree is for PDF 2.0 only), so a reader finds text that belongs nowhere. It is
    marked as a pagination artifact instead (ISO 32000-1 14.8.2.2), and its elements dropped."""
    root = _object(pdf, pdf.catalog["StructTreeRoot"])
    reachable: set[int] = set()
    pending = [root]
    while pending:
        node = pending.pop()
        for kid in node.get("K", ()):
            child = _element(pdf, kid)
            if child is not None and child.number not in reachable:
                reachable.add(child.number)
                pending.append(child)
    orphans = [
        o
        for o in pdf.objects
        if isinstance(o, Dictionary)
        and o.get("Type") == "/StructElem"
        and o.number not in reachable
    ]
    if not orphans:
        return set()
    marks = {o.number: [k for k in o.get("K", ()) if isinstance(k, int)] for o in orphans}
    pages = {page.reference: index for index, page in enumerate(_pages(pdf))}
    tree = _page_marks(pdf)
    for orphan in orphans:
        page = pages[orphan["Pg"]]
        contents = _object(pdf, _pages(pdf)[page]["Contents"])
        for mcid in marks[orphan.number]:
            _mark_as_pagination(contents.stream, mcid)
            tree[page][mcid] = "null"
    return {o.number for o in orphans}


def _pages(pdf: Any) -> list[Any]:
    return [_object(pdf, reference) for reference in pdf.page_references]


def _mark_as_pagination(operations: list[Any], mcid: int) -> None:
    """``/Span <</MCID n>> BDC`` in a page's operations becomes ``/Artifact <</Type
    /Pagination>> BDC``."""
    index = marked_at(operations, mcid)
    if not index:  # not on its page, or with no tag before it
        raise ValueError(f"marked content {mcid} is not on its page")
    operations[index - 1] = "/Artifact"
    operation = operations[index]
    operation.clear()
    operation["Type"] = "/Pagination"


# Elements that carry no meaning of their own (ISO 32000-1 14.8.4.2 and 14.8.4.4): WeasyPrint's
# one-per-line text spans, and HTML spans and anonymous boxes with nothing but text in them.
_FOLDABLE = ("/Span", "/NonStruct")


def _fold_line_spans(pdf: Any) -> set[int]:
    """WeasyPrint makes each line of text its own /Span element under its paragraph or heading
    (two hundred in a four-page Notice), each saying nothing but "this marked content belongs
    here"; an HTML span or an anonymous box around plain text (or around nothing: an empty blank
    to sign on) says no more. Their marked content is given to the parent element instead
    (integers in its /K, as ISO 32000-1 14.7.4 allows for content on the element's page) and
    they are dropped: the same reading order and roles, half the objects, and half the time to
    read the PDF back."""
    folded: dict[bytes, bytes] = {}  # element reference -> the element that took its content
    # Children come after their parents in the list: from the end, a span whose own line spans
    # were folded into it is folded in turn.
    for span in reversed(pdf.objects):
        if not (isinstance(span, Dictionary) and span.get("S") in _FOLDABLE):
            continue
        kids = span.get("K")
        if set(span) != {"Type", "S", "K", "Pg", "P"}:
            continue  # an element that says more (a language, a text alternative) stays
        if not all(isinstance(kid, int) for kid in kids):
            continue
        parent = _element(pdf, span["P"])
        if parent is None or parent.get("Pg") != span["Pg"]:
            continue
        at = parent["K"].index(span.reference)
        parent["K"][at : at + 1] = list(kids)
        folded[span.reference] = parent.reference

    def taker(reference: Any) -> Any:
        while reference in folded:
            reference = folded[reference]
        return reference

    for page in _page_marks(pdf):
        page[:] = [taker(kid) for kid in page]
    return {int(reference.split()[0]) for reference in folded}


def _drop(pdf: Any, dropped: set[int]) -> None:
    """Remove objects nothing refers to any more and number the rest again, with every
    reference rewritten (pydyf numbers an object by its place in the list)."""
    kept = [o for o in pdf.objects if o.number not in dropped]
    renumbered = {o.number: index for index, o in enumerate(kept)}
    seen: set[int] = set()

    def rewrite(value: Any) -> Any:
        if isinstance(value, bytes):
            match = _REFERENCE.fullmatch(value)
            if match and int(match.group(1)) in renumbered:
                return b"%d %s R" % (renumbered[int(match.group(1))], match.group(2))
            return value
        if isinstance(value, dict | list):
            if id(value) in seen:
                return value
            seen.add(id(value))
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in list(items):
                value[key] = rewrite(item)
        return value

    for o in kept:
        rewrite(getattr(o, "extra", None) if hasattr(o, "stream") else o)
    kids = pdf.pages["Kids"]  # pydyf keeps the pages as [number, 0, "R", ...]
    kids[::3] = [renumbered[number] for number in kids[::3]]
    for index, o in enumerate(kept):
        o.number = index
    pdf.objects[:] = kept
