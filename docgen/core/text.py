"""How document texts are compared: every difference that is not content removed.

Unicode NFKC (a PDF's "ﬁ" ligature reads back as "fi"), soft hyphens and zero-width characters
dropped, then every run of whitespace removed. Removing whitespace outright (rather than
collapsing it to one space) is deliberate: a PDF reader reconstructs spaces from glyph positions
and can split or join words at a line end, while a difference in any visible character still
shows.
"""

from __future__ import annotations

import functools
import re
import unicodedata

_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"))
_WHITESPACE = re.compile(r"\s+")


@functools.lru_cache(maxsize=16)  # each read-back text is compared several times
def normalise(text: str) -> str:
    """Text with every difference that is not content removed (see the module docstring)."""
    text = unicodedata.normalize("NFKC", text).translate(_INVISIBLE)
    return _WHITESPACE.sub("", text)
