"""The registry of plan kinds: everything the engine needs to know about one kind of facts file.

A kind is one package under docgen/kinds/ (or anywhere: a test registers a toy kind of its own).
It subclasses :class:`Kind` with its facts model (``Kind[TheirFacts]``): its fields name that
model, its stages, its subjects, its documents and the modules that register its rules; its
methods say what only it knows (its cycle's name, its election windows, which documents a stage
issues to whom), each with a documented default, and what only some kinds can do (the Plan's
arithmetic, a payroll feed, the proxy's awards, an OCF export, drafts of filings) is a protocol
it also subclasses. The engine (load, check, render, issue, the command line) asks the registry
and never names a kind.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol, TypeVar, runtime_checkable

from docgen.core.citations import Authority, register_authorities, unregister_authorities
from docgen.core.clauses import Clause
from docgen.core.documents import DocumentSpec
from docgen.core.drafts import Drafts, Earlier, MissingFact
from docgen.core.errors import DocgenError, Problem
from docgen.core.filings import Edit, FormIntake
from docgen.core.kind_facts import FactsT, KindFacts
from docgen.core.record_rows import RecordRows
from docgen.core.roster import Column
from docgen.core.rules import claim_rule_modules, release_rule_modules
from docgen.core.sending import LETTER_PREFIX, NOT_IN_ANY_SLICE, PERSON_NOT_IN_SLICE
from docgen.core.windows import ElectionWindow, FilingDue

if TYPE_CHECKING:
    from rich.console import RenderableType

    from docgen.core.awards import FiscalYear, ProxyAward
    from docgen.core.model import PathKey
    from docgen.core.ocf import IssuedDocument, OCFCycle

# What `docgen compute` and `docgen payroll` print as (ComputesPlan, RunsPayroll).
ComputeFormat = Literal["json", "text", "csv"]

# A kind's facts model as a capability's methods take it (contravariant, as a protocol's
# arguments are: a kind that takes any facts would do for one that takes its own)
FactsC = TypeVar("FactsC", bound="KindFacts[Any]", contravariant=True)


class Locates(Protocol):
    """Where the facts came from (docgen.load's SourceMap), as Kind.load_problems is given it."""

    def locate(self, path: PathKey | str) -> tuple[str, int | None]:
        """The file and line of a fact path, or of its nearest ancestor that has one."""
        ...


@dataclass(frozen=True)
class Roster:
    """A CSV file of subjects named by a facts field (``directors_csv``), merged into a list."""

    field: str  # the facts field naming the file, relative to the facts file
    into: str  # the list of subjects the rows extend
    columns: tuple[str, ...]
    # (text, shown, first index, place, the facts data) -> (subjects as data, problems in rows);
    # ``place`` takes a filler that writes the rows' facts' places (SourceMap.defer);
    # a file that cannot be read as a roster at all (its header) raises LoadError
    read: Callable[..., tuple[list[dict[str, Any]], list[Problem]]]
    # (a row's cells, an edit of its subject) -> (the cells to set, the edit's value as the row
    # holds it); raises FormRefused when a row cannot hold the edit (`docgen intake`)
    record: Callable[[dict[str, str], Edit], tuple[dict[str, str], Any]] | None = None
    # facts fields a row's items take their value from (the RRP's plan_year, for the election in
    # a row's columns): when the file's field is refused, the rows' lack of it is not said again
    inherits: tuple[str, ...] = ()
    # each column with its kind of cell (docgen.core.roster.Column), as a columns: mapping and
    # `docgen columns` read them (A24)
    cells: tuple[Column, ...] = ()


@dataclass(frozen=True)
class Kind(Generic[FactsT]):
    """One kind of facts file: its data as fields, its behaviour as methods, each method typed by
    the kind's facts model (``class DirectorRSU(Kind[DirectorGrantFacts])``).

    A kind is a subclass that sets the fields when it is made and overrides :meth:`head` and
    :meth:`cycle_name` (every kind has them) and any other method whose default does not fit:
    each documents what it does when a kind leaves it alone, so the engine calls every method
    unconditionally. What the engine cannot default (the Plan's arithmetic, the proxy's awards,
    the drafts of filings) a kind has by also subclassing the capability's protocol
    (:class:`ComputesPlan`, :class:`RunsPayroll`, :class:`GrantsStockAwards`,
    :class:`ExportsOCF`, :class:`DraftsFilings`), which the engine asks about with
    ``isinstance``. A kind whose forms come back has an :attr:`intake`.
    """

    name: str  # the facts file's ``kind:``
    model: type[FactsT]
    title: str  # in words, for reports
    stages: tuple[str, ...]  # the default stage first
    subjects_field: str  # the list of people in the facts: directors, participants
    subject_noun: str  # director, participant
    rule_modules: tuple[str, ...]  # the modules whose rules are this kind's (core.rules)
    documents: tuple[DocumentSpec[FactsT], ...] = ()
    roster: Roster | None = None
    # CSVs of filings as rows (A20: elections_csv, beneficiaries_csv, allocations_csv), each
    # optional, named by a facts field and merged into the subjects by their id
    records: tuple[RecordRows, ...] = ()
    # Reading returned forms into the facts (`docgen intake`, `elect`, `status`); None: the kind
    # sends no forms to return. (A value, not a protocol: the engine asks ``intake is None``.)
    intake: FormIntake | None = None
    case_base: str = ""  # the base facts of its rule cases (tests/cases/_bases.yaml)
    template_dirs: tuple[Path, ...] = ()  # extra template folders (the built-ins come first)
    # what docgen drafted into its documents (DESIGN.md, "Drafted clauses and counsel's approval")
    clauses: tuple[Clause, ...] = ()
    # Terms a facts file may leave out, as (fact path, where the default comes from); the
    # report names each one left out, so a default is never taken silently.
    default_terms: tuple[tuple[tuple[str, ...], str], ...] = ()
    # The documents its rules and clauses cite besides the shared ones (core.citations.SHARED)
    authorities: tuple[Authority, ...] = ()
    # The stage whose issued documents an OCF bundle lists (`docgen export-ocf --issued`)
    ocf_stage: str = ""

    # ------------------------------------------------------------------ what every kind says

    def head(self, facts: FactsT) -> tuple[str, str]:
        """The (id, words) of the cycle-level subject: ``("2026-annual", "the grant")``."""
        raise NotImplementedError(f"kind {self.name} does not say what its head subject is")

    def cycle_name(self, facts: FactsT) -> str:
        """The issued folder's name for this cycle of documents."""
        raise NotImplementedError(f"kind {self.name} does not name its cycle")

    # ------------------------------------------------------------------ hooks with a default

    def windows(self, facts: FactsT) -> list[ElectionWindow]:
        """Every election window, person by person in file order. Default: none."""
        return []

    def filings_due(self, facts: FactsT) -> list[FilingDue]:
        """Filings each person owes after the cycle (`docgen status`). Default: none."""
        return []

    def calendar_name(self, facts: FactsT) -> str:
        """The calendar's name (`docgen calendar`). Default: the cycle's name."""
        return self.cycle_name(facts)

    def calendar_uid(self, facts: FactsT) -> str:
        """The prefix of each calendar event's UID. Default: the cycle's name."""
        return self.cycle_name(facts)

    def stamp_date(self, facts: FactsT) -> date:
        """The calendar's DTSTAMP, taken from the facts (never the clock), so the same facts give
        the same bytes. A kind with election windows must say which date it is."""
        raise NotImplementedError(f"kind {self.name} does not date its calendar")

    def load_problems(self, facts: FactsT, source: Locates) -> list[Problem]:
        """Problems only this kind can see once its model has loaded ``facts`` (``source``
        locates a fact path). Default: none."""
        return []

    def default_stage(self, facts: FactsT, as_of: date) -> str:
        """The stage `docgen check` takes when none is asked for. Default: the first stage,
        whatever the date; a kind that chooses by date overrides this
        (:attr:`chooses_stage_by_date` then says so)."""
        return self.stages[0]

    def not_in_effect(self, facts: FactsT) -> dict[str, str]:
        """{fact path of a form on record as not in effect: the decision in words}. Default:
        none (a kind whose forms cannot be recorded as not in effect)."""
        return {}

    def view(self, facts: FactsT) -> Any:
        """What the kind's rules ask of each subject, worked out once when a check starts and
        handed to them frozen (``CheckContext.view``). Default: None (the rules read the facts)."""
        return None

    @property
    def chooses_stage_by_date(self) -> bool:
        """Whether `docgen check` chooses this kind's stage by ``--as-of``."""
        return type(self).default_stage is not Kind.default_stage

    # ------------------------------------------------------------------ what it may also do
    # The flags docgen.load.offering and the proxy table name a command's capability by.

    @property
    def has_compute(self) -> bool:
        """Whether this kind has arithmetic for `docgen compute`."""
        return isinstance(self, ComputesPlan)

    @property
    def has_payroll(self) -> bool:
        """Whether this kind has a feed for `docgen payroll`."""
        return isinstance(self, RunsPayroll)

    @property
    def has_proxy(self) -> bool:
        """Whether this kind's cycles grant stock awards (`docgen proxy`)."""
        return isinstance(self, GrantsStockAwards)

    @property
    def has_ocf(self) -> bool:
        """Whether this kind exports its cycles as OCF (`docgen export-ocf`)."""
        return isinstance(self, ExportsOCF)

    # ------------------------------------------------------------------ from the fields

    @property
    def retired_fields(self) -> Mapping[str, str]:
        """Fields of an earlier release, now refused: top-level name -> how to move on. Its
        facts model says which (``KindFacts.retired_fields``)."""
        return self.model.retired_fields

    def subjects(self, facts: FactsT) -> list[Any]:
        """The people in file order (each has ``.id`` and ``.name``)."""
        return list(getattr(facts, self.subjects_field))

    def subject(self, facts: FactsT, subject_id: str) -> Any | None:
        return next((s for s in self.subjects(facts) if s.id == subject_id), None)

    def document(self, name: str) -> DocumentSpec[FactsT] | None:
        return next((d for d in self.documents if d.name == name), None)

    def slice(self, facts: FactsT, subject_id: str) -> dict[str, Any]:
        """One subject's share of the facts, as a facts file of this kind: every cycle-level fact,
        and that subject alone in the list of people (no other person's data), with any roster file
        already merged in. A document issued to the subject carries it (``docgen-record.json``,
        DESIGN.md, "Trusted documents"), and it loads like any facts file, so the document can be
        made again from it."""
        return self.slices(facts, [subject_id])[subject_id]

    def slices(self, facts: FactsT, subject_ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        """The slices of these subjects, the facts serialized once for all of them (a slice each
        would serialize a 10,000-participant Plan Year 10,000 times). KeyError names a subject
        the facts do not have."""
        data = facts.model_dump(mode="json")
        for name in (*self.model.not_in_slice, *NOT_IN_ANY_SLICE):
            data.pop(name, None)
        # The cover letters' approvals are `docgen send`'s, no document's (docgen.send.letters).
        data["clause_approvals"] = [
            approval
            for approval in data.get("clause_approvals") or []
            if not str(approval.get("clause", "")).startswith(LETTER_PREFIX)
        ]
        for path in self.model.not_printed:
            _drop(data, path)
        if self.roster is not None:
            data[self.roster.field] = None  # its rows are in the list already
        for rows in self.records:
            data[rows.field] = None  # likewise
        data.pop("columns", None)  # how the files were read: their rows are in the list
        people = {
            person["id"]: {k: v for k, v in person.items() if k not in PERSON_NOT_IN_SLICE}
            for person in data[self.subjects_field]
        }
        slices = {}
        for subject_id in subject_ids:
            if subject_id not in people:
                raise KeyError(subject_id)
            slices[subject_id] = {**data, self.subjects_field: [people[subject_id]]}
        return slices

    def issued(self, facts: FactsT, stage: str) -> list[tuple[Any, DocumentSpec[FactsT]]]:
        """Every (subject, document) the stage issues, subject by subject in file order."""
        return list(self.each_issued(facts, stage))

    def each_issued(self, facts: FactsT, stage: str) -> Iterator[tuple[Any, DocumentSpec[FactsT]]]:
        """:meth:`issued`, one at a time: for a caller that wants the first that serves (the
        review's copy of a clause) without judging all 10,000 participants' documents."""
        for subject in self.subjects(facts):
            for spec in self.documents:
                if stage in spec.stages and spec.applies_to(facts, subject, stage):
                    yield subject, spec

    def packets(self, facts: FactsT, stage: str) -> list[tuple[str, list[str]]]:
        """Which documents the stage issues: each subject who gets any, in file order, with the
        names of their documents in the kind's order (a batch issues one packet each)."""
        packets: dict[str, list[str]] = {}
        for subject, spec in self.issued(facts, stage):
            packets.setdefault(subject.id, []).append(spec.name)
        return list(packets.items())

    def clause(self, clause_id: str) -> Clause | None:
        return next((c for c in self.clauses if c.id == clause_id), None)


# ---------------------------------------------------------------------- what a kind may also do
# Each capability is a protocol a kind subclasses beside Kind, with its facts model
# (``class DirectorRSU(Kind[DirectorGrantFacts], ComputesPlan[DirectorGrantFacts])``): mypy
# checks the methods against it, and the command that needs it asks ``isinstance(kind, ...)``
# and refuses a kind without it (docgen.load.offering names the kinds that have it).


@runtime_checkable
class ComputesPlan(Protocol[FactsC]):
    """A kind with arithmetic to show (`docgen compute`)."""

    def compute(self, facts: FactsC, output_format: ComputeFormat) -> RenderableType:
        """The Plan's arithmetic as ``json`` or ``csv`` text, or ``text`` as a rich table."""
        ...


@dataclass(frozen=True)
class PayDateTotals:
    """Every participant's deferral and match added up per pay date, as `docgen payroll`'s rows
    give them (``None``: a participant's Plan Year as one line, without pay dates), and the notes
    every participant's figures carry alike (none when fewer than two participants)."""

    by_pay_date: tuple[tuple[date | None, Decimal, Decimal], ...]
    shared_notes: tuple[str, ...]


@runtime_checkable
class RunsPayroll(Protocol[FactsC]):
    """A kind with a payroll feed (`docgen payroll`), and its figures for some participants
    alone (the workspace's page of them), which are the whole year's for them."""

    def figures_of(self, facts: FactsC, ids: Collection[str]) -> dict[str, Any]:
        """`docgen compute --format json`'s document with the participants of ``ids`` alone."""
        ...

    def paychecks_of(self, facts: FactsC, ids: Collection[str]) -> dict[str, Any]:
        """`docgen payroll --format json`'s document with the participants of ``ids`` alone."""
        ...

    def totals_by_pay_date(self, facts: FactsC) -> PayDateTotals:
        """Every participant's deferral and match per pay date, worked without the rows' words."""
        ...

    def payroll(
        self, facts: FactsC, output_format: ComputeFormat, pay_date: date | None = None
    ) -> RenderableType:
        """The payroll feed, per participant per paycheck, as ``csv`` or ``json`` text or
        ``text`` as a rich table; with ``pay_date``, that pay date's paychecks alone (``csv`` in
        the facts' payroll layout when they give one)."""
        ...


@runtime_checkable
class GrantsStockAwards(Protocol[FactsC]):
    """A kind whose cycles grant stock awards the proxy reports (`docgen proxy`)."""

    def proxy_awards(self, facts: FactsC, year: FiscalYear) -> list[ProxyAward]:
        """Each person's stock award of this cycle as the proxy's Director Compensation table
        reports it (docgen.core.awards)."""
        ...


@runtime_checkable
class ExportsOCF(Protocol[FactsC]):
    """A kind whose cycles export as Open Cap Format (`docgen export-ocf`; its documents listed
    are those of its :attr:`Kind.ocf_stage`)."""

    def ocf_cycle(
        self, facts: FactsC, as_of: date, documents: Sequence[IssuedDocument]
    ) -> OCFCycle:
        """The cycle as Open Cap Format objects as of ``as_of``, ``documents`` those issued
        (docgen.core.ocf)."""
        ...


@runtime_checkable
class DraftsFilings(Protocol[FactsC]):
    """A kind whose people file after the cycle, with drafts docgen makes (`docgen section16`:
    a director's Form 4)."""

    def filing_drafts(self, facts: FactsC, drafted_on: date, earlier: Earlier) -> Drafts:
        """The drafts, dated ``drafted_on``; ``earlier``: the drafts the folder held before, which
        an amendment is compared against."""
        ...

    def filing_draft_gaps(self, facts: FactsC) -> list[MissingFact]:
        """The facts :meth:`filing_drafts` needs that ``facts`` does not give."""
        ...

    # The rules whose error findings mean the filing system would reject a draft (EDGAR: a state
    # code or CIK it does not take): while one stands, `docgen section16` drafts nothing.
    filing_draft_rules: tuple[str, ...]


class UnknownKind(DocgenError, KeyError):
    """A kind no package registered. Exit code 2."""


_KINDS: dict[str, Kind[Any]] = {}
KindT = TypeVar("KindT", bound="Kind[Any]")

# The built-in kinds, by name, in catalogue order, and the package that registers each: a kind is
# imported when it is first asked for, so `docgen check` of a Plan Year never imports the RSU
# kind's models and rules (nor the RSU check the Plan Year's).
BUILT_IN: dict[str, str] = {
    "director-rsu-grant": "docgen.kinds.director_rsu.kind",
    "rrp-plan-year": "docgen.kinds.rrp.kind",
}


def _import_built_in(*names: str) -> None:
    """Import the built-in kinds named (every one when none is), each registering itself."""
    for name in names or tuple(BUILT_IN):
        if name not in _KINDS and name in BUILT_IN:
            importlib.import_module(BUILT_IN[name])


def register_kind(kind: KindT) -> KindT:
    if kind.name in _KINDS and _KINDS[kind.name] is not kind:
        raise ValueError(f"kind {kind.name} is registered twice")
    _KINDS[kind.name] = kind
    register_authorities(*kind.authorities)
    claim_rule_modules(kind.name, kind.rule_modules)
    return kind


def unregister_kind(name: str) -> None:
    """Forget a kind (a test's toy kind, once the test is done)."""
    kind = _KINDS.pop(name, None)
    release_rule_modules(name)
    if kind is not None:
        still_cited = {a for other in _KINDS.values() for a in other.authorities}
        unregister_authorities(a for a in kind.authorities if a not in still_cited)


def all_kinds() -> Sequence[Kind[Any]]:
    """Every kind: the built-in ones in catalogue order, then any other in registration order."""
    _import_built_in()
    order = list(BUILT_IN)
    return tuple(
        sorted(
            _KINDS.values(),
            key=lambda kind: order.index(kind.name) if kind.name in BUILT_IN else len(order),
        )
    )


def registered_kinds() -> Sequence[Kind[Any]]:
    """The kinds registered so far, without importing a built-in one not yet asked for (what a
    kind brings that no built-in does: a toy kind's template folders)."""
    return tuple(_KINDS.values())


def get_kind(name: str) -> Kind[Any]:
    _import_built_in(name)
    try:
        return _KINDS[name]
    except KeyError:
        names = ", ".join(kind.name for kind in all_kinds())
        raise UnknownKind(f"no kind {name!r}: expected one of {names}") from None


def kind_of(facts: KindFacts[Any]) -> Kind[Any]:
    return get_kind(facts.kind)


def document_names() -> list[str]:
    """Every document any kind issues."""
    return sorted({doc.name for kind in all_kinds() for doc in kind.documents})


def _drop(data: dict[str, Any], path: str) -> None:
    """Leave the fact at ``path`` ("company.cik", "directors[].cik") out of dumped facts."""
    head, _, name = path.partition(".")
    if head.endswith("[]"):
        for item in data.get(head[:-2]) or []:
            if isinstance(item, dict):
                item.pop(name, None)
        return
    part = data.get(head)
    if isinstance(part, dict):
        part.pop(name, None)
