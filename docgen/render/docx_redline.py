"""Tracked changes for counsel's review copy (DESIGN.md, "Drafted clauses and counsel's
approval"): each wording awaiting approval whose change can be shown, as Word revisions
(``w:del`` for words taken out, ``w:ins`` for words put in) against what counsel approved, or, for
a company's own template never approved, against the built-in text; the heading of each carries
the wording's rationale and status as a comment. Word and LibreOffice show them as a redline
counsel can accept or reject. Revision dates come from the facts, never the clock."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from docgen.core.redline import Run

REVISION_AUTHOR = "docgen"
HEADING = "Changed wording awaiting counsel's approval (tracked changes)"
EXPLAINED = (
    "Each wording below is shown as counsel approves it (blanks in [brackets], conditions as If "
    "lines), with the changes since it was approved as tracked changes; accept or reject them in "
    "Word's Review tab. Approving is still recorded in the facts file (`docgen clauses`)."
)


@dataclass(frozen=True)
class Change:
    """One wording's redline for the review copy."""

    title: str  # "notice.b-accelerated-vesting: Section B, Accelerated Vesting"
    against: str  # "the wording A. Counsel approved on 2026-03-02", "the built-in text"
    runs: Sequence[Run]
    comment: str  # rationale, authority and status


def _revision(tag: str, ident: int, stamp: datetime) -> Any:
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    element = OxmlElement(tag)
    element.set(qn("w:id"), str(ident))
    element.set(qn("w:author"), REVISION_AUTHOR)
    element.set(qn("w:date"), stamp.strftime("%Y-%m-%dT%H:%M:%SZ"))
    return element


def _text_run(text: str, deleted: bool) -> Any:
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    run = OxmlElement("w:r")
    node = OxmlElement("w:delText" if deleted else "w:t")
    node.set(qn("xml:space"), "preserve")
    node.text = text
    run.append(node)
    return run


class RedlineWriter:
    """Writes the changes into a python-docx document, numbering its revisions."""

    def __init__(self, writer: Any, stamp: datetime) -> None:
        self.writer = writer  # docgen.render.docx._Writer: its document, styles and comments
        self.stamp = stamp
        self.next_id = 1

    def write(self, changes: Sequence[Change]) -> None:
        if not changes:
            return
        document = self.writer.document
        heading = document.add_paragraph()
        self.writer.set_style(heading, "Heading 1")
        heading.add_run(HEADING)
        note = document.add_paragraph()
        self.writer.set_style(note, "Normal")
        note.add_run(EXPLAINED)
        for change in changes:
            self.one(change)

    def one(self, change: Change) -> None:
        document = self.writer.document
        title = document.add_paragraph()
        self.writer.set_style(title, "Heading 2")
        run = title.add_run(f"{change.title} (against {change.against})")
        comment = document.add_comment([run], text=change.comment, author="docgen", initials="DG")
        comment._comment_elm.date = self.stamp  # never the clock
        paragraph = self._paragraph()
        for part in change.runs:
            pieces = part.text.split("\n")
            for index, piece in enumerate(pieces):
                if index:
                    paragraph = self._paragraph()
                if piece:
                    self._add(paragraph, piece, part.op)
        self.writer.set_style(document.add_paragraph(), "Normal")

    def _paragraph(self) -> Any:
        paragraph = self.writer.document.add_paragraph()
        self.writer.set_style(paragraph, "Normal")
        return paragraph

    def _add(self, paragraph: Any, text: str, op: str) -> None:
        if op == "equal":
            paragraph._p.append(_text_run(text, deleted=False))
            return
        tag = "w:del" if op == "delete" else "w:ins"
        revision = _revision(tag, self.next_id, self.stamp)
        self.next_id += 1
        revision.append(_text_run(text, deleted=op == "delete"))
        paragraph._p.append(revision)
