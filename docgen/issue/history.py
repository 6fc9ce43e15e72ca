"""What each packet was made from, so a re-issue can say which packets changed and why.

A packet's *facts slice* is the kind's slice (``Kind.slice``): the facts of the cycle with the
subject alone in the list of people, which is also what an issued PDF's record carries, and all a
document may depend on (docgen.issue.record refuses one that depends on another person's facts).
Each packet's record in the manifest holds the inputs that made it (the slice's SHA-256, the
templates' SHA-256, docgen's version, the stage and the as-of date) and their digest
``inputs_sha256``, and a short digest of each fact in the slice, so the next batch can name the
facts that changed.

Every document carries its as-of date (its creation date, and in its record), so a packet whose
inputs are unchanged is not rendered again at all: it would differ by its date alone.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from docgen import __version__
from docgen.kinds import kind_of

FIELD_DIGEST = 16  # hex digits per fact: enough to notice a change, short enough to list


def canonical(data: Any) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _digest(data: Any, size: int | None = None) -> str:
    return hashlib.sha256(canonical(data)).hexdigest()[:size]


def fact_digests(facts: Any, slice_: dict[str, Any]) -> dict[str, dict[str, str]]:
    """A short digest per fact of a packet's slice: the subject's fields, and the cycle's fields
    one level into a mapping (``grant.fair_market_value``)."""
    kind = kind_of(facts)
    cycle: dict[str, str] = {}
    for name, value in slice_.items():
        if name in (kind.subjects_field, kind.roster.field if kind.roster else None):
            continue
        if isinstance(value, dict) and value:
            for inner, inner_value in value.items():
                cycle[f"{name}.{inner}"] = _digest(inner_value, FIELD_DIGEST)
        else:
            cycle[name] = _digest(value, FIELD_DIGEST)
    (person,) = slice_[kind.subjects_field]
    subject = {name: _digest(value, FIELD_DIGEST) for name, value in person.items()}
    return {"cycle": cycle, "subject": subject}


def packet_record(
    facts: Any,
    subject_id: str,
    stage: str,
    as_of: str,
    templates: str,
    slice_: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The inputs of one packet as the manifest records them (``slice_``: the subject's slice,
    when the caller made every packet's at once with ``Kind.slices``)."""
    if slice_ is None:
        slice_ = kind_of(facts).slice(facts, subject_id)
    inputs = {
        "facts_sha256": _digest(slice_),
        "templates_sha256": templates,
        "docgen_version": __version__,
        "stage": stage,
        "as_of": as_of,
    }
    return {
        "inputs": inputs,
        "inputs_sha256": _digest(inputs),
        "facts": fact_digests(facts, slice_),
    }


def same_inputs(before: dict[str, Any] | None, now: dict[str, Any]) -> bool:
    """The same facts slice, templates, docgen and stage: the documents would come out the same.
    (The as-of date is recorded but is no reason to re-issue: no document prints it.)"""
    if not before or "inputs" not in before:
        return False
    keys = ("facts_sha256", "templates_sha256", "docgen_version", "stage")
    return all(before["inputs"].get(key) == now["inputs"].get(key) for key in keys)


def why_changed(before: dict[str, Any] | None, now: dict[str, Any]) -> list[str]:
    """In words, what differs between a packet's previous inputs and these: the facts by name,
    then the templates and docgen's version."""
    if before is None:
        return ["first issue"]
    if "inputs" not in before:
        return ["issued by docgen's first release, which recorded no inputs"]
    reasons = []
    old_facts, new_facts = before.get("facts", {}), now["facts"]
    for part in ("subject", "cycle"):
        old, new = old_facts.get(part, {}), new_facts[part]
        names = sorted(n for n in set(old) | set(new) if old.get(n) != new.get(n))
        reasons += [f"{name} changed" for name in names]
    if not reasons and before["inputs"].get("facts_sha256") != now["inputs"]["facts_sha256"]:
        reasons.append("facts changed")
    if before["inputs"].get("templates_sha256") != now["inputs"]["templates_sha256"]:
        reasons.append("templates changed")
    old_version = before["inputs"].get("docgen_version")
    if old_version != now["inputs"]["docgen_version"]:
        reasons.append(f"docgen {old_version} -> {now['inputs']['docgen_version']}")
    return reasons
