"""Proving an edited facts file without reading it whole again: the bytes outside the edited
subjects are the bytes that were there, each edited subject's text read alone (by the loader's
own readers) validates to exactly the intended subject, and the facts are the loaded facts with
those subjects replaced, with the checks the loader makes across subjects made again.

Why this suffices: a subject's text means the same alone as in its file when nothing outside it
can change its meaning. So the proof is refused (None: the caller loads the whole edited file as
before) wherever something could: a YAML anchor or alias in an edited subject (an alias elsewhere
may share its value), a YAML directive (``%TAG`` changes what a tag means), a line break other
than LF or CRLF (a carriage return alone, NEL, LS, PS: line breaks to PyYAML, not to the line
counts here), a subject that shares a line with another, an edit outside the subjects' text, a
roster, or a kind whose whole-facts model validates across subjects (a model validator of its
own, or one on the list of subjects). Ids cannot change (each edited subject keeps its id), so
they stay unique.
"""

from __future__ import annotations

import bisect
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import yaml
from pydantic import ValidationError

from docgen.core.errors import LoadError
from docgen.core.model import PathKey
from docgen.load import LoadedFacts, SourceMap
from docgen.load.json_reader import json_source, load_json
from docgen.load.references import unknown_clauses
from docgen.load.yaml_core import Loader
from docgen.load.yaml_facts import read_yaml


class NotAsIntended(RuntimeError):
    """The edited facts file does not read back as the facts plus the filings: a docgen bug.
    Nothing is written (the command line reports an internal error, exit 3)."""


@dataclass(frozen=True)
class EditedText:
    """A facts file's text before and after the splices, and where each edited subject was."""

    old: str
    new: str
    json: bool
    splices: list[tuple[int, int, str]]
    spans: dict[int, tuple[int, int]]  # subject index -> (start, end) in the old text


def proven(
    loaded: LoadedFacts,
    kind: Any,
    edited: EditedText,
    intended: dict[int, dict[str, Any]],
    identity: bytes,
) -> LoadedFacts | None:
    """The facts the edited text holds, proved to be the loaded facts with the ``intended``
    subjects (each a model dump) in place; None where this proof does not apply (above).
    ``identity`` is what the facts' SHA-256 covers: the new file's bytes, then its roster's.

    Raises NotAsIntended where it applies and the edited text says anything else.
    """
    field = kind.subjects_field
    if not _subjects_stand_alone(kind) or set(edited.spans) != set(intended):
        return None
    spans = sorted(edited.spans.items(), key=lambda item: item[1])
    if not _edits_inside(edited, [span for _, span in spans]):
        return None
    if not edited.json and (_directive_or_line_break(edited.old) or not _own_lines(edited, spans)):
        return None
    moved = _moved_spans(edited, spans)
    _outside_unchanged(edited, spans, moved)
    people = list(getattr(loaded.facts, field))  # the list the new facts replace
    shown = loaded.source.file
    lines: dict[int, tuple[int, dict[PathKey, int]]] = {}
    first_lines = _first_lines(edited, spans, moved)
    for index, _ in spans:
        start, end = moved[index]
        text = edited.new[start:end]
        if not edited.json:
            text = _indented(edited.new, start, end)
            if _has_anchors(text) or _has_anchors(_indented(edited.old, *edited.spans[index])):
                return None
        data, subject_lines = _read_alone(edited, text, shown)
        lines[index] = (first_lines[index], subject_lines)
        try:
            subject = type(people[index]).model_validate(data)
        except ValidationError as error:
            raise NotAsIntended(f"{field}[{index}] does not validate: {error}") from None
        if subject.model_dump() != intended[index] or subject.id != people[index].id:
            raise NotAsIntended(f"{field}[{index}] does not read back as the facts plus the forms")
        people[index] = subject
    facts = loaded.facts.model_copy(update={field: people})
    _whole_model_checks(facts)
    if edited.json:
        source = json_source(edited.new, shown)
    else:
        find = _shifted_lines(loaded.source, field, lines, edited, spans, moved)
        source = SourceMap(shown, find=find)
    source.extra.update(loaded.source.extra)
    problems = kind.load_problems(facts, source) + unknown_clauses(facts, kind, source)
    if problems:
        raise NotAsIntended(f"the edited facts file does not load: {LoadError(problems)}")
    return LoadedFacts(
        facts=facts,
        source=source,
        path=loaded.path,
        sha256=hashlib.sha256(identity).hexdigest(),
        templates_override=loaded.templates_override,
        retired=loaded.retired,
        roster=loaded.roster,
    )


def _subjects_stand_alone(kind: Any) -> bool:
    """No validator of the whole facts model looks across subjects where the proof cannot run
    it again: its model validators are all "after" ones (run again on the new facts by
    ``_whole_model_checks``), and no field validator is on the list of subjects."""
    decorators = kind.model.__pydantic_decorators__
    if any(found.info.mode != "after" for found in decorators.model_validators.values()):
        return False
    return not any(
        kind.subjects_field in found.info.fields or "*" in found.info.fields
        for found in decorators.field_validators.values()
    )


def _whole_model_checks(facts: Any) -> None:
    """The facts model's own "after" validators, run on the new facts as loading runs them (the
    facts were put together from the proved subjects without validating the whole again)."""
    for found in type(facts).__pydantic_decorators__.model_validators.values():
        try:
            found.func(facts)
        except (ValueError, AssertionError) as error:
            raise NotAsIntended(f"the edited facts file does not validate: {error}") from None


def _edits_inside(edited: EditedText, spans: list[tuple[int, int]]) -> bool:
    """Every splice falls inside one subject's text (or at its very end), and no two subjects'
    texts overlap."""
    for (_, end), (start, _) in zip(spans, spans[1:], strict=False):
        if start < end:
            return False
    starts = [start for start, _ in spans]
    for start, end, _ in edited.splices:
        at = bisect.bisect_right(starts, start) - 1
        if at < 0 or end > spans[at][1]:
            return False
    return True


def _own_lines(edited: EditedText, spans: list[tuple[int, tuple[int, int]]]) -> bool:
    """Each YAML subject's text is alone on its lines: before it, only its dash and spaces;
    after it, nothing but a comment to the end of the line."""
    text = edited.old
    for _, (start, end) in spans:
        before = text[text.rfind("\n", 0, start) + 1 : start]
        if before.strip() not in ("", "-"):
            return False
        if end > 0 and text[end - 1] != "\n":
            line_end = text.find("\n", end)
            rest = text[end : len(text) if line_end < 0 else line_end].strip()
            if rest and not rest.startswith("#"):
                return False
    return True


def _moved_spans(
    edited: EditedText, spans: list[tuple[int, tuple[int, int]]]
) -> dict[int, tuple[int, int]]:
    """Where each subject's text is in the new text."""
    growth = dict.fromkeys(edited.spans, 0)
    starts = [span[0] for _, span in spans]
    for start, end, new in edited.splices:
        owner = spans[bisect.bisect_right(starts, start) - 1][0]
        growth[owner] += len(new) - (end - start)
    moved, shift = {}, 0
    for index, (start, end) in spans:
        moved[index] = (start + shift, end + shift + growth[index])
        shift += growth[index]
    return moved


def _outside_unchanged(
    edited: EditedText,
    spans: list[tuple[int, tuple[int, int]]],
    moved: dict[int, tuple[int, int]],
) -> None:
    """The text between (and around) the edited subjects is character for character the text
    that was there: so are its bytes, encoded the same way."""
    old_at = new_at = 0
    for index, (start, end) in spans:
        new_start, new_end = moved[index]
        if edited.old[old_at:start] != edited.new[new_at:new_start]:
            raise NotAsIntended("the edited facts file changed outside the subjects edited")
        old_at, new_at = end, new_end
    if edited.old[old_at:] != edited.new[new_at:]:
        raise NotAsIntended("the edited facts file changed outside the subjects edited")


def _first_lines(
    edited: EditedText,
    spans: list[tuple[int, tuple[int, int]]],
    moved: dict[int, tuple[int, int]],
) -> dict[int, int]:
    """The line (1-based) each edited subject starts on in the new text (one count of the
    newlines before the last of them, in steps)."""
    found, line, at = {}, 1, 0
    for index, _ in spans:
        start = moved[index][0]
        line += edited.new.count("\n", at, start)
        found[index], at = line, start
    return found


def _indented(text: str, start: int, end: int) -> str:
    """A YAML subject's text after as many spaces as its column, so that its lines keep their
    indentation when it is read alone."""
    return " " * (start - (text.rfind("\n", 0, start) + 1)) + text[start:end]


def _read_alone(edited: EditedText, text: str, shown: str) -> tuple[Any, dict[PathKey, int]]:
    """The subject's text read by the loader's reader for the file's format."""
    try:
        if edited.json:
            return load_json(text, shown)[0], {}
        return read_yaml(text, shown)
    except LoadError as error:
        raise NotAsIntended(f"an edited subject does not load: {error}") from None


def _directive_or_line_break(text: str) -> bool:
    """True for a YAML text with a directive, or a line break other than LF and CRLF."""
    if text.startswith("%") or "\n%" in text or text.count("\r") != text.count("\r\n"):
        return True
    return any(character in text for character in ("\x85", "\u2028", "\u2029"))


def _has_anchors(text: str) -> bool:
    """True when the YAML text holds an anchor (``&name``) or an alias (``*name``), or does not
    parse (a ``&`` or ``*`` inside a value's text is neither)."""
    if "&" not in text and "*" not in text:
        return False
    try:
        return any(
            isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None)
            for event in yaml.parse(text, Loader=Loader)
        )
    except yaml.YAMLError:
        return True


def _shifted_lines(
    old: SourceMap,
    field: str,
    lines: dict[int, tuple[int, dict[PathKey, int]]],
    edited: EditedText,
    spans: list[tuple[int, tuple[int, int]]],
    moved: dict[int, tuple[int, int]],
) -> Callable[[PathKey], int | None]:
    """A YAML file's lines after the edit: an edited subject's from its text read alone, every
    other fact's where it was, moved down by the lines the edits above it added."""
    last_old, growth = [], []
    old_line = new_line = 1
    old_at = new_at = 0
    for index, (start, end) in spans:
        old_end, new_end = max(start, end - 1), max(moved[index][0], moved[index][1] - 1)
        old_line += edited.old.count("\n", old_at, old_end)
        new_line += edited.new.count("\n", new_at, new_end)
        old_at, new_at = old_end, new_end
        last_old.append(old_line)
        growth.append(new_line - old_line)

    def find(key: PathKey) -> int | None:
        if len(key) >= 2 and key[0] == field and key[1] in lines:
            first, found = lines[int(key[1])]
            inside = found.get(tuple(key[2:]))
            return None if inside is None else first - 1 + inside
        was = old.line_in_file(key)
        if was is None:
            return None
        above = bisect.bisect_left(last_old, was) - 1
        return was + (growth[above] if above >= 0 else 0)

    return find
