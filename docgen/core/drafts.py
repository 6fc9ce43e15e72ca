"""Drafts a kind prepares after its cycle for someone else to file (a director's Form 4): the
files per subject, the readable copy each carries (a template the engine prints), and the facts a
draft needs that the file does not give. The kind says what; docgen.issue.section16 writes them,
docgen.render prints them; neither names a kind."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from docgen.core.documents import DocumentMeta

# The built-in templates of drafts live in this folder under templates/, outside the digest every
# issued stage document records (docgen.issue.reports.templates_sha256): a Form 4 template never
# made a Notice, so adding or editing it leaves every issued packet current.
DRAFT_TEMPLATES = "drafts"
# The drafts folder's manifest. Not a stage folder's manifest.json: `docgen verify` of the cycle
# checks its stage folders and passes over the drafts, which nobody issued to anyone.
DRAFTS_MANIFEST = "drafts-manifest.json"


@dataclass(frozen=True)
class MissingFact:
    """A fact a draft needs and the facts file does not give: its path, what, how to give it."""

    path: str
    what: str
    fix: str


@dataclass(frozen=True)
class Refusal:
    """A draft refused (a redraft that changes nothing a filing reported): the fact's path, what
    is wrong and what to do."""

    path: str
    message: str
    fix: str
    subject: str = ""  # whose draft it is


# The drafts already in a folder of the cycle (named by the kind), by subject and file name, as a
# redraft finds them: what an amendment is compared against (DESIGN.md A27).
Earlier = Callable[[str], dict[str, dict[str, bytes]]]


@dataclass(frozen=True)
class PrintedDraft:
    """The readable copy of a draft: ``template`` rendered with ``context``, printed to PDF as
    ``name`` with ``meta``, carrying the file ``embeds`` (one of its subject's files)."""

    name: str
    template: str
    context: dict[str, Any]
    meta: DocumentMeta
    embeds: str
    embedded_description: str


@dataclass(frozen=True)
class SubjectDrafts:
    subject: str
    files: dict[str, bytes]  # file name -> bytes, written as they are
    printed: tuple[PrintedDraft, ...] = ()


@dataclass(frozen=True)
class Drafts:
    """Every subject's drafts, the folder they go in (beside the cycle's stages) and what the
    manifest says about them besides each file's SHA-256."""

    folder: str
    noun: str  # "Form 4", for the command's summary
    subjects: tuple[SubjectDrafts, ...]
    due_on: date | None
    about: dict[str, Any] = field(default_factory=dict)
    left_out: tuple[str, ...] = ()  # each subject drafted nothing for, and why (DESIGN.md A27)
    refused: tuple[Refusal, ...] = ()  # nothing is written while one is left
    notes: tuple[str, ...] = ()  # what the command says besides, e.g. a name to confirm
