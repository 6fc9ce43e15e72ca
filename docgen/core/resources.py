"""Where docgen's own files are: templates and dated parameters, installed or in a source tree;
and a company's template overrides (``templates_dir``), which shadow the built-ins by name."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # docgen/

# Files of the templates folder a company may override (and `docgen templates --export` writes):
# the document templates, their clause fragments and the shared stylesheet. The check report is
# docgen's own account to counsel, not a company form, so it is not among them.
OVERRIDABLE_SUFFIXES = (".html.j2", ".css")
NOT_OVERRIDABLE = ("check-report.html.j2",)


def templates_dir() -> Path:
    """The document templates: ``docgen/templates`` in a wheel, ``templates/`` in a checkout."""
    installed = _PACKAGE / "templates"
    return installed if installed.is_dir() else _PACKAGE.parent / "templates"


def design_doc() -> Path:
    """DESIGN.md, which the DOC-* rules cite: ``docgen/docs`` in a wheel, else ``docs/``."""
    installed = _PACKAGE / "docs" / "DESIGN.md"
    return installed if installed.is_file() else _PACKAGE.parent / "docs" / "DESIGN.md"


def overridable_templates() -> list[str]:
    """The built-in templates a ``templates_dir`` may override, as relative names
    (``notice.html.j2``, ``clauses/notice.b-accelerated-vesting.html.j2``, ``print.css``)."""
    root = templates_dir()
    names = [
        path.relative_to(root).as_posix()
        for path in root.rglob("*")
        if path.is_file() and path.name.endswith(OVERRIDABLE_SUFFIXES)
    ]
    return sorted(name for name in names if name not in NOT_OVERRIDABLE)


def template_folders(override: Path | None = None) -> tuple[Path, ...]:
    """Where templates are looked up, first match wins: a company's folder, then the built-ins."""
    builtin = templates_dir().resolve()
    return (override.resolve(), builtin) if override is not None else (builtin,)


def find_template(name: str, folders: Sequence[Path]) -> Path | None:
    """The file that serves template ``name``: the first folder that has it."""
    for folder in folders:
        path = folder / name
        if path.is_file():
            return path
    return None


def read_template(name: str, override: Path | None = None) -> tuple[str, Path | None]:
    """The text of template ``name`` as it will render, and its file (None: no such template)."""
    path = find_template(name, template_folders(override))
    if path is None:
        return "", None
    return path.read_bytes().decode("utf-8"), path


def parameters_dir() -> Path:
    """The dated IRS parameter files (``checks/parameters``), found without importing the rules
    (the engine's core never imports the layers above it)."""
    import importlib.util

    spec = importlib.util.find_spec("checks")
    if spec is None or not spec.submodule_search_locations:
        return _PACKAGE.parent / "checks" / "parameters"
    return Path(next(iter(spec.submodule_search_locations))).resolve() / "parameters"
