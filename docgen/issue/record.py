"""``docgen-record.json``: what an issued document was made from, carried inside its PDF.

DESIGN.md, "Trusted documents": every issued document that is not a fillable form is PDF/A-3b and
carries this record, so a copy that has left its folder (a Notice e-mailed to a director) can still
be checked on its own: `docgen verify FILE.pdf` makes the document again from the record and
compares.

The record holds the facts the document was made from for its subject and cycle only (the
kind's :meth:`~docgen.kinds.registry.Kind.slice`: no other director's or participant's data
travels in a person's PDF), the SHA-256 of the facts file it was issued from (the manifest's
``facts.sha256``), docgen's version, the renderer's (WeasyPrint and what lies under it), the
templates' SHA-256, the stage and the as-of date. It is JSON with sorted keys, so the same facts
give the same bytes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from docgen import __version__
from docgen.core.documents import DocumentMeta
from docgen.core.errors import RenderError
from docgen.issue.reports import dumps, templates_sha256
from docgen.kinds import kind_of
from docgen.load import LoadedFacts
from docgen.render.glyphs import fonts_named
from docgen.render.html import render_html
from docgen.render.pdf import EmbeddedFile, document_fonts, pdf_variant, renderer
from docgen.render.readback import pdf_embedded_file

RECORD_NAME = "docgen-record.json"
RECORD_FORMAT = 2  # 2: the record names the fonts the document was printed with (``fonts``)
# Every field a record has; one more or one fewer is not a record this docgen wrote.
RECORD_FIELDS_1 = frozenset(
    {
        "record_format",
        "docgen_version",
        "renderer",
        "templates_sha256",
        "kind",
        "cycle",
        "stage",
        "as_of",
        "document",
        "subject",
        "facts_file",
        "facts_sha256",
        "facts",
    }
)
RECORD_FIELDS = RECORD_FIELDS_1 | {"fonts"}
_FIELDS_OF_FORMAT = {1: RECORD_FIELDS_1, RECORD_FORMAT: RECORD_FIELDS}


class RecordUnreadable(ValueError):
    """A PDF without a record docgen can read (none at all, or one damaged or edited)."""


@dataclass(frozen=True)
class Record:
    """One document's record, as about to be embedded or as read back (``raw``: its bytes)."""

    data: dict[str, Any]
    raw: bytes | None = None

    @property
    def version(self) -> str:
        return self.data["docgen_version"]

    @property
    def as_of(self) -> date:
        return date.fromisoformat(self.data["as_of"])

    @property
    def document(self) -> str:
        return self.data["document"]

    @property
    def subject(self) -> str:
        return self.data["subject"]

    @property
    def stage(self) -> str:
        return self.data["stage"]

    def to_bytes(self) -> bytes:
        return dumps(self.data)

    def embedded(self) -> EmbeddedFile:
        """The record as the file a PDF carries."""
        data = self.data
        return EmbeddedFile(
            name=RECORD_NAME,
            data=self.to_bytes(),
            description=(
                f"What docgen {data['docgen_version']} made this document from: the facts for "
                f"{data['subject']} in {data['cycle']} (stage {data['stage']}, as of "
                f"{data['as_of']}). Check it with: docgen verify FILE.pdf"
            ),
        )


def build_record(
    loaded: LoadedFacts,
    doc: str,
    subject: str,
    stage: str,
    as_of: date,
    templates: str | None = None,
    fonts: str = "",
) -> Record:
    """The record of one document issued from ``loaded`` at ``stage`` on ``as_of``;
    ``templates``: the templates' digest when the caller has it (a batch takes it once, for its
    manifest and every record alike), else it is taken here; ``fonts``: the fonts the document
    is printed with (docgen.render.glyphs.fonts_named), each file and its SHA-256."""
    facts = loaded.facts
    kind = kind_of(facts)
    return Record(
        {
            "record_format": RECORD_FORMAT,
            "docgen_version": __version__,
            "renderer": renderer(),
            "templates_sha256": templates or templates_sha256(loaded.templates_override),
            "kind": facts.kind,
            "cycle": kind.cycle_name(facts),
            "stage": stage,
            "as_of": as_of.isoformat(),
            "document": doc,
            "subject": subject,
            "facts_file": Path(loaded.source.file).name,
            "facts_sha256": loaded.sha256,
            "facts": kind.slice(facts, subject),
            "fonts": fonts,
        }
    )


def files_to_embed(
    loaded: LoadedFacts,
    doc: str,
    subject: str,
    stage: str,
    as_of: date,
    meta: DocumentMeta,
    html: str,
    templates: str | None = None,
) -> tuple[EmbeddedFile, ...]:
    """What an issued PDF carries: its record, unless it is a fillable form (not PDF/A; a form
    carries its identity in its fields instead, DESIGN.md, "Fillable forms").

    A record that would not make the same document again is refused here, at issue time, rather
    than found out by `docgen verify` months later: its facts, read back as a facts file of the
    kind, must give the very HTML that was issued (``html``)."""
    if pdf_variant(meta) is None:
        return ()
    fonts = fonts_named(document_fonts(html, loaded.templates_override))
    record = build_record(loaded, doc, subject, stage, as_of, templates, fonts)
    kind = kind_of(loaded.facts)
    try:
        alone = kind.model.model_validate(json.loads(json.dumps(record.data["facts"])))
        # Made again with the same templates: the company's own (templates_dir), if any.
        remade = render_html(replace(loaded, facts=alone), doc, subject, stage, as_of)
    except (ValidationError, RenderError) as error:
        remade, why = None, f" ({error})"
    else:
        why = ""
    if remade != html:
        raise RenderError(
            f"{doc} for {subject}: the facts its {RECORD_NAME} would carry (the {kind.subject_noun}"
            f"'s own and the cycle's) do not make the same document again{why}; the document "
            "depends on other people's facts. This is a fault in docgen's kind, not in your "
            "facts; nothing was written."
        )
    return (record.embedded(),)


def read_record(pdf: bytes) -> Record:
    """The record a PDF carries; RecordUnreadable saying why there is none to trust."""
    try:
        raw = pdf_embedded_file(pdf, RECORD_NAME)
    except Exception as error:  # pypdf's errors for a damaged file are of many classes
        raise RecordUnreadable(f"not a readable PDF ({error})") from None
    if raw is None:
        raise RecordUnreadable(
            f"it carries no {RECORD_NAME}. Only issued documents that are not fillable forms "
            "carry one (a Notice, the Exhibit I on file at stage grant); check a blank form with "
            "its folder: docgen verify DIR"
        )
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise RecordUnreadable(f"its {RECORD_NAME} is damaged ({error})") from None
    if not isinstance(data, dict) or "record_format" not in data:
        raise RecordUnreadable(f"its {RECORD_NAME} is not one docgen wrote (fields differ)")
    fields = _FIELDS_OF_FORMAT.get(data["record_format"])
    if fields is None:
        raise RecordUnreadable(
            f"its {RECORD_NAME} is format {data['record_format']!r}; this docgen reads "
            f"formats {', '.join(map(str, sorted(_FIELDS_OF_FORMAT)))}"
        )
    if set(data) != fields:
        raise RecordUnreadable(f"its {RECORD_NAME} is not one docgen wrote (fields differ)")
    if not isinstance(data["facts"], dict) or not all(
        isinstance(data[key], str) for key in fields - {"record_format", "facts"}
    ):
        raise RecordUnreadable(f"its {RECORD_NAME} is not one docgen wrote (types differ)")
    record = Record(data, raw)
    try:
        record.as_of  # noqa: B018 - a date docgen wrote, or the record was edited
    except ValueError:
        raise RecordUnreadable(f"its {RECORD_NAME} has no valid as_of date") from None
    return record
