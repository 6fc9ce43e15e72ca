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

from docgen.core import numbers, parsers  # noqa: E402
from docgen.core.model import Fact  # noqa: E402
from docgen.kinds import all_kinds  # noqa: E402
from docgen.load import yaml_facts  # noqa: E402

INTRO = """# Fact-file reference

A facts file is YAML (or JSON) describing one director grant cycle (`kind: director-rsu-grant`)
or one Retirement Restoration Plan year (`kind: rrp-plan-year`). This page is generated from the
fact model (`python tools/fact_reference.py`); `docgen schema` prints the same contract as JSON
Schema for editors. Start from `samples/director-grant-2026.yaml` or `samples/rrp-2026.yaml`.

Rules of form (breaking one is a *load error*: exit 2, one message per problem with `file:line`,
the field and the fix; docgen never guesses what a value meant):

- Dates are ISO `YYYY-MM-DD`, from {earliest} to {latest}; years (`plan_year`,
  `form_10k_fiscal_year`) from {first_year} to {last_year}; anniversaries from 1 to {anniversary}.
- Money and percentages are numbers or decimal strings (quote money: `"45.10"`), held as exact
  decimals read from the digits written, never through a float (`99.99999999999999999` stays
  exactly that). Write plain decimal digits with a point for decimals. In money written as a
  quoted string, a leading `$` and commas grouping the whole part in threes are accepted
  (`"$1,225,000.50"`, `"520,000"`). A fair market value must be more than zero.
- Whole numbers (units, years, anniversaries, ages, hours) are plain digits without quotes or
  separators (`2450`). The one exception is a roster CSV, where a spreadsheet's `2,450`
  (grouped in threes) is read as 2450.
- Refused, each with the fix: a decimal comma (`"45,10"`, `"7,5"`), commas not grouped in threes
  (`"4,5,1.0"`, `"2,4,5,0"`), hexadecimal, octal or binary (`0x992`, `0o4622`), digit separators
  (`2_450`), a leading zero (`02450`), a leading `+`, exponents (`1e5`), `.inf` and `.nan`,
  negative zero (`-0`), and more than {whole_digits} digits before the point or
  {fraction_digits} after.
- YAML is read as YAML 1.2 (core schema): only `true` and `false` are booleans (`yes`, `no`,
  `on`, `off` are text, so `employee: yes` is refused); a `%YAML 1.1` directive is refused.
  YAML nests at most {depth} levels (a facts file needs 7); in JSON, no fact takes a nested
  value, so deeper nesting is refused field by field, or with its line past the parser's limit.
- Text values are one line of at most {text_length} characters; an address has at most {address}
  lines. A text value may not contain a control character (NUL, BEL, ESC, tab, CR, LF, DEL and
  the rest of C0 and C1), a line or paragraph separator (U+2028, U+2029), a bidirectional control
  (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069), a byte-order mark or an
  interlinear annotation mark: each changes how the text around it shows.
- The facts file, and a roster or CSV of filings it names, are regular files of at most 100 MB
  (not a pipe or a device). `directors_csv`, `participants_csv`, `elections_csv`,
  `beneficiaries_csv`, `allocations_csv` and `templates_dir` are paths relative to the facts
  file, inside its folder: an absolute path, a `..`, a link that leads outside (the roster,
  or any file in the templates folder), or a FIFO or device among them is refused, never read.
  So is one named on the command line to be read: `--sign-config`, `--trust`, `--shown`,
  `--smtp-config`, `--ca-file` (a FIFO there once made docgen wait for ever).
- Unknown keys are errors, so a typo never silently drops a fact. A director's or participant's
  id keeps its payroll form (letters, digits, `.`, `_`, `-`, starting with a letter or digit),
  is unique without regard to case, and names the subject's folder, so it may not be a name
  Windows reserves (`CON`, `NUL`, `COM1`, ...) or have spaces around it. A grant id uses
  `[a-z0-9-]+`: it names the cycle folder.
- The model checks form only. Policy (a 7.5% or 80% deferral, a late election) loads fine and is
  reported by `docgen check` as a finding with its Plan or Code citation.

Rosters. Directors may come from a CSV file named by `directors_csv`, participants from one named
by `participants_csv` (relative to the facts file; `samples/roster.csv`,
`samples/participants.csv`), one row per person, beside any listed in the facts file. A facts
file is read whole, with a line for every fact, so a population past a few thousand people
belongs in a roster, read row by row, not in a YAML or JSON list. The first row names the
columns; an unknown column, a missing required one or a row with too many cells is
a load error naming the file, line and column. An address cell holds one line per line of the
cell (typed with Alt+Enter in Excel) or lines separated by ` | `; no other cell may hold a line
break. Spreadsheet habits are understood where they cannot be misread: `yes`/`no` for true/false,
`2,450` for a number (commas grouping thousands only), `$448,500` for money.

- Director roster columns: {director_columns}. The `election_*` columns describe the Exhibit I
  form received (empty when none).
- Participant roster columns: {participant_columns}. `key_employee_on` lists December 31 dates
  separated by `;`; `salary_percent`/`salary_made_on` and `bonus_percent`/`bonus_made_on` are a
  Deferral Election for the facts' Plan Year. Beneficiaries, investments, performance-based
  elections, terminations and payments are not roster columns: give them in the CSVs of filings
  below, or list such a participant in the facts file.

CSVs of filings. The forms on record may also be kept as rows, one row per form received (or per
Beneficiary, or per fund), each naming its person by id; several rows per person, superseded
forms and forms recorded as not in effect included, in the order received. Each is read as
strictly as a roster (an unknown column with a did-you-mean; the file, line and column of every
problem; an id that names no one), and each fact in it is located at its file and line. A
person's elections (Beneficiaries, allocation) are all in one place: given both in the CSV and in
the facts file, or in a roster row's election columns, they are a load error, never merged.
`docgen intake` and `docgen elect` write a returned form into the CSV the person's record is
in, keeping every other byte (a byte-order mark, CRLF, quoting, the other rows); a roster
person's single election moves from the row into `elections_csv` with their next form. Without
`elections_csv`, a roster row takes one election (one of each kind of pay) and refuses a second,
saying to name one; a form that needs several CSVs (a Beneficiary and an allocation beside the
election) names every one in the same run, each with the first line to create it with. A CSV the
facts name that does not exist yet is refused at its field's line with that first line (a file of
the header alone holds no rows, and `docgen intake` writes into it). Where the facts file's
`plan_year` is refused (unreadable, or a year out of range), that is the one message: the
elections in a roster's columns, which take it, are not each said to lack it.

{record_columns}
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


def _field_names(model: type[BaseModel]) -> list[str]:
    """A model's fields in the order the reference lists them, which `docgen schema` shares."""
    return model.documented_fields() if issubclass(model, Fact) else list(model.model_fields)


def _models(root: type[BaseModel], seen: list[type[BaseModel]]) -> list[type[BaseModel]]:
    if root in seen:
        return seen
    seen.append(root)
    for name in _field_names(root):
        stack = [root.model_fields[name].annotation]
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
    record_columns = "\n".join(
        f"- {kind.name} `{rows.field}` columns: `{', '.join(rows.column_names)}`."
        for kind in all_kinds()
        for rows in kind.records
    )
    parts = [
        INTRO.format(
            record_columns=record_columns,
            director_columns=columns["directors"],
            participant_columns=columns["participants"],
            earliest=parsers.EARLIEST_DATE.isoformat(),
            latest=parsers.LATEST_DATE.isoformat(),
            first_year=parsers.EARLIEST_DATE.year,
            last_year=parsers.LATEST_DATE.year,
            anniversary=parsers.MAX_ANNIVERSARY,
            whole_digits=numbers.MAX_WHOLE_DIGITS,
            fraction_digits=numbers.MAX_FRACTION_DIGITS,
            depth=yaml_facts.MAX_DEPTH,
            text_length=parsers.TEXT_MAX_LENGTH,
            address=parsers.ADDRESS_MAX_LINES,
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
            for name in _field_names(cls):
                info = cls.model_fields[name]
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
