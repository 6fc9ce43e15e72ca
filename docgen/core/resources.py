"""Where docgen's own files are: templates and dated parameters, installed or in a source tree."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # docgen/


def templates_dir() -> Path:
    """The document templates: ``docgen/templates`` in a wheel, ``templates/`` in a checkout."""
    installed = _PACKAGE / "templates"
    return installed if installed.is_dir() else _PACKAGE.parent / "templates"


def parameters_dir() -> Path:
    """The dated IRS parameter files (``checks/parameters``), found without importing the rules
    (the engine's core never imports the layers above it)."""
    import importlib.util

    spec = importlib.util.find_spec("checks")
    if spec is None or not spec.submodule_search_locations:
        return _PACKAGE.parent / "checks" / "parameters"
    return Path(next(iter(spec.submodule_search_locations))).resolve() / "parameters"
