"""The two steps of walking JSON text by offset, shared by the loader (which maps each fact to its
line) and intake (which edits a facts file where it stands): skipping white space and reading one
string. Both use the standard library's own scanner, so a string reads exactly as ``json.loads``
reads it."""

from __future__ import annotations

import json.decoder
import re
from collections.abc import Callable

_SPACE = re.compile(r"[ \t\n\r]*")  # JSON's white space (RFC 8259, section 2)

# json.decoder.scanstring is the C scanner behind json.loads (typeshed does not declare it):
# (text, offset just past the opening quote) -> (the string, offset just past the closing quote).
scanstring: Callable[[str, int], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]


def skip_space(text: str, index: int) -> int:
    """The offset of the first character at or after ``index`` that is not JSON white space."""
    found = _SPACE.match(text, index)  # the pattern matches the empty string too
    return found.end() if found is not None else index
