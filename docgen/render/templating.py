"""The Jinja environments templates render in: sandboxed, autoescaped, strict.

Facts are user input, so a name such as "Murphy & Sons" or "<b>" prints as text; a template that
names a variable the context lacks is an error, never a silent blank. A company's own templates
(``templates_dir``) render in an environment of their own whose loader looks in that folder first
and the built-ins second, under the same sandbox: a template that reaches for Python internals
(``''.__class__``) is refused. One environment per folder, built once per process, so each
template is parsed once. A template that cannot render is a RenderError naming its file and line.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from docgen.core.errors import RenderError
from docgen.core.formats import FILTERS
from docgen.core.resources import template_folders
from docgen.kinds import registered_kinds
from docgen.render import template_limits
from docgen.render.template_limits import TemplateLimitExceeded


def _repeats_past_limit(left: Any, right: Any) -> bool:
    """Whether ``left * right`` repeats a text or list past the output-size limit."""
    for sequence, times in ((left, right), (right, left)):
        if isinstance(sequence, str | list | tuple) and isinstance(times, int):
            return len(sequence) * times > template_limits.CHARACTERS
    return False


def _sentence(text: str) -> str:
    """A finding's message as a sentence: its first letter in capitals."""
    return text[:1].upper() + text[1:]


@functools.cache
def _sandbox() -> type:
    from jinja2.exceptions import SecurityError
    from jinja2.sandbox import SandboxedEnvironment

    class DocumentSandbox(SandboxedEnvironment):
        """Jinja's sandbox, with a cap on ``**`` (``9**9**9`` would run for ever) and on
        repeating a text or list with ``*`` past the output-size limit (``"x" * 10**9``)."""

        intercepted_binops = frozenset({"**", "*"})

        def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
            if operator == "**" and isinstance(right, int | float) and abs(right) > 64:
                raise SecurityError("a power above 64 is refused")
            if operator == "*" and _repeats_past_limit(left, right):
                raise SecurityError(
                    f"repeating past {template_limits.CHARACTERS:,} characters is refused"
                )
            return super().call_binop(context, operator, left, right)

    return DocumentSandbox


@functools.cache
def environment(override: Path | None = None) -> Any:
    """The environment for the built-in templates, or for a company's folder over them."""
    from jinja2 import FileSystemLoader, StrictUndefined

    folders = [str(folder) for folder in template_folders(override)]
    env = _sandbox()(
        # A company's folder, the built-ins, then any folder a kind brings (a test's toy kind;
        # no built-in kind brings one, so none is imported for it: issue 27).
        loader=FileSystemLoader(
            folders + [str(d) for k in registered_kinds() for d in k.template_dirs]
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


def _where(error: Exception, override: Path | None) -> str:
    """The template file and line an error arose at: the innermost template frame of the
    traceback Jinja rewrites (for a template that includes itself, the include that loops), or
    a syntax error's own file and line."""
    folders = [str(folder) for folder in template_folders(override)]
    frames = []
    trace = error.__traceback__
    while trace is not None:
        name = trace.tb_frame.f_code.co_filename
        if any(name.startswith(folder) for folder in folders):
            frames.append((name, trace.tb_lineno))
        trace = trace.tb_next
    filename, line = getattr(error, "filename", None), getattr(error, "lineno", None)
    if frames:
        filename, line = frames[-1]
    if isinstance(error, RecursionError):
        for tag in ("include", "import", "extends"):
            looping = next((f for f in frames if _names(*f, tag)), None)
            if looping is not None:
                filename, line = looping
                break
    if filename is None:
        return "a template"
    path = Path(filename)
    if override is not None and path.is_relative_to(override.resolve()):
        shown = f"{override.name}/{path.relative_to(override.resolve()).as_posix()}"
    else:
        shown = path.name if path.parent.name != "clauses" else f"clauses/{path.name}"
    return f"{shown}:{line}" if line else shown


def _names(filename: str, line: int, tag: str) -> bool:
    """Whether the template's line holds a ``{% tag ... %}`` (include, import, extends)."""
    try:
        text = Path(filename).read_text(encoding="utf-8").splitlines()[line - 1]
    except (OSError, IndexError, UnicodeDecodeError):
        return False
    return tag in text


def template_error(error: Exception, template: str, override: Path | None) -> RenderError:
    """A template problem as the message a company editing its templates can act on."""
    from jinja2 import TemplateNotFound, TemplateSyntaxError
    from jinja2.exceptions import SecurityError, UndefinedError

    where = _where(error, override)
    if isinstance(error, SecurityError):
        what = (
            f"{error}: templates render in a sandbox that refuses Python internals. "
            "Use only the facts the template is given."
        )
    elif isinstance(error, TemplateSyntaxError):
        what = f"{error.message}. Fix the template's syntax."
    elif isinstance(error, UndefinedError):
        what = f"{error.message}. Use a variable the built-in template uses."
    elif isinstance(error, TemplateNotFound):
        what = f"no template {error.name}. Include a template that exists."
    elif isinstance(error, RecursionError):
        what = "the template includes itself, directly or through another. Remove the loop."
    elif isinstance(error, TemplateLimitExceeded):
        what = f"{error}."
    else:
        what = f"{type(error).__name__}: {error}. Fix the template."
    return RenderError(f"template {where} (rendering {template}): {what}")


def render_template(template: str, context: dict[str, Any], override: Path | None = None) -> str:
    """Render one template; any template problem becomes a RenderError naming file and line."""
    from jinja2 import TemplateError

    try:
        compiled = environment(override).get_template(template)
        if override is None:  # docgen's own templates
            return compiled.render(**context)
        # A company's: under a time limit and an output-size limit (template_limits).
        with template_limits.time_limit(override):
            return template_limits.bounded_join(compiled.generate(**context))
    except (
        TemplateError,
        TemplateLimitExceeded,
        RecursionError,
        ArithmeticError,
        TypeError,
        ValueError,
    ) as error:
        # Jinja's own errors, and what a hostile template can still provoke (a template that
        # includes itself, a division by zero): the file and line, never a traceback.
        raise template_error(error, template, override) from None
