"""A PDF's pages, fonts and content streams fetched one object at a time, for reading text back.

pypdf parses every object of an object stream as soon as one of them is asked for. A tagged
PDF/A keeps thousands of small objects there, its structure tree above all, so reading a page's
text back cost more in parsing objects nobody reads than in the text itself. These few objects
are read from the object stream one by one instead, with pypdf's own object parser; anything out
of the ordinary raises Unusual, and the caller reads the PDF with pypdf as a whole.
"""

from __future__ import annotations

import io
from typing import Any

MAX_PAGE_TREE_DEPTH = 32


class Unusual(Exception):
    """The PDF is not laid out as expected here: read it with pypdf instead."""


class PageObjects:
    """Resolves references of a pypdf reader without parsing whole object streams."""

    def __init__(self, reader: Any) -> None:
        self.reader = reader
        self._streams: dict[int, tuple[bytes, int, list[tuple[int, int]]]] = {}

    def resolve(self, value: Any) -> Any:
        from pypdf.generic import IndirectObject

        for _ in range(8):  # a reference to a reference ... is unusual past a few
            if not isinstance(value, IndirectObject):
                return value
            value = self._fetch(value)
        raise Unusual

    def get(self, dictionary: Any, key: str) -> Any:
        """``dictionary[key]`` resolved here (pypdf's own lookup resolves through the reader)."""
        if not hasattr(dictionary, "raw_get") or key not in dictionary:
            raise Unusual
        return self.resolve(dictionary.raw_get(key))

    def _fetch(self, reference: Any) -> Any:
        from pypdf.generic import read_object

        located = self.reader.xref_objStm.get(reference.idnum)
        if located is None:  # an object of its own (every stream is): pypdf reads just it
            return self.reader.get_object(reference)
        data, first, offsets = self._object_stream(int(located[0]))
        index = int(located[1])
        if not 0 <= index < len(offsets) or offsets[index][0] != reference.idnum:
            raise Unusual
        stream = io.BytesIO(data)
        stream.seek(first + offsets[index][1])
        return read_object(stream, self.reader)

    def _object_stream(self, number: int) -> tuple[bytes, int, list[tuple[int, int]]]:
        from pypdf.generic import IndirectObject

        cached = self._streams.get(number)
        if cached is not None:
            return cached
        if number in self.reader.xref_objStm:
            raise Unusual  # an object stream inside another
        stream = self.reader.get_object(IndirectObject(number, 0, self.reader))
        if stream is None or stream.get("/Type") != "/ObjStm":
            raise Unusual
        data = stream.get_data()
        count, first = stream.get("/N"), stream.get("/First")
        if not isinstance(count, int) or not isinstance(first, int) or not 0 <= first <= len(data):
            raise Unusual
        header = data[:first].split()
        if len(header) != 2 * count:
            raise Unusual
        offsets = [(int(header[2 * i]), int(header[2 * i + 1])) for i in range(count)]
        self._streams[number] = (data, first, offsets)
        return self._streams[number]

    def pages(self) -> list[Any]:
        """The page dictionaries in order, following the page tree from the catalog."""
        root = self.get(self.reader.trailer, "/Root")
        found: list[Any] = []
        self._collect(self.get(root, "/Pages"), found, 0)
        return found

    def _collect(self, node: Any, found: list[Any], depth: int) -> None:
        if depth > MAX_PAGE_TREE_DEPTH:
            raise Unusual
        for kid in self.get(node, "/Kids"):
            kid = self.resolve(kid)
            kind = kid.get("/Type") if hasattr(kid, "get") else None
            if kind == "/Pages":
                self._collect(kid, found, depth + 1)
            elif kind == "/Page":
                found.append(kid)
            else:
                raise Unusual
