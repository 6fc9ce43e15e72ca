"""RSU-NAME-LOOKALIKE: two directors whose names read the same (checks.names)."""

from __future__ import annotations

from collections.abc import Iterator

from checks import names
from checks import sources as src
from checks.rsu_sources import exhibit
from docgen.core.rules import CheckContext, Hit, rule
from docgen.kinds.director_rsu import kind as _kind  # noqa: F401  (the kind claiming these rules)


@rule(
    "RSU-NAME-LOOKALIKE",
    title=names.TITLE,
    severity="warning",
    cites=[src.NAMES_MATCHED_TO_PEOPLE.citation, exhibit("Section IV")],
    explanation=names.EXPLANATION,
    sources=[src.NAMES_MATCHED_TO_PEOPLE],
    remedy=names.REMEDY,
    across_subjects=True,
)
def director_names(context: CheckContext) -> Iterator[Hit]:
    yield from names.lookalike_hits(context.facts.directors, "directors")
