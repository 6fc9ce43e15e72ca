"""Every letter a document prints is in a font docgen ships, or the document is refused.

WeasyPrint (Pango) draws a character no font of the stylesheet has in whatever font the machine
offers: a director's Arabic name would print in one machine's fallback and another's, and a copy
made again elsewhere (`docgen verify FILE.pdf`) would differ. So the text of a document is
checked, before it is printed, against the fonts its stylesheet declares (``@font-face`` files
under ``fonts/``, shipped with docgen): a character none of them has is a refusal at issue,
naming it. Characters that draw nothing (spaces, format controls such as the word joiner) need
no glyph. The record of each issued document names the fonts it was printed with
(:func:`fonts_named`).
"""

from __future__ import annotations

import functools
import hashlib
import html
import re
import unicodedata
from html.parser import HTMLParser
from pathlib import Path

from docgen.core.errors import RenderError, clipped

_FONT_URL = re.compile(r"""@font-face\s*\{[^}]*?url\(\s*["']?(fonts/[^"')]+)["']?\s*\)""")


def declared_fonts(css: str, roots: tuple[Path, ...]) -> list[Path]:
    """The font files the stylesheet's ``@font-face`` rules name, found in the first of
    ``roots`` that has each (a company's folder, then the built-ins)."""
    found = []
    for name in dict.fromkeys(_FONT_URL.findall(css)):
        path = next((root / name for root in roots if (root / name).is_file()), None)
        if path is not None:
            found.append(path)
    return found


@functools.lru_cache(maxsize=32)
def _cmap(path: Path, size: int, mtime: int) -> frozenset[int]:
    from fontTools.ttLib import TTFont

    with TTFont(path, lazy=True) as font:
        return frozenset(font.getBestCmap() or {})


def covered(fonts: list[Path]) -> frozenset[int]:
    """Every code point one of ``fonts`` has a glyph for."""
    points: set[int] = set()
    for path in fonts:
        status = path.stat()
        points |= _cmap(path, status.st_size, status.st_mtime_ns)
    return frozenset(points)


class _Text(HTMLParser):
    """The text an HTML document prints (its style and script aside)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in ("style", "script", "title"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "script", "title") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def printed_text(document: str) -> str:
    parser = _Text()
    parser.feed(document)
    parser.close()
    return html.unescape(" ".join(parser.parts))


def _draws_nothing(char: str) -> bool:
    return char.isspace() or unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp")


def refuse_missing_glyphs(document: str, fonts: list[Path], title: str) -> None:
    """RenderError naming each character of the document's text no font in ``fonts`` has."""
    have = covered(fonts)
    text = printed_text(document)
    missing = sorted(
        {c for c in set(text) if ord(c) not in have and not _draws_nothing(c)}, key=ord
    )
    if not missing:
        return
    first = min(text.index(c) for c in missing)
    where = " ".join(text[max(0, first - 30) : first + 30].split())
    named = ", ".join(
        f"{c} U+{ord(c):04X} {unicodedata.name(c, 'unnamed')}" for c in missing[:8]
    ) + (f" and {len(missing) - 8} more" if len(missing) > 8 else "")
    raise RenderError(
        f"{title}: no font docgen ships has {named} (in “{clipped(where, 80)}”): printed, "
        "they would come out in whatever font this machine has, differently on another, so the "
        "document is not issued. Write the text in Latin letters (a transliterated name), or "
        "have docgen ship a font that has them."
    )


def fonts_named(fonts: list[Path]) -> str:
    """The fonts a document is printed with, for its record: each file and its SHA-256."""
    return ", ".join(
        f"{path.name} sha256:{_digest(path, path.stat().st_mtime_ns)}" for path in sorted(fonts)
    )


@functools.lru_cache(maxsize=64)
def _digest(path: Path, mtime: int) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
