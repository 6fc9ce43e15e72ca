"""The plan kinds docgen knows, one package each; each built-in one is imported and registered
when it is first asked for (``get_kind``, ``kind_of``, ``all_kinds``: registry.BUILT_IN); and
the protocols of what only some kinds can do."""

from docgen.kinds.registry import (
    ComputesPlan,
    DraftsFilings,
    ExportsOCF,
    GrantsStockAwards,
    Kind,
    PayDateTotals,
    Roster,
    RunsPayroll,
    UnknownKind,
    all_kinds,
    document_names,
    get_kind,
    kind_of,
    register_kind,
    registered_kinds,
    unregister_kind,
)

__all__ = [
    "ComputesPlan",
    "DraftsFilings",
    "ExportsOCF",
    "GrantsStockAwards",
    "Kind",
    "PayDateTotals",
    "Roster",
    "RunsPayroll",
    "UnknownKind",
    "all_kinds",
    "document_names",
    "get_kind",
    "kind_of",
    "register_kind",
    "registered_kinds",
    "unregister_kind",
]
