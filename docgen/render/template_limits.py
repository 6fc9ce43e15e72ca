"""The limits a company's own templates render under: a time limit and an output-size limit.

A company's templates (``templates_dir``) are input docgen did not write. The sandbox keeps them
from Python's internals; these limits keep them from running for ever (two nested
``range(100000)`` loops print nothing and would run for hours) or printing without end (a
template that prints 250 MB). The time is checked as the template's own code runs (a trace on
the frames Jinja compiled from the company's files, every few hundred lines), so a loop that
prints nothing is stopped too; the output is counted as it is generated, so it is never all
held. The built-in templates are docgen's own and render without the trace.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

# A Notice or an election form prints about 60 KB of HTML in a few milliseconds: these leave a
# company's template a hundred times that room and refuse anything that is plainly runaway.
SECONDS = 10.0
CHARACTERS = 10_000_000
_EVERY = 256  # lines of template code between two looks at the clock


class TemplateLimitExceeded(Exception):
    """A company's template ran past the time limit or printed past the size limit."""


def _seconds_text(seconds: float) -> str:
    return f"{seconds:g} second" + ("" if seconds == 1 else "s")


@contextmanager
def time_limit(folder: Path) -> Iterator[None]:
    """Stop any template compiled from a file under ``folder`` once it has run ``SECONDS``."""
    root = str(folder.resolve())
    deadline = time.monotonic() + SECONDS
    count = 0

    def local(frame: Any, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
            if count % _EVERY == 0 and time.monotonic() > deadline:
                raise TemplateLimitExceeded(
                    f"the template ran longer than {_seconds_text(SECONDS)} and was stopped "
                    "(a loop that never ends, or one over too much). Make it do less"
                )
        return local

    def calls(frame: Any, event: str, arg: Any) -> Any:
        return local if frame.f_code.co_filename.startswith(root) else None

    previous = sys.gettrace()
    sys.settrace(calls)
    try:
        yield
    finally:
        sys.settrace(previous)


def bounded_join(chunks: Generator[str, None, None]) -> str:
    """The template's output, refused once it passes ``CHARACTERS``; the refusal carries the
    template file and line that was printing (``filename``, ``lineno``)."""
    parts, size = [], 0
    for chunk in chunks:
        size += len(chunk)
        if size > CHARACTERS:
            error = TemplateLimitExceeded(
                f"the template printed more than {CHARACTERS:,} characters and was stopped "
                "(a document prints far less). Make it print less"
            )
            error.filename, error.lineno = _printing_at(chunks)  # type: ignore[attr-defined]
            chunks.close()
            raise error
        parts.append(chunk)
    return "".join(parts)


def _printing_at(chunks: Generator[str, None, None]) -> tuple[str | None, int | None]:
    """The template file and line a suspended render is printing at: the innermost template
    frame of the generators it yields from, its line mapped back to the template's own."""
    found: tuple[str | None, int | None] = (None, None)
    generator: Any = chunks
    while generator is not None and generator.gi_frame is not None:
        frame = generator.gi_frame
        template = frame.f_globals.get("__jinja_template__")
        if template is not None:
            found = (template.filename, template.get_corresponding_lineno(frame.f_lineno))
        generator = generator.gi_yieldfrom
    return found
