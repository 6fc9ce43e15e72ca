"""What every kind's facts file shares, declared once: its ``kind:``, its company, counsel's
approvals of the drafted clauses (``clause_approvals``), the company's own templates
(``templates_dir``) and the first-release field now refused in their place.

A kind's facts model extends :class:`KindFacts`, narrowing ``kind`` to its name and giving the
type of its company (``KindFacts[DirectorCompany]``; a kind whose company is only a name says
``KindFacts[Text]``). :data:`FactsT` stands for a kind's facts model wherever the engine meets a
kind (``Kind[FactsT]``, ``DocumentSpec[FactsT]``), so mypy checks each kind's hooks against its
own model.

Field order. pydantic puts a base model's fields before a subclass's, so a kind's model holds
``kind``, ``company``, ``clause_approvals`` and ``templates_dir`` first. The order a person reads
them in (``docgen schema``, docs/fact-files.md) is the kind's own: ``kind`` and ``company``, the
kind's terms, then the shared fields before its people (:attr:`KindFacts.shared_fields_before`).
No issued file depends on either order: the record and the manifest are written with sorted keys,
and load errors are sorted by line.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import ConfigDict, Field

from docgen.core.clauses import ClauseApproval
from docgen.core.model import Fact, Text
from docgen.core.sending import Sending

CompanyT = TypeVar("CompanyT")

COMPANY_NAME_FIX = (
    "Add name: under company: the company's name as its documents print it; docgen never fills "
    "in another company's."
)

# The first release's one approval for every drafted clause (bound to no wording), now refused.
RETIRED_APPROVAL = (
    "one approval for every drafted clause, bound to no wording, no longer counts: counsel "
    "approves each clause's exact wording in clause_approvals. Run `docgen clauses` on this file: "
    "it lists each drafted clause with its text and SHA-256 and prints a clause_approvals block; "
    "once counsel has approved each clause, replace this line with that block"
)

_LEADING = ("kind", "company")  # the shared fields every listing starts with


def _listed_in_documented_order(schema: dict[str, Any], model: type[Any]) -> None:
    """Order the JSON Schema's properties (and required names) as :meth:`documented_fields`."""
    order = {name: index for index, name in enumerate(model.documented_fields())}
    properties = schema.get("properties")
    if isinstance(properties, dict):
        schema["properties"] = dict(sorted(properties.items(), key=lambda item: order[item[0]]))
    required = schema.get("required")
    if isinstance(required, list):
        schema["required"] = sorted(required, key=order.__getitem__)


class KindFacts(Fact, Generic[CompanyT]):
    """Base of every kind's facts: the fields each kind's file has, declared once."""

    model_config = ConfigDict(json_schema_extra=_listed_in_documented_order)

    kind: str  # each kind narrows it to its own name, a Literal
    company: CompanyT
    clause_approvals: list[ClauseApproval] = Field(
        default_factory=list,
        description="Counsel's approval of each drafted clause's exact wording (`docgen clauses` "
        "lists the clauses; `docgen approve` records an approval here); clears "
        "DOC-DRAFTED-CLAUSE.",
    )
    templates_dir: Text | None = Field(
        None,
        description="A folder beside this file holding the company's own templates "
        "(`docgen templates --export`), which override the built-ins by name.",
    )
    columns: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description="How the company's own spreadsheets are read (A24): for each roster or file "
        "of filings the facts name, keyed by the field naming it (participants_csv, "
        "elections_csv, ...), the company's header for each docgen column and how its cells are "
        "written (date_order, read: money/percent/yes_no/date, values:, join:, made_from:, "
        "ignore:, sheet:). `docgen columns FILE --kind ...` prints a block to start from; "
        "docs/spreadsheets.md lists every reader.",
    )
    sending: Sending | None = Field(
        None,
        description="Who `docgen send` mails the forms from, whom to ask, how to return a form, "
        "and the company's mail server; no document prints it.",
    )

    # Fields of an earlier release, now refused when a file has them: top-level name -> how to
    # move on (docgen.load; `docgen clauses` reads them to print the replacement).
    retired_fields: ClassVar[Mapping[str, str]] = MappingProxyType(
        {"drafted_clauses_approved_by": RETIRED_APPROVAL}
    )
    # The kind's own field the shared ones are listed before (its roster, with its people after
    # it); None lists them after all the kind's own.
    shared_fields_before: ClassVar[str | None] = None
    # Top-level facts no document prints (what only an export reads): left out of every
    # subject's slice (Kind.slices), the record an issued document carries and what decides a
    # re-issue, so adding or changing them re-issues nothing.
    not_in_slice: ClassVar[tuple[str, ...]] = ()
    # Facts within a part no stage document prints, by path ("company.cik"; "directors[].cik"
    # for each person's): what only `docgen section16`, `export-ocf` or `proxy` reads. Left out
    # of the slice as not_in_slice is, so a change to them re-issues nothing (and the batch says
    # so). Every other fact of the slice is one the documents print or depend on.
    not_printed: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def documented_fields(cls) -> list[str]:
        """The field names in the order `docgen schema` and docs/fact-files.md list them:
        ``kind``, ``company``, the kind's own with ``clause_approvals`` and ``templates_dir``
        placed before :attr:`shared_fields_before`."""
        shared = [name for name in KindFacts.model_fields if name not in _LEADING]
        own = [name for name in cls.model_fields if name not in KindFacts.model_fields]
        at = own.index(cls.shared_fields_before) if cls.shared_fields_before else len(own)
        return [*_LEADING, *own[:at], *shared, *own[at:]]


# A kind's facts model, as the kind's hooks and documents take it (docgen.kinds.registry.Kind)
FactsT = TypeVar("FactsT", bound="KindFacts[Any]")
