"""WeasyPrint's presentational-hints stylesheet, parsed when first used.

``weasyprint.html`` parses three stylesheets when WeasyPrint is imported: the HTML user-agent
stylesheet, the one for forms, and the presentational hints (``html5_ph.css``: what attributes
such as ``align="center"`` or ``<table border="1">`` mean as CSS). WeasyPrint reads the last only
for a document rendered with ``presentational_hints=True``, which docgen never asks for; yet
every process that renders parsed it: 0.08 of the 2.34 billion instructions of a fresh rendering
process's floor (issue 27; README, "Speed").

So, while WeasyPrint is imported (docgen.render.weasyprint_import), ``weasyprint.html`` runs
with ``CSS`` answering a call for exactly that stylesheet (the text of WeasyPrint's own
``html5_ph.css``, nothing else given) with a :class:`DeferredStylesheet`, which parses it the
first time anything asks it for an attribute, and then answers as the parsed stylesheet does.
Every other call is WeasyPrint's own ``CSS``, which ``weasyprint.html`` holds again once it has
run. A WeasyPrint that parses its hints some other way parses them at import, as it would alone.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import ModuleType
from typing import Any

MODULE = "weasyprint.html"
HINTS = "html5_ph.css"
CLASS = "CSS"  # the stylesheet class weasyprint.html takes from its package


class DeferredStylesheet:
    """A stylesheet parsed by the first use of any of its attributes."""

    def __init__(self, css: type, text: str) -> None:
        self._css = css
        self._text = text
        self._parsed: Any = None

    @property
    def parsed(self) -> bool:
        return self._parsed is not None

    def __getattr__(self, attribute: str) -> Any:
        if attribute.startswith("__"):  # copy, pickle and the like: not a use
            raise AttributeError(attribute)
        if self._parsed is None:
            self._parsed = self._css(string=self._text)
        return getattr(self._parsed, attribute)


def _hints_text() -> str | None:
    """The text of WeasyPrint's presentational-hints stylesheet, as ``weasyprint.html`` reads it;
    None when it has none."""
    from importlib.resources import files

    try:
        return (files("weasyprint.css") / HINTS).read_text("utf-8")
    except (OSError, ModuleNotFoundError):
        return None


class _Loader(importlib.abc.Loader):
    """``weasyprint.html``'s own loader, run with ``CSS`` deferring the hints."""

    def __init__(self, real: importlib.abc.Loader) -> None:
        self.real = real

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self.real.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        package = sys.modules.get("weasyprint")
        css = getattr(package, CLASS, None)
        text = _hints_text()
        if package is None or css is None or text is None:
            _restore_loader(module, self.real)
            self.real.exec_module(module)
            return

        def deferring(*args: Any, **kwargs: Any) -> Any:
            if not args and kwargs == {"string": text}:
                return DeferredStylesheet(css, text)
            return css(*args, **kwargs)

        setattr(package, CLASS, deferring)  # for the while weasyprint.html runs
        try:
            self.real.exec_module(module)
        finally:
            setattr(package, CLASS, css)
            if getattr(module, CLASS, None) is deferring:
                setattr(module, CLASS, css)
            _restore_loader(module, self.real)

    def __getattr__(self, attribute: str) -> Any:  # get_source, resource readers: the real's
        return getattr(self.real, attribute)


def _restore_loader(module: ModuleType, real: importlib.abc.Loader) -> None:
    """The module as its own loader would have left it: nothing of this one in it."""
    module.__loader__ = real
    if module.__spec__ is not None:
        module.__spec__.loader = real


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != MODULE:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        spec.loader = _Loader(spec.loader)
        return spec


@contextmanager
def deferred_hints() -> Iterator[None]:
    """While WeasyPrint is imported: its presentational hints parsed when first used, unless
    ``weasyprint.html`` is imported already."""
    if MODULE in sys.modules:
        yield
        return
    finder = _Finder()
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
