"""The facts narrowed to some of their subjects, for the rules run after a recording: every
cycle-level fact as it is, and in the list of subjects only the subjects named, in file order.

A rule that reads each subject on its own (every rule not declared ``across_subjects``:
docgen.core.rules) finds over the narrowed facts exactly what it finds about those subjects over
the whole facts, and about the cycle what it finds over the whole facts; its paths are in the
narrowed list's numbering, which :meth:`Part.path` turns back into the file's
(``participants[0]`` -> ``participants[4182]``). tests/test_rules_part.py proves both, rule by
rule, on every rule's cases and on a generated roster.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Part:
    """The narrowed facts, and where each of their subjects is in the whole list."""

    facts: Any
    field: str
    places: tuple[int, ...]  # narrowed index -> index in the whole list
    ids: tuple[str, ...]  # the subjects kept, in file order

    def path(self, path: str) -> str:
        """A fact path of the narrowed facts as the whole facts' path."""
        head = self.field + "["
        if not path.startswith(head):
            return path
        close = path.find("]", len(head))
        number = path[len(head) : close]
        if close < 0 or not number.isdigit():
            return path
        return f"{head}{self.places[int(number)]}{path[close:]}"


def part_of(facts: Any, kind: Any, subjects: Collection[str]) -> Part:
    """The facts with only ``subjects`` (ids) in the kind's list of subjects."""
    field = kind.subjects_field
    wanted = set(subjects)
    places: list[int] = []
    kept: list[Any] = []
    for index, subject in enumerate(kind.subjects(facts)):
        if subject.id in wanted:
            places.append(index)
            kept.append(subject)
    # model_copy: the subjects and every other fact stay the objects they were, validated once.
    narrowed = facts.model_copy(update={field: kept})
    return Part(narrowed, field, tuple(places), tuple(subject.id for subject in kept))
