"""The plan kinds docgen knows, one package each; importing this registers the built-in ones."""

from docgen.kinds import director_rsu, rrp  # noqa: F401  (each registers its Kind)
from docgen.kinds.registry import (
    Kind,
    Roster,
    UnknownKind,
    all_kinds,
    get_kind,
    kind_of,
    register_kind,
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
    "unregister_kind",
]
