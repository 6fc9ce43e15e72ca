"""Rule test cases as data (tests/cases/<RULE-ID>.yaml): read them, build their facts, run them.

One file per rule. Each case names a compact base fact set from ``tests/cases/_bases.yaml``
(``director`` or ``rrp``), overrides it, and says which rule ids must and must not be found::

    rule: RRP-PBC-LATE
    cases:
      - name: calendar period, June 30 is the last good day
        participant:                  # deep-merged into the base's first participant
          elections: [{kind: performance_based, plan_year: 2026, percent: 10, made_on: 2026-06-30,
                       performance_period: {start: 2026-01-01, end: 2026-12-31,
                                            criteria_established_on: 2026-02-01}}]
        absent: [RRP-PBC-LATE]
      - name: July 1 is the first bad day
        ...
        expect: [RRP-PBC-LATE]        # or {RRP-PBC-LATE: warning} to pin the severity

``facts`` deep-merges into the whole file, ``grant`` into ``facts.grant``, ``director`` /
``participant`` into the first director / participant; mappings merge, lists and values
replace. ``as_of`` and ``stage`` default to the base's. The pytest plugin in
tests/conftest.py runs them; ``docgen explain`` shows one passing and one failing case.
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass, field
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from docgen.checker.rules import get_rule
from docgen.checker.runner import run_checks
from docgen.kinds import get_kind
from docgen.load import LoadedFacts, SourceMap

CASE_KEYS = {
    "name",
    "base",
    "facts",
    "grant",
    "director",
    "participant",
    "as_of",
    "stage",
    "expect",
    "absent",
    "note",
}


def cases_dir() -> Path:
    """The rule cases: ``docgen/cases`` in a wheel, ``tests/cases`` in a source checkout."""
    package = Path(__file__).resolve().parent.parent  # docgen/
    installed = package / "cases"
    return installed if installed.is_dir() else package.parent / "tests" / "cases"


def _yaml() -> YAML:
    return YAML(typ="safe", pure=True)


def deep_merge(base: Any, override: Any) -> Any:
    """Mappings merge key by key; anything else (lists included) replaces."""
    if isinstance(base, dict) and isinstance(override, dict):
        merged = dict(base)
        for key, value in override.items():
            merged[key] = deep_merge(base[key], value) if key in base else copy.deepcopy(value)
        return merged
    return copy.deepcopy(override)


@cache
def bases(folder: Path | None = None) -> dict[str, Any]:
    path = (folder or cases_dir()) / "_bases.yaml"
    return _yaml().load(path.read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Case:
    rule: str
    name: str
    file: Path
    raw: dict[str, Any]
    expect: dict[str, str | None] = field(default_factory=dict)  # rule id -> severity or None
    absent: tuple[str, ...] = ()

    @property
    def base_name(self) -> str:
        return self.raw.get("base") or get_kind(get_rule(self.rule).applies_to).case_base

    @property
    def as_of(self) -> date:
        return self.raw.get("as_of") or bases(self.file.parent)[self.base_name]["as_of"]

    @property
    def stage(self) -> str:
        return self.raw.get("stage") or bases(self.file.parent)[self.base_name]["stage"]

    @property
    def overrides(self) -> dict[str, Any]:
        return {
            k: self.raw[k] for k in ("facts", "grant", "director", "participant") if k in self.raw
        }

    def fact_data(self) -> dict[str, Any]:
        data = copy.deepcopy(bases(self.file.parent)[self.base_name]["facts"])
        data = deep_merge(data, self.raw.get("facts", {}))
        if "grant" in self.raw:
            data["grant"] = deep_merge(data["grant"], self.raw["grant"])
        for key, people in (("director", "directors"), ("participant", "participants")):
            if key in self.raw:
                data[people] = list(data[people])
                data[people][0] = deep_merge(data[people][0], self.raw[key])
        return data

    def loaded(self):
        """The case's facts as a LoadedFacts (validated by the same strict model as a file)."""
        data = self.fact_data()
        facts = get_kind(data["kind"]).model.model_validate(data)
        digest = hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()
        return LoadedFacts(
            facts=facts,
            source=SourceMap(f"{self.file.name}:{self.name}"),
            path=self.file,
            sha256=digest,
        )

    def run(self):
        return run_checks(self.loaded(), self.as_of, self.stage)

    def mismatches(self, report) -> list[str]:
        """What the report got wrong against this case's expectations (empty: it passes)."""
        got: dict[str, set[str]] = {}
        for finding in report.findings:
            got.setdefault(finding.rule, set()).add(finding.severity)
        problems = []
        for rule_id, severity in self.expect.items():
            if rule_id not in got:
                problems.append(f"expected {rule_id}, not found")
            elif severity and got[rule_id] != {severity}:
                problems.append(f"expected {rule_id} as {severity}, got {sorted(got[rule_id])}")
        for rule_id in self.absent:
            if rule_id in got:
                problems.append(f"expected no {rule_id}, found it")
        return problems


class CaseFileError(ValueError):
    pass


def load_case_file(path: Path) -> list[Case]:
    data = _yaml().load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or set(data) - {"rule", "cases", "note"} or "cases" not in data:
        raise CaseFileError(f"{path}: expected keys rule, cases (and an optional note)")
    rule_id = data.get("rule") or path.stem
    if rule_id != path.stem:
        raise CaseFileError(f"{path}: rule {rule_id} does not match the file name")
    cases = []
    for index, raw in enumerate(data["cases"]):
        unknown = set(raw) - CASE_KEYS
        if unknown:
            raise CaseFileError(f"{path}: case {index}: unknown keys {sorted(unknown)}")
        expect = raw.get("expect") or {}
        if isinstance(expect, list):
            expect = {rule: None for rule in expect}
        if not expect and not raw.get("absent"):
            raise CaseFileError(f"{path}: case {index} expects nothing")
        cases.append(
            Case(
                rule_id,
                raw.get("name") or f"case {index}",
                path,
                raw,
                dict(expect),
                tuple(raw.get("absent") or ()),
            )
        )
    return cases


def examples(rule_id: str) -> tuple[Case | None, Case | None]:
    """A passing case (the rule absent) and a failing one (the rule found) for ``rule_id``."""
    path = cases_dir() / f"{rule_id}.yaml"
    if not path.is_file():
        return None, None
    cases = load_case_file(path)
    passing = next((c for c in cases if rule_id in c.absent), None)
    failing = next((c for c in cases if rule_id in c.expect), None)
    return passing, failing
