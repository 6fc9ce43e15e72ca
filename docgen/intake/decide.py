"""`docgen decide`: a decision about a form on record written where the form is: that it is not
in effect (``status: ineffective``, with its ``reason`` and who ``decided_by``), or, the reverse,
that it is in effect after all (the three taken out). DESIGN.md, "Forms not in effect". And who
saw the director's signature on an Exhibit I (``signature_seen_by``): only whoever checked the
signed form says so, and only then does the on-file copy say the form was signed (A25: a fact a
user would otherwise type into YAML or a CSV cell).

A form is named by its person and its number among that person's forms on record, counted from 1
in the order the facts hold them (form 1 is a finding's ``elections[0]``); `docgen status` and a
refusal list them. The decision is one edit of that form (docgen.core.filings.Amend), recorded as
`docgen intake` records a form (docgen.intake.record): under the facts file's lock, into the facts
file, the CSV of filings or the roster row that holds the form, every other byte kept, proved by
reading back, every file replaced at once; then the rules run over the person, as after intake.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from docgen.checker.runner import run_checks
from docgen.core.errors import DocgenError, Problem, unknown_id_hint
from docgen.core.filings import Amend, Filing, FormIntake
from docgen.core.findings import Report
from docgen.core.model import Text, is_in_effect
from docgen.core.output import recording_lock
from docgen.intake.record import FormsRefused, prepare, write
from docgen.kinds import kind_of
from docgen.load import LoadedFacts, load_facts

LIST = "elections"  # every kind keeps its forms on record here (docgen.core.model)
_TEXT: TypeAdapter[str] = TypeAdapter(Text)  # reason and decided_by are facts' text
_PLAIN = "Write it as plain text on one line, as the facts hold it."


@dataclass(frozen=True)
class Decided:
    """What `docgen decide` recorded: the form (its person, number and words), whether it is
    now in effect, the decision's reason and who made it (None once in effect again), the
    files written (none when the form already stood so), and the checks over the person after."""

    facts: Path
    subject: str
    name: str
    form: int
    summary: str
    in_effect: bool | None  # None: nothing decided about whether it is in effect
    reason: str | None
    decided_by: str | None
    written: tuple[Path, ...]
    report: Report
    never_written: tuple[Path, ...] = ()  # the company's own exports the facts read (A24)
    signature_seen_by: str | None = None  # recorded by this decision

    @property
    def unchanged(self) -> bool:
        """The form already stood so: nothing was written."""
        return not self.written

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "facts": str(self.facts),
            "subject": self.subject,
            "name": self.name,
            "form": self.form,
            "summary": self.summary,
            "in_effect": self.in_effect,
            "reason": self.reason,
            "decided_by": self.decided_by,
            "signature_seen_by": self.signature_seen_by,
            "written": [str(path) for path in self.written],
        }


class DecisionRefused(FormsRefused):
    """A decision that cannot be recorded (an unknown person, no such form, a missing reason or
    name): one problem each. Exit code 2; nothing is written."""


class NoFormsToDecide(DocgenError, ValueError):
    """A facts file of a kind that takes in no forms. Exit code 2."""


def decide(
    facts_path: str | Path,
    subject_id: str,
    form: int | None,
    *,
    in_effect: bool | None,
    reason: str | None = None,
    by: str | None = None,
    as_of: date,
    signature_seen_by: str | None = None,
) -> Decided:
    """Record that form number ``form`` (from 1; None: the person's only form) of ``subject_id``
    is not in effect (``in_effect`` False: ``reason`` and ``by`` required), or is in effect
    after all (``in_effect`` True: the decision taken out; ``reason`` and ``by`` not taken), or
    neither (None); and, given ``signature_seen_by``, who saw the signature on it (a form whose
    facts have the field: Exhibit I). Then check the person as of ``as_of``. Raises
    DecisionRefused, nothing written."""
    origin = f"docgen decide --for {subject_id}"
    problems = [] if in_effect is None else _wanting(origin, in_effect, reason, by)
    problems.extend(_seen_by_wanting(origin, in_effect, reason, by, signature_seen_by))
    if problems:
        raise DecisionRefused(problems)
    with recording_lock(Path(facts_path)):  # before any file is read (docgen.core.output)
        loaded = load_facts(facts_path)
        hooks = _hooks(loaded)
        subject = _subject(loaded, subject_id, origin)
        forms = list(getattr(subject, LIST, None) or [])
        index = _form_index(loaded, hooks, subject, forms, form, origin)
        election = forms[index]
        values: dict[str, Any] = {}
        if in_effect:
            values = {"status": None, "reason": None, "decided_by": None}
        elif in_effect is False:
            assert reason is not None and by is not None  # _wanting refused them missing
            values = {"status": "ineffective", "reason": reason.strip(), "decided_by": by.strip()}
        if signature_seen_by is not None:
            if "signature_seen_by" not in type(election).model_fields:
                raise DecisionRefused(
                    [
                        Problem(
                            origin,
                            None,
                            "--signature-seen-by",
                            f"{hooks.document} records no signature_seen_by: the RRP form's "
                            "on-file record never states a signature",
                            fix="Leave --signature-seen-by out for this form.",
                        )
                    ]
                )
            values["signature_seen_by"] = signature_seen_by.strip()
        now = {key: getattr(election, key) for key in values}
        written: list[Path] = []
        after = loaded
        if now != values:
            filing = Filing(subject.id, _filed_on(election), (Amend((LIST, index), values),), "")
            prepared = prepare(loaded, [(origin, filing)])
            written = write(prepared)
            after = prepared.loaded
        report = run_checks(after, as_of, hooks.stage, issuing=False, only={subject.id})
        summary = _summary(
            after, hooks, kind_of(after.facts).subject(after.facts, subject.id), index
        )
    return Decided(
        Path(facts_path),
        subject.id,
        getattr(subject, "name", subject.id),
        index + 1,
        summary,
        in_effect,
        values.get("reason"),
        values.get("decided_by"),
        tuple(written),
        report,
        loaded.never_written,
        values.get("signature_seen_by"),
    )


def _wanting(origin: str, in_effect: bool, reason: str | None, by: str | None) -> list[Problem]:
    """What the options lack, or give where they do not belong, all at once."""
    problems: list[Problem] = []
    if in_effect:
        return _not_for_this(
            origin,
            reason,
            by,
            "Leave {flag} out: --in-effect takes the decision out of the record.",
        )
    for flag, given in (("--reason", reason), ("--by", by)):
        if given is not None and given.strip():
            try:
                _TEXT.validate_python(given.strip())
            except ValidationError as error:
                problems.extend(
                    Problem(origin, None, flag, detail["msg"], fix=_PLAIN)
                    for detail in error.errors(include_url=False)
                )
    if reason is None or not reason.strip():
        problems.append(
            Problem(
                origin,
                None,
                "--reason",
                "is missing: a form decided not in effect is recorded with why",
                fix='Say why, e.g. --reason "filed after the deadline (Plan 2.03(a))".',
            )
        )
    if by is None or not by.strip():
        problems.append(
            Problem(
                origin,
                None,
                "--by",
                "is missing: a form decided not in effect is recorded with who decided",
                fix="Name who decided, e.g. --by 'A. Counsel'.",
            )
        )
    return problems


def _not_for_this(origin: str, reason: str | None, by: str | None, fix: str) -> list[Problem]:
    """--reason and --by given where no form is decided not in effect: one problem each, with
    ``fix`` (its ``{flag}`` the option's name)."""
    return [
        Problem(
            origin,
            None,
            flag,
            "is for a form decided not in effect (--ineffective)",
            fix=fix.format(flag=flag),
        )
        for flag, given in (("--reason", reason), ("--by", by))
        if given is not None
    ]


def _seen_by_wanting(
    origin: str,
    in_effect: bool | None,
    reason: str | None,
    by: str | None,
    seen_by: str | None,
) -> list[Problem]:
    """What a request without a decision about effect lacks, or what --signature-seen-by holds
    that the facts cannot: a name, as plain text on one line."""
    problems: list[Problem] = []
    if in_effect is None and seen_by is None:
        problems.append(
            Problem(
                origin,
                None,
                "",
                "says nothing to record",
                fix="Say what was decided: --ineffective --reason WHY --by NAME, --in-effect, "
                "or --signature-seen-by NAME.",
            )
        )
    if in_effect is None:
        problems.extend(
            _not_for_this(origin, reason, by, "Add --ineffective, or leave {flag} out.")
        )
    if seen_by is not None:
        if not seen_by.strip():
            problems.append(
                Problem(
                    origin,
                    None,
                    "--signature-seen-by",
                    "is empty: name who saw the director's signature on the form",
                    fix="e.g. --signature-seen-by 'J. Smith, Corporate Secretary'.",
                )
            )
        else:
            try:
                _TEXT.validate_python(seen_by.strip())
            except ValidationError as error:
                problems.extend(
                    Problem(origin, None, "--signature-seen-by", detail["msg"], fix=_PLAIN)
                    for detail in error.errors(include_url=False)
                )
    return problems


def _hooks(loaded: LoadedFacts) -> FormIntake:
    kind = kind_of(loaded.facts)
    if kind.intake is None:
        raise NoFormsToDecide(f"{loaded.source.file}: a {kind.name} file has no forms on record.")
    return kind.intake


def _subject(loaded: LoadedFacts, subject_id: str, origin: str) -> Any:
    kind = kind_of(loaded.facts)
    subject = kind.subject(loaded.facts, subject_id)
    if subject is None:
        ids = [s.id for s in kind.subjects(loaded.facts)]
        raise DecisionRefused(
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
    return subject


def _form_index(
    loaded: LoadedFacts,
    hooks: FormIntake,
    subject: Any,
    forms: list[Any],
    form: int | None,
    origin: str,
) -> int:
    """The form's index in the person's list; refused, listing their forms, when it names none
    (or, without --form, when they have more than one)."""
    if form is not None and 1 <= form <= len(forms):
        return form - 1
    if form is None and len(forms) == 1:
        return 0
    listed = "; ".join(
        f"{number + 1}: {_summary(loaded, hooks, subject, number)}" for number in range(len(forms))
    )
    if not forms:
        what, fix = f"{subject.id} has no form on record", "`docgen status` shows who has."
    elif form is None:
        what = f"{subject.id} has {len(forms)} forms on record"
        fix = f"Name one with --form N: {listed}."
    else:
        count = f"{len(forms)} form{'s' if len(forms) != 1 else ''}"
        what = f"{subject.id} has {count} on record, so no form {form}"
        fix = f"Name one with --form N: {listed}."
    raise DecisionRefused([Problem(origin, None, "--form", what, fix=fix)])


def _summary(loaded: LoadedFacts, hooks: FormIntake, subject: Any, index: int) -> str:
    """A form in words, as `docgen status` gives it, with the day received and whether it is in
    effect (a form of another grant or an earlier year, which status leaves out, by its date)."""
    election = getattr(subject, LIST)[index]
    words = {form.path: form.summary for form in hooks.returned(loaded.facts, subject)}
    shown = words.get(f"{LIST}[{index}]", hooks.document)
    state = "" if is_in_effect(election) else ", recorded as not in effect"
    return f"{shown}, received {_filed_on(election).isoformat()}{state}"


def _filed_on(election: Any) -> date:
    """The day the form was received: Exhibit I's filed_on, the RRP form's made_on."""
    found = getattr(election, "filed_on", None) or getattr(election, "made_on", None)
    assert isinstance(found, date)
    return found
