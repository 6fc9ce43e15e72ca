"""The model's validation errors in a user's words: FILE:LINE: field.path: what (got X). Fix."""

from __future__ import annotations

import difflib
import json
import typing
from collections.abc import Callable, Mapping
from datetime import date
from typing import Any

from pydantic import BaseModel, ValidationError

from docgen.core.cells import is_sheet, problem_place
from docgen.core.errors import Problem
from docgen.core.model import Fact, PathKey
from docgen.core.numbers import SourceNumber
from docgen.core.safe_text import for_message
from docgen.load.source import SourceMap, format_path


def _model_fields_at(model: type[BaseModel], loc: PathKey) -> list[str] | None:
    """The field names allowed at ``loc`` (for did-you-mean hints), walking the model."""
    current: Any = model
    for part in loc:
        if isinstance(current, type) and issubclass(current, BaseModel):
            info = current.model_fields.get(str(part))
            if info is None:
                return None
            current = info.annotation
            continue
        current = _unwrap(current)
        if isinstance(part, int) and typing.get_origin(current) is list:
            current = typing.get_args(current)[0]
        elif typing.get_origin(current) is dict:
            current = typing.get_args(current)[1]
        current = _unwrap(current)
    current = _unwrap(current)
    if isinstance(current, type) and issubclass(current, Fact):
        return current.documented_fields()
    if isinstance(current, type) and issubclass(current, BaseModel):
        return list(current.model_fields)
    return None


def _missing_fix(model: type[BaseModel], loc: PathKey) -> str | None:
    """A required field's own fix, where its model gives one (``json_schema_extra["fix"]``):
    the company's and the plan's names say why docgen will not supply them."""
    current: Any = model
    info = None
    for part in loc:
        current = _unwrap(current)
        if isinstance(part, int) and typing.get_origin(current) is list:
            current = typing.get_args(current)[0]
            continue
        if not (isinstance(current, type) and issubclass(current, BaseModel)):
            return None
        info = current.model_fields.get(str(part))
        if info is None:
            return None
        current = info.annotation
    extra = info.json_schema_extra if info is not None else None
    fix = extra.get("fix") if isinstance(extra, dict) else None
    return fix if isinstance(fix, str) else None


def _unwrap(annotation: Any) -> Any:
    """Strip Optional[...] and Annotated[...] down to the model or container inside."""
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
        elif origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
            args = [a for a in typing.get_args(annotation) if a is not type(None)]
            annotation = args[0]
        else:
            return annotation


def show(value: Any) -> str | None:
    """A value as a message quotes it: short, typed values quoted, unsafe characters escaped."""
    if isinstance(value, SourceNumber):
        return _short(for_message(value.text))
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, date):
        return value.isoformat()
    if value is None:
        return "nothing"
    text = json.dumps(value, default=str) if not isinstance(value, str) else value
    if isinstance(value, str):
        looks_typed = value.strip().lstrip("-").replace(".", "", 1).isdigit() or value.lower() in (
            "true",
            "false",
            "yes",
            "no",
            "on",
            "off",
            "null",
            "",
        )
        shown = for_message(value)
        quoted = looks_typed or value.strip() != value or not value or shown != value
        text = json.dumps(shown, ensure_ascii=False) if quoted else value
        if shown != value:  # escapes stay as written, not doubled by json.dumps
            text = '"' + shown.replace('"', '\\"') + '"'
    return _short(text)


def _short(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "..."


_TYPE_WORDS = {
    "int_type": ("expected a whole number", "Write digits only, without quotes."),
    "bool_type": (
        "expected true or false",
        "Write true or false, without quotes (yes, no, on and off are text in YAML 1.2).",
    ),
    "string_type": (
        "expected text",
        "Write the value as text (quote it if it looks like a number or date).",
    ),
    "dict_type": ("expected a mapping of names to values", "Indent the fields under this key."),
    "model_type": ("expected a mapping of fields", "Indent the fields under this key."),
    "model_attributes_type": ("expected a mapping of fields", "Indent the fields under this key."),
    "list_type": ("expected a list", "Write one item per line, each starting with '- '."),
    "string_too_short": ("must not be empty", "Write a value, or remove the key."),
    "string_too_long": ("is too long", "Shorten it."),
    "int_from_float": ("expected a whole number", "Remove the decimal part."),
}


def problems_from(
    error: ValidationError,
    model: type[BaseModel],
    source: SourceMap,
    follows: Callable[[PathKey], bool] | None = None,
    columns: Mapping[tuple[str, ...], str] | None = None,
) -> list[Problem]:
    """One problem per error; ``follows(loc)``: true for an error that only follows from
    another one reported (it is left out: the user fixes the first, and it goes). ``columns``:
    the column of a CSV of filings that holds a nested field (``("performance_period", "end")``
    is ``performance_end``), for an empty cell's message."""
    problems = []
    for detail in error.errors(include_url=False):
        loc: PathKey = tuple(detail["loc"])
        kind = detail["type"]
        if follows is not None and follows(loc):
            continue
        ctx = detail.get("ctx") or {}
        got = show(detail.get("input"))
        name = loc[-1] if loc else ""
        if kind == "docgen_form":
            what, fix = ctx["what"], ctx["fix"]
            if ctx.get("field"):
                loc = loc + tuple(int(p) if p.isdigit() else p for p in ctx["field"].split("."))
                got = None
        elif kind == "missing":
            what, got = "required field is missing", None
            fix = _missing_fix(model, loc) or ""
        elif kind == "extra_forbidden":
            what, got = "unknown field", None
            allowed = _model_fields_at(model, loc[:-1]) or []
            guess = difflib.get_close_matches(str(name), allowed, n=1)
            fix = (f"Did you mean {guess[0]}? " if guess else "") + (
                f"Allowed here: {', '.join(allowed)}." if allowed else "Remove it."
            )
        elif kind == "literal_error":
            expected = ctx.get("expected", "")
            what = f"expected one of {expected}"
            fix = f"Use one of {expected}.".replace("'", "")
            what = what.replace("'", "")
        elif kind == "string_pattern_mismatch" and name == "sha256":
            what = "expected a SHA-256: 64 characters, 0-9 and a-f"
            fix = "Copy it from `docgen clauses`, which prints each clause's SHA-256."
        elif kind == "string_pattern_mismatch" and name == "clause":
            what = "clause ids are lowercase words joined by dots and hyphens"
            fix = "Copy it from `docgen clauses`, like notice.b-accelerated-vesting."
        elif kind == "string_pattern_mismatch":
            # FactId: a grant's id, which names the cycle's folder (subject ids say their own).
            what = (
                "grant ids use only lowercase letters, digits and hyphens "
                "(they name the cycle folder)"
            )
            fix = "Write it like 2026-annual."
        elif kind == "too_long":
            limit = ctx.get("max_length")
            what = f"has {ctx.get('actual_length')} items; at most {limit} are allowed"
            fix, got = "Remove the extra ones.", None
        elif kind in _TYPE_WORDS:
            what, fix = _TYPE_WORDS[kind]
        else:
            what, fix = detail["msg"][0].lower() + detail["msg"][1:], "Correct the value."
        file, line, column = source.where(loc)
        if kind == "bool_type" and file != source.file:  # a roster cell: yes and no are read there
            fix = "Write true or false (or yes or no)."
        if kind == "missing" and not fix and file != source.file:  # a row's empty cell
            wanted = _column_of(loc, columns or {})
            header = source.headers.get(file, {}).get(wanted, wanted)  # as a mapped file says
            fix = f"Fill in the row's {header} cell" + (
                f" ({wanted})." if header != wanted else "."
            )
        elif kind == "missing" and not fix:
            fix = f"Add {name}: under {format_path(loc[:-1]) or 'the top level'}."
        if line is not None and is_sheet(file):  # a workbook's cell, named as a spreadsheet does
            file, line = problem_place(file, line, column)
        problems.append(Problem(file, line, format_path(loc), what, got, fix))
    return problems


def _column_of(loc: PathKey, columns: Mapping[tuple[str, ...], str]) -> str:
    """The column of a row that holds the field at ``loc``: a nested field's own column (the
    longest ending of the path that one names), else the field's name, as a roster names it."""
    names = tuple(part for part in loc if isinstance(part, str))
    for length in range(len(names), 1, -1):
        column = columns.get(names[-length:])
        if column is not None:
            return column
    return str(loc[-1]) if loc else ""


def duplicate_ids(data: dict[str, Any], list_name: str, source: SourceMap) -> list[Problem]:
    """Ids used twice. Ids are compared without regard to case or surrounding spaces: BW1000 and
    bw1000 would be one folder on Windows and macOS."""
    seen: dict[str, tuple[int, str]] = {}
    problems = []
    for index, item in enumerate(data.get(list_name) or []):
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            continue
        ident = item["id"]
        normal = ident.strip().casefold()
        if normal in seen:
            first_index, first = seen[normal]
            file, line = source.locate((list_name, index, "id"))
            first_file, first_line = source.locate((list_name, first_index, "id"))
            if first == ident:
                fix = f"Ids must be unique; {ident} is already used at {first_file}:{first_line}."
            else:
                fix = (
                    f"Ids must be unique without regard to case and spaces; {first.strip()} is "
                    f"already used at {first_file}:{first_line}, and the two would be one folder."
                )
            problems.append(
                Problem(
                    file,
                    line,
                    format_path((list_name, index, "id")),
                    "duplicate id",
                    show(ident),
                    fix,
                )
            )
        else:
            seen[normal] = (index, ident)
    return problems
