"""Two people whose names read the same (RSU-NAME-LOOKALIKE, RRP-NAME-LOOKALIKE): docgen's own
intake-safety rule, not the law's (issue 44). The key names are compared by is
docgen.core.lookalikes.name_key; each kind registers the rule over its own people."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from docgen.core.lookalikes import lookalike_letters, name_key
from docgen.core.model import fact_path
from docgen.core.rules import Hit
from docgen.core.safe_text import describe

TITLE = "Two people whose names read the same"
EXPLANATION = (
    "docgen's own intake-safety rule, not the Plan's or the Code's. A returned form is matched "
    "to its person by the name printed on it, and a reader tells people apart by their names. "
    "Two names that are equal once compared as UTS #39 compares look-alikes (NFKC, invisible "
    "format characters removed, each Cyrillic or Greek look-alike letter read as the Latin one "
    "it imitates) print the same: one of them may be a copy with a planted look-alike."
)
REMEDY = (
    "Confirm they are two people. If they are, spell each name in its own letters as the person "
    "writes it (a Latin name in Latin letters); if not, remove the duplicate."
)


def lookalike_hits(people: Iterable[Any], field: str) -> Iterator[Hit]:
    """A warning on each person whose name reads the same as an earlier person's."""
    seen: dict[str, tuple[str, str]] = {}
    for index, person in enumerate(people):
        key = name_key(person.name)
        if key in seen and seen[key][1] != person.name:
            other_id, other_name = seen[key]
            odd = lookalike_letters(person.name) or lookalike_letters(other_name)
            which = person.name if lookalike_letters(person.name) else other_name
            letters = ", ".join(f"{describe(char)} at character {at}" for at, char in odd[:3])
            yield Hit(
                person.id,
                fact_path(field, index, "name"),
                f"the name {person.name!r} reads the same as {other_id}'s {other_name!r}: "
                f"{which!r} holds {letters}.",
            )
        seen.setdefault(key, (person.id, person.name))
