"""RRP-NAME-LOOKALIKE: two participants whose names read the same (checks.names)."""

from __future__ import annotations

from collections.abc import Iterator

from checks import names
from checks import sources as src
from docgen.core.rules import CheckContext, Hit, rule
from docgen.kinds.rrp import kind as _kind  # noqa: F401  (the kind claiming these rules)


@rule(
    "RRP-NAME-LOOKALIKE",
    title=names.TITLE,
    severity="warning",
    cites=[src.NAMES_MATCHED_TO_PEOPLE.citation],
    explanation=names.EXPLANATION,
    sources=[src.NAMES_MATCHED_TO_PEOPLE],
    remedy=names.REMEDY,
    across_subjects=True,
)
def participant_names(context: CheckContext) -> Iterator[Hit]:
    yield from names.lookalike_hits(context.facts.participants, "participants")
