"""The one Jinja environment every template renders in: sandboxed, autoescaped, strict.

Facts are user input, so a name such as "Murphy & Sons" or "<b>" prints as text; a template that
names a variable the context lacks is an error, never a silent blank. Built once per process, so
each template is parsed once.
"""

from __future__ import annotations

import functools
from typing import Any

from docgen.resources import templates_dir


def _sentence(text: str) -> str:
    """A finding's message as a sentence: its first letter in capitals."""
    return text[:1].upper() + text[1:]


@functools.cache
def environment() -> Any:
    from jinja2 import FileSystemLoader, StrictUndefined
    from jinja2.sandbox import SandboxedEnvironment

    env = SandboxedEnvironment(
        loader=FileSystemLoader(str(templates_dir())),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
    )
    env.filters["sentence"] = _sentence
    return env
