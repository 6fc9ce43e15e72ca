"""The one Jinja environment every template renders in: sandboxed, autoescaped, strict.

Facts are user input, so a name such as "Murphy & Sons" or "<b>" prints as text; a template that
names a variable the context lacks is an error, never a silent blank. Built once per process, so
each template is parsed once.
"""

from __future__ import annotations

import functools
from typing import Any

from docgen.core.errors import RenderError
from docgen.core.formats import FILTERS
from docgen.core.resources import templates_dir
from docgen.kinds import all_kinds


def _sentence(text: str) -> str:
    """A finding's message as a sentence: its first letter in capitals."""
    return text[:1].upper() + text[1:]


@functools.cache
def environment() -> Any:
    from jinja2 import FileSystemLoader, StrictUndefined
    from jinja2.sandbox import SandboxedEnvironment

    env = SandboxedEnvironment(
        # The built-in templates first, then any folder a kind brings (a kind of its own, a test's).
        loader=FileSystemLoader(
            [str(templates_dir())] + [str(d) for k in all_kinds() for d in k.template_dirs]
        ),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
    )
    env.filters["sentence"] = _sentence
    env.filters.update(FILTERS)
    return env


def render_template(template: str, context: dict[str, Any]) -> str:
    """Render one template; any template problem becomes a RenderError naming the template."""
    from jinja2 import TemplateError

    try:
        return environment().get_template(template).render(**context)
    except TemplateError as error:
        raise RenderError(f"template {template}: {error}") from error
