"""A command that only some kinds offer (`compute`, `payroll`, `export-ocf`), refused for a facts
file of another kind at its ``kind`` line, naming the kinds that offer it."""

from __future__ import annotations

from docgen.core.errors import LoadError, Problem
from docgen.kinds import all_kinds, kind_of
from docgen.kinds.registry import Kind
from docgen.load.source import LoadedFacts


def kind_offering(loaded: LoadedFacts, offers: str, lacking: str) -> Kind:
    """The facts' kind when it offers the command (its ``offers`` flag, e.g. ``has_payroll``);
    otherwise a load error at the file's ``kind``: "a file of kind KIND has ``lacking``"."""
    kind = kind_of(loaded.facts)
    if getattr(kind, offers):
        return kind
    having = [k.name for k in all_kinds() if getattr(k, offers)]
    raise LoadError(
        [
            Problem(
                loaded.source.file,
                loaded.source.line_of(("kind",)),
                "kind",
                f"a file of kind {kind.name} has {lacking}",
                kind.name,
                f"Give a file of kind {' or '.join(having)} (see samples/).",
            )
        ]
    )
