"""The Open Cap Format 1.2.0 JSON schemas, vendored unmodified with their licence in
docgen/resources/ocf/1.2.0/ (from Open-Cap-Table-Coalition/Open-Cap-Format-OCF at its v1.2.0
tag), and docgen's own schema for the elections file beside a bundle: a ``referencing`` Registry
of them all (no network), and a validator per object type and file type."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft7Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7

ROOT = Path(__file__).resolve().parent.parent / "resources" / "ocf"
SCHEMAS = ROOT / "1.2.0" / "schema"
BASE = "https://schema.opencaptablecoalition.com/v/1.2.0/"
ELECTIONS_SCHEMA = ROOT / "docgen-elections.schema.json"

# Each object type docgen writes, and its schema (relative to SCHEMAS).
OBJECTS = {
    "ISSUER": "objects/Issuer.schema.json",
    "STAKEHOLDER": "objects/Stakeholder.schema.json",
    "STOCK_CLASS": "objects/StockClass.schema.json",
    "STOCK_PLAN": "objects/StockPlan.schema.json",
    "VESTING_TERMS": "objects/VestingTerms.schema.json",
    "DOCUMENT": "objects/Document.schema.json",
    "TX_EQUITY_COMPENSATION_ISSUANCE": (
        "objects/transactions/issuance/EquityCompensationIssuance.schema.json"
    ),
    "TX_VESTING_START": "objects/transactions/vesting/VestingStart.schema.json",
    "TX_EQUITY_COMPENSATION_ACCEPTANCE": (
        "objects/transactions/acceptance/EquityCompensationAcceptance.schema.json"
    ),
    "TX_EQUITY_COMPENSATION_CANCELLATION": (
        "objects/transactions/cancellation/EquityCompensationCancellation.schema.json"
    ),
    "TX_EQUITY_COMPENSATION_RELEASE": (
        "objects/transactions/release/EquityCompensationRelease.schema.json"
    ),
}
FILES = {
    "OCF_MANIFEST_FILE": "files/OCFManifestFile.schema.json",
    "OCF_STAKEHOLDERS_FILE": "files/StakeholdersFile.schema.json",
    "OCF_STOCK_CLASSES_FILE": "files/StockClassesFile.schema.json",
    "OCF_STOCK_PLANS_FILE": "files/StockPlansFile.schema.json",
    "OCF_VESTING_TERMS_FILE": "files/VestingTermsFile.schema.json",
    "OCF_TRANSACTIONS_FILE": "files/TransactionsFile.schema.json",
    "OCF_DOCUMENTS_FILE": "files/DocumentsFile.schema.json",
}


@cache
def registry() -> Registry[Any]:
    """Every vendored schema by its ``$id``; a reference outside them is unresolvable, never
    fetched."""
    resources = []
    for path in sorted(SCHEMAS.rglob("*.schema.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append((contents["$id"], Resource.from_contents(contents, DRAFT7)))
    return Registry().with_resources(resources)


@cache
def validator(relative: str) -> Draft7Validator:
    """The validator of one vendored schema (``objects/Issuer.schema.json``), formats checked."""
    schema = registry().contents(BASE + relative)
    return Draft7Validator(
        schema, registry=registry(), format_checker=Draft7Validator.FORMAT_CHECKER
    )


@cache
def elections_validator() -> Draft7Validator:
    schema = json.loads(ELECTIONS_SCHEMA.read_text(encoding="utf-8"))
    return Draft7Validator(schema, format_checker=Draft7Validator.FORMAT_CHECKER)


def errors(check: Draft7Validator, instance: Any) -> list[str]:
    """Each way ``instance`` breaks the schema: where, and what."""
    found = []
    for error in sorted(check.iter_errors(instance), key=lambda e: list(map(str, e.path))):
        where = "/".join(str(p) for p in error.absolute_path) or "(the object)"
        found.append(f"{where}: {error.message}")
    return found
