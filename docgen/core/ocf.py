"""An Open Cap Format 1.2.0 bundle's content, as a kind makes it from one cycle's facts (DESIGN.md,
"After the grant"; `docgen export-ocf`): the OCF objects by the file they go in, and the
non-OCF account docgen writes beside them (what OCF cannot express: deferral elections and their
status). docgen.issue.ocf_bundle validates it against the vendored OCF schemas and writes it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

Json = dict[str, Any]

OCF_VERSION = "1.2.0"


@dataclass(frozen=True)
class IssuedDocument:
    """One issued document a bundle may list as an OCF ``Document``: the subject it was issued
    to, its name in the manifest (``notice``), its path inside the issued stage folder and the
    MD5 of its bytes (checked against the manifest's SHA-256 before it is taken)."""

    subject_id: str
    name: str
    path: str
    md5: str


@dataclass(frozen=True)
class OCFCycle:
    """One cycle as OCF objects. ``issuer`` is the manifest's ``Issuer``; each list is the
    ``items`` of one OCF file; ``beside`` is the non-OCF file's content (its own JSON schema,
    docgen/resources/ocf/docgen-elections.schema.json)."""

    issuer: Json
    as_of: date
    stakeholders: list[Json] = field(default_factory=list)
    stock_classes: list[Json] = field(default_factory=list)
    stock_plans: list[Json] = field(default_factory=list)
    vesting_terms: list[Json] = field(default_factory=list)
    transactions: list[Json] = field(default_factory=list)
    documents: list[Json] = field(default_factory=list)
    beside: Json = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)
