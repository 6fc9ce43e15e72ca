"""Recording a returned election form in the facts: what the form said (its answers), the change
that makes to the facts (a Filing: edits to one subject), why a form is refused, and the hooks a
kind gives `docgen intake`, `docgen elect` and `docgen status` (``Kind.intake``).

A form is read in two ways, from a filled PDF (its A10 field values) or from the command line
(`docgen elect`, for a scan or a fax), into one set of *answers*; one function of the kind then
validates the answers and says what to record, so both ways are held to the same rules.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from docgen.core.dates import NotADate, long_date, parse_written_date
from docgen.core.errors import DocgenError

SubjectPath = tuple[str, ...]  # a field of one subject: ("elections",), ("investments",)


@dataclass(frozen=True)
class Append:
    """Add ``value`` (plain data: text, numbers, dates) at the end of the subject's list at
    ``path``, creating the list if the facts file leaves it out."""

    path: SubjectPath
    value: dict[str, Any]


@dataclass(frozen=True)
class Put:
    """Set the subject's field at ``path`` to ``value``, replacing what is recorded there."""

    path: SubjectPath
    value: Any


@dataclass(frozen=True)
class Amend:
    """Set fields of one item of the subject's list: ``path`` is the list and the item's index
    (``("elections", 1)``), ``value`` the fields to set; a field set to None is taken out of the
    item. A decision about a form on record (`docgen decide`) is one: every other field of the
    item, and every other item, stays as it is."""

    path: tuple[str, int]
    value: dict[str, Any]


Edit = Append | Put | Amend


@dataclass(frozen=True)
class Filing:
    """What one returned form changes in the facts: edits to one subject, in order."""

    subject: str
    filed_on: date
    edits: tuple[Edit, ...]
    summary: str  # what was recorded, in words: "(b) July 1, 2030, received June 10, 2026"


class FormRefused(DocgenError, ValueError):
    """A form that cannot be recorded as it is: its answers are missing, unclear or contradict
    the facts. Exit code 2; nothing is written. ``problems`` are one line each."""

    def __init__(self, problems: list[str], fix: str = ""):
        self.problems = list(problems)
        self.fix = fix
        self.fixes = [fix] * len(self.problems)  # each problem's own fix (together(): several)
        super().__init__("; ".join(self.problems) + (f". {fix}" if fix else ""))

    @classmethod
    def together(cls, refusals: list[FormRefused]) -> FormRefused:
        """Every refusal of one form, each problem with its own fix: the user learns all that
        stands in the way at once, not one run at a time."""
        if len(refusals) == 1:
            return refusals[0]
        joined = cls([problem for refusal in refusals for problem in refusal.problems])
        joined.fixes = [fix for refusal in refusals for fix in refusal.fixes]
        joined.args = (
            "; ".join(
                f"{problem}. {fix}" if fix else problem
                for problem, fix in zip(joined.problems, joined.fixes, strict=True)
            ),
        )
        return joined


@dataclass(frozen=True)
class ReturnedForm:
    """A form on record for a subject, as `docgen status` lists it."""

    path: str  # its fact path: directors[0].elections[1]
    filed_on: date
    summary: str
    governs: bool  # the kind's terms give it effect (the checker may still find it wanting)
    not_in_effect: str | None = None  # the recorded decision, when it is not in effect
    this_cycle: bool = True  # False: an earlier cycle's form still in force (rolled over)


@dataclass(frozen=True)
class FormIntake:
    """How a kind's returned forms are read, validated and recorded, and whose are awaited.

    ``answers_from_form(facts, subject, values, tooltips)`` reads a filled PDF's field values
    (with each field's tooltip) into answers, raising FormRefused for fields that contradict
    each other; ``answers_from_options(facts, subject, options)`` reads `docgen elect`'s options
    into the same answers; ``record(facts, subject, answers, received_on, form_sha256, source)``
    validates them and returns the Filing, raising FormRefused (``source`` is "form" or
    "options": a filled PDF must have its signature block completed).
    """

    document: str  # the form's document name (its identity says so)
    stage: str  # the stage at which the blank forms are sent
    answers_from_form: Callable[[Any, Any, Mapping[str, str | None], Mapping[str, str]], dict]
    answers_from_options: Callable[[Any, Any, Mapping[str, Any]], dict]
    record: Callable[..., Filing]
    options: tuple[str, ...]  # the `docgen elect` options its form takes, without dashes
    expects_form: Callable[[Any, Any], bool]  # (facts, subject) -> is a form sent to them?
    # (facts, subject) -> the forms on record for this cycle, and any earlier one still in force
    returned: Callable[[Any, Any], list[ReturnedForm]]
    deadline: Callable[[Any, Any], date | None]  # (facts, subject) -> the last day to file
    # (facts, subject) -> what the subject's form prints of whom and what it is for, held against
    # a returned form's identity keys (docgen.intake.form_content); None: nothing is checked
    printed: Callable[[Any, Any], list[PrintedIdentity]] | None = None
    fields: re.Pattern[str] | None = None  # every field name its form may have; None: any


@dataclass(frozen=True)
class PrintedIdentity:
    """Text a kind's form prints on ``page`` (1 for the first) that its identity decides:
    ``what`` says which ("the director's name"), ``text`` is what is printed."""

    page: int
    what: str
    text: str


# ------------------------------------------------------------------- reading answers plainly

_SUFFIXES = {"jr", "sr", "ii", "iii", "iv", "esq"}
# Titles written before a name ("Hon. Robert L. Whitcombe III"): set aside at its start only.
_HONORIFICS = {"hon", "honorable", "dr", "mr", "mrs", "ms", "mx", "prof", "sir", "rev"}
# Letters that are not a base letter plus an accent, so Unicode's decomposition leaves them whole:
# folded to the Latin letters a person typing without them writes ("Lukasz Wrobel", "Soren").
_LATIN_BASE = str.maketrans(
    {"ł": "l", "ø": "o", "đ": "d", "æ": "ae", "œ": "oe", "þ": "th", "ð": "d", "ı": "i", "ħ": "h"}
)


def _name_words(name: str) -> list[str]:
    plain = unicodedata.normalize("NFKD", name.casefold().translate(_LATIN_BASE))
    plain = "".join(char for char in plain if not unicodedata.combining(char))
    words = re.sub(r"[^0-9a-z]+", " ", plain).split()
    while words and words[0] in _HONORIFICS:
        words = words[1:]
    return [word for word in words if word not in _SUFFIXES]


def _same_words(printed: list[str], recorded: list[str]) -> bool:
    """Word by word: the same word, or an initial and a name it begins; an initial on either
    side may also be left out. A whole word is never left out, and the order is the order."""
    if not printed or not recorded:
        return all(len(word) == 1 for word in printed + recorded)
    first, other = printed[0], recorded[0]
    if (
        first == other
        or (len(first) == 1 and other.startswith(first))
        or (len(other) == 1 and first.startswith(other))
    ):
        if _same_words(printed[1:], recorded[1:]):
            return True
    if len(first) == 1 and _same_words(printed[1:], recorded):
        return True
    return len(other) == 1 and _same_words(printed, recorded[1:])


def same_person(printed: str, name: str) -> bool:
    """Whether a printed name is the name on record, read as a person would: case, accents,
    letters typed without their marks (ł, ø, đ, æ as l, o, d, ae), punctuation, a title before
    the name, Jr./Sr./III aside; an initial matches the name it begins or may be left out
    ("jose nunez" is José Núñez, "Jane Smith" is Jane Q. Smith, "J. Q. Smith" is Jane Q. Smith,
    "Lukasz Wrobel" is Łukasz Wróbel); any other word differing is another name."""
    printed_words, recorded_words = _name_words(printed), _name_words(name)
    if not any(len(word) > 1 for word in printed_words):
        return False  # initials alone are no printed name
    return _same_words(printed_words, recorded_words)


_PERCENT = re.compile(r"^([0-9]+(?:\.[0-9]+)?|\.[0-9]+)\s*%?$")


def parse_percent(text: str) -> Decimal:
    """A percentage written on a form: "10", "10%", "7.5". Raises ValueError for anything else
    (a word, a negative number, two numbers): the checker judges the value, not this."""
    match = _PERCENT.match(text.strip())
    if match is None:
        raise ValueError(f"{text!r} is not a percentage: write a number such as 10")
    return Decimal(match.group(1))


def written_date(text: str, field: str, problems: list[str]) -> date | None:
    """A date from a form field (ISO or "July 1, 2030"), or None with the problem noted."""
    try:
        return parse_written_date(text)
    except NotADate as error:
        problems.append(f"{field}: {error}")
        return None


def signed_and_received(
    answers: Mapping[str, Any], received_on: date, source: str, problems: list[str]
) -> None:
    """The signature block's dates: a filled PDF must give the date signed, which cannot be
    later than the day the Company received the form; a received date written in the form's
    company-use field must be the one given on the command line."""
    signed_text = answers.get("date_signed")
    if signed_text is None and source == "form":
        problems.append("date_signed: the signature block is not completed (no date signed)")
    elif signed_text is not None:
        field = "date_signed" if source == "form" else "--signed-on"
        signed = written_date(signed_text, field, problems)
        if signed is not None and signed > received_on:
            problems.append(
                f"{field}: {long_date(signed)} is after the day the Company received the form "
                f"({long_date(received_on)})"
            )
    written = answers.get("received_on")
    if written is not None:
        received = written_date(written, "received_on", problems)
        if received is not None and received != received_on:
            problems.append(
                f"received_on: the form says it was received {long_date(received)}, "
                f"not {long_date(received_on)} (--received-on)"
            )


def how_received(answers: Mapping[str, Any], source: str, problems: list[str]) -> dict[str, Any]:
    """What a filing records of its form (issue 44: nothing given is dropped): how it arrived,
    the date signed as written and, for a paper form, who recorded it and when. ``source`` is
    "form" for a returned PDF, anything else for a paper form recorded with `docgen elect`."""
    how: dict[str, Any] = {"received_as": "pdf" if source == "form" else "paper"}
    if answers.get("date_signed"):
        field = "date_signed" if source == "form" else "--signed-on"
        signed = written_date(answers["date_signed"], field, problems)
        if signed is not None:
            how["signed_on"] = signed
    if source != "form":
        if answers.get("recorded_by"):
            how["recorded_by"] = answers["recorded_by"]
        if answers.get("recorded_on") is not None:
            how["recorded_on"] = answers["recorded_on"]
    return how
