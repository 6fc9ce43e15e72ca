"""The plan kinds docgen knows, one package each; each built-in one is imported and registered
when it is first asked for (``get_kind``, ``kind_of``, ``all_kinds``: registry.BUILT_IN)."""

from docgen.kinds.registry import (
    Kind,
    Roster,
    UnknownKind,
    all_kinds,
    get_kind,
    kind_of,
    register_kind,
    registered_kinds,
    unregister_kind,
)

__all__ = [
    "Kind",
    "Roster",
    "UnknownKind",
    "all_kinds",
    "get_kind",
    "kind_of",
    "register_kind",
    "registered_kinds",
    "unregister_kind",
]
