"""The fact model's common ground: the base model and the field types every kind's facts use.

The model checks *form*, never policy. ``percent: 7.5`` and ``percent: 80`` load (the checker
flags them); ``percent: ten``, an impossible date, an unknown key or a duplicate id do not.
Every model is strict (no silent coercion), frozen and forbids unknown keys, so a typo never
silently drops a fact. Money and percentages are ``Decimal``, never float.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    StrictStr,
    WithJsonSchema,
)
from pydantic_core import PydanticCustomError

ID_PATTERN = r"^[a-z0-9-]+$"
# A director's or participant's id keeps its payroll form (BW1000, j.smith, e_1001) and names the
# subject's folder in an issued stage folder, so it must be a safe folder name everywhere.
SUBJECT_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]*$"
_SUBJECT_ID = re.compile(SUBJECT_ID_PATTERN)
# Names docgen itself writes inside a stage folder (docgen.issue.stages uses these): a subject's
# folder must never be one of them.
STAGE_FOLDER_NAMES = ("superseded", "manifest.json", "check-report.json", "check-report.html")
# Windows refuses these as file or folder names, with or without an extension ("nul.x" too).
WINDOWS_DEVICE_NAMES = frozenset(
    {"con", "prn", "aux", "nul"} | {f"{d}{n}" for d in ("com", "lpt") for n in range(10)}
)
PathKey = tuple[str | int, ...]  # a fact's path: ("directors", 2, "filed_on")
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def form_error(what: str, fix: str, field: str | None = None) -> PydanticCustomError:
    """A form error with its fix; ``field`` points below the model that raised it."""
    ctx: dict[str, Any] = {"what": what, "fix": fix}
    if field:
        ctx["field"] = field
    return PydanticCustomError("docgen_form", "{what}", ctx)


def _parse_date(value: Any) -> date:
    if isinstance(value, datetime):
        raise form_error(
            "expected a date, not a date and time", "Write the date alone as YYYY-MM-DD."
        )
    if isinstance(value, date):
        return value
    if isinstance(value, str) and _ISO_DATE.match(value.strip()):
        try:
            return date.fromisoformat(value.strip())
        except ValueError:
            raise form_error(
                "not a real calendar date", "Check the month and day (YYYY-MM-DD)."
            ) from None
    raise form_error("expected a date as YYYY-MM-DD", "Write it like 2026-06-23.")


def _subject_id(value: Any) -> Any:
    """A subject id as a folder name: payroll characters only, no spaces around it, nothing a
    common filesystem refuses or docgen uses itself. (Ids differing only in case are refused as
    duplicates by the loader: on Windows and macOS they would be one folder.)"""
    if not isinstance(value, str):
        return value  # the strict string check says "expected text"
    if value != value.strip():
        raise form_error(
            "the id has spaces before or after it",
            f"Write it as {value.strip() or 'an id'}, with no spaces: it must match payroll "
            "exactly and names the folder.",
        )
    if not _SUBJECT_ID.match(value):
        raise form_error(
            "ids use only letters, digits, '.', '_' and '-', starting with a letter or digit",
            "Write it as payroll does, like jsmith, BW1000 or e_1001.",
        )
    if value.endswith("."):
        raise form_error(
            "an id must not end with '.' (Windows drops it from a folder name)",
            "Remove the final dot.",
        )
    if value.split(".")[0].lower() in WINDOWS_DEVICE_NAMES:
        raise form_error(
            "the id is a device name Windows reserves (CON, PRN, AUX, NUL, COM0-9, LPT0-9), so "
            "it cannot name a folder",
            "Add a letter or digit, like nul1 or con-a.",
        )
    if value.lower() in STAGE_FOLDER_NAMES:
        raise form_error(
            f"docgen uses {value} as a name inside every issued stage folder",
            "Use another id.",
        )
    return value


def _parse_decimal(value: Any) -> Decimal:
    if isinstance(value, bool):
        raise form_error("expected a number", 'Write a number such as 10 or "45.10".')
    if isinstance(value, Decimal):
        number = value
    elif isinstance(value, int):
        number = Decimal(value)
    elif isinstance(value, float):
        number = Decimal(repr(value))  # the digits the file showed, not the binary float
    elif isinstance(value, str):
        text = value.strip().replace(",", "")
        if text.startswith("$"):
            text = text[1:]
        try:
            number = Decimal(text)
        except InvalidOperation:
            raise form_error("expected a number", 'Write a number such as 10 or "45.10".') from None
    else:
        raise form_error("expected a number", 'Write a number such as 10 or "45.10".')
    if not number.is_finite():
        raise form_error("expected a finite number", 'Write a number such as 10 or "45.10".')
    return number


def _non_negative(value: Decimal) -> Decimal:
    if value < 0:
        raise form_error("must not be negative", "Write zero or a positive amount.")
    return value


def _positive_int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise form_error(
            "expected a whole number",
            "Write digits only, without quotes or commas, such as 2450.",
        )
    if value <= 0:
        raise form_error("must be a positive whole number", "Write a number of 1 or more.")
    return value


def _decimal_json(value: Decimal) -> str:
    return format(value, "f")


FactDate = Annotated[
    date,
    BeforeValidator(_parse_date),
    WithJsonSchema({"type": "string", "format": "date", "pattern": _ISO_DATE.pattern}),
]
Money = Annotated[
    Decimal,
    BeforeValidator(lambda v: _non_negative(_parse_decimal(v))),
    PlainSerializer(_decimal_json, return_type=str, when_used="json"),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "number", "minimum": 0},
                {"type": "string", "pattern": r"^\$?[0-9,]*\.?[0-9]+$"},
            ]
        }
    ),
]
Percent = Annotated[
    Decimal,
    BeforeValidator(_parse_decimal),
    PlainSerializer(_decimal_json, return_type=str, when_used="json"),
    WithJsonSchema(
        {"anyOf": [{"type": "number"}, {"type": "string", "pattern": r"^-?[0-9]*\.?[0-9]+$"}]}
    ),
]
PositiveInt = Annotated[
    int, BeforeValidator(_positive_int), WithJsonSchema({"type": "integer", "minimum": 1})
]
FactId = Annotated[StrictStr, Field(pattern=ID_PATTERN, min_length=1, max_length=64)]
SubjectId = Annotated[
    StrictStr,
    BeforeValidator(_subject_id),
    Field(pattern=SUBJECT_ID_PATTERN, min_length=1, max_length=64),
]
Text = Annotated[StrictStr, Field(min_length=1)]


class Fact(BaseModel):
    """Base of every fact model: strict, frozen, unknown keys forbidden."""

    model_config = ConfigDict(strict=True, frozen=True, extra="forbid", str_strip_whitespace=True)


@dataclass(frozen=True)
class DefaultedTerm:
    """A term the facts file left out, taken as its default: the report names it."""

    path: str
    value: str
    source: str  # where the default comes from, e.g. "Plan Section 2.03(a)"

    def to_json_dict(self) -> dict[str, str]:
        return {"path": self.path, "value": self.value, "source": self.source}


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return ", ".join(_shown(v) for v in value) or "none"
    return str(value)


def defaulted_terms(
    facts: BaseModel, terms: tuple[tuple[tuple[str, ...], str], ...]
) -> list[DefaultedTerm]:
    """Each of ``terms`` (fact path, source of its default) that the file did not set."""
    found = []
    for path, source in terms:
        node: Any = facts
        left_out = False
        for part in path:
            if part not in node.model_fields_set:
                left_out = True
            node = getattr(node, part)
        if left_out:
            found.append(DefaultedTerm(".".join(path), _shown(node), source))
    return found


# -------------------------------------------------------------------- recorded election forms
# Every kind's election record carries these beside what the form says: a form the Company
# received stays on record even when it is set aside (a late or otherwise ineffective form is
# never erased: the record shows what arrived and what was decided about it).

RecordStatus = Annotated[
    Literal["ineffective"] | None,
    Field(
        description="ineffective: the form is on record but not in effect (with reason and "
        "decided_by); findings about it are then info, and it governs nothing."
    ),
]
DecisionText = Annotated[
    Text | None,
    Field(description="With status: ineffective: why (reason) and who decided it (decided_by)."),
]
FormSHA256 = Annotated[
    StrictStr | None,
    Field(
        pattern=r"^[0-9a-f]{64}$",
        description="The SHA-256 of the returned PDF this was read from (docgen intake).",
    ),
]


def check_decision(record: Any) -> None:
    """``status: ineffective`` needs its reason and who decided it; neither without it."""
    if record.status == "ineffective":
        missing = [name for name in ("reason", "decided_by") if getattr(record, name) is None]
        if missing:
            raise form_error(
                f"status: ineffective needs {' and '.join(missing)}",
                "Say why the form is not in effect (reason: ...) and who decided so "
                "(decided_by: ...).",
                field=missing[0],
            )
        return
    for name in ("reason", "decided_by"):
        if getattr(record, name) is not None:
            raise form_error(
                f"{name} records why a form is not in effect, but status is not ineffective",
                "Add status: ineffective, or remove reason and decided_by.",
                field=name,
            )


def is_in_effect(record: Any) -> bool:
    """False for a form recorded as not in effect (``status: ineffective``): it stays on record
    and governs nothing. Every term that picks the election in force asks this."""
    return getattr(record, "status", None) != "ineffective"


def decision_words(record: Any) -> str:
    """The recorded decision in words, for findings and the on-file copy."""
    return f"recorded as not in effect by {record.decided_by}: {record.reason}"
