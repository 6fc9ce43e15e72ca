"""Drafted clauses as data, and counsel's approval of one clause's exact wording (DESIGN.md,
"Drafted clauses and counsel's approval").

Where a source form is silent (the Notice's Section B, C.1, the F.1 list, Exhibit I's fill-in
parts, the whole RRP form), docgen drafts the words. Each drafted clause has a stable id, the
documents and section it fills, its text (one template fragment, ``templates/clauses/<id>.html.j2``,
which the document templates include), its rationale with citations, and the SHA-256 of that text.
``clause_approvals: [{clause, sha256, by, on}]`` approves one clause's wording; an approval whose
hash no longer matches the fragment is no approval. Which clauses a cycle uses is known from the
facts and the templates' text, without rendering anything.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Annotated, Any, Literal

from pydantic import Field, StrictStr, field_validator

from docgen.core.citations import Citation
from docgen.core.model import Fact, FactDate, Text, form_error

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
    """The SHA-256 of a clause's text: of the fragment file's exact UTF-8 bytes."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


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


Status = Literal["approved", "not approved", "approval stale"]


@dataclass(frozen=True)
class ApprovalSeen:
    """An approval on file for a clause, as the report shows it."""

    by: str
    on: date
    sha256: str
    index: int  # its place in clause_approvals, for the finding's line

    def to_json_dict(self) -> dict[str, Any]:
        return {"by": self.by, "on": self.on.isoformat(), "sha256": self.sha256}


@dataclass(frozen=True)
class ClauseReview:
    """One drafted clause a cycle uses, with its wording and counsel's approval (data only)."""

    id: str
    title: str
    section: str
    documents: tuple[str, ...]  # the documents that carry it in this cycle
    stages: tuple[str, ...]
    copies: int  # how many issued copies carry it
    text: str  # the fragment's exact text
    sha256: str
    source: str  # "built-in" or the override's path, e.g. "templates_dir/clauses/x.html.j2"
    rationale: str
    citations: tuple[Citation, ...]
    approval: ApprovalSeen | None = None  # the approval of this exact wording
    stale: tuple[ApprovalSeen, ...] = field(default=())  # approvals of other wording

    @property
    def status(self) -> Status:
        if self.approval is not None:
            return "approved"
        return "approval stale" if self.stale else "not approved"

    @property
    def approved(self) -> bool:
        return self.approval is not None

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
        }
