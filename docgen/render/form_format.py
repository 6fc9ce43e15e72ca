"""What a docgen fillable form is, as its writer and its reader agree on it: the field flags
read, the form's identity keys and where the Info dictionary holds them, and how an on-state
names its option.

docgen.render.acroform writes forms in this format (its docstring gives the decisions, and
why); docgen.render.form_reader reads returned ones back.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from docgen.core.errors import RenderError

# Field flags (PDF 32000-1:2008, Tables 226 and 227).
FF_NO_TOGGLE_TO_OFF = 1 << 14
FF_RADIO = 1 << 15
FF_PUSHBUTTON = 1 << 16
ANNOT_PRINT = 4

IDENTITY_KEYS: tuple[str, ...] = ("document", "cycle", "subject", "facts_sha256")
INFO_KEYS: dict[str, str] = {
    "document": "/DocgenDocument",
    "cycle": "/DocgenCycle",
    "subject": "/DocgenSubject",
    "facts_sha256": "/DocgenFactsSHA256",
}
SHA256 = re.compile(r"^[0-9a-f]{64}$")
MAX_DEPTH = 32  # fields nested deeper than this are treated as a loop


def check_identity(identity: Mapping[str, str]) -> None:
    """Raise RenderError unless ``identity`` has exactly :data:`IDENTITY_KEYS`, none empty, and
    ``facts_sha256`` is 64 lowercase hex digits."""
    keys = set(identity)
    if not keys:
        raise RenderError(
            f"a fillable form carries its identity ({', '.join(IDENTITY_KEYS)}): "
            "render it from a facts file (docgen.load.load_facts), not bare facts"
        )
    if keys != set(IDENTITY_KEYS):
        missing = ", ".join(sorted(set(IDENTITY_KEYS) - keys)) or "-"
        extra = ", ".join(sorted(keys - set(IDENTITY_KEYS))) or "-"
        raise RenderError(
            f"a fillable form carries its identity ({', '.join(IDENTITY_KEYS)}): "
            f"missing {missing}, unknown {extra}"
        )
    for key in IDENTITY_KEYS:
        value = identity[key]
        if not isinstance(value, str) or not value.strip():
            raise RenderError(f"form identity {key} is empty")
    if not SHA256.match(identity["facts_sha256"]):
        raise RenderError("form identity facts_sha256 must be 64 lowercase hex digits")


def export_name(state: str, options: list[str]) -> str:
    """An on-state named by an index into /Opt (WeasyPrint's /0, /1, ...) read as the option."""
    if options and state.isdigit() and int(state) < len(options):
        return options[int(state)]
    return state
