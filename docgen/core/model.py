"""The fact model's common ground: the base model and the field types every kind's facts use.

The model checks *form*, never policy. ``percent: 7.5`` and ``percent: 80`` load (the checker
flags them); ``percent: ten``, an impossible date, an unknown key or a duplicate id do not.
Every model is strict (no silent coercion), frozen and forbids unknown keys, so a typo never
silently drops a fact. Money and percentages are ``Decimal``, never float, read from the digits
the file wrote (docgen.core.numbers); dates, years and text have documented bounds
(docs/fact-files.md), read by docgen.core.parsers, so nothing a file can say fails later, far
from its line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    StrictStr,
    WithJsonSchema,
)

from docgen.core.parsers import (  # ADDRESS_MAX_LINES and form_error: the kinds import them here
    ADDRESS_MAX_LINES,  # noqa: F401
    EARLIEST_DATE,
    ISO_DATE,
    LATEST_DATE,
    MAX_ANNIVERSARY,
    TEXT_MAX_LENGTH,
    check_name,
    check_text,
    form_error,
    parse_anniversary,
    parse_count,
    parse_date,
    parse_decimal,
    parse_money,
    parse_positive_int,
    parse_positive_money,
    parse_year,
)

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
# Where a fact is written: its file and line, and for a CSV cell its column (counted from 1).
Location = tuple[str, int] | tuple[str, int, int]


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
            "Write it as payroll does, like ab123, BW1000 or e_1001.",
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


def _decimal_json(value: Decimal) -> str:
    return format(value, "f")


_MONEY_TEXT = r"^\$?(0|[1-9][0-9]{0,14}|[1-9][0-9]{0,2}(,[0-9]{3}){1,4})(\.[0-9]{1,20})?$"
_DECIMAL_TEXT = r"^-?(0|[1-9][0-9]{0,14})(\.[0-9]{1,20})?$"

FactDate = Annotated[
    date,
    BeforeValidator(parse_date),
    WithJsonSchema(
        {
            "type": "string",
            "format": "date",
            "pattern": ISO_DATE.pattern,
            "formatMinimum": EARLIEST_DATE.isoformat(),
            "formatMaximum": LATEST_DATE.isoformat(),
        }
    ),
]
Money = Annotated[
    Decimal,
    BeforeValidator(parse_money),
    PlainSerializer(_decimal_json, return_type=str, when_used="json"),
    WithJsonSchema(
        {"anyOf": [{"type": "number", "minimum": 0}, {"type": "string", "pattern": _MONEY_TEXT}]}
    ),
]
PositiveMoney = Annotated[
    Decimal,
    BeforeValidator(parse_positive_money),
    PlainSerializer(_decimal_json, return_type=str, when_used="json"),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "number", "exclusiveMinimum": 0},
                {"type": "string", "pattern": _MONEY_TEXT},
            ]
        }
    ),
]
Percent = Annotated[
    Decimal,
    BeforeValidator(parse_decimal),
    PlainSerializer(_decimal_json, return_type=str, when_used="json"),
    WithJsonSchema({"anyOf": [{"type": "number"}, {"type": "string", "pattern": _DECIMAL_TEXT}]}),
]
PositiveInt = Annotated[
    int, BeforeValidator(parse_positive_int), WithJsonSchema({"type": "integer", "minimum": 1})
]
Count = Annotated[
    int, BeforeValidator(parse_count), WithJsonSchema({"type": "integer", "minimum": 0})
]
Year = Annotated[
    int,
    BeforeValidator(parse_year),
    WithJsonSchema({"type": "integer", "minimum": EARLIEST_DATE.year, "maximum": LATEST_DATE.year}),
]
Anniversary = Annotated[
    int,
    BeforeValidator(parse_anniversary),
    WithJsonSchema({"type": "integer", "minimum": 1, "maximum": MAX_ANNIVERSARY}),
]
FactId = Annotated[StrictStr, Field(pattern=ID_PATTERN, min_length=1, max_length=64)]
SubjectId = Annotated[
    StrictStr,
    BeforeValidator(_subject_id),
    Field(pattern=SUBJECT_ID_PATTERN, min_length=1, max_length=64),
]
Text = Annotated[
    StrictStr,
    Field(min_length=1),
    AfterValidator(check_text),
    WithJsonSchema({"type": "string", "minLength": 1, "maxLength": TEXT_MAX_LENGTH}),
]
# A person's name: text with no invisible format character either (parsers.check_name).
PersonName = Annotated[
    StrictStr,
    Field(min_length=1),
    AfterValidator(check_name),
    WithJsonSchema({"type": "string", "minLength": 1, "maxLength": TEXT_MAX_LENGTH}),
]

# An e-mail address: one addr-spec (local@domain), in ASCII, as RFC 5322 section 3.4.1 writes it
# without quoting or comments, and a domain of dot-separated labels (RFC 1035 section 2.3.1). A
# display name, a list, a line break or a quoted local part is refused: an address is a fact that
# must never carry a header into a message (docgen send), so what is not plainly one is no
# address. Internationalised addresses (RFC 6531) are not read: say so rather than guess.
_EMAIL_LOCAL = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
_EMAIL_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
EMAIL_PATTERN = rf"^{_EMAIL_LOCAL}@{_EMAIL_LABEL}(?:\.{_EMAIL_LABEL})+$"
_EMAIL = re.compile(EMAIL_PATTERN)
EMAIL_MAX_LENGTH = 254  # RFC 5321 section 4.5.3.1.3: a path of 256 octets, less its brackets


def _email_address(value: Any) -> Any:
    """An e-mail address as a fact (see EMAIL_PATTERN)."""
    if not isinstance(value, str):
        return value  # the strict string check says "expected text"
    if value != value.strip():
        raise form_error(
            "the address has spaces before or after it",
            f"Write it as {value.strip() or 'name@example.com'}, with no spaces.",
        )
    if len(value) > EMAIL_MAX_LENGTH:
        raise form_error(
            f"is too long for an e-mail address ({len(value)} characters; at most "
            f"{EMAIL_MAX_LENGTH})",
            "Check the address: no mail server accepts one this long.",
        )
    if not _EMAIL.match(value):
        raise form_error(
            f"{value!r} is not one e-mail address (name@example.com: no display name, no "
            "spaces, commas, line breaks or quotes, a domain with a dot)",
            "Write the address alone, like ab123@example.com; one address per person. An "
            "address with accented letters is not supported: give its ASCII form.",
        )
    return value


EmailAddress = Annotated[
    StrictStr,
    BeforeValidator(_email_address),
    WithJsonSchema({"type": "string", "format": "email", "maxLength": EMAIL_MAX_LENGTH}),
]


class Fact(BaseModel):
    """Base of every fact model: strict, frozen, unknown keys forbidden."""

    model_config = ConfigDict(strict=True, frozen=True, extra="forbid", str_strip_whitespace=True)

    @classmethod
    def documented_fields(cls) -> list[str]:
        """The field names in the order a person reads them (`docgen schema`, the fact-file
        reference, a load error's "Allowed here"): as declared, unless a base model's fields
        belong elsewhere among them (docgen.core.kind_facts)."""
        return list(cls.model_fields)


def fact_path(*parts: str | int) -> str:
    """A fact's path as findings and the source map write it, from its field names and list
    indexes: ``fact_path("directors", 2, "elections", 0, "filed_on")`` is
    ``directors[2].elections[0].filed_on``."""
    path = ""
    for part in parts:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += f".{part}" if path else part
    return path


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
# received stays on record even when it is not in effect (a late or otherwise ineffective form is
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
