"""The tests read documents back with the engine's own reader (docgen.render.readback), the one
the DOC-* rules use. ``words`` collapses its whitespace for assertions that quote a sentence."""

import re

from docgen.render.readback import docx_text, html_text, pdf_text

_SPACE = re.compile(r"\s+")
_HYPHEN_BREAK = re.compile(r"(?<=\w)-[ \t]*\n[ \t]*(?=\w)")


def normalise(text: str) -> str:
    """Whitespace collapsed to single spaces, ends trimmed; a word the printer broke after a
    hyphen ("non-" / "employee") joined again, as it is in the source."""
    text = _HYPHEN_BREAK.sub("-", text.replace("\u2060", ""))
    return _SPACE.sub(" ", text.replace("\u00a0", " ")).strip()


def pdf_words(data: bytes) -> str:
    return normalise(pdf_text(data))


__all__ = ["docx_text", "docx_words", "html_text", "normalise", "pdf_text", "pdf_words", "squeezed"]


def docx_words(data: bytes) -> str:
    return normalise(docx_text(data))


def squeezed(text: str) -> str:
    """Text as the DOC-* rules compare it: every whitespace removed (a table cell's edge reads
    as a space in one format and as nothing in another)."""
    from docgen.core.text import normalise as squeeze

    return squeeze(text)
