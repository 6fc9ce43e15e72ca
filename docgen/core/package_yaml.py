"""The package's own YAML data files (the IRS limits and the holiday calendar in
checks/parameters/) read at C speed.

They are docgen's files, not a user's: plain mappings, lists, whole numbers, dates and text,
validated strictly by their models afterwards (a value read as another type is refused there,
never used). PyYAML's safe loader over libyaml reads them in a millisecond, where ruamel's
pure-Python reader, with its import, took 15 to 50 ms of every command that reads a limit
(every RRP check). Where PyYAML was built without libyaml, its pure-Python safe loader reads them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


class PackageYamlError(ValueError):
    """The file is not valid YAML (its words are PyYAML's)."""


def read_package_yaml(path: Path) -> Any:
    """The data in one of the package's YAML files; OSError when it cannot be read."""
    import yaml

    text = path.read_text(encoding="utf-8")
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        return yaml.load(text, Loader=loader)  # noqa: S506 - a safe loader
    except yaml.YAMLError as error:
        raise PackageYamlError(str(error)) from None
