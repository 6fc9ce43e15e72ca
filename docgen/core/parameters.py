"""Dated legal parameters: one YAML file per IRS figure, each value with its source.

Logic never hard-codes a limit: it asks for ``value(name, year)``. A year with no figure is an
error naming the year, never a silent reuse of an older figure (docs/reference/irs-limits.md).
Files are read strictly: a misplaced ``reference:`` key is an error, not a silent drop.
"""

from __future__ import annotations

from decimal import Decimal
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from docgen.core.errors import ParameterError, Problem
from docgen.core.package_yaml import PackageYamlError, read_package_yaml
from docgen.core.resources import parameters_dir


class Reference(BaseModel):
    model_config = ConfigDict(strict=True, frozen=True, extra="forbid")
    title: StrictStr = Field(min_length=1)
    href: StrictStr = Field(pattern=r"^https://")
    note: StrictStr | None = None


class DatedValue(BaseModel):
    model_config = ConfigDict(strict=True, frozen=True, extra="forbid")
    value: StrictInt = Field(gt=0)
    reference: Reference


class Parameter(BaseModel):
    """One legal figure, by calendar year."""

    model_config = ConfigDict(strict=True, frozen=True, extra="forbid")
    name: StrictStr
    description: StrictStr
    citation: StrictStr
    unit: StrictStr
    period: StrictStr
    values: dict[StrictInt, DatedValue] = Field(min_length=1)

    def value(self, year: int) -> Decimal:
        entry = self.values.get(year)
        if entry is None:
            raise ParameterError(
                [
                    Problem(
                        f"checks/parameters/{self.name}.yaml",
                        None,
                        "values",
                        f"no published {self.citation} figure for {year}",
                        None,
                        f"Add the IRS figure for {year} with its source, "
                        "or give it in the facts file.",
                    )
                ]
            )
        return Decimal(entry.value)

    def reference(self, year: int) -> Reference:
        self.value(year)
        return self.values[year].reference


def _load(path: Path) -> Parameter:
    try:
        data = read_package_yaml(path)
    except PackageYamlError as error:
        raise ParameterError(
            [
                Problem(
                    str(path),
                    None,
                    "",
                    f"not valid YAML: {error}",
                    fix="Fix the parameter file's syntax.",
                )
            ]
        ) from None
    if not isinstance(data, dict):
        raise ParameterError(
            [
                Problem(
                    str(path),
                    None,
                    "",
                    "expected a mapping",
                    fix="See another file in checks/parameters/.",
                )
            ]
        )
    try:
        return Parameter.model_validate({"name": path.stem, **data})
    except ValidationError as error:
        raise ParameterError(
            [
                Problem(
                    str(path),
                    None,
                    ".".join(str(p) for p in e["loc"]),
                    e["msg"],
                    fix="Each value needs value: and reference: {title, href}; nothing else.",
                )
                for e in error.errors(include_url=False)
            ]
        ) from None


@cache
def all_parameters(folder: Path | None = None) -> dict[str, Parameter]:
    folder = folder or parameters_dir()
    return {path.stem: _load(path) for path in sorted(folder.glob("*.yaml"))}


def parameter(name: str) -> Parameter:
    try:
        return all_parameters()[name]
    except KeyError:
        raise ParameterError(
            [
                Problem(
                    "checks/parameters",
                    None,
                    name,
                    "no such parameter file",
                    fix=f"Add checks/parameters/{name}.yaml.",
                )
            ]
        ) from None


def value(name: str, year: int) -> Decimal:
    """The figure ``name`` for calendar ``year``; :class:`ParameterError` if none is published."""
    return parameter(name).value(year)


def has_value(name: str, year: int) -> bool:
    return year in parameter(name).values
