"""Writing a command's text output (a report, a calendar) atomically where the user asked."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from docgen.core.errors import DocgenError


class OutputError(DocgenError, OSError):
    """The report could not be written where asked. Exit code 2."""


def write_report(path: Path, text: str) -> None:
    """Write a report (or any text output) atomically: a temporary file beside it, a rename."""
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise OutputError(f"{path}: no folder {folder}. Create it first, or write elsewhere.")
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
        # newline="": written as given (an .ics keeps its CRLF line endings everywhere).
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except OSError as error:
        raise OutputError(f"{path}: cannot write ({error.strerror}).") from None
