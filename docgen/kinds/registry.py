"""The registry of plan kinds: everything the engine needs to know about one kind of facts file.

A kind is one package under docgen/kinds/ (or anywhere: a test registers a toy kind of its own).
It names its fact model, its stages, its subjects, its documents, the modules that register its
rules, and optional hooks (a roster file, election windows, the Plan's arithmetic). The engine
(load, check, render, issue, the command line) asks the registry and never names a kind.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from docgen.core.clauses import Clause
from docgen.core.documents import DocumentSpec
from docgen.core.errors import DocgenError, Problem
from docgen.core.filings import Edit, FormIntake
from docgen.core.model import Fact
from docgen.core.windows import ElectionWindow


@dataclass(frozen=True)
class Roster:
    """A CSV file of subjects named by a facts field (``directors_csv``), merged into a list."""

    field: str  # the facts field naming the file, relative to the facts file
    into: str  # the list of subjects the rows extend
    columns: tuple[str, ...]
    # (text, shown, first index, lines, the facts data) -> (subjects as data, problems in rows);
    # a file that cannot be read as a roster at all (its header) raises LoadError
    read: Callable[..., tuple[list[dict[str, Any]], list[Problem]]]
    # (a row's cells, an edit of its subject) -> (the cells to set, the edit's value as the row
    # holds it); raises FormRefused when a row cannot hold the edit (`docgen intake`)
    record: Callable[[dict[str, str], Edit], tuple[dict[str, str], Any]] | None = None


@dataclass(frozen=True)
class Kind:
    name: str  # the facts file's ``kind:``
    model: type[Fact]
    title: str  # in words, for reports
    stages: tuple[str, ...]  # the default stage first
    subjects_field: str  # the list of people in the facts: directors, participants
    subject_noun: str  # director, participant
    head: Callable[[Any], tuple[str, str]]  # facts -> (id, words) of the cycle-level subject
    cycle_name: Callable[[Any], str]  # facts -> the issued folder's name
    rule_modules: tuple[str, ...]
    documents: tuple[DocumentSpec, ...] = ()
    roster: Roster | None = None
    windows: Callable[[Any], list[ElectionWindow]] | None = None
    calendar_name: Callable[[Any], str] | None = None
    stamp_date: Callable[[Any], date] | None = None  # the calendar's DTSTAMP, from the facts
    load_problems: Callable[[Any, Any], list[Problem]] | None = None  # (facts, source) -> problems
    # (facts, json|text|csv) -> the Plan's arithmetic, as text or a table (`docgen compute`)
    compute: Callable[[Any, str], Any] | None = None
    default_stage: Callable[[Any, date], str] | None = None  # (facts, as_of) -> stage for `check`
    # facts -> {fact path of a form on record as not in effect: the decision in words}
    not_in_effect: Callable[[Any], dict[str, str]] | None = None
    intake: FormIntake | None = None  # reading returned forms into the facts (`docgen intake`)
    case_base: str = ""  # the base facts of its rule cases (tests/cases/_bases.yaml)
    template_dirs: tuple[Path, ...] = ()  # extra template folders (the built-ins come first)
    calendar_uid: Callable[[Any], str] | None = None  # the calendar's UID prefix (default: cycle)
    clauses: tuple[Clause, ...] = ()  # what docgen drafted into its documents (DESIGN A9)
    # Terms a facts file may leave out, as (fact path, where the default comes from); the
    # report names each one left out, so a default is never taken silently.
    default_terms: tuple[tuple[tuple[str, ...], str], ...] = ()
    # Fields of an earlier release, now refused: top-level name -> how to move on.
    retired_fields: dict[str, str] = field(default_factory=dict)

    def subjects(self, facts: Any) -> list[Any]:
        """The people in file order (each has ``.id`` and ``.name``)."""
        return list(getattr(facts, self.subjects_field))

    def subject(self, facts: Any, subject_id: str) -> Any | None:
        return next((s for s in self.subjects(facts) if s.id == subject_id), None)

    def document(self, name: str) -> DocumentSpec | None:
        return next((d for d in self.documents if d.name == name), None)

    def slice(self, facts: Any, subject_id: str) -> dict[str, Any]:
        """One subject's share of the facts, as a facts file of this kind: every cycle-level
        fact, and that subject alone in the list of people (no other person's data), with any
        roster file already merged in. A document issued to the subject carries it
        (``docgen-record.json``, DESIGN.md A12), and it loads like any facts file, so the
        document can be made again from it."""
        return self.slices(facts, [subject_id])[subject_id]

    def slices(self, facts: Any, subject_ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        """The slices of these subjects, the facts serialized once for all of them (a slice each
        would serialize a 10,000-participant Plan Year 10,000 times). KeyError names a subject
        the facts do not have."""
        data = facts.model_dump(mode="json")
        if self.roster is not None:
            data[self.roster.field] = None  # its rows are in the list already
        people = {person["id"]: person for person in data[self.subjects_field]}
        slices = {}
        for subject_id in subject_ids:
            if subject_id not in people:
                raise KeyError(subject_id)
            slices[subject_id] = {**data, self.subjects_field: [people[subject_id]]}
        return slices

    def issued(self, facts: Any, stage: str) -> list[tuple[Any, DocumentSpec]]:
        """Every (subject, document) the stage issues, subject by subject in file order."""
        return [
            (subject, spec)
            for subject in self.subjects(facts)
            for spec in self.documents
            if stage in spec.stages and spec.applies_to(facts, subject, stage)
        ]

    def clause(self, clause_id: str) -> Clause | None:
        return next((c for c in self.clauses if c.id == clause_id), None)


# The first release's one approval for every drafted clause (bound to no wording), now refused.
RETIRED_APPROVAL = (
    "one approval for every drafted clause, bound to no wording, no longer counts: counsel "
    "approves each clause's exact wording in clause_approvals. Run `docgen clauses` on this file: "
    "it lists each drafted clause with its text and SHA-256 and prints a clause_approvals block; "
    "once counsel has approved each clause, replace this line with that block"
)


class UnknownKind(DocgenError, KeyError):
    """A kind no package registered. Exit code 2."""


_KINDS: dict[str, Kind] = {}


def register_kind(kind: Kind) -> Kind:
    if kind.name in _KINDS and _KINDS[kind.name] is not kind:
        raise ValueError(f"kind {kind.name} is registered twice")
    _KINDS[kind.name] = kind
    return kind


def unregister_kind(name: str) -> None:
    """Forget a kind (a test's toy kind, once the test is done)."""
    _KINDS.pop(name, None)


def all_kinds() -> Sequence[Kind]:
    return tuple(_KINDS.values())


def get_kind(name: str) -> Kind:
    try:
        return _KINDS[name]
    except KeyError:
        raise UnknownKind(f"no kind {name!r}: expected one of {', '.join(_KINDS)}") from None


def kind_of(facts: Any) -> Kind:
    return get_kind(facts.kind)
