"""docgen's exceptions: a small hierarchy whose classes also inherit the right builtin."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass, replace

from docgen.core.safe_text import for_message

QUOTE_LIMIT = 300  # characters of a value a message quotes; a longer one is shown cut


def clipped(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` as a message may show it: whole when short, else its start and end with how
    much is left out between them (a refused 3 MB name is never echoed whole)."""
    if len(text) <= limit:
        return text
    head, tail = text[: limit * 2 // 3], text[-(limit // 6) :]
    return f"{head} … [{len(text) - len(head) - len(tail):,} characters not shown] … {tail}"


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with an input file, in the words a user needs to fix it.

    Rendered as ``FILE:LINE: field.path: what is wrong (got VALUE). How to fix it.``
    """

    file: str
    line: int | None
    path: str
    what: str
    got: str | None = None
    fix: str | None = None

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        what = clipped(self.what, 3 * QUOTE_LIMIT)  # the words, and any value they quote
        text = f"{where}: {clipped(self.path)}: {what}" if self.path else f"{where}: {what}"
        if self.got is not None:
            text += f" (got {clipped(self.got)})"
        text += "."
        if self.fix:
            text += f" {self.fix}"
        # A cell's value or a header quoted anywhere in it, as it really is (U+200B as \u200b).
        return for_message(text)


class DocgenError(Exception):
    """Base class: every error docgen raises on purpose."""

    exit_code = 2


def shown_order(problem: Problem) -> tuple[str, int, str, str]:
    """The order a LoadError lists its problems in: by file, line, field and what."""
    return (problem.file, problem.line or 0, problem.path, problem.what)


def listed_once(problems: list[Problem], listing: str) -> list[Problem]:
    """``problems`` (each about one column) with ``listing`` (``Columns: id, name, ...``) added
    to the fix of the one shown first, and the others pointing to it: ten unknown columns list
    docgen's columns once, not ten times (issue 44), and never below a message that says they
    are listed above."""
    if not problems:
        return problems
    first = min(problems, key=shown_order)
    out = []
    for problem in problems:
        said = listing if problem is first else f"The columns are listed above, with {first.path}."
        fix = f"{problem.fix} {said}" if problem.fix else said
        out.append(replace(problem, fix=fix))
    return out


class LoadError(DocgenError, ValueError):
    """A facts file (or a parameter file) that cannot be understood. Exit code 2."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems, key=shown_order)
        super().__init__("\n".join(str(p) for p in self.problems))


class ParameterError(LoadError):
    """A dated parameter file is malformed, or holds no figure for the year asked."""


class RenderError(DocgenError, RuntimeError):
    """A template could not be rendered (an undefined variable, a fetch outside the templates)."""


class IssueRefused(DocgenError, RuntimeError):
    """Issuance refused: the checker found errors. Exit code 1."""

    exit_code = 1


class VerifyFailed(DocgenError, RuntimeError):
    """An issued folder does not match its manifest or fails the document rules. Exit code 1."""

    exit_code = 1


SHOWN_IDS = 12  # a Plan Year may name thousands of participants: a message lists the first few


def some_ids(ids: Sequence[str], shown: int = 5) -> str:
    """Ids for a message: all of a few, else the first few and how many more."""
    if len(ids) <= shown:
        return ", ".join(ids)
    return f"{', '.join(ids[:shown])} and {len(ids) - shown:,} more"


def unknown_id_hint(ident: str, known: Sequence[str]) -> str:
    """What a message about an id the facts do not have says to help: the id it may have meant
    (the same but for case, or the closest), then the ids there are (the first dozen of more)."""
    same = [k for k in known if k.casefold() == ident.strip().casefold()]
    near = same or difflib.get_close_matches(ident, known, n=1)
    hint = f"Did you mean {near[0]}? " if near else ""
    listed = ", ".join(known[:SHOWN_IDS]) or "(none)"
    if len(known) > SHOWN_IDS:
        listed += f", and {len(known) - SHOWN_IDS:,} more"
    return f"{hint}Ids: {listed}."
