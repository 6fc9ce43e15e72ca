"""A Form 4 draft as a readable PDF for the director and counsel (templates/form4-draft.html.j2),
printed through the same HTML -> PDF path as every document (docgen.render.pdf): the same facts
give the same bytes. The XML beside it (docgen.render.form4_xml) is carried inside the PDF, so
the copy counsel reads is tied to the file EDGAR would take."""

from __future__ import annotations

from docgen.core.dates import long_date
from docgen.core.documents import DocumentMeta
from docgen.kinds.director_rsu.form4 import Form4Draft
from docgen.render.pdf import EmbeddedFile, html_to_pdf
from docgen.render.templating import render_template

TEMPLATE = "form4-draft.html.j2"


def meta(draft: Form4Draft) -> DocumentMeta:
    return DocumentMeta(
        title=f"Form 4 (draft): {draft.signature_name}, {draft.issuer_name}",
        author=draft.issuer_name,
        subject=f"Form 4 draft for the grant of {draft.transaction_date.isoformat()}",
        keywords=("Form 4", "draft", "Section 16", draft.trading_symbol),
        created=draft.signature_date,
        modified=draft.signature_date,
    )


def form4_html(draft: Form4Draft) -> str:
    context = {
        "meta": meta(draft),
        "document_class": "form4-draft",
        "type_size": 10,  # two pages: the boxes and Table on one, the footnotes and signature
        "d": draft,
        "transaction_date": long_date(draft.transaction_date),
        "signature_date": long_date(draft.signature_date),
        "due": long_date(draft.due) if draft.due else "",
        "units": f"{draft.units:,}",
        "price": f"{draft.price:,.2f}",
        "owned_after": f"{draft.owned_after:,}" if draft.owned_after is not None else "",
        "note_marks": ", ".join(draft.terms_notes),
        "table_heading": "Table I: Non-Derivative Securities Acquired"
        if draft.table == "I"
        else "Table II: Derivative Securities Acquired",
    }
    return render_template(TEMPLATE, context)


def form4_pdf(draft: Form4Draft, xml: bytes) -> bytes:
    embedded = EmbeddedFile("form4.xml", xml, "The EDGAR ownership XML of this draft")
    return html_to_pdf(form4_html(draft), meta(draft), files=(embedded,))
