"""`docgen intake` and `docgen elect`: returned forms (filled PDFs, or a paper form's content on
the command line) recorded in the facts file as filings on the day received, then checked.

A filled PDF is read back (docgen.render.form_reader) and matched to its subject by the identity
it carries: its document, its cycle and its subject must be this facts file's. The SHA-256 of the
facts it was issued from is provenance only: forms come back over days, each intake changes the
facts, and a form issued from an earlier version of the same cycle's facts is read the same way.

Refused with nothing written (exit 2): a file that is not a form (a scan: record it with
`docgen elect`), a form of another cycle or for someone not in the facts, a form already
recorded, a form whose fields are blank, unclear or contradict each other, two forms for one
person in one call (their order would decide which governs). Of several forms, every valid one
is recorded and each refused one reported with its reason (exit 2).
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from docgen.checker.runner import run_checks
from docgen.core.errors import Problem, clipped, unknown_id_hint
from docgen.core.filings import Filing, FormIntake, FormRefused
from docgen.core.findings import Report
from docgen.core.output import recording_lock
from docgen.core.safe_open import NotARegularFile, TooLarge, read_regular
from docgen.intake.certified import CompanyCa, certified_return, same_form
from docgen.intake.form_content import active_content, printed_problems, unknown_fields
from docgen.intake.record import FormsRefused, prepare, problems_of, write
from docgen.kinds import kind_of
from docgen.load import LoadedFacts, load_facts
from docgen.load.text import display
from docgen.render.form_reader import NotAForm, read_form
from docgen.render.readback import pdf_pages

MAX_FORM_BYTES = 20 * 1024 * 1024


@dataclass(frozen=True)
class Recorded:
    """What `docgen intake` or `docgen elect` recorded, and the checks over the new facts."""

    facts: Path
    filings: list[tuple[str, Filing]]  # (where it came from, what was recorded)
    written: list[Path]
    report: Report
    certified: tuple[str, ...] = ()  # a returned form's certification, found holding
    refused: tuple[Problem, ...] = ()  # the forms of a multi-form intake not recorded, and why
    refused_forms: tuple[str, ...] = ()  # those forms, as given
    # the company's own exports the facts read (A24): read, never written
    never_written: tuple[Path, ...] = ()


def intake(
    facts_path: str | Path,
    forms: list[str | Path],
    *,
    received_on: date,
    as_of: date,
    accept_name: str | None = None,
    company: CompanyCa | None = None,
) -> Recorded:
    """Read each returned form, validate it, record every valid one in the facts file, then
    check; the forms refused are in ``Recorded.refused`` (none recorded: FormsRefused).
    ``accept_name``: the reason a printed name that does not read as the name on record is
    accepted (recorded beside the filing); ``company``: the company's CA a certified form's
    certificate must chain to (docgen.intake.certified)."""
    with recording_lock(Path(facts_path)):  # before any file is read (docgen.core.output)
        return _intake(
            facts_path,
            forms,
            received_on=received_on,
            as_of=as_of,
            accept_name=accept_name,
            company=company,
        )


def elect(
    facts_path: str | Path,
    subject_id: str,
    options: Mapping[str, Any],
    *,
    received_on: date,
    as_of: date,
) -> Recorded:
    """Record a paper form's content given as options, with intake's validation, then check
    (``accept-name`` among them: the reason a printed name is accepted)."""
    with recording_lock(Path(facts_path)):  # before any file is read (docgen.core.output)
        return _elect(facts_path, subject_id, options, received_on=received_on, as_of=as_of)


def _intake(
    facts_path: str | Path,
    forms: list[str | Path],
    *,
    received_on: date,
    as_of: date,
    accept_name: str | None,
    company: CompanyCa | None = None,
) -> Recorded:
    loaded = load_facts(facts_path)
    hooks = _hooks(loaded)
    _name_to_accept(hooks, accept_name, "docgen intake")
    problems: list[Problem] = []
    filings: list[tuple[str, Filing]] = []
    certified: list[str] = []
    for form in forms:
        shown = display(Path(form))
        try:
            filing = _read_one(
                loaded, hooks, Path(form), shown, received_on, certified, accept_name, company
            )
            filings.append((shown, filing))
        except FormsRefused as refused:
            problems.extend(refused.problems)
    twice, dropped = _one_form_each(filings)
    problems.extend(twice)
    filings = [(origin, filing) for origin, filing in filings if origin not in dropped]
    # Every valid form is recorded, the others refused each with its reason (exit 2): a form
    # the facts cannot hold is found when the filings are prepared, and the rest prepared again.
    while filings:
        try:
            recorded = _record(loaded, hooks, filings, as_of)
        except FormsRefused as refused:
            left = [(o, f) for o, f in filings if o not in refused.origins]
            if not refused.origins or len(left) == len(filings):
                raise FormsRefused(problems + refused.problems) from None
            problems.extend(refused.problems)
            filings = left
            continue
        taken = {origin for origin, _ in filings}
        return dataclasses.replace(
            recorded,
            certified=tuple(certified),
            refused=tuple(_sorted(problems)),
            refused_forms=tuple(
                shown for shown in (display(Path(form)) for form in forms) if shown not in taken
            ),
        )
    raise FormsRefused(problems)


def read_returned(facts_path: str | Path, form: str | Path, *, received_on: date) -> Filing:
    """What `docgen intake` would record from one returned form, read and validated exactly as
    intake reads it, with nothing written (the workspace shows it before its Record button);
    a form intake would refuse raises the same FormsRefused."""
    loaded = load_facts(facts_path)
    hooks = _hooks(loaded)
    return _read_one(loaded, hooks, Path(form), display(Path(form)), received_on)


def _sorted(problems: list[Problem]) -> list[Problem]:
    return sorted(problems, key=lambda p: (p.file, p.line or 0, p.path, p.what))


def _name_to_accept(hooks: FormIntake, accept_name: str | None, origin: str) -> None:
    """--accept-name is for a form with a printed name (Exhibit I's Section IV), and says why."""
    if accept_name is None:
        return
    if "printed-name" not in hooks.options:
        raise FormsRefused(
            [
                Problem(
                    origin,
                    None,
                    "--accept-name",
                    f"the {hooks.document} form has no printed name to accept",
                    fix="Leave --accept-name out.",
                )
            ]
        )
    if not accept_name.strip():
        raise FormsRefused(
            [
                Problem(
                    origin,
                    None,
                    "--accept-name",
                    "gives no reason",
                    fix='Say why the name is accepted: --accept-name "maiden name on the form".',
                )
            ]
        )


def read_paper(
    loaded: LoadedFacts,
    subject_id: str,
    options: Mapping[str, Any],
    *,
    received_on: date,
    as_of: date,
) -> Filing:
    """What `docgen elect` would record from a paper form's fields, validated exactly as elect
    validates them, with nothing written (the workspace shows it before its Record button, from
    the facts it has loaded: a 10,000-person roster is not read again for it); a form elect
    would refuse raises the same FormsRefused."""
    return _paper(loaded, _hooks(loaded), subject_id, options, received_on, as_of)[1]


def _elect(
    facts_path: str | Path,
    subject_id: str,
    options: Mapping[str, Any],
    *,
    received_on: date,
    as_of: date,
) -> Recorded:
    loaded = load_facts(facts_path)
    hooks = _hooks(loaded)
    filing = _paper(loaded, hooks, subject_id, options, received_on, as_of)
    return _record(loaded, hooks, [filing], as_of)


def _paper(
    loaded: LoadedFacts,
    hooks: FormIntake,
    subject_id: str,
    options: Mapping[str, Any],
    received_on: date,
    as_of: date,
) -> tuple[str, Filing]:
    """A paper form's fields read and validated as (where it came from, its Filing)."""
    kind = kind_of(loaded.facts)
    origin = f"docgen elect --for {subject_id}"
    subject = kind.subject(loaded.facts, subject_id)
    if subject is None:
        ids = [s.id for s in kind.subjects(loaded.facts)]
        raise FormsRefused(
            [
                Problem(
                    origin,
                    None,
                    "--for",
                    f"no {kind.subject_noun} {subject_id} in {loaded.source.file}",
                    fix=unknown_id_hint(subject_id, ids),
                )
            ]
        )
    given = {name: value for name, value in options.items() if value not in (None, [], ())}
    # Who recorded the paper form, and when: on every kind's record, not a field of its form.
    recorded = {"recorded_by": given.pop("recorded-by", None), "recorded_on": as_of}
    accept_name = given.pop("accept-name", None)
    _name_to_accept(hooks, accept_name, origin)
    if accept_name is not None:
        recorded["accept_name"] = accept_name
    foreign = sorted(set(given) - set(hooks.options))
    if foreign:
        accepted = ", ".join(f"--{name}" for name in hooks.options)
        raise FormsRefused(
            [
                Problem(
                    origin,
                    None,
                    f"--{name}",
                    f"is not on the {hooks.document} form",
                    fix=f"Its options: {accepted}.",
                )
                for name in foreign
            ]
        )
    try:
        answers = {**hooks.answers_from_options(loaded.facts, subject, given), **recorded}
        filing = hooks.record(loaded.facts, subject, answers, received_on, None, "options")
    except FormRefused as refused:
        raise FormsRefused(problems_of(origin, refused)) from None
    return origin, filing


def _hooks(loaded: LoadedFacts) -> FormIntake:
    kind = kind_of(loaded.facts)
    if kind.intake is None:
        raise FormsRefused(
            [
                Problem(
                    loaded.source.file,
                    None,
                    "kind",
                    f"a file of kind {kind.name} has no forms to take in",
                )
            ]
        )
    return kind.intake


def _read_one(
    loaded: LoadedFacts,
    hooks: FormIntake,
    path: Path,
    shown: str,
    received_on: date,
    certified_notes: list[str] | None = None,
    accept_name: str | None = None,
    company: CompanyCa | None = None,
) -> Filing:
    kind = kind_of(loaded.facts)
    facts = loaded.facts

    def refuse(what: str, fix: str | None = None, field: str = "") -> FormsRefused:
        return FormsRefused([Problem(shown, None, field, what, fix=fix)])

    # Never opened unless a regular file, and never blocking on a FIFO swapped in meanwhile.
    try:
        data = read_regular(path, limit=MAX_FORM_BYTES)
    except FileNotFoundError:
        raise refuse("no such file", "Check the path of the returned form.") from None
    except NotARegularFile as error:
        if error.folder:
            raise refuse(
                "is a folder, not a returned form",
                f"Name the filled PDFs, e.g. docgen intake {loaded.source.file} {shown}/*.pdf.",
            ) from None
        raise refuse(
            "is not a regular file (a device, pipe or socket)", "Name the filled PDF."
        ) from None
    except TooLarge:
        raise refuse("is too large to be a returned form", "Name the filled PDF.") from None
    except OSError as error:
        raise refuse(
            f"cannot be read ({error.strerror})", "Check the path and its permissions."
        ) from None
    # A form the company certified: the certification must hold, and the identity is read from
    # the certified revision (docgen.intake.certified). None: an uncertified return, as ever.
    certified = certified_return(data, shown, company)
    try:
        contents = read_form(data, identity_from=certified.revision if certified else None)
    except NotAForm as error:
        raise refuse(
            f"not a form docgen can read back: {error}",
            f"If it is a scan, a fax or a printed copy, record what it says with `docgen elect "
            f"{loaded.source.file} --for ID ...` (see docgen elect --help).",
        ) from None
    if certified is not None:
        same_form(certified, data, shown)
        if certified_notes is not None:
            certified_notes.append(certified.note(shown))
    identity = contents.identity
    cycle = kind.cycle_name(facts)
    if identity["document"] != hooks.document:
        raise refuse(
            f"is a {identity['document']} form, not the {hooks.document} this file takes in",
            field="document",
        )
    if identity["cycle"] != cycle:
        raise refuse(
            f"belongs to the cycle {identity['cycle']}, not {cycle} ({loaded.source.file})",
            "Take it in with the facts file of its own cycle.",
            field="cycle",
        )
    subject = kind.subject(facts, identity["subject"])
    if subject is None:
        raise refuse(
            f"was issued to {identity['subject']}, who is not in {loaded.source.file}",
            f"Add {identity['subject']} to the facts, or take the form in with the file it was "
            "issued from.",
            field="subject",
        )
    carried = _carried(loaded, hooks, subject, data, contents.values)
    if carried:
        raise FormsRefused(
            [
                Problem(
                    shown,
                    None,
                    field,
                    what,
                    fix=f"Ask for the form docgen issued to {identity['subject']}, filled in and "
                    "saved as it is, or record what the paper says with `docgen elect`.",
                )
                for field, what in carried
            ]
        )
    if contents.problems:
        raise FormsRefused(
            [
                Problem(
                    shown,
                    None,
                    p.field,
                    p.message,
                    fix="Ask for the form to be filled "
                    "again, or record what it says with `docgen elect`.",
                )
                for p in contents.problems
            ]
        )
    if all(value is None for value in contents.values.values()):
        raise refuse(
            "the form is blank: no field is filled in",
            "Ask for the filled form, or record what the paper says with `docgen elect`.",
        )
    sha = hashlib.sha256(data).hexdigest()
    try:
        answers = hooks.answers_from_form(facts, subject, contents.values, contents.tooltips)
        if accept_name is not None:
            answers = {**answers, "accept_name": accept_name}
        return hooks.record(facts, subject, answers, received_on, sha, "form")
    except FormRefused as refused:
        raise FormsRefused(problems_of(shown, refused)) from None


def _carried(
    loaded: LoadedFacts, hooks: FormIntake, subject: Any, data: bytes, values: Mapping[str, Any]
) -> list[tuple[str, str]]:
    """(field, problem) for what the form carries that docgen's form does not: scripts, actions,
    XFA, fields it never has, and pages that do not print what its identity says
    (docgen.intake.form_content)."""
    found = [("", what) for what in active_content(data)]
    found += [
        (
            name,
            f"a field docgen's {hooks.document} form does not have (it reads "
            f"{clipped(str(values[name] or ''), 80)!r}): intake would not read what it says",
        )
        for name in unknown_fields(values, hooks.fields)
    ]
    if hooks.printed is not None:
        try:
            pages = pdf_pages(data)
        except Exception as error:  # noqa: BLE001 - any reading failure is a refusal here
            return [*found, ("", f"its pages cannot be read as text ({clipped(str(error), 120)})")]
        expected = hooks.printed(loaded.facts, subject)
        found += [("subject", what) for what in printed_problems(pages, expected)]
    return found


def _one_form_each(filings: list[tuple[str, Filing]]) -> tuple[list[Problem], set[str]]:
    """Two forms for one person in one call are refused, both of them: received the same day,
    nothing says which came last, and the last timely form is the one that governs. Returns
    the problems and the forms refused."""
    seen: dict[str, str] = {}
    problems = []
    dropped: set[str] = set()
    for origin, filing in filings:
        if filing.subject in seen:
            first = seen[filing.subject]
            if first not in dropped:
                problems.append(
                    Problem(
                        first,
                        None,
                        "subject",
                        f"not recorded: another form for {filing.subject} is in this intake "
                        f"({origin})",
                        fix="Take them in one at a time, in the order the Company received them.",
                    )
                )
            dropped |= {first, origin}
            problems.append(
                Problem(
                    origin,
                    None,
                    "subject",
                    f"a second form for {filing.subject} in this intake (the first: "
                    f"{seen[filing.subject]})",
                    fix="Take them in one at a time, in the order the Company received them.",
                )
            )
        seen.setdefault(filing.subject, origin)
    return problems, dropped


def _record(
    loaded: LoadedFacts, hooks: FormIntake, filings: list[tuple[str, Filing]], as_of: date
) -> Recorded:
    prepared = prepare(loaded, filings)
    written = write(prepared)
    # The rules over the people recorded (and the cycle, and any rule across people): what the
    # whole run finds about them, for their cost (docgen.checker.part); `docgen check` the rest.
    recorded = {filing.subject for _, filing in filings}
    report = run_checks(prepared.loaded, as_of, hooks.stage, issuing=False, only=recorded)
    return Recorded(loaded.path, filings, written, report, never_written=loaded.never_written)
