"""Printing a kind's draft (docgen.core.drafts.PrintedDraft) through the same HTML -> PDF path as
every document (docgen.render.pdf): its template with the shared layout, PDF/A-3b carrying the file
it is a copy of. The same draft gives the same bytes."""

from __future__ import annotations

from docgen.core.drafts import PrintedDraft, SubjectDrafts
from docgen.render.pdf import EmbeddedFile, html_to_pdf
from docgen.render.templating import render_template


def print_draft(printed: PrintedDraft, subject: SubjectDrafts) -> bytes:
    context = {
        "meta": printed.meta,
        "document_class": printed.template.rsplit("/", 1)[-1].split(".", 1)[0],
        "type_size": printed.meta.type_size,
        **printed.context,
    }
    html = render_template(printed.template, context)
    carried = EmbeddedFile(
        printed.embeds, subject.files[printed.embeds], printed.embedded_description
    )
    return html_to_pdf(html, printed.meta, files=(carried,))
