"""Packet-level reuse in a re-issue: a packet whose inputs are unchanged is not rendered again;
its files, still intact, are carried over with their hashes.

A packet's inputs are what its files are made from: the subject's facts slice (every cycle-level
fact and that subject alone, as ``Kind.slice`` gives them to the record), the templates, docgen's
version (which covers the IRS figures it ships), the renderer, the stage and the as-of date, and
the list of its documents. Their digest is recorded per packet in the manifest; a re-issue
compares it with the digest of the current inputs. The decision is made here, as one small
function over the previous manifest's entry and the current inputs, so the batch only asks.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from datetime import date
from pathlib import Path
from typing import Any

from docgen import __version__
from docgen.issue.reports import templates_sha256
from docgen.kinds import kind_of
from docgen.render.pdf import renderer

INPUTS_FORMAT = 1


def _canonical(data: Any) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def slice_digests(kind: Any, facts: Any) -> dict[str, str]:
    """Each subject's facts slice as a SHA-256: the cycle-level facts and that subject's own.

    The same information as ``kind.slice(facts, subject)``, with the cycle-level part serialized
    once (a slice per subject would serialize a 10,000-participant file 10,000 times)."""
    data = facts.model_dump(mode="json")
    people = data.pop(kind.subjects_field)
    if kind.roster is not None:
        data[kind.roster.field] = None  # its rows are in the list already
    cycle = hashlib.sha256(_canonical(data)).digest()
    digests = {}
    for person in people:
        digest = hashlib.sha256(cycle)
        digest.update(_canonical(person))
        digests[person["id"]] = digest.hexdigest()
    return digests


@dataclass(frozen=True)
class PacketInputs:
    """Everything one packet's files are made from."""

    subject: str
    documents: tuple[str, ...]
    facts_slice_sha256: str
    templates_sha256: str
    docgen_version: str
    renderer: str
    stage: str
    as_of: str

    @property
    def sha256(self) -> str:
        return hashlib.sha256(
            _canonical({"inputs_format": INPUTS_FORMAT, **asdict(self)})
        ).hexdigest()


@dataclass(frozen=True)
class Reuse:
    """The decision for one packet: carry its files over (``entries``, path -> {sha256, bytes},
    and its ``documents`` as the manifest lists them), or render it, and why."""

    carried: bool
    reason: str
    entries: dict[str, dict[str, Any]]
    documents: list[dict[str, Any]]


def _render(reason: str) -> Reuse:
    return Reuse(False, reason, {}, [])


def decide(
    previous: Mapping[str, Any] | None,
    previous_files: Mapping[str, Mapping[str, Any]],
    current: PacketInputs,
    folder: Path,
) -> Reuse:
    """Whether the packet ``current`` describes may be carried over from the earlier issue in
    ``folder``, whose manifest listed it as ``previous`` (its packet entry: subject, documents,
    inputs_sha256) and its files as ``previous_files``.

    Carried over only when the inputs' digest is the one recorded, the packet has the same
    documents, and every one of its files is still there with the recorded SHA-256: a file
    changed or lost since it was issued is made again, never copied on trust."""
    if previous is None:
        return _render("new in this issue")
    if previous.get("inputs_sha256") != current.sha256:
        return _render("its facts, templates, docgen, stage or date changed")
    documents = list(previous.get("documents") or [])
    if tuple(document.get("name") for document in documents) != current.documents:
        return _render("its documents changed")
    entries: dict[str, dict[str, Any]] = {}
    for document in documents:
        for relative in (document.get("files") or {}).values():
            recorded = previous_files.get(relative)
            if recorded is None or not _intact(folder / relative, recorded):
                return _render(f"{relative} changed or went missing since it was issued")
            entries[relative] = {"sha256": recorded["sha256"], "bytes": recorded["bytes"]}
    if not entries:
        return _render("the earlier issue lists no files for it")
    return Reuse(True, "unchanged", entries, documents)


def _intact(path: Path, recorded: Mapping[str, Any]) -> bool:
    try:
        data = path.read_bytes()
    except OSError:
        return False
    return len(data) == recorded.get("bytes") and (
        hashlib.sha256(data).hexdigest() == recorded.get("sha256")
    )


def packet_inputs(
    loaded: Any, packets: list[tuple[str, list[str]]], stage: str, as_of: date
) -> dict[str, PacketInputs]:
    """The inputs of every packet of a batch, by subject."""
    slices = slice_digests(kind_of(loaded.facts), loaded.facts)
    templates = templates_sha256(getattr(loaded, "templates_override", None))
    printer = renderer()
    return {
        subject: PacketInputs(
            subject=subject,
            documents=tuple(documents),
            facts_slice_sha256=slices[subject],
            templates_sha256=templates,
            docgen_version=__version__,
            renderer=printer,
            stage=stage,
            as_of=as_of.isoformat(),
        )
        for subject, documents in packets
    }
