"""The command line's two consoles, standard output and standard error.

Nothing a user typed or a file holds is read as rich markup or emoji codes (a path such as
`grant [final].json` prints as typed, `:x:` stays `:x:`), and any control or escape character in
it is shown escaped (api.for_terminal), so no file name can clear the screen or hide text.
"""

from __future__ import annotations

import sys

from rich.console import Console

from docgen.api import for_terminal


class _PlainConsole(Console):
    """A console that never reads markup or emoji codes, and escapes control characters in the
    strings it is given (rich renderables escape theirs where they are built)."""

    def __init__(self, **options) -> None:
        super().__init__(highlight=False, markup=False, emoji=False, soft_wrap=True, **options)

    def print(self, *objects, **options) -> None:
        super().print(*(for_terminal(o) if isinstance(o, str) else o for o in objects), **options)


# Piped into a file or a mail, tables get 120 columns rather than rich's narrow default of 80.
out = _PlainConsole(width=None if sys.stdout.isatty() else 120)
err = _PlainConsole(stderr=True, width=None if sys.stderr.isatty() else 120)
