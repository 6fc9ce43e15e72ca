"""A command's result, printed on standard output or written to ``-o PATH``.

A file is written atomically (docgen.core.output.write_atomically, through api.write_report): a
reader sees the old file or the whole new one, never a part. A file it cannot write raises the
OutputError, which the command's decorator turns into its message and exit 2
(docgen.console.process.exits_on_error).
"""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console

from docgen import api
from docgen.console.terminal import err, out

if TYPE_CHECKING:
    from rich.console import RenderableType


def emit(rendered: RenderableType, output: Path | None, what: str = "") -> None:
    """Print a command's result, or write it to ``-o PATH`` atomically.

    ``rendered`` is text, or a rich renderable (a table), which a file gets as plain text.
    """
    if output is None:
        if isinstance(rendered, str):
            sys.stdout.write(rendered)
        else:
            out.print(rendered)
        return
    if not isinstance(rendered, str):
        plain = Console(
            width=120, record=True, file=io.StringIO(), markup=False, emoji=False, highlight=False
        )
        plain.print(rendered)
        rendered = plain.export_text()
    api.write_report(output, rendered)
    err.print(f"Wrote {output}{f' ({what})' if what else ''}.", markup=False)
