"""What a returned form carries besides its answers, checked before its answers are believed
(DESIGN.md, "Fillable forms"; issue 25).

A form's identity keys (``DocgenSubject``, ``DocgenCycle``) are four strings in its document
information: anyone can edit them. A form the company certified is protected by its
certification (docgen.intake.certified); an uncertified one is held to what its pages print:
each kind names the text its form prints of whom it is for and which grant or Plan Year it is
(:class:`docgen.core.filings.PrintedIdentity`), and a page that does not print it is a refusal.

A docgen form carries no script, no action, no XFA and only the fields its kind makes. A returned
form with any of them is refused, naming what it carries: a format script can show the signer
"January 1, 2040" over a field holding 2030-07-01, an XFA packet is what some viewers show
instead of the fields, an open or launch action runs when the form is opened, and a field docgen
did not make ("I revoke any election on file") says something intake would otherwise not read.
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Iterable, Iterator
from typing import Any

from docgen.core.errors import clipped
from docgen.core.filings import PrintedIdentity

# Actions a docgen form may carry: page links (company templates may link to https: and mailto:,
# docgen.render.html) and a reader's own moves within the document.
_HARMLESS_ACTIONS = ("/URI", "/GoTo")
_MAX_ACTIONS = 1_000  # /Next chains: a docgen form has a few links at most


def printed_problems(pages: list[str], expected: Iterable[PrintedIdentity]) -> list[str]:
    """What the form's pages should print of its identity and do not, one sentence each."""
    problems = []
    flat = [_flat(page) for page in pages]
    for item in expected:
        text = _flat(item.text)
        on = flat[item.page - 1] if 0 < item.page <= len(flat) else ""
        if not re.search(rf"(?<!\w){re.escape(text)}(?!\w)", on):
            problems.append(
                f"its identity says {item.what} is {clipped(item.text, 80)!r}, but page "
                f"{item.page} does not print that: the form was issued for someone or something "
                "else, or its identity was edited"
            )
    return problems


def _flat(text: str) -> str:
    """Text as compared: NFC, one space for any run of white space (a line break included)."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def unknown_fields(names: Iterable[str], pattern: re.Pattern[str] | None) -> list[str]:
    """The field names a docgen form of this kind never has."""
    if pattern is None:
        return []
    return sorted(name for name in names if not pattern.fullmatch(name))


def active_content(data: bytes) -> list[str]:
    """What the PDF carries that a docgen form never does: scripts, actions that run or leave
    the document, XFA. One sentence each; empty for a form as docgen makes and fillers save it."""
    from pypdf import PdfReader
    from pypdf.generic import DictionaryObject

    reader = PdfReader(io.BytesIO(data))
    if reader.is_encrypted:
        reader.decrypt("")  # read_form has already refused one that needs a password
    root = reader.trailer["/Root"].get_object()
    found: list[str] = []
    acro = _get(root, "/AcroForm")
    if isinstance(acro, DictionaryObject) and "/XFA" in acro:
        found.append(
            "it carries an XFA form (what some viewers show instead of the fields, whatever the "
            "fields hold); docgen's forms have none"
        )
    names = _get(root, "/Names")
    if isinstance(names, DictionaryObject) and "/JavaScript" in names:
        found.append("it carries document scripts (JavaScript); docgen's forms have none")
    opening = _get(root, "/OpenAction")
    if isinstance(opening, DictionaryObject):
        found.append(f"it runs an action when opened ({_describe(opening)})")
    found += _triggers(root, "the document")
    for number, page in enumerate(reader.pages, start=1):
        found += _triggers(page, f"page {number}")
        for annotation in _get(page, "/Annots") or []:
            annotation = annotation.get_object()
            if not isinstance(annotation, DictionaryObject):
                continue
            where = _annotation_name(annotation, number)
            found += _triggers(annotation, where)
            action = _get(annotation, "/A")
            if isinstance(action, DictionaryObject):
                kinds = set(_action_kinds(action))
                if annotation.get("/Subtype") != "/Link" or kinds - set(_HARMLESS_ACTIONS):
                    found.append(f"{where} runs an action ({_describe(action)})")
    if isinstance(acro, DictionaryObject):
        for field in _fields(acro):
            found += _triggers(field, f"field {_field_name(field)}")
    return list(dict.fromkeys(found))


def _get(dictionary: Any, key: str) -> Any:
    value = dictionary.get(key) if hasattr(dictionary, "get") else None
    return value.get_object() if value is not None else None


def _triggers(node: Any, where: str) -> list[str]:
    """``node``'s additional actions (/AA: format, keystroke, validate, calculate, open...)."""
    from pypdf.generic import DictionaryObject

    triggers = _get(node, "/AA")
    if not isinstance(triggers, DictionaryObject):
        return []
    return [
        f"{where} runs an action {_TRIGGERS.get(str(key), 'on ' + str(key)[1:])} "
        f"({_describe(_get(triggers, str(key)))})"
        for key in sorted(triggers)
    ]


_TRIGGERS = {
    "/F": "to format what it shows (what the signer saw may not be what the field holds)",
    "/K": "on each keystroke",
    "/V": "to validate its value",
    "/C": "to calculate its value (on a page: when it is closed)",
    "/O": "when it is opened",
}


def _action_kinds(action: Any) -> Iterator[str]:
    """The /S of an action and of every action chained after it (/Next)."""
    pending, seen = [action], 0
    while pending and seen < _MAX_ACTIONS:
        current = pending.pop()
        current = current.get_object() if hasattr(current, "get_object") else current
        seen += 1
        if not hasattr(current, "get"):
            continue
        yield str(current.get("/S", "an unnamed action"))
        chained = _get(current, "/Next")
        pending.extend(chained if isinstance(chained, list) else [chained] if chained else [])


def _describe(action: Any) -> str:
    kinds = list(dict.fromkeys(_action_kinds(action))) or ["an unreadable action"]
    return ", ".join(kind.lstrip("/") for kind in kinds)


def _fields(acro: Any) -> Iterator[Any]:
    """Every field of the form, each once (a /Kids loop is read_form's to report)."""
    pending = list(acro.get("/Fields") or [])
    seen: set[int] = set()
    while pending and len(seen) < 10_000:
        ref = pending.pop()
        key = getattr(ref, "idnum", None)
        if key is not None:
            if key in seen:
                continue
            seen.add(key)
        node = ref.get_object()
        if hasattr(node, "get"):
            yield node
            pending.extend(node.get("/Kids") or [])


def _field_name(field: Any) -> str:
    parts, node = [], field
    for _ in range(32):
        if "/T" in node:
            parts.append(str(node["/T"]))
        parent = _get(node, "/Parent")
        if parent is None:
            break
        node = parent
    return ".".join(reversed(parts)) or "(unnamed)"


def _annotation_name(annotation: Any, page: int) -> str:
    if annotation.get("/Subtype") == "/Widget":
        return f"field {_field_name(annotation)}"
    return (
        f"a {str(annotation.get('/Subtype', 'annotation')).lstrip('/')} annotation on page {page}"
    )
