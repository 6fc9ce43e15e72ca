"""WeasyPrint's fontTools subsetter and variable-font instancer, imported when first used.

``weasyprint.pdf.fonts`` imports ``fontTools.subset`` and ``fontTools.varLib.instancer`` when
WeasyPrint is imported, and with them most of fontTools (its OpenType tables, varLib,
designspaceLib, feaLib, cffLib). It calls them only for

* the subsetter: a font subset where HarfBuzz-Subset (libharfbuzz-subset 4.1 or later) is
  missing, which WeasyPrint warns will not be supported for long;
* the instancer: a variable font (one with an ``fvar`` table), made static at its weight.

docgen's own fonts are static, and `make` installs HarfBuzz-Subset, so neither is called in a
docgen run unless a company's templates bring a variable font or the machine lacks
HarfBuzz-Subset; yet every process that renders paid for importing them: 0.05 s CPU and 0.28 of
the 2.89 billion instructions of a fresh rendering process's floor (README, "Speed").

So, while WeasyPrint is imported (docgen.render.weasyprint_import), each of the two stands in
``sys.modules`` as a small module: its named functions (the ones WeasyPrint imports by name)
call the real ones, and any other attribute (``subset.Options``) imports the real module and is
taken from it. Once WeasyPrint is imported, the stand-ins leave ``sys.modules``, so any other
import of either gets the real module. A WeasyPrint that imports other names from them gets
them from the real module at once: the same behaviour, only without the saving.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

# Each module WeasyPrint imports and does not call in a usual run, with the functions it imports
# from it by name (``from fontTools.varLib.instancer import instantiateVariableFont``).
DEFERRED: dict[str, tuple[str, ...]] = {
    "fontTools.subset": (),
    "fontTools.varLib.instancer": ("instantiateVariableFont",),
}


class _StandIn(types.ModuleType):
    """A module that imports ``name`` when first asked for anything in it."""

    def __init__(self, name: str, functions: tuple[str, ...]):
        super().__init__(name, f"Stands in for {name}, imported when first used.")
        for function in functions:
            setattr(self, function, self._calling(function))

    def real(self) -> types.ModuleType:
        """The module itself, imported now if it is not yet."""
        if sys.modules.get(self.__name__) is self:  # asked while WeasyPrint is being imported
            del sys.modules[self.__name__]
        return importlib.import_module(self.__name__)

    def _calling(self, function: str) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            return getattr(self.real(), function)(*args, **kwargs)

        call.__name__ = call.__qualname__ = function
        call.__doc__ = f"{self.__name__}.{function}, imported when first called."
        return call

    def __getattr__(self, attribute: str) -> Any:
        # The import system asks a module for __path__, __spec__ and the like: not a use.
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        return getattr(self.real(), attribute)


@contextmanager
def deferred_fonttools() -> Iterator[None]:
    """While WeasyPrint is imported: the modules of DEFERRED stand in for themselves, unless
    already imported; afterwards, ``sys.modules`` holds them only as really imported."""
    standing = {
        name: _StandIn(name, functions)
        for name, functions in DEFERRED.items()
        if name not in sys.modules
    }
    sys.modules.update(standing)
    try:
        yield
    finally:
        for name, stand_in in standing.items():
            if sys.modules.get(name) is stand_in:
                del sys.modules[name]
