"""The catalogue: every registered rule, in catalogue order, once each kind's rule modules are
imported (the kinds name them; the DOC-* rules come last)."""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Iterable

from docgen.core.errors import DocgenError
from docgen.core.rules import Rule, registered
from docgen.kinds import all_kinds, get_kind

DOCUMENT_RULES = "checks.documents"


class UnknownRule(DocgenError, KeyError):
    """A rule id that is not in the catalogue. Exit code 2."""

    def __init__(self, rule_id: str, known: Iterable[str]):
        self.rule_id = rule_id
        guess = difflib.get_close_matches(rule_id.upper(), list(known), n=1)
        hint = f" Did you mean {guess[0]}?" if guess else ""
        self.message = f"no rule {rule_id} in the catalogue.{hint} Run `docgen rules` to list them."
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message


def _load_rules() -> None:
    for kind in all_kinds():
        for module in kind.rule_modules:
            importlib.import_module(module)
    importlib.import_module(DOCUMENT_RULES)


def all_rules() -> list[Rule]:
    """Every rule, in catalogue order (each kind's rules as its modules list them, then DOC-*)."""
    _load_rules()
    by_kind = {kind.name: index for index, kind in enumerate(all_kinds())}
    rules = list(registered().values())
    return sorted(rules, key=lambda r: by_kind.get(r.applies_to, len(by_kind)))


def rules_of(kind_name: str) -> list[Rule]:
    """One kind's rules, in catalogue order, importing its rule modules only (`docgen check` of
    one kind loads neither the other kinds' rules nor the DOC-* rules, which read documents)."""
    for module in get_kind(kind_name).rule_modules:
        importlib.import_module(module)
    return [entry for entry in registered().values() if entry.applies_to == kind_name]


def get_rule(rule_id: str) -> Rule:
    """The rule with this id; :class:`UnknownRule` (exit 2) if there is none. A DOC-* rule is
    found without importing the kinds' rules (`docgen check` asks for DOC-DRAFTED-CLAUSE)."""
    found = registered().get(rule_id)
    if found is None:
        importlib.import_module(DOCUMENT_RULES)
        found = registered().get(rule_id)
    if found is None:
        _load_rules()
        found = registered().get(rule_id)
    if found is None:
        raise UnknownRule(rule_id, registered())
    return found
