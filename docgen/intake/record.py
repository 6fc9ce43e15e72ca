"""Recording filings in a facts file: each filing's edits spliced into the file's text (or into
the roster row of a person kept in the roster, or into the CSV of filings the facts name for
it: docgen.intake.targets), the result read back and proved to be the
facts as they were plus exactly those edits, then every changed file replaced at once.

Nothing is written unless all of it can be: a filing the facts cannot hold, or an edited file
that does not read back as intended, refuses the whole call.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol, TypeVar

from pydantic import ValidationError

from docgen.core.errors import LoadError, Problem, clipped
from docgen.core.filings import Amend, Append, Filing, FormRefused, Put
from docgen.core.output import recording_lock, remove_stale_temporaries, replace_files
from docgen.core.safe_text import describe, formula_lead, visible
from docgen.intake.json_text import JsonText
from docgen.intake.proof import EditedText, NotAsIntended, proven
from docgen.intake.targets import Targets
from docgen.intake.yaml_text import YamlEditError, YamlText
from docgen.kinds import kind_of
from docgen.load import LoadedFacts, load_facts

_BOM = b"\xef\xbb\xbf"

Node = TypeVar("Node")


class FactsText(Protocol[Node]):
    """A facts file's text, edited where it stands (YamlText, JsonText): its subjects' nodes,
    and the two edits a filing makes to one of them."""

    text: str
    splices: list[tuple[int, int, str]]

    @property
    def root(self) -> Node: ...

    def subject(self, list_field: str, index: int) -> tuple[Node, list[Node]]: ...

    def span(self, subject: Node) -> tuple[int, int]: ...

    def append(self, subject: Node, key: str, items: list[dict[str, Any]], peers: list) -> None: ...

    def put(self, subject: Node, key: str, new: Any, peers: list) -> None: ...

    def amend(self, subject: Node, key: str, index: int, values: dict[str, Any]) -> None: ...

    def result(self) -> str: ...


@dataclass(frozen=True)
class Prepared:
    """The new contents of every file a set of filings changes, and the facts they give."""

    contents: dict[Path, bytes]
    read: dict[Path, bytes]
    loaded: LoadedFacts


def prepare(loaded: LoadedFacts, filings: Iterable[tuple[str, Filing]]) -> Prepared:
    """Splice each filing into the facts file (or its roster); nothing is written yet.

    ``filings`` pairs each filing with where it came from (a form's file name, or the command
    line), for the messages of a filing the facts cannot hold.
    """
    kind = kind_of(loaded.facts)
    field = kind.subjects_field
    remove_stale_temporaries(
        [path for path in (loaded.path, loaded.roster, *loaded.records.values()) if path]
    )
    read = {loaded.path: loaded.path.read_bytes()}
    editor = _editor(loaded, read[loaded.path])
    targets = Targets(loaded, kind, read, _decode)
    people = kind.subjects(loaded.facts)
    place = {subject.id: number for number, subject in enumerate(people)}
    intended: dict[int, dict[str, Any]] = {}  # subject index -> the subject with its filings
    spans: dict[int, tuple[int, int]] = {}  # subject index -> its text in the file, if there
    problems: list[Problem] = []
    refused: list[str] = []
    touched_file = False
    for origin, filing in filings:
        formulas = _formulas_in(filing)
        if formulas:
            problems.extend(
                Problem(
                    origin,
                    None,
                    where,
                    f"starts with {describe(lead)}, which a spreadsheet runs as a formula "
                    f"(got {clipped(text, 60)!r})",
                    fix=_NO_FORMULA.format(lead=visible(lead)),
                )
                for where, text, lead in formulas
            )
            refused.append(origin)
            continue
        unfilled = _blanks_in(filing)
        if unfilled:
            problems.extend(
                Problem(origin, None, where, f"holds {blank}", fix=_NO_BLANKS)
                for where, blank in unfilled
            )
            refused.append(origin)
            continue
        index = place[filing.subject]
        current = intended.get(index) or people[index].model_dump()
        try:
            held, for_file = targets.route(filing, index, current)
            if for_file:
                spans[index] = _into_file(
                    editor, field, index, replace(filing, edits=tuple(for_file))
                )
                held.extend(for_file)
                touched_file = True
        except FormRefused as refused_form:
            problems.extend(problems_of(origin, refused_form))
            refused.append(origin)
            continue
        except YamlEditError as error:
            problems.append(Problem(str(loaded.path), None, "", str(error), fix=_BY_HAND))
            refused.append(origin)
            continue
        subject = copy.deepcopy(current)
        for edit in held:
            _apply(subject, edit)
        try:
            intended[index] = type(people[index]).model_validate(subject).model_dump()
        except ValidationError as error:
            problems.extend(
                Problem(origin, None, ".".join(map(str, e["loc"])), e["msg"], fix=_BY_HAND)
                for e in error.errors()
            )
            refused.append(origin)
    if problems:
        raise FormsRefused(problems, refused)
    contents: dict[Path, bytes] = {}
    if touched_file:
        contents[loaded.path] = _encode(editor.result(), read[loaded.path])
    for path in sorted(targets.touched):
        contents[path] = _encode(targets.texts[path].result(), read[path])
    after = None
    if touched_file and not targets.touched:  # proved on the subjects edited (intake.proof)
        edited = EditedText(
            editor.text,
            editor.result(),
            loaded.path.suffix.lower() == ".json",
            editor.splices,
            spans,
        )
        # What the facts' SHA-256 covers, as the loader reads it: the file, its roster, then
        # each CSV of filings (docgen.load).
        beside = [loaded.roster] if loaded.roster is not None else []
        beside += list(loaded.records.values())
        identity = contents[loaded.path] + b"".join(read[path] for path in beside)
        after = proven(loaded, kind, edited, intended, identity)
    if after is None:
        after = _read_back(loaded, contents, field, intended)
    return Prepared(contents, read, after)


def _read_back(
    loaded: LoadedFacts,
    contents: dict[Path, bytes],
    field: str,
    intended: dict[int, dict[str, Any]],
) -> LoadedFacts:
    """The edited files loaded whole, and proved to be the facts plus the filings."""
    expected = loaded.facts.model_dump()
    for index, subject in intended.items():
        expected[field][index] = subject
    try:
        after = load_facts(loaded.path, contents=contents)
    except LoadError as error:
        raise NotAsIntended(f"the edited facts file does not load: {error}") from None
    if after.facts.model_dump() != expected:
        raise NotAsIntended("the edited facts file does not read back as the facts plus the forms")
    return after


def write(prepared: Prepared) -> list[Path]:
    """Replace every changed file at once; returns the files written.

    The caller holds the facts file's recording lock. Each CSV written (a roster, a CSV of
    filings) is locked too while it is compared with what was read and replaced: another facts
    file may name the same CSV, and its run holds only its own facts file's lock. A CSV another
    run is writing refuses this one whole (nothing written), and one it changed since it was
    read refuses it at the comparison (docgen.core.output.replace_files)."""
    if prepared.contents:
        with ExitStack() as held:
            for path in sorted(prepared.contents):
                if path != prepared.loaded.path:
                    held.enter_context(recording_lock(path))
            replace_files(prepared.contents, prepared.read)
    return list(prepared.contents)


class FormsRefused(LoadError):
    """Forms (or `docgen elect`'s options) that cannot be recorded: one problem each, as
    ``FORM: field: what. Fix.``. Exit code 2; nothing is written. ``origins`` names the forms
    refused (a multi-form intake records the others: docgen.intake.forms)."""

    def __init__(self, problems: list[Problem], origins: list[str] | None = None):
        super().__init__(problems)
        self.origins = list(origins or [])


_BY_HAND = "Record it in the facts file by hand (docs/fact-files.md)."


def problems_of(origin: str, refused: FormRefused) -> list[Problem]:
    found = []
    for text, fix in zip(refused.problems, refused.fixes, strict=True):
        field, colon, what = text.partition(": ")
        if not colon or " " in field:
            field, what = "", text
        found.append(Problem(origin, None, field, what, fix=fix or None))
    return found


_NO_BLANKS = (
    "Give the value as the form states it: a template tag ({{ }}, {% %}) or a blank marker "
    "([NAME], [____], 20__) is what a document prints where a blank was left unfilled, and "
    "the participant's next form would be refused for it."
)


_NO_FORMULA = (
    "Write it without the leading {lead}: free text from a form is recorded in CSVs that HR "
    "opens in a spreadsheet (a roster, beneficiaries.csv), and text that starts with =, +, -, @, "
    "a tab or a carriage return is run there as a formula (OWASP, CSV Injection)."
)


def _formulas_in(filing: Filing) -> list[tuple[str, str, str]]:
    """(field, text, leading character) for each text the filing would record that a spreadsheet
    would run as a formula: a Beneficiary's name, a printed name, who recorded the form."""
    found: list[tuple[str, str, str]] = []

    def walk(value: Any, where: str) -> None:
        if isinstance(value, str):
            lead = formula_lead(value)
            if lead is not None:
                found.append((where, value, lead))
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(key, where)
                walk(item, f"{where}.{key}")
        elif isinstance(value, list | tuple):
            for number, item in enumerate(value):
                walk(item, f"{where}[{number}]")

    for edit in filing.edits:
        walk(edit.value, ".".join(map(str, edit.path)))
    return found


def _blanks_in(filing: Filing) -> list[tuple[str, str]]:
    """Each template tag or blank marker in a value the filing would record: refused here, at
    recording, not when the next document printing it is refused as DOC-UNFILLED-BLANK."""
    from checks.documents import unfilled_blanks

    found: list[tuple[str, str]] = []

    def walk(value: Any, where: str) -> None:
        if isinstance(value, str):
            found.extend((where, blank) for blank in unfilled_blanks(value))
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(item, f"{where}.{key}")
        elif isinstance(value, list | tuple):
            for number, item in enumerate(value):
                walk(item, f"{where}[{number}]")

    for edit in filing.edits:
        walk(edit.value, ".".join(map(str, edit.path)))
    return found


def facts_editor(loaded: LoadedFacts, data: bytes) -> FactsText[Any]:
    """The editor of a facts file's text (its bytes as read under the lock): YAML or JSON."""
    return _editor(loaded, data)


def encoded(text: str, original: bytes) -> bytes:
    """An edited text as the file's bytes, with the byte-order mark the original had."""
    return _encode(text, original)


def _editor(loaded: LoadedFacts, data: bytes) -> FactsText[Any]:
    text = _decode(data)
    if loaded.path.suffix.lower() == ".json":
        return JsonText(text)
    return YamlText(text)


def _decode(data: bytes) -> str:
    return data.decode("utf-8-sig")


def _encode(text: str, original: bytes) -> bytes:
    return (_BOM if original.startswith(_BOM) else b"") + text.encode("utf-8")


def _into_file(editor: FactsText[Any], field: str, index: int, filing: Filing) -> tuple[int, int]:
    """The filing spliced into the subject's text; returns where that text was."""
    node, peers = editor.subject(field, index)
    appends: dict[str, list[dict[str, Any]]] = {}
    for edit in filing.edits:
        if isinstance(edit, Append):
            appends.setdefault(edit.path[0], []).append(edit.value)
    for key, items in appends.items():
        editor.append(node, key, items, peers)
    for edit in filing.edits:
        if isinstance(edit, Put):
            editor.put(node, edit.path[0], edit.value, peers)
        elif isinstance(edit, Amend):
            editor.amend(node, edit.path[0], edit.path[1], edit.value)
    return editor.span(node)


def _apply(subject: dict[str, Any], edit: Append | Put | Amend) -> None:
    if isinstance(edit, Amend):
        key, index = edit.path
        subject[key][index].update(edit.value)
        return
    *parents, last = edit.path
    target = subject
    for part in parents:
        target = target[part]
    if isinstance(edit, Append):
        target[last] = [*(target.get(last) or []), dict(edit.value)]
    else:
        target[last] = edit.value
