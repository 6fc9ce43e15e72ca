"""Text made safe for the program that opens it: which characters a fact may hold, and how any text
is written into a terminal, a Markdown report, an iCalendar file or a spreadsheet's CSV.

One policy, used by the loader (refuse) and by every output (escape):

- *Unsafe* characters are the ones that change how other text is shown rather than showing
  themselves: control characters (C0, DEL, C1: NUL, BEL, ESC, CR ...), the line and paragraph
  separators U+2028/U+2029, the bidirectional controls (U+061C, U+200E/F, U+202A-U+202E,
  U+2066-U+2069: the "Trojan Source" overrides), a byte-order mark inside text, the interlinear
  annotation marks, and lone surrogates. A fact may not contain one (docgen.core.model).
- Where such a character reaches an output anyway (a file name, a message), it is written as a
  visible escape (``\\x1b``, ``\\u202e``), never raw: :func:`visible`.
- A message (a load error, a finding, anything on the terminal) goes further: every character
  that does not show itself is an escape, the format characters a fact may hold (a zero-width
  space, a word joiner, a soft hyphen) and a no-break space too, so it shows what is really in
  the cell (:func:`for_message`).
- CSV cells that a spreadsheet would run as a formula (leading ``= + - @``, tab or CR) get a
  leading single quote, the OWASP way; a cell that itself starts with a quote gets one too, so
  dropping one leading quote always gives the text back (:func:`csv_cell`).
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Iterable

_BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
_OTHER_UNSAFE = frozenset("\u2028\u2029\ufeff\ufff9\ufffa\ufffb")
_CONTROL_NAMES = {
    0x00: "NUL",
    0x07: "BEL",
    0x08: "BACKSPACE",
    0x09: "TAB",
    0x0A: "LINE FEED",
    0x0B: "VERTICAL TAB",
    0x0C: "FORM FEED",
    0x0D: "CARRIAGE RETURN",
    0x1B: "ESC",
    0x7F: "DEL",
}


# The same set as one character class (Cc is U+0000-U+001F and U+007F-U+009F, Cs the
# surrogates), so a 10,000-participant file is checked at C speed; a test keeps the two equal.
UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\ud800-\udfff" + "".join(sorted(_BIDI_CONTROLS | _OTHER_UNSAFE)) + "]"
)


def is_unsafe(char: str) -> bool:
    """True for a character that changes how other text shows (see the module docstring)."""
    if char in _BIDI_CONTROLS or char in _OTHER_UNSAFE:
        return True
    return unicodedata.category(char) in ("Cc", "Cs")


# UNSAFE less the layout's whitespace (line feed, carriage return, tab), for json_text: an indented
# report has a line break on every line, and each character of it must not be looked at in Python.
_UNSAFE_IN_JSON = re.compile(UNSAFE.pattern.replace("\x00-\x1f", "\x00-\x08\x0b\x0c\x0e-\x1f"))


def first_unsafe(text: str) -> tuple[int, str] | None:
    """The position and character of the first unsafe character in ``text``, or None."""
    match = UNSAFE.search(text)
    return (match.start(), match.group()) if match else None


def describe(char: str) -> str:
    """``U+001B (ESC)``, ``U+202E (RIGHT-TO-LEFT OVERRIDE)``: a character named for a message."""
    code = ord(char)
    name = _CONTROL_NAMES.get(code) or unicodedata.name(char, "")
    if not name and unicodedata.category(char) == "Cc":
        name = "a control character"
    return f"U+{code:04X} ({name})" if name else f"U+{code:04X}"


def _escape(char: str) -> str:
    code = ord(char)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def visible(text: str, keep: str = "") -> str:
    """``text`` with every unsafe character (except those in ``keep``) written as an escape."""
    if not UNSAFE.search(text):
        return text
    return "".join(_escape(c) if is_unsafe(c) and c not in keep else c for c in text)


def for_message(text: str, keep: str = "") -> str:
    """``text`` as a message quotes it: every character that does not show itself (except those
    in ``keep``) written as an escape: the unsafe ones, and the format characters a fact may hold
    but a reader cannot see (a zero-width space ``\\u200b``, a word joiner, a soft hyphen), a
    no-break space, an unassigned code point. A message then shows what is really in the cell:
    ``Jane\\u200b Smith`` is not the Jane Smith it reads as (issue 44)."""
    if text.isprintable():  # a plain space is printable; every letter of every script is
        return text
    return "".join(c if c.isprintable() or c in keep else _escape(c) for c in text)


def for_terminal(text: str) -> str:
    """Text for a terminal: line breaks kept, every other character that does not show itself
    escaped (an ESC in a file name cannot clear the screen or recolour what follows; a zero-width
    space in a name is seen)."""
    return for_message(text, keep="\n")


# ------------------------------------------------------------------ CSV

# What makes a spreadsheet (Excel, LibreOffice, Google Sheets) read a cell as a formula: OWASP,
# "CSV Injection". A leading quote is added to the list for csv_cell only (see its docstring).
FORMULA_LEADS = ("=", "+", "-", "@", "\t", "\r")
_FORMULA_LEADS = (*FORMULA_LEADS, "'")
_FORMULA_LEAD_CHARACTERS = frozenset(_FORMULA_LEADS)
assert all(len(lead) == 1 for lead in _FORMULA_LEADS)


def formula_lead(text: str) -> str | None:
    """The character that makes a spreadsheet run ``text`` as a formula, or None: for free text
    refused where it is taken in (a returned form's Beneficiary name: docgen.intake.record)."""
    return text[0] if text.startswith(FORMULA_LEADS) else None


def csv_field(text: str) -> str:
    """One field of a CSV record as RFC 4180 writes it: quoted (an inner quote doubled) when it
    holds a comma, a quote, a line break or white space at either end; else as it is. No
    neutralising: for a cell whose text is already known safe (docgen.intake.roster_text edits
    one cell of a CSV the user keeps, refusing a formula instead)."""
    if any(char in text for char in ',"\r\n') or text != text.strip():
        return '"' + text.replace('"', '""') + '"'
    return text


def csv_cell(value: object) -> str:
    """One CSV cell: text a spreadsheet would read as a formula is prefixed with a single quote."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(_FORMULA_LEADS) else text


def csv_uncell(text: str) -> str:
    """What :func:`csv_cell` was given (a reader's inverse: one leading quote dropped)."""
    return text[1:] if text.startswith("'") else text


def csv_text(header: Iterable[str], rows: Iterable[Iterable[object]]) -> str:
    """A CSV file (RFC 4180: CRLF line ends, so a bare CR or LF inside a cell is always quoted),
    every cell through :func:`csv_cell`. docgen's one writer of a whole CSV: `status`, `compute`,
    `payroll`, `calendar` and `proxy` all write theirs with it (tests/test_csv_injection.py)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(list(header))
    # csv_cell's own rule, written out in the loop (no call per cell: payroll writes millions);
    # every lead is one character, so a cell starts with one when its first character is one
    leads = _FORMULA_LEAD_CHARACTERS
    for row in rows:
        texts = [cell if type(cell) is str else "" if cell is None else str(cell) for cell in row]
        writer.writerow(["'" + text if text and text[0] in leads else text for text in texts])
    return buffer.getvalue()


# ------------------------------------------------------------------ Markdown (CommonMark)

# Inline content only (a table cell, a heading, the rest of a list item's line): these are the
# characters that can open a CommonMark or GitHub construct there (escape, code span, emphasis,
# link, raw HTML or autolink, entity, table cell, strikethrough, a heading's closing #s).
_MARKDOWN_SPECIAL = frozenset("\\`*_[]<>&|~#")


def markdown_text(text: str) -> str:
    """Text as literal CommonMark inline content (a table cell, a heading): each character that
    could open emphasis, a link, a code span, raw HTML, an entity or a new cell backslash-escaped,
    unsafe characters written as escapes, and whitespace at either end written as a character
    reference so a table cell or heading does not trim it."""
    body = "".join(f"\\{c}" if c in _MARKDOWN_SPECIAL else c for c in visible(text))
    start = len(body) - len(body.lstrip())
    end = len(body.rstrip())
    if start == len(body):
        return "".join(f"&#{ord(c)};" for c in body)
    return (
        "".join(f"&#{ord(c)};" for c in body[:start])
        + body[start:end]
        + "".join(f"&#{ord(c)};" for c in body[end:])
    )


# ------------------------------------------------------------------ JSON


def json_text(dumped: str) -> str:
    """JSON text (``json.dumps(..., ensure_ascii=False)``) with each unsafe character written as a
    ``\\uXXXX`` escape: the same value for a JSON reader, nothing raw for a terminal. Valid
    anywhere: ``json.dumps`` already escapes a line break or tab inside a string, so a raw one is
    the layout's whitespace (kept), and any other unsafe character can only be inside a string."""
    return _UNSAFE_IN_JSON.sub(lambda match: f"\\u{ord(match.group()):04x}", dumped)


# ------------------------------------------------------------------ iCalendar (RFC 5545)


def ics_text(text: str) -> str:
    """An RFC 5545 (3.3.11) TEXT value: backslash, semicolon and comma escaped, a line break as
    ``\\n``, and no raw control character (the RFC's TEXT has none): each is a visible escape."""
    text = visible(text, keep="\n")
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")
