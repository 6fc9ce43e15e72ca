"""Write docs/fact-files.md, the fact-file reference, from the fact model itself.

Run `python tools/fact_reference.py` after changing a kind's facts (docgen/kinds/*/facts.py);
a test fails while the reference is out of date, so the documentation never drifts from what
the loader accepts.
"""

from __future__ import annotations

import sys
import typing
from pathlib import Path

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from docgen.kinds import all_kinds  # noqa: E402

INTRO = """# Fact-file reference

A facts file is YAML (or JSON) describing one director grant cycle (`kind: director-rsu-grant`)
or one Retirement Restoration Plan year (`kind: rrp-plan-year`). This page is generated from the
fact model (`python tools/fact_reference.py`); `docgen schema` prints the same contract as JSON
Schema for editors. Start from `samples/director-grant-2026.yaml` or `samples/rrp-2026.yaml`.

Rules of form (breaking one is a *load error*: exit 2, one message per problem with `file:line`):

- Dates are ISO `YYYY-MM-DD`. Money and percentages are numbers or decimal strings (quote money:
  `"45.10"`); they are held as exact decimals, never floats.
- Unknown keys are errors, so a typo never silently drops a fact. A director's or participant's
  id keeps its payroll form (letters, digits, `.`, `_`, `-`, starting with a letter or digit),
  is unique without regard to case, and names the subject's folder, so it may not be a name
  Windows reserves (`CON`, `NUL`, `COM1`, ...) or have spaces around it. A grant id uses
  `[a-z0-9-]+`: it names the cycle folder.
- The model checks form only. Policy (a 7.5% or 80% deferral, a late election) loads fine and is
  reported by `docgen check` as a finding with its Plan or Code citation.

Rosters. Directors may come from a CSV file named by `directors_csv`, participants from one named
by `participants_csv` (relative to the facts file; `samples/roster.csv`,
`samples/participants.csv`), one row per person, beside any listed in the facts file. The first
row names the columns; an unknown column, a missing required one or a row with too many cells is
a load error naming the file, line and column. An address cell holds one line per line of the
cell (typed with Alt+Enter in Excel) or lines separated by ` | `; no other cell may hold a line
break. Spreadsheet habits are understood where they cannot be misread: `yes`/`no` for true/false,
`2,450` for a number, `$448,500` for money.

- Director roster columns: {director_columns}. The `election_*` columns describe the Exhibit I
  form received (empty when none).
- Participant roster columns: {participant_columns}. `key_employee_on` lists December 31 dates
  separated by `;`; `salary_percent`/`salary_made_on` and `bonus_percent`/`bonus_made_on` are a
  Deferral Election for the facts' Plan Year. Beneficiaries, investments, performance-based
  elections, terminations and payments are not roster columns: list such a participant in the
  facts file.
"""


def _type_name(annotation) -> str:
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        base = args[0]
        names = {"Decimal": "decimal", "date": "date", "int": "integer", "str": "text"}
        return names.get(getattr(base, "__name__", ""), _type_name(base))
    if origin is typing.Literal:
        return " \\| ".join(f"`{a}`" for a in args)
    if origin in (typing.Union, __import__("types").UnionType):
        inner = [a for a in args if a is not type(None)]
        return " or ".join(_type_name(a) for a in inner) + (
            " or null" if len(inner) < len(args) else ""
        )
    if origin is list:
        return f"list of {_type_name(args[0])}"
    if origin is dict:
        return f"mapping of {_type_name(args[0])} to {_type_name(args[1])}"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return f"[{annotation.__name__}](#{annotation.__name__.lower()})"
    return {
        "bool": "true/false",
        "int": "integer",
        "str": "text",
        "date": "date",
        "Decimal": "decimal",
    }.get(getattr(annotation, "__name__", str(annotation)), str(annotation))


def _models(root: type[BaseModel], seen: list[type[BaseModel]]) -> list[type[BaseModel]]:
    if root in seen:
        return seen
    seen.append(root)
    for info in root.model_fields.values():
        stack = [info.annotation]
        while stack:
            annotation = stack.pop()
            if isinstance(annotation, type) and issubclass(annotation, BaseModel):
                _models(annotation, seen)
            stack.extend(typing.get_args(annotation))
    return seen


def _default(info) -> str:
    if info.is_required():
        return "**required**"
    if info.default_factory is not None:
        value = info.default_factory()
    elif info.default is PydanticUndefined:
        return ""
    else:
        value = info.default
    if value is None:
        return "null"
    if value == [] or value == {}:
        return "empty"
    if isinstance(value, BaseModel):
        return "the Plan's terms"
    if isinstance(value, bool):
        return str(value).lower()
    return f"`{value}`"


def render() -> str:
    columns = {
        kind.roster.into: f"`{', '.join(kind.roster.columns)}`"
        for kind in all_kinds()
        if kind.roster is not None
    }
    parts = [
        INTRO.format(
            director_columns=columns["directors"], participant_columns=columns["participants"]
        )
    ]
    for kind in all_kinds():
        root = kind.model
        parts.append(f"## kind: {kind.name}\n")
        for cls in _models(root, []):
            parts.append(f"### {cls.__name__}\n")
            # The docstring's first paragraph, joined into one line.
            doc = " ".join((cls.__doc__ or "").strip().split("\n\n")[0].split())
            if doc and not doc.startswith("Base of"):
                parts.append(doc + "\n")
            parts.append("| field | type | default | meaning |\n| --- | --- | --- | --- |")
            for name, info in cls.model_fields.items():
                parts.append(
                    f"| `{name}` | {_type_name(info.annotation)} | {_default(info)} | "
                    f"{(info.description or '').replace('|', '/')} |"
                )
            parts.append("")
    return "\n".join(parts).rstrip() + "\n"


if __name__ == "__main__":
    target = ROOT / "docs" / "fact-files.md"
    target.parent.mkdir(exist_ok=True)
    target.write_text(render())
    print(f"wrote {target.relative_to(ROOT)}")
