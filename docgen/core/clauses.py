"""Drafted clauses as data, and counsel's approval of one clause's exact wording (DESIGN.md,
"Drafted clauses and counsel's approval").

Where a source form is silent (the Notice's Section B, C.1, the F.1 list, Exhibit I's fill-in
parts, the whole RRP form), docgen drafts the words. Each drafted clause has a stable id, the
documents and section it fills, its text (one template fragment, ``templates/clauses/<id>.html.j2``,
which the document templates include), its rationale with citations, and the SHA-256 of that text.
``clause_approvals: [{clause, sha256, by, on, wording}]`` approves one clause's wording; an
approval whose hash no longer matches is no approval. The hash is of the wording as counsel reads
it (docgen.core.wording): the fragment with its blanks named and its conditions as "If" lines,
no template syntax or markup. A company's own document template (``templates_dir``) whose wording
differs from the built-in's is a wording too, approved the same way under the id
``template.<name>`` (``template.notice``). Which clauses a cycle uses is known from the
facts and the templates' text, without rendering anything.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Annotated, Any, Literal

from pydantic import Field, StrictStr, field_validator

from docgen.core.citations import Citation
from docgen.core.model import Fact, FactDate, Text, form_error
from docgen.core.wording import wording_of, wording_sha256

CLAUSE_ID = r"^[a-z0-9-]+(?:\.[a-z0-9-]+)*$"
ClauseId = Annotated[StrictStr, Field(pattern=CLAUSE_ID, min_length=1, max_length=80)]
Sha256 = Annotated[StrictStr, Field(pattern=r"^[0-9a-f]{64}$")]
CLAUSES_FOLDER = "clauses"  # inside a templates folder: one fragment per clause

# How a template marks a clause's words (the fragment's outer element carries both attributes).
MARK = re.compile(
    r"""data-provenance\s*=\s*["']drafted["'](?:\s+data-clause\s*=\s*["']([^"']*)["'])?"""
)


def _always(facts: Any, subject: Any, stage: str) -> bool:
    return True


@dataclass(frozen=True)
class Clause:
    """One drafted clause: what it fills, why it reads as it does, and where its words are."""

    id: str  # stable: approvals name it, e.g. "notice.b-accelerated-vesting"
    title: str
    documents: tuple[str, ...]  # the documents whose templates include it
    section: str  # where it sits, in counsel's words: "Notice, Section B"
    rationale: str  # why docgen drafted these words, from which source words
    citations: tuple[Citation, ...]
    # (facts, subject, stage) -> does this subject's copy carry the clause?
    used: Callable[[Any, Any, str], bool] = _always

    @property
    def fragment(self) -> str:
        """The template that holds the clause's words, relative to a templates folder."""
        return f"{CLAUSES_FOLDER}/{self.id}.html.j2"

    def included_in(self, document: str, template_text: str) -> bool:
        """Whether ``document``'s template (its text) includes this clause's fragment by name."""
        return document in self.documents and self.fragment in template_text

    @property
    def mark(self) -> str:
        """The attributes the fragment's outer element must carry."""
        return f'data-provenance="drafted" data-clause="{self.id}"'


def sha256_text(text: str) -> str:
    """The SHA-256 an approval of a template's words is bound to: of its normalised wording's
    UTF-8 bytes (docgen.core.wording), not of the template file's bytes."""
    return wording_sha256(wording_of(text))


TEMPLATE_PREFIX = "template."


def template_wording_id(template: str) -> str:
    """The id a company's own document template is approved under: ``notice.html.j2`` ->
    ``template.notice``."""
    return TEMPLATE_PREFIX + template.removesuffix(".html.j2").replace("/", ".")


def marks_in(text: str) -> list[str | None]:
    """The clause ids that ``text`` (a template or rendered HTML) marks drafted, in order; None
    for a drafted mark that names no clause."""
    return [match.group(1) or None for match in MARK.finditer(text)]


class ClauseApproval(Fact):
    """Counsel's approval of one drafted clause's exact wording."""

    clause: ClauseId = Field(description="The clause's id (`docgen clauses` lists them).")
    sha256: Sha256 = Field(
        description="The SHA-256 of the wording approved, as `docgen clauses` prints it."
    )
    by: Text = Field(description="Who approved it, e.g. A. Counsel.")
    on: FactDate = Field(description="The day of the approval.")
    wording: StrictStr | None = Field(
        None,
        max_length=200_000,
        description="The wording approved, as `docgen clauses` prints it (`docgen approve` "
        "records it), so that once the clause changes its redline can be shown. An approval "
        "without it still counts while its SHA-256 matches; no redline can be shown for it.",
    )

    @field_validator("wording")
    @classmethod
    def _one_final_newline(cls, value: str | None) -> str | None:
        # As `docgen clauses` prints it: lines, each ended by a newline (YAML's block scalars
        # may keep or drop the last one).
        return value.rstrip("\n") + "\n" if value and value.strip() else None

    @field_validator("by")
    @classmethod
    def _not_a_placeholder(cls, value: str) -> str:
        # `docgen clauses` prints "<counsel>" for the name: pasted unedited, it approves nothing.
        if value.startswith("<") and value.endswith(">"):
            raise form_error(
                "is the placeholder `docgen clauses` printed, not a name",
                "Write the name of the counsel who approved this clause's wording.",
            )
        return value


Status = Literal["approved", "not approved", "approval stale", "built-in words"]


@dataclass(frozen=True)
class ApprovalSeen:
    """An approval on file for a clause, as the report shows it."""

    by: str
    on: date
    sha256: str
    index: int  # its place in clause_approvals, for the finding's line
    wording: str | None = None  # the wording approved, when the approval records it

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "by": self.by,
            "on": self.on.isoformat(),
            "sha256": self.sha256,
            "wording": self.wording,
        }


@dataclass(frozen=True)
class ClauseReview:
    """One drafted clause a cycle uses, with its wording and counsel's approval (data only)."""

    id: str
    title: str
    section: str
    documents: tuple[str, ...]  # the documents that carry it in this cycle
    stages: tuple[str, ...]
    copies: int  # how many issued copies carry it
    text: str  # the wording as counsel reads it (docgen.core.wording), no template syntax
    sha256: str  # of ``text``
    source: str  # "built-in" or the override's path, e.g. "templates_dir/clauses/x.html.j2"
    rationale: str
    citations: tuple[Citation, ...]
    approval: ApprovalSeen | None = None  # the approval of this exact wording
    stale: tuple[ApprovalSeen, ...] = field(default=())  # approvals of other wording
    # "clause" (drafted), or "company template" (a templates_dir document template whose
    # wording is not the built-in's)
    unit: Literal["clause", "company template"] = "clause"
    builtin: str | None = None  # the built-in wording, for a company's own template
    verbatim: bool = False  # a company template whose words are the built-in's: no approval

    @property
    def baseline(self) -> tuple[str, str] | None:
        """What the present wording is redlined against, and in whose words: the last stale
        approval's wording, or, for a company template never approved, the built-in text."""
        if self.approval is not None or self.verbatim:
            return None
        if self.stale:
            last = self.stale[-1]
            if last.wording is not None:
                return last.wording, f"the wording {last.by} approved on {last.on.isoformat()}"
            return None
        if self.builtin is not None:
            return self.builtin, "the built-in text"
        return None

    @property
    def status(self) -> Status:
        if self.approval is not None:
            return "approved"
        if self.verbatim:
            return "built-in words"
        return "approval stale" if self.stale else "not approved"

    @property
    def approved(self) -> bool:
        """Cleared for issue: approved in its present wording, or the built-in words verbatim."""
        return self.approval is not None or self.verbatim

    def status_words(self) -> str:
        """The status in a sentence's words, for a report's note."""
        if self.approval is not None:
            return f"approved by {self.approval.by} on {self.approval.on.isoformat()}"
        if self.verbatim:
            return "the built-in words verbatim, no approval needed"
        return "approval stale" if self.stale else "NOT APPROVED"

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "section": self.section,
            "documents": list(self.documents),
            "stages": list(self.stages),
            "copies": self.copies,
            "text": self.text,
            "sha256": self.sha256,
            "source": self.source,
            "rationale": self.rationale,
            "citations": [str(c) for c in self.citations],
            "status": self.status,
            "approved": self.approved,
            "approved_by": self.approval.by if self.approval else None,
            "approved_on": self.approval.on.isoformat() if self.approval else None,
            "stale_approvals": [a.to_json_dict() for a in self.stale],
            "unit": self.unit,
            "builtin_text": self.builtin,
            "verbatim": self.verbatim,
        }
