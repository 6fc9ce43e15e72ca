"""Where docgen's own files are: templates and dated parameters, installed or in a source tree."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def templates_dir() -> Path:
    """The document templates: ``docgen/templates`` in a wheel, ``templates/`` in a checkout."""
    installed = _PACKAGE / "templates"
    return installed if installed.is_dir() else _PACKAGE.parent / "templates"


def parameters_dir() -> Path:
    """The dated IRS parameter files (``checks/parameters``)."""
    import checks

    return Path(checks.__file__).resolve().parent / "parameters"
