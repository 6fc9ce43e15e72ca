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
from docgen.issue.manifest import Packet, PacketInputs, PacketRecord
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
    (person,) = slice_[kind.subjects_field]
    return {"cycle": _cycle_digests(facts, slice_), "subject": _subject_digests(person)}


def _subject_digests(person: dict[str, Any]) -> dict[str, str]:
    return {name: _digest(value, FIELD_DIGEST) for name, value in person.items()}


def _cycle_digests(facts: Any, slice_: dict[str, Any]) -> dict[str, str]:
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
    return cycle


def packet_record(
    facts: Any,
    subject_id: str,
    stage: str,
    as_of: str,
    templates: str,
    slice_: dict[str, Any] | None = None,
) -> PacketRecord:
    """The inputs of one packet as the manifest records them (``slice_``: the subject's slice,
    when the caller made every packet's at once with ``Kind.slices``)."""
    if slice_ is None:
        slice_ = kind_of(facts).slice(facts, subject_id)
    inputs = PacketInputs(
        facts_sha256=_digest(slice_),
        templates_sha256=templates,
        docgen_version=__version__,
        stage=stage,
        as_of=as_of,
    )
    return PacketRecord(inputs, _digest(inputs.to_json()), fact_digests(facts, slice_))


def packet_records(
    facts: Any,
    stage: str,
    as_of: str,
    templates: str,
    slices: dict[str, dict[str, Any]],
) -> dict[str, PacketRecord]:
    """Each packet's record, as :func:`packet_record` makes it, for slices made together by
    ``Kind.slices``: what the slices share (the cycle's facts) is serialized and digested once,
    not once a packet, so that recording a cycle costs what its people cost (issue 27). The bytes
    digested are those :func:`packet_record` digests (tests/test_reissue.py compares them)."""
    kind = kind_of(facts)
    records: dict[str, PacketRecord] = {}
    cycle: dict[str, str] | None = None
    head = tail = b""
    for subject_id, slice_ in slices.items():
        (person,) = slice_[kind.subjects_field]
        if cycle is None:
            cycle = _cycle_digests(facts, slice_)
            head, tail = _around_subjects(slice_, kind.subjects_field)
        data = head + canonical([person]) + tail if head else canonical(slice_)
        inputs = PacketInputs(
            facts_sha256=hashlib.sha256(data).hexdigest(),
            templates_sha256=templates,
            docgen_version=__version__,
            stage=stage,
            as_of=as_of,
        )
        facts_digests = {"cycle": dict(cycle), "subject": _subject_digests(person)}
        records[subject_id] = PacketRecord(inputs, _digest(inputs.to_json()), facts_digests)
    return records


_MARK = "\x00docgen-subjects"  # no fact holds a control character (docgen.core.safe_text)


def _around_subjects(slice_: dict[str, Any], field: str) -> tuple[bytes, bytes]:
    """A slice's canonical bytes before and after its list of people (which every slice of a
    cycle shares), or two empty strings where the list cannot be told apart."""
    marked = canonical({**slice_, field: _MARK})
    token = canonical({field: _MARK})[1:-1]  # "directors":"\u0000docgen-subjects"
    if marked.count(token) != 1:
        return b"", b""
    head, tail = marked.split(token)
    return head + canonical({field: None})[1:-5], tail


def same_inputs(before: Packet | None, now: PacketRecord) -> bool:
    """The same facts slice, templates, docgen and stage: the documents would come out the same.
    (The as-of date is recorded but is no reason to re-issue: no document prints it.)"""
    if before is None or before.record is None:
        return False
    old, new = before.record.inputs, now.inputs
    return (old.facts_sha256, old.templates_sha256, old.docgen_version, old.stage) == (
        new.facts_sha256,
        new.templates_sha256,
        new.docgen_version,
        new.stage,
    )


def why_changed(before: Packet | None, now: PacketRecord) -> list[str]:
    """In words, what differs between a packet's previous inputs and these: the facts by name,
    then the templates and docgen's version."""
    if before is None:
        return ["first issue"]
    if before.record is None:
        return ["issued by docgen's first release, which recorded no inputs"]
    reasons = []
    old_facts, old_inputs, new_inputs = before.record.facts, before.record.inputs, now.inputs
    for part in ("subject", "cycle"):
        old, new = old_facts.get(part, {}), now.facts[part]
        names = sorted(n for n in set(old) | set(new) if old.get(n) != new.get(n))
        reasons += [f"{name} changed" for name in names]
    if not reasons and old_inputs.facts_sha256 != new_inputs.facts_sha256:
        reasons.append("facts changed")
    if old_inputs.templates_sha256 != new_inputs.templates_sha256:
        reasons.append("templates changed")
    if old_inputs.docgen_version != new_inputs.docgen_version:
        reasons.append(f"docgen {old_inputs.docgen_version} -> {new_inputs.docgen_version}")
    return reasons
