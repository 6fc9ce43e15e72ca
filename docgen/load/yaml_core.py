"""The YAML 1.2 core schema as docgen reads it: which plain scalar is a bool, an int, a float,
null or a date, the value a scalar of each type holds, and PyYAML's safe loaders taught it.

PyYAML resolves plain scalars by YAML 1.1, where ``yes``, ``on`` and ``off`` are booleans, ``012``
is octal 10 and ``1:30`` is ninety. The loaders below replace its implicit resolvers, through
PyYAML's own ``add_implicit_resolver``, with the table ruamel applies to a YAML 1.2 document,
quirks included (``012`` is an int, ``=`` is the ``!!value`` tag, ``.5e+3`` needs the exponent's
sign); a test holds the two to the same answers over a corpus of scalars. A number is handed on
as its source text (docgen.core.numbers reads it for the field), a boolean only as true or
false, a date as a date.
"""

from __future__ import annotations

import datetime
import re
from typing import Any

import yaml

from docgen.core.numbers import SourceNumber

STR = "tag:yaml.org,2002:str"
INT = "tag:yaml.org,2002:int"
FLOAT = "tag:yaml.org,2002:float"
BOOL = "tag:yaml.org,2002:bool"
NULL = "tag:yaml.org,2002:null"
TIMESTAMP = "tag:yaml.org,2002:timestamp"
MERGE = "tag:yaml.org,2002:merge"
VALUE = "tag:yaml.org,2002:value"
YAML = "tag:yaml.org,2002:yaml"
MAP = "tag:yaml.org,2002:map"
SEQ = "tag:yaml.org,2002:seq"

SCALAR_TAGS = frozenset({STR, INT, FLOAT, BOOL, NULL, TIMESTAMP})

# (tag, pattern, the characters a scalar of that tag can start with), tried in this order.
_IMPLICIT = [
    (BOOL, r"true|True|TRUE|false|False|FALSE", "tTfF"),
    (
        FLOAT,
        r"[-+]?[0-9][0-9_]*\.[0-9_]*(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?[0-9][0-9_]*[eE][-+]?[0-9]+"
        r"|[-+]?\.[0-9_]+(?:[eE][-+][0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)"
        r"|\.(?:nan|NaN|NAN)",
        "-+0123456789.",
    ),
    (INT, r"[-+]?0b[0-1_]+|[-+]?0o?[0-7_]+|[-+]?[0-9_]+|[-+]?0x[0-9a-fA-F_]+", "-+0123456789"),
    (MERGE, r"<<", "<"),
    (NULL, r"~|null|Null|NULL|", ["~", "n", "N", ""]),  # "": an empty value is null
    (
        TIMESTAMP,
        r"[0-9]{4}-[0-9]{2}-[0-9]{2}"
        r"|[0-9]{4}-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9]{2}:[0-9]{2}"
        r"(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9]{2})?))?",
        "0123456789",
    ),
    (VALUE, r"=", "="),
    (YAML, r"!|&|\*", "!&*"),
]


def plain_tag(text: str) -> str:
    """The tag ``text`` written as a plain scalar resolves to: STR when it reads as text, else
    the type it would be read as (``123``, ``null``, ``true``, ``2026-01-01``)."""
    for tag, pattern, _ in _IMPLICIT:
        if re.fullmatch(pattern, text):
            return tag
    return STR


class PurePythonLoader(yaml.SafeLoader):
    """PyYAML's pure-Python composer with the YAML 1.2 core resolvers: it reads where PyYAML was
    built without libyaml, and words what libyaml refuses (docgen.load.yaml_facts)."""

    yaml_implicit_resolvers: dict[Any, list[tuple[str, re.Pattern[str]]]] = {}


class Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """libyaml, PyYAML's C composer (the pure-Python one where PyYAML was built without it),
    with the YAML 1.2 core resolvers."""

    yaml_implicit_resolvers: dict[Any, list[tuple[str, re.Pattern[str]]]] = {}


for _tag, _pattern, _first in _IMPLICIT:
    _resolver = re.compile(f"(?:{_pattern})\\Z")
    Loader.add_implicit_resolver(_tag, _resolver, list(_first))
    PurePythonLoader.add_implicit_resolver(_tag, _resolver, list(_first))


class NotAValue(ValueError):
    """The scalar's text is not a value of its tag (``!!int abc``, 2026-02-30): the caller keeps
    the text, and the fact model says what is wrong with it."""


class NotABoolean(NotAValue):
    """``!!bool yes``: a boolean in a spelling YAML 1.2 does not have; the caller says so."""


_BOOLEANS = {
    "true": True,
    "True": True,
    "TRUE": True,
    "false": False,
    "False": False,
    "FALSE": False,
}


def _boolean(text: str) -> bool:
    if text not in _BOOLEANS:
        raise NotABoolean(text)
    return _BOOLEANS[text]


_TIMESTAMP = re.compile(
    r"(?P<year>[0-9]{4})-(?P<month>[0-9][0-9]?)-(?P<day>[0-9][0-9]?)"
    r"(?:(?:[Tt]|[ \t]+)(?P<hour>[0-9][0-9]?):(?P<minute>[0-9]{2}):(?P<second>[0-9]{2})"
    r"(?:\.(?P<fraction>[0-9]*))?"
    r"(?:[ \t]*(?P<tz>Z|(?P<tz_sign>[-+])(?P<tz_hour>[0-9][0-9]?)(?::(?P<tz_minute>[0-9]{2}))?))?)?"
    r"$"
)


def _timestamp(text: str) -> datetime.date | datetime.datetime:
    match = _TIMESTAMP.match(text)
    if match is None:
        raise NotAValue(text)
    part = match.groupdict()
    day = datetime.date(int(part["year"]), int(part["month"]), int(part["day"]))
    if part["hour"] is None:
        return day
    fraction = part["fraction"] or ""
    micro = int((fraction[:6] or "0").ljust(6, "0"))
    if len(fraction) > 6 and int(fraction[6]) > 4:
        micro += 1  # rounded half up to the microsecond, as ruamel does
    overflow = micro > 999_999
    tzinfo = None
    if part["tz_sign"]:
        offset = datetime.timedelta(hours=int(part["tz_hour"]), minutes=int(part["tz_minute"] or 0))
        tzinfo = datetime.timezone(-offset if part["tz_sign"] == "-" else offset, part["tz"])
    elif part["tz"] == "Z":
        tzinfo = datetime.timezone(datetime.timedelta(0), "Z")
    value = datetime.datetime(
        day.year,
        day.month,
        day.day,
        int(part["hour"]),
        int(part["minute"]),
        int(part["second"]),
        0 if overflow else micro,
        tzinfo,
    )
    return value + datetime.timedelta(seconds=1) if overflow else value


_CONSTRUCTORS: dict[str, Any] = {
    STR: str,
    # A number is handed on as written: the field's type reads the digits (docgen.core.numbers),
    # so 99.99999999999999999 stays that number instead of becoming the float 100.0.
    INT: SourceNumber,
    FLOAT: SourceNumber,
    BOOL: _boolean,
    NULL: lambda text: None,
    TIMESTAMP: _timestamp,
}


def construct(tag: str, text: str) -> Any:
    """The value of a scalar of one of :data:`SCALAR_TAGS`; NotAValue when its text is not one."""
    try:
        return _CONSTRUCTORS[tag](text)
    except NotAValue:
        raise
    except (ValueError, KeyError, IndexError):
        raise NotAValue(text) from None
