"""A toy plan kind, defined entirely here, to prove a third kind needs no edit to docgen/:
a performance-share award with one document (an award letter) and one rule."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from docgen.core.citations import Authority
from docgen.core.dates import long_date
from docgen.core.documents import DocumentMeta, DocumentSpec
from docgen.core.kind_facts import KindFacts
from docgen.core.model import Fact, FactDate, FactId, PositiveInt, Text
from docgen.core.windows import ElectionWindow
from docgen.kinds.registry import Kind

NAME = "toy-performance-share"
# What its rule cites: its own document, declared by the kind (no source form: nothing quoted)
AWARD_LETTER = Authority("Award Letter")


class Holder(Fact):
    id: FactId
    name: Text
    shares: PositiveInt


class ToyAward(KindFacts[Text]):
    """Its company is only a name; clause_approvals and templates_dir come from KindFacts."""

    kind: Literal["toy-performance-share"]
    award_id: FactId
    awarded_on: FactDate
    accept_by: FactDate
    holders: list[Holder] = Field(default_factory=list)


def _context(facts: ToyAward, holder: Holder, stage: str) -> dict[str, Any]:
    return {
        "company": facts.company,
        "holder": holder.name,
        "shares": f"{holder.shares:,}",
        "awarded_on": long_date(facts.awarded_on),
    }


def _meta(facts: ToyAward, holder: Holder, stage: str) -> DocumentMeta:
    return DocumentMeta(
        title=f"Award Letter - {holder.name}",
        author=facts.company,
        subject=f"Performance shares awarded {long_date(facts.awarded_on)}",
        keywords=("toy", facts.award_id, holder.id),
        created=facts.awarded_on,
        modified=facts.awarded_on,
    )


class ToyKind(Kind[ToyAward]):
    """Every hook the engine needs, and nothing else (each other method keeps its default, and
    it has none of the capabilities: no arithmetic, payroll, proxy awards, OCF or filings)."""

    def head(self, facts: ToyAward) -> tuple[str, str]:
        return facts.award_id, "the award"

    def cycle_name(self, facts: ToyAward) -> str:
        return f"toy-{facts.award_id}"

    def windows(self, facts: ToyAward) -> list[ElectionWindow]:
        return [
            ElectionWindow(
                h.id, h.name, "Award Letter", "accept", "accept the award", None, facts.accept_by
            )
            for h in facts.holders
        ]

    def calendar_name(self, facts: ToyAward) -> str:
        return f"{facts.company} award {facts.award_id}"

    def stamp_date(self, facts: ToyAward) -> date:
        return facts.awarded_on


KIND = ToyKind(
    name=NAME,
    model=ToyAward,
    title="Toy performance-share award",
    stages=("award",),
    subjects_field="holders",
    subject_noun="holder",
    rule_modules=("tests.toykind.rules",),
    documents=(
        DocumentSpec[ToyAward](
            name="toy-letter",
            title="Award Letter",
            template="toy-letter.html.j2",
            stages=("award",),
            applies_to=lambda facts, holder, stage: True,
            context=_context,
            meta=_meta,
            key_facts=lambda facts, holder, stage: [holder.name, f"{holder.shares:,}"],
        ),
    ),
    case_base="toy",
    authorities=(AWARD_LETTER,),
    template_dirs=(Path(__file__).resolve().parent / "templates",),
)

__all__ = ["KIND", "NAME"]
