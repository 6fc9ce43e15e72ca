"""The cover letters of `docgen send` as wordings counsel approves (DESIGN.md A19, A26): each is
a template in ``templates/letters/``, reviewed and approved like a drafted clause
(``clause_approvals`` under its id, listed by `docgen clauses`), and rendered through the
project's sandboxed, autoescaping template environment, then read as plain text."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

from docgen.checker.company_wording import approvals_of, wording_source
from docgen.core.clauses import ClauseReview
from docgen.core.errors import IssueRefused
from docgen.core.wording import wording_sha256
from docgen.kinds import kind_of
from docgen.render.templating import render_template


@dataclass(frozen=True)
class Letter:
    id: str
    template: str
    title: str
    rationale: str


FORMS_OUT = Letter(
    "letter.forms-out",
    "letters/forms-out.html.j2",
    "Cover letter sent with the blank form",
    "docgen's own words, not a source form's: names the form attached, the last day to return "
    "it (the kind's own deadline, as `docgen status` counts it), how to return it and whom to "
    "ask, and says the letter does not change the form.",
)
REMINDER = Letter(
    "letter.reminder",
    "letters/reminder.html.j2",
    "Reminder to a person whose form is not recorded",
    "docgen's own words: sent only to a person whose form is not on record, with the form "
    "again, the last day and the days left.",
)
LETTERS = (FORMS_OUT, REMINDER)


class LetterNotApproved(IssueRefused):
    """A cover letter whose present wording counsel has not approved: nothing is sent (exit 1)."""


def review(loaded: Any, letter: Letter) -> ClauseReview:
    kind = kind_of(loaded.facts)
    hooks = kind.intake
    stages = (hooks.stage,) if hooks is not None else ()
    people = kind.subjects(loaded.facts)
    copies = sum(1 for p in people if hooks is not None and hooks.expects_form(loaded.facts, p))
    """The letter's wording, its SHA-256 and counsel's approval, as `docgen clauses` shows it."""
    wording, source, builtin = wording_source(loaded, letter.template)
    digest = wording_sha256(wording)
    seen = approvals_of(loaded, letter.id)
    current = [a for a in seen if a.sha256 == digest]
    return ClauseReview(
        id=letter.id,
        title=letter.title,
        section="the e-mail's text (docgen send)",
        documents=("e-mail",),
        stages=stages,
        copies=copies,
        text=wording,
        sha256=digest,
        source=source,
        rationale=letter.rationale,
        citations=(),
        approval=current[-1] if current else None,
        stale=tuple(a for a in seen if a.sha256 != digest),
        builtin=builtin,
    )


def letter_reviews(loaded: Any) -> list[ClauseReview]:
    return [review(loaded, letter) for letter in LETTERS]


def approved_sha256(loaded: Any, letter: Letter) -> str:
    """The SHA-256 of the letter's wording, once counsel approved it; LetterNotApproved if not."""
    seen = review(loaded, letter)
    if seen.approved:
        return seen.sha256
    stale = (
        " (an approval on file is of other words: the letter changed since)" if seen.stale else ""
    )
    raise LetterNotApproved(
        f"{loaded.source.file}: the wording of {letter.id} ({letter.title}) is not "
        f"approved{stale}; nothing was sent. Run `docgen clauses {loaded.source.file}` to read "
        f"it; once counsel approves it, add to clause_approvals: {{clause: {letter.id}, "
        f"sha256: {seen.sha256}, by: ..., on: YYYY-MM-DD}}."
    )


class _Paragraphs(HTMLParser):
    """The rendered letter's paragraphs as text (a <p> each; <br> a line break)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.paragraphs: list[str] = []
        self._current: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "p":
            self._current = []
        elif tag == "br" and self._current is not None:
            self._current.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag == "p" and self._current is not None:
            self.paragraphs.append("".join(self._current))
            self._current = None

    def handle_data(self, data: str) -> None:
        if self._current is not None:
            self._current.append(data)


def _wrapped(paragraph: str) -> str:
    lines = [" ".join(line.split()) for line in paragraph.split("\n")]
    return "\n".join(
        textwrap.fill(line, 72, break_long_words=False, break_on_hyphens=False) for line in lines
    )


def letter_text(loaded: Any, letter: Letter, context: dict[str, Any]) -> str:
    """The letter as the recipient reads it: plain text, paragraphs wrapped at 72 characters."""
    override = getattr(loaded, "templates_override", None)
    rendered = render_template(letter.template, context, override)
    reader = _Paragraphs()
    reader.feed(rendered)
    reader.close()
    paragraphs = [_wrapped(p) for p in reader.paragraphs if p.strip()]
    return "\n\n".join(paragraphs) + "\n"
