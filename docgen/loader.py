"""Reading facts files (YAML, JSON, a CSV roster) into the fact model, with a line for every fact.

Every problem found in one pass is reported as
``FILE:LINE: field.path: what is wrong (got VALUE). How to fix it.``; nothing is half-loaded.
YAML is read safely: only the core scalar types, no Python tags, no merge keys, and aliases are
counted so an alias bomb is refused in milliseconds instead of expanding.
"""

from __future__ import annotations

import bisect
import csv
import difflib
import hashlib
import io
import json
import re
import typing
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.constructor import SafeConstructor
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode

from docgen.errors import LoadError, Problem
from docgen.facts import FACT_MODELS, DirectorGrantFacts, Facts, RRPPlanYearFacts

MAX_BYTES = 20 * 1024 * 1024
MAX_ALIAS_VISITS = 20_000  # values reached again through aliases; a real facts file needs few
_CORE_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:timestamp",
}
_COLLECTION_TAGS = {"tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"}
PathKey = tuple[str | int, ...]


def format_path(path: PathKey) -> str:
    """``("directors", 2, "filed_on")`` -> ``directors[2].filed_on``."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text


class SourceMap:
    """Where each fact came from: fact path -> (file, line).

    YAML records every path's line as it is read. JSON is located on demand (``locate``), so a
    clean 10,000-participant file that nobody asks a line of never pays for an index.
    """

    def __init__(
        self,
        file: str,
        lines: dict[PathKey, tuple[str, int]] | None = None,
        find: typing.Callable[[PathKey], int | None] | None = None,
    ):
        self.file = file
        self.lines = lines if lines is not None else {}
        self._find = find
        self.extra: dict[PathKey, tuple[str, int]] = {}  # facts read from a roster beside the file

    def locate(self, path: PathKey | str) -> tuple[str, int | None]:
        """The file and line of ``path``, or of its nearest ancestor that has one."""
        key = _parse_path(path) if isinstance(path, str) else tuple(path)
        while True:
            if key in self.extra:
                return self.extra[key]
            if key in self.lines:
                return self.lines[key]
            if self._find is not None:
                line = self._find(key)
                if line is not None:
                    return self.file, line
            if not key:
                return self.file, None
            key = key[:-1]

    def line_of(self, path: PathKey | str) -> int | None:
        return self.locate(path)[1]


@dataclass(frozen=True)
class LoadedFacts:
    """A validated facts file: the model, where each fact is, and the bytes' SHA-256."""

    facts: Facts
    source: SourceMap
    path: Path
    sha256: str

    @property
    def kind(self) -> str:
        return self.facts.kind


def _parse_path(text: str) -> PathKey:
    parts: list[str | int] = []
    for chunk in text.replace("]", "").split("."):
        name, *indexes = chunk.split("[")
        if name:
            parts.append(name)
        parts.extend(int(i) for i in indexes)
    return tuple(parts)


def _display(path: Path) -> str:
    """A path as the user typed it, or relative to the working folder when that is shorter."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


# ------------------------------------------------------------------------------- reading bytes


def _read_text(path: Path, shown: str) -> str:
    def refuse(what: str, fix: str) -> LoadError:
        return LoadError([Problem(shown, None, "", what, fix=fix)])

    if not path.exists():
        raise refuse("no such file", "Check the path; run `ls` in its folder to see what is there.")
    if path.is_dir():
        raise refuse("is a folder, not a facts file", "Name a .yaml, .yml or .json file.")
    size = path.stat().st_size
    if size > MAX_BYTES:
        raise refuse(
            f"file is too large ({size:,} bytes; the limit is {MAX_BYTES:,})",
            "Split the facts into one file per grant cycle or Plan Year.",
        )
    data = path.read_bytes()
    if not data.strip():
        raise refuse(
            "file is empty",
            "Start from a sample: samples/director-grant-2026.yaml or samples/rrp-2026.yaml.",
        )
    if b"\x00" in data[:8192]:
        raise refuse(
            "is a binary file, not YAML or JSON text",
            "Name the facts file, not a PDF, DOCX or spreadsheet.",
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise LoadError(
            [Problem(shown, line, "", "is not UTF-8 text", fix="Save the file as UTF-8.")]
        ) from None
    return text


# ------------------------------------------------------------------------------- YAML and JSON


def _short_tag(tag: str) -> str:
    return tag.replace("tag:yaml.org,2002:", "!!")


class _Walker:
    """Turns a composed YAML node tree into plain data, recording each path's line."""

    def __init__(
        self, shown: str, lines: dict[PathKey, tuple[str, int]], constructor: SafeConstructor
    ):
        self.shown = shown
        self.lines = lines
        self.problems: list[Problem] = []
        self.alias_visits = 0
        self._seen: set[int] = set()
        self.constructor = constructor
        self._stack: set[int] = set()

    def problem(
        self, node: Node, path: PathKey, what: str, fix: str, got: str | None = None
    ) -> None:
        self.problems.append(
            Problem(self.shown, node.start_mark.line + 1, format_path(path), what, got, fix)
        )

    def walk(self, node: Node, path: PathKey) -> Any:
        # Count only what aliases make us read again, so an alias bomb stops in milliseconds
        # while a large plain file (10,000 participants) is never refused for its size.
        if id(node) in self._seen:
            self.alias_visits += 1
            if self.alias_visits > MAX_ALIAS_VISITS:
                raise _TooLarge(node)
        else:
            self._seen.add(id(node))
        self.lines.setdefault(path, (self.shown, node.start_mark.line + 1))
        if id(node) in self._stack:
            self.problem(node, path, "an alias refers to itself", "Write the value out in full.")
            return None
        allowed = _CORE_TAGS if isinstance(node, ScalarNode) else _COLLECTION_TAGS
        if node.tag not in allowed:  # !!python/object and friends: never constructed
            self.problem(
                node,
                path,
                f"unsupported YAML tag {_short_tag(node.tag)}",
                "Remove the tag; write a plain value.",
            )
            return None
        if isinstance(node, ScalarNode):
            return self._scalar(node)
        self._stack.add(id(node))
        try:
            if isinstance(node, MappingNode):
                return self._mapping(node, path)
            return [self.walk(item, path + (index,)) for index, item in enumerate(node.value)]
        finally:
            self._stack.discard(id(node))

    def _mapping(self, node: MappingNode, path: PathKey) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                self.problem(
                    key_node,
                    path,
                    "merge keys (<<) are not supported",
                    "Write the fields out in full.",
                )
                continue
            if not isinstance(key_node, ScalarNode):
                self.problem(key_node, path, "a key must be a plain name", "Write the key as text.")
                continue
            key = str(key_node.value)
            child = path + (key,)
            if key in result:
                self.problem(
                    key_node, child, "this key appears twice", "Keep one of the two entries."
                )
                continue
            self.lines[child] = (self.shown, key_node.start_mark.line + 1)
            result[key] = self.walk(value_node, child)
        return result

    def _scalar(self, node: ScalarNode) -> Any:
        if node.tag == "tag:yaml.org,2002:str":
            return node.value
        try:
            return self.constructor.construct_object(node, deep=True)
        except (ValueError, YAMLError):
            return node.value  # e.g. 2026-02-30: the model says what is wrong with it


class _TooLarge(Exception):
    def __init__(self, node: Node):
        self.node = node


class _DuplicateKey(Exception):
    pass


def _pairs_without_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise _DuplicateKey
    return result


_JSON_SPACE = re.compile(r"[ \t\n\r]*")


class _JsonLocator:
    """Finds the line of a path in a JSON text, descending only along that path.

    Each container's members are listed once, on first need, by letting the C decoder skip over
    every member's value (``raw_decode``), so locating 500 findings in a 6 MB file costs a few
    C-speed passes instead of a Python loop over a million tokens.
    """

    def __init__(self, text: str):
        self.text = text
        self.decoder = json.JSONDecoder()
        self.members: dict[PathKey, dict[str | int, tuple[int, int]]] = {}
        self.newlines: list[int] | None = None

    def _skip(self, index: int) -> int:
        return _JSON_SPACE.match(self.text, index).end()

    def _list_members(self, path: PathKey, start: int) -> dict[str | int, tuple[int, int]]:
        """Member -> (offset of its key or value, offset of its value) of the container at start."""
        cached = self.members.get(path)
        if cached is not None:
            return cached
        text, members = self.text, {}
        is_object = text[start] == "{"
        index = self._skip(start + 1)
        position = 0
        while index < len(text) and text[index] not in "}]":
            if is_object:
                key, after = json.decoder.scanstring(text, index + 1)
                value_at = self._skip(self._skip(after) + 1)  # past the ':'
                label: str | int = key
            else:
                value_at, label = index, position
            members[label] = (index, value_at)
            _, index = self.decoder.raw_decode(text, value_at)
            index = self._skip(index)
            if index < len(text) and text[index] == ",":
                index = self._skip(index + 1)
            position += 1
        self.members[path] = members
        return members

    def offset(self, path: PathKey) -> int | None:
        at, walked = self._skip(0), ()
        for part in path:
            if self.text[at] not in "{[":
                return None
            entry = self._list_members(walked, at).get(part)
            if entry is None:
                return None
            walked = walked + (part,)
            if walked == path:
                return entry[0]
            at = entry[1]
        return at

    def line(self, path: PathKey) -> int | None:
        try:
            offset = self.offset(path)
        except (ValueError, IndexError):
            return None
        if offset is None:
            return None
        if self.newlines is None:
            self.newlines = [match.start() for match in re.finditer("\n", self.text)]
        return bisect.bisect_right(self.newlines, offset - 1) + 1


def _load_json(text: str, shown: str) -> tuple[Any, SourceMap] | None:
    """Fast path for JSON: the C parser, lines indexed lazily. None means "read it as YAML"."""
    try:
        data = json.loads(text, object_pairs_hook=_pairs_without_duplicates)
    except json.JSONDecodeError as error:
        raise LoadError(
            [
                Problem(
                    shown,
                    error.lineno,
                    "",
                    f"not valid JSON: {error.msg}",
                    fix=f"Look at column {error.colno}: a missing comma, quote or brace.",
                )
            ]
        ) from None
    except _DuplicateKey:
        return None  # the YAML reader names the duplicate key and its line
    except RecursionError:
        raise LoadError(
            [
                Problem(
                    shown, None, "", "nested too deeply", fix="A facts file is a few levels deep."
                )
            ]
        ) from None
    return data, SourceMap(shown, find=_JsonLocator(text).line)


def _compose(text: str, shown: str) -> tuple[Any, dict[PathKey, tuple[str, int]]]:
    yaml = YAML(typ="safe", pure=True)
    try:
        root = yaml.compose(io.StringIO(text))
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark else None
        what = (error.problem or error.context or "not valid YAML").strip()
        raise LoadError(
            [
                Problem(
                    shown,
                    line,
                    "",
                    f"not valid YAML: {what}",
                    fix="Check the indentation and quoting on that line (use spaces, not tabs).",
                )
            ]
        ) from None
    except YAMLError as error:
        raise LoadError(
            [Problem(shown, None, "", f"not valid YAML: {error}", fix="Check the file's syntax.")]
        ) from None
    if root is None:
        raise LoadError(
            [
                Problem(
                    shown, None, "", "file has no content", fix="Start from a sample in samples/."
                )
            ]
        )
    lines: dict[PathKey, tuple[str, int]] = {}
    walker = _Walker(shown, lines, yaml.constructor)
    try:
        data = walker.walk(root, ())
    except _TooLarge as stop:
        raise LoadError(
            [
                Problem(
                    shown,
                    stop.node.start_mark.line + 1,
                    "",
                    f"aliases repeat more than {MAX_ALIAS_VISITS:,} values (an alias bomb?)",
                    fix="Write the facts out plainly; docgen does not expand repeated aliases.",
                )
            ]
        ) from None
    except RecursionError:
        raise LoadError(
            [
                Problem(
                    shown, None, "", "nested too deeply", fix="A facts file is a few levels deep."
                )
            ]
        ) from None
    if walker.problems:
        raise LoadError(walker.problems)
    return data, lines


# ------------------------------------------------------------------------------- CSV roster

_ROSTER_BOOLEANS = {
    "true": True,
    "yes": True,
    "y": True,
    "1": True,
    "false": False,
    "no": False,
    "n": False,
    "0": False,
}
_ROSTER_ELECTION = {
    "election_grant_id": "grant_id",
    "election_filed_on": "filed_on",
    "election_percent": "percent",
    "election_pay_on": "pay_on",
    "election_pay_date": "pay_date",
}
ROSTER_COLUMNS = (
    "id", "name", "salutation", "address", "employee", "specified_employee",
    "first_eligible_on", "units", *_ROSTER_ELECTION,
)  # fmt: skip


def _read_roster(
    path: Path,
    shown: str,
    first_index: int,
    lines: dict[PathKey, tuple[str, int]],
    default_grant_id: str | None = None,
) -> list[dict[str, Any]]:
    """Directors from a CSV roster: one row per director, columns named as in ROSTER_COLUMNS.

    ``address`` holds the address lines separated by `` | ``; an election is given by the
    ``election_*`` columns (leave them empty for a director with no election).
    """
    text = _read_text(path, shown)
    reader = csv.DictReader(io.StringIO(text, newline=""))
    header = reader.fieldnames or []
    problems = []
    for column in header:
        if column not in ROSTER_COLUMNS:
            guess = difflib.get_close_matches(column, ROSTER_COLUMNS, n=1)
            hint = f"Did you mean {guess[0]}? " if guess else ""
            problems.append(
                Problem(
                    shown,
                    1,
                    f"column {column}",
                    "unknown column",
                    None,
                    f"{hint}Columns: {', '.join(ROSTER_COLUMNS)}.",
                )
            )
    for required in ("id", "name", "units"):
        if required not in header:
            problems.append(
                Problem(
                    shown,
                    1,
                    f"column {required}",
                    "required column is missing",
                    None,
                    f"Add a {required} column to the header row.",
                )
            )
    if problems:
        raise LoadError(problems)
    directors = []
    for offset, row in enumerate(reader):
        index = first_index + offset
        line = reader.line_num
        if None in row:
            raise LoadError(
                [
                    Problem(
                        shown,
                        line,
                        f"directors[{index}]",
                        "more cells than columns",
                        fix="Quote any cell that contains a comma.",
                    )
                ]
            )
        director: dict[str, Any] = {}
        election: dict[str, Any] = {}
        base: PathKey = ("directors", index)
        lines[base] = (shown, line)
        for column, cell in row.items():
            cell = (cell or "").strip()
            if not cell:
                continue
            value: Any = cell
            if column in ("employee", "specified_employee"):
                value = _ROSTER_BOOLEANS.get(cell.lower(), cell)
            elif column == "units" and cell.replace(",", "").isdigit():
                value = int(cell.replace(",", ""))
            elif column == "address":
                value = [part.strip() for part in cell.split("|") if part.strip()]
            if column in _ROSTER_ELECTION:
                election[_ROSTER_ELECTION[column]] = value
                lines[base + ("elections", 0, _ROSTER_ELECTION[column])] = (shown, line)
            else:
                director[column] = value
                lines[base + (column,)] = (shown, line)
        if election:
            # A roster row's election is for the grant the facts file describes unless it names one.
            if default_grant_id is not None:
                election.setdefault("grant_id", default_grant_id)
            director["elections"] = [election]
            lines[base + ("elections",)] = (shown, line)
            lines[base + ("elections", 0)] = (shown, line)
        directors.append(director)
    return directors


# ------------------------------------------------------------------------------- validation


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
    if isinstance(current, type) and issubclass(current, BaseModel):
        return list(current.model_fields)
    return None


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


def _show(value: Any) -> str | None:
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
        text = json.dumps(value) if looks_typed or value.strip() != value or not value else value
    return text if len(text) <= 60 else text[:57] + "..."


_TYPE_WORDS = {
    "int_type": ("expected a whole number", "Write digits only, without quotes."),
    "bool_type": ("expected true or false", "Write true or false, without quotes."),
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


def _problems_from(
    error: ValidationError, model: type[BaseModel], source: SourceMap
) -> list[Problem]:
    problems = []
    for detail in error.errors(include_url=False):
        loc: PathKey = tuple(detail["loc"])
        kind = detail["type"]
        ctx = detail.get("ctx") or {}
        got = _show(detail.get("input"))
        name = loc[-1] if loc else ""
        if kind == "docgen_form":
            what, fix = ctx["what"], ctx["fix"]
            if ctx.get("field"):
                loc = loc + tuple(int(p) if p.isdigit() else p for p in ctx["field"].split("."))
                got = None
        elif kind == "missing":
            what, got = "required field is missing", None
            fix = f"Add {name}: under {format_path(loc[:-1]) or 'the top level'}."
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
        elif kind == "string_pattern_mismatch":
            what = "ids use only lowercase letters, digits and hyphens"
            fix = "Write it like jsmith or e1001."
        elif kind in _TYPE_WORDS:
            what, fix = _TYPE_WORDS[kind]
        else:
            what, fix = detail["msg"][0].lower() + detail["msg"][1:], "Correct the value."
        file, line = source.locate(loc)
        problems.append(Problem(file, line, format_path(loc), what, got, fix))
    return problems


def _duplicate_ids(data: dict[str, Any], list_name: str, source: SourceMap) -> list[Problem]:
    seen: dict[str, int] = {}
    problems = []
    for index, item in enumerate(data.get(list_name) or []):
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            continue
        ident = item["id"]
        if ident in seen:
            file, line = source.locate((list_name, index, "id"))
            first_file, first_line = source.locate((list_name, seen[ident], "id"))
            problems.append(
                Problem(
                    file,
                    line,
                    format_path((list_name, index, "id")),
                    "duplicate id",
                    ident,
                    f"Ids must be unique; {ident} is already used at {first_file}:{first_line}.",
                )
            )
        else:
            seen[ident] = index
    return problems


def _year_problems(facts: Facts, source: SourceMap) -> list[Problem]:
    """A Plan Year with no published 401(a)(17) limit and no plan.compensation_limit."""
    if not isinstance(facts, RRPPlanYearFacts) or facts.plan.compensation_limit is not None:
        return []
    from docgen.parameters import has_value

    if has_value("irs_401a17_compensation_limit", facts.plan_year):
        return []
    file, line = source.locate(("plan_year",))
    return [
        Problem(
            file,
            line,
            "plan_year",
            f"no published 401(a)(17) compensation limit for {facts.plan_year}",
            str(facts.plan_year),
            f"Add plan.compensation_limit: for {facts.plan_year} once the IRS publishes it, "
            "or add the figure to checks/parameters/irs_401a17_compensation_limit.yaml.",
        )
    ]


def load_facts(path: str | Path) -> LoadedFacts:
    """Read and validate a facts file; raise :class:`LoadError` listing every problem found."""
    path = Path(path)
    shown = _display(path)
    text = _read_text(path, shown)
    fast = _load_json(text, shown) if path.suffix.lower() == ".json" else None
    if fast is not None:
        data, source = fast
    else:
        data, yaml_lines = _compose(text, shown)
        source = SourceMap(shown, yaml_lines)
    if not isinstance(data, dict):
        raise LoadError(
            [
                Problem(
                    shown,
                    1,
                    "",
                    "expected a mapping of fields at the top level",
                    _show(data),
                    "Start from a sample in samples/.",
                )
            ]
        )
    kind = data.get("kind")
    model = FACT_MODELS.get(kind) if isinstance(kind, str) else None
    if model is None:
        file, line = source.locate(("kind",))
        raise LoadError(
            [
                Problem(
                    file,
                    line or 1,
                    "kind",
                    "expected director-rsu-grant or rrp-plan-year",
                    _show(kind) if "kind" in data else None,
                    "Add kind: director-rsu-grant or kind: rrp-plan-year at the top.",
                )
            ]
        )
    problems: list[Problem] = []
    if model is DirectorGrantFacts and isinstance(data.get("directors_csv"), str):
        roster = path.parent / data["directors_csv"]
        directors = data.get("directors") or []
        if isinstance(directors, list):
            try:
                grant = data.get("grant")
                grant_id = grant.get("id") if isinstance(grant, dict) else None
                data["directors"] = directors + _read_roster(
                    roster, _display(roster), len(directors), source.extra, grant_id
                )
            except LoadError as error:
                problems.extend(error.problems)
    list_name = "directors" if model is DirectorGrantFacts else "participants"
    problems.extend(_duplicate_ids(data, list_name, source))
    facts = None
    try:
        facts = model.model_validate(data)
    except ValidationError as error:
        problems.extend(_problems_from(error, model, source))
    if facts is not None:
        problems.extend(_year_problems(facts, source))
    if problems:
        raise LoadError(problems)
    # The facts' identity covers the roster too: a changed roster is changed facts.
    hasher = hashlib.sha256(path.read_bytes())
    if isinstance(facts, DirectorGrantFacts) and facts.directors_csv:
        hasher.update((path.parent / facts.directors_csv).read_bytes())
    digest = hasher.hexdigest()
    return LoadedFacts(facts=facts, source=source, path=path, sha256=digest)
