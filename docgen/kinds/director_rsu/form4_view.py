"""The grant's Form 4 drafts as the engine writes them (DESIGN.md, "After the grant: Form 4
drafts"): per director the EDGAR ownership XML (form4_xml) and a readable PDF of the same draft
(templates/drafts/form4-draft.html.j2, with the XML inside it), for the kind's
``filing_drafts`` hook."""

from __future__ import annotations

from datetime import date

from docgen.core.dates import long_date
from docgen.core.documents import DocumentMeta
from docgen.core.drafts import DRAFT_TEMPLATES, Drafts, Earlier, PrintedDraft, SubjectDrafts
from docgen.kinds.director_rsu.facts import DirectorGrantFacts
from docgen.kinds.director_rsu.form4 import Form4Draft, draft, proposed_edgar_name
from docgen.kinds.director_rsu.form4_amend import as_amendment, changes, duplicate
from docgen.kinds.director_rsu.form4_xml import form4_xml
from docgen.kinds.director_rsu.settlement import grant_not_made

FOLDER = "section16"
TEMPLATE = f"{DRAFT_TEMPLATES}/form4-draft.html.j2"
XML_NAME = "form4.xml"
PDF_NAME = "form4.pdf"


def meta(item: Form4Draft) -> DocumentMeta:
    return DocumentMeta(
        title=f"Form {item.document_type} (draft): {item.signature_name}, {item.issuer_name}",
        author=item.issuer_name,
        subject=f"Form 4 draft for the grant of {item.transaction_date.isoformat()}",
        keywords=(f"Form {item.document_type}", "draft", "Section 16", item.trading_symbol),
        created=item.signature_date,
        modified=item.signature_date,
        type_size=10,  # two pages: the boxes and the table on one, footnotes and signature
    )


def context(item: Form4Draft) -> dict[str, object]:
    return {
        "d": item,
        "transaction_date": long_date(item.transaction_date),
        "signature_date": long_date(item.signature_date),
        "due": long_date(item.due) if item.due else "",
        "amends": long_date(item.amends) if item.amends else "",
        "left_on": long_date(item.left_on) if item.left_on else "",
        "units": f"{item.units:,}",
        "price": f"{item.price:,.2f}",
        "owned_after": f"{item.owned_after:,}" if item.owned_after is not None else "",
        "note_marks": ", ".join(item.terms_notes),
        "table_heading": "Table I: Non-Derivative Securities Acquired"
        if item.table == "I"
        else "Table II: Derivative Securities Acquired",
    }


def _name_note(name: str) -> str:
    proposal = proposed_edgar_name(name)
    if proposal is None:
        return (
            f"{name}: no edgar_name, and no ASCII spelling to propose (a letter has no ASCII "
            "form): add edgar_name as EDGAR writes the name for the CIK."
        )
    return (
        f'{name}: no edgar_name; proposed "{proposal}" (ASCII, last name first): confirm it '
        "against EDGAR's name for the CIK and add edgar_name."
    )


def form4_drafts(facts: DirectorGrantFacts, drafted_on: date, earlier: Earlier) -> Drafts:
    """Every director's Form 4 draft for the grant, dated ``drafted_on``: a 4/A, compared with
    the director's draft in ``earlier``, when the Form 4 was filed by then."""
    items = []
    drafted = []
    refused = []
    before_now = earlier(FOLDER)
    for index, director in enumerate(facts.directors):
        if grant_not_made(facts, director) is not None:
            continue
        item = draft(facts, director, drafted_on)
        if item.amends is not None:
            before = before_now.get(director.id, {}).get(XML_NAME)
            told = None if before is None else changes(before, form4_xml(item))
            if told == ():
                refused.append(duplicate(item, index))
            item = as_amendment(item, told)
        items.append(item)
        drafted.append(director)
    left_out = tuple(
        no_grant.words(director.name, facts.grant.grant_date)
        for director in facts.directors
        if (no_grant := grant_not_made(facts, director)) is not None
    )
    subjects = tuple(
        SubjectDrafts(
            item.subject,
            {XML_NAME: form4_xml(item)},
            (
                PrintedDraft(
                    PDF_NAME,
                    TEMPLATE,
                    context(item),
                    meta(item),
                    XML_NAME,
                    "The EDGAR ownership XML of this draft",
                ),
            ),
        )
        for item in items
    )
    return Drafts(
        folder=FOLDER,
        noun="Form 4",
        subjects=subjects,
        due_on=items[0].due if items else None,
        about={"form4_table": facts.company.form4_table, "grant_date": facts.grant.grant_date},
        left_out=left_out,
        notes=tuple(
            _name_note(director.name) for director in drafted if director.edgar_name is None
        ),
        refused=tuple(refused),
    )
