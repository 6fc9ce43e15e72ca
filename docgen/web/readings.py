"""A returned form as the Returned forms screen lists it before its Record button: what Record
would write, in the words of docgen.api.filing_words (read from the Filing `docgen intake` or
`docgen elect` makes, so the screen shows exactly what Record writes), or each reason the form is
refused with its fix."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from docgen import api


@dataclass
class Reading:
    """One returned form as the screen lists it: recordable (``fields``) or refused (``refusals``:
    each reason with its fix)."""

    name: str  # the form's file name, or "paper form"
    subject: str = ""
    person: str = ""
    summary: str = ""
    fields: list[tuple[str, list[tuple[str, str]]]] = field(default_factory=list)
    refusals: list[tuple[str, str]] = field(default_factory=list)

    @property
    def label(self) -> str:
        """The form's name as it was dropped: without the SHA-256 prefix it is kept under."""
        return re.sub(r"^[0-9a-f]{12}-", "", self.name)


def reading(name: str, filing: Any, person: str) -> Reading:
    """A form intake (or elect) would record, as ``filing`` (a docgen Filing) says."""
    return Reading(
        name=name,
        subject=filing.subject,
        person=person,
        summary=filing.summary,
        fields=api.filing_words(filing),
    )


def refused(name: str, error: Exception) -> Reading:
    """A form intake (or elect) refuses: each problem's field and words, and its fix, without the
    path the upload was kept at."""
    reasons = []
    for problem in getattr(error, "problems", None) or []:
        what = getattr(problem, "what", None)
        if what is None:  # a message already in words
            reasons.append((str(problem), ""))
            continue
        where = getattr(problem, "path", "")
        reasons.append((f"{where}: {what}" if where else str(what), problem.fix or ""))
    if not reasons:
        reasons = [(line, "") for line in str(error).split("\n") if line]
    return Reading(name=name, refusals=reasons)
