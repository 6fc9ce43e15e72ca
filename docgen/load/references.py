"""Facts that name other things, checked when the file loads: a company's templates folder beside
the facts file (``templates_dir``), and the drafted clauses ``clause_approvals`` names by id."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from docgen.core.errors import Problem
from docgen.core.resources import OVERRIDABLE_SUFFIXES, overridable_templates
from docgen.core.safe_open import NotARegularFile, read_regular
from docgen.core.sending import LETTER_IDS
from docgen.load.source import SourceMap


def templates_override(
    facts: Any, kind: Any, facts_path: Path, source: SourceMap
) -> tuple[Path | None, list[Problem]]:
    """The folder ``templates_dir`` names, resolved beside the facts file, and what is wrong
    with it: a folder elsewhere, no folder, a file that overrides no built-in template, a file
    that is not UTF-8 text, or a clause fragment that does not mark its own clause."""
    named = getattr(facts, "templates_dir", None)
    if named is None:
        return None, []
    file, line = source.locate(("templates_dir",))

    def problem(what: str, fix: str, got: str | None = named) -> Problem:
        return Problem(file, line, "templates_dir", what, got, fix)

    beside = facts_path.parent.resolve()
    folder = (facts_path.parent / named).resolve()
    if Path(named).is_absolute() or not folder.is_relative_to(beside):
        return None, [
            problem(
                "must be a folder beside the facts file",
                "Keep the templates in a folder next to this file and name it relatively, "
                "like templates_dir: templates.",
            )
        ]
    if not folder.is_dir():
        return None, [
            problem(
                "no such folder beside the facts file",
                f"Run `docgen templates --export {named}` in the facts file's folder to make it, "
                "or correct the name.",
            )
        ]
    known = overridable_templates()
    clause_marks = {clause.fragment: clause.mark for clause in kind.clauses}
    problems = []
    if (facts_path.parent / named).is_symlink():
        return None, [
            problem(
                "is a link, and a templates folder is read only where it lies",
                "Keep the templates folder itself beside the facts file, not a link to it.",
            )
        ]
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        # Jinja's loader follows links, and a template may include any file of its folder by
        # name, hidden ones too: so a link anywhere under the folder, hidden or not, pointing
        # in or out, is refused before Jinja sees the folder; so is a FIFO (never opened).
        shown = f"{named.rstrip('/')}/{name}"
        if path.is_symlink():
            outside = not path.resolve().is_relative_to(beside)
            problems.append(
                problem(
                    f"{shown} is a link"
                    + (" to a file outside the facts file's folder" if outside else "")
                    + ", and a templates folder holds its own files only",
                    "Copy the file into the templates folder instead of linking to it.",
                    got=None,
                )
            )
            continue
        if path.is_dir():
            continue
        not_a_file = problem(
            f"{shown} is not a regular file (a FIFO, socket or device)",
            "Remove it; a templates folder holds template files only.",
            got=None,
        )
        if not path.is_file():
            problems.append(not_a_file)
            continue
        if any(part.startswith(".") for part in Path(name).parts):
            continue  # an editor's backup or a hidden file: a regular file, never a template
        if not name.endswith(OVERRIDABLE_SUFFIXES):
            continue  # an image or font a template may use; served from here by name
        if name not in known:
            guess = difflib.get_close_matches(name, known, n=1)
            problems.append(
                problem(
                    f"{shown} overrides no built-in template",
                    (f"Did you mean {guess[0]}? " if guess else "")
                    + "A file here replaces the built-in template of the same name; "
                    "`docgen templates --export DIR` writes every one.",
                    got=None,
                )
            )
            continue
        try:
            text = read_regular(path).decode("utf-8")
        except NotARegularFile:  # swapped for a FIFO since it was listed: never blocks
            problems.append(not_a_file)
            continue
        except UnicodeDecodeError:
            problems.append(problem(f"{shown} is not UTF-8 text", "Save it as UTF-8.", got=None))
            continue
        mark = clause_marks.get(name)
        if mark is not None and mark not in text:
            problems.append(
                problem(
                    f"{shown} does not mark its own clause",
                    f"Keep {mark} on the fragment's outer element, so the words stay marked "
                    "as drafted and counsel's approval is checked against them.",
                    got=None,
                )
            )
    return folder, problems


def unknown_clauses(facts: Any, kind: Any, source: SourceMap) -> list[Problem]:
    """An approval naming a clause no document of this kind has (a typo approves nothing). A
    company's own document template is approved as ``template.<name>`` (``template.notice``)."""
    from docgen.core.clauses import template_wording_id

    known = [clause.id for clause in kind.clauses] + [
        template_wording_id(name)
        for name in overridable_templates()
        if name.endswith(".html.j2") and not name.startswith(("clauses/", "letters/"))
    ]
    if kind.intake is not None:  # a kind that sends forms: the cover letters of `docgen send`
        known += LETTER_IDS
    problems = []
    for index, approval in enumerate(getattr(facts, "clause_approvals", ())):
        if approval.clause in known:
            continue
        file, line = source.locate(("clause_approvals", index, "clause"))
        guess = difflib.get_close_matches(approval.clause, known, n=1)
        problems.append(
            Problem(
                file,
                line,
                f"clause_approvals[{index}].clause",
                f"no drafted clause {approval.clause} in a {kind.name} file's documents",
                None,
                (f"Did you mean {guess[0]}? " if guess else "")
                + "Run `docgen clauses` on this file to list the clauses and their SHA-256.",
            )
        )
    return problems
