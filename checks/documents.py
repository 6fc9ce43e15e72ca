"""Rendered-document rules (DOC-*): each one function of a rendered copy and what it reads back
as, under its own ``@document_rule`` (docgen.core.document_rules).

Their predicates read rendered text, not facts, so a rule's ``check`` is None and ``run_checks``
never runs them; docgen.issue reads each copy back (docgen.render.readback) and runs every
registered DOC rule over it (``check_document``), reporting with
``get_rule("DOC-...").finding(subject, path, message)``. The functions above the rules are the
text tests each rule makes, each testable alone.
"""

from __future__ import annotations

import functools
import re

from checks import rrp_sources as rrp_src
from checks import rsu_sources as rsu_src
from checks.rsu_sources import exhibit, notice
from docgen.core.citations import Citation
from docgen.core.clauses import marks_in
from docgen.core.document_rules import EACH_TEXT, READ_BACK, SOURCE, Reading, document_rule
from docgen.core.documents import CheckedCopy, ReturnPart
from docgen.core.rules import SourceText
from docgen.core.text import normalise

# DOC-UNFILLED-BLANK: the blanks the seed forms carry ("[_________, 20__]", "[NAME/ADDRESS]",
# "Dear [NAME]", "the [____] anniversary", "###-###-####"), plus a template tag that was never
# rendered. A bare run of underscores is NOT a blank: it is a signature line on Exhibit I.
UNFILLED_BLANKS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("[____", re.compile(r"\[\s*_{2,}")),
    ("20__", re.compile(r"(?<!\d)(?:19|20)__")),
    ("[NAME", re.compile(r"\[(?:NAME|ADDRESS|DATE|TITLE|COMPANY|AMOUNT|NUMBER)\b[^\]]{0,40}\]?")),
    ("###-###-####", re.compile(r"#{3}\s*-\s*#{3}\s*-\s*#{4}")),
    ("$____", re.compile(r"\$\s*_{2,}")),
    ("template tag", re.compile(r"\{\{|\}\}|\{%|%\}")),
)

_WHITESPACE = re.compile(r"\s+")


def _excerpt(text: str, start: int, end: int, width: int = 30) -> str:
    before = text[max(0, start - width) : start]
    after = text[end : end + width]
    return _WHITESPACE.sub(" ", f"{before}{text[start:end]}{after}").strip()


def unfilled_blanks(text: str) -> list[str]:
    """DOC-UNFILLED-BLANK: each blank left in ``text``, as an excerpt showing where it is."""
    found: list[tuple[int, str]] = []
    for label, pattern in UNFILLED_BLANKS:
        for match in pattern.finditer(text):
            found.append(
                (match.start(), f'{label} in "…{_excerpt(text, match.start(), match.end())}…"')
            )
    return [excerpt for _, excerpt in sorted(found)]


_WORD = re.compile(r"\S+")


@functools.lru_cache(maxsize=8)  # each read-back text is searched for several facts
def _squeezed_words(text: str) -> tuple[str, frozenset[int]]:
    """``text`` as the rules compare it (docgen.core.text.normalise, word by word), and the
    offsets in it where the original had whitespace between two words."""
    parts, breaks, at = [], set(), 0
    for word in _WORD.findall(text):
        if not word.isascii():  # an ASCII word is its own normal form: no call for it
            word = normalise(word)
        breaks.add(at)
        parts.append(word)
        at += len(word)
    breaks.add(at)
    return "".join(parts), frozenset(breaks)


def _same_token(before: str, after: str, beyond: str) -> bool:
    """True when ``before`` and ``after``, adjacent with no space, belong to one token: two
    letters, two digits, or a digit and a digit group ("12,450", "2,450,000", "45.105")."""
    if before.isdigit() and after.isdigit():
        return True
    if before.isalpha() and after.isalpha():
        return True
    return before.isdigit() and after in ",." and beyond.isdigit()


def _whole_token_at(haystack: str, breaks: frozenset[int], start: int, end: int) -> bool:
    if start not in breaks and start > 0:
        beyond = haystack[start - 2] if start > 1 else ""
        if _same_token(haystack[start], haystack[start - 1], beyond):
            return False
    if end not in breaks and end < len(haystack):
        beyond = haystack[end + 1] if end + 1 < len(haystack) else ""
        if _same_token(haystack[end - 1], haystack[end], beyond):
            return False
    return True


def absent_facts(text: str, key_facts: list[str]) -> list[str]:
    """DOC-FACT-ABSENT: the key facts (name, grant date, units, ...) not found in ``text`` as whole
    tokens: "2,450" is not found inside "12,450" or "2,450,000", nor "Jane Smith" inside
    "Jane Smithson". Whitespace inside a fact may differ (a line break), as in normalise."""
    haystack, breaks = _squeezed_words(text)
    missing = []
    for fact in key_facts:
        needle = normalise(fact)
        if not needle:
            continue
        start = haystack.find(needle)
        while start != -1 and not _whole_token_at(haystack, breaks, start, start + len(needle)):
            start = haystack.find(needle, start + 1)
        if start == -1:
            missing.append(fact)
    return missing


def format_mismatch(pdf_text: str, docx_text: str) -> str | None:
    """DOC-FORMAT-MISMATCH: None when PDF and DOCX carry the same text, else where they part."""
    pdf, docx = normalise(pdf_text), normalise(docx_text)
    if pdf == docx:
        return None
    at = next(
        (i for i, (a, b) in enumerate(zip(pdf, docx, strict=False)) if a != b),
        min(len(pdf), len(docx)),
    )
    return (
        f'the texts part after "{pdf[max(0, at - 40) : at]}": '
        f'PDF reads "{pdf[at : at + 40]}", DOCX reads "{docx[at : at + 40]}" '
        f"(spaces removed; {len(pdf)} vs {len(docx)} characters)"
    )


def clause_mark_problems(html: str, expected: set[str], known: set[str]) -> list[str]:
    """DOC-DRAFTED-CLAUSE on a rendered copy: its drafted marks must be exactly the clauses the
    check expected it to carry (and approved). A mark naming no clause, or one the check did not
    expect, is wording issued without counsel's approval being checked."""
    problems = []
    found = marks_in(html)
    if None in found:
        problems.append(
            "text is marked drafted (data-provenance) without naming its clause (data-clause)"
        )
    named = {clause for clause in found if clause is not None}
    for clause in sorted(named - known):
        problems.append(f"marks a drafted clause {clause} that no document of this kind has")
    for clause in sorted((named & known) - expected):
        problems.append(
            f"carries drafted clause {clause}, which the check did not expect in this copy, so "
            "its approval was not checked (does the template include its fragment by name?)"
        )
    for clause in sorted(expected - named):
        problems.append(f"does not carry drafted clause {clause}, which the check expected")
    return problems


def return_page_problems(pages: list[str], part: ReturnPart) -> list[str]:
    """DOC-RETURN-PAGE in a PDF: the part to be filed is page ``part.page`` and the last page,
    beginning with ``part.starts`` and holding ``part.ends``; each way it is not, in words."""
    problems = []
    wanted = part.page
    if len(pages) != wanted:
        problems.append(
            f"the document has {len(pages)} page{'s' if len(pages) != 1 else ''}: the part to be "
            f"filed must be page {wanted}, the last"
        )
    starts, ends = normalise(part.starts), normalise(part.ends)
    where = next((n for n, page in enumerate(pages, start=1) if starts in normalise(page)), None)
    if where is None:
        problems.append(f'"{part.starts}" is on no page')
    elif where != wanted:
        problems.append(f"the part to be filed begins on page {where}, not page {wanted}")
    elif not normalise(pages[wanted - 1]).startswith(starts):
        spilled = _WHITESPACE.sub(" ", pages[wanted - 1]).strip()[:60]
        problems.append(
            f'page {wanted} does not begin with the part to be filed: it begins "{spilled}…" '
            f"(the text before it ran over from page {wanted - 1})"
        )
    if where == wanted and ends not in normalise(pages[wanted - 1]):
        problems.append(
            f'page {wanted} does not hold the end of the part to be filed ("{part.ends}")'
        )
    return problems


def docx_return_problems(page_starts: list[str], part: ReturnPart) -> list[str]:
    """DOC-RETURN-PAGE in a DOCX: exactly one forced page break, before the part to be filed.
    (The pages Word or LibreOffice then lays out are checked by opening the file in tests.)"""
    starts = normalise(part.starts)
    if len(page_starts) == 1 and normalise(page_starts[0]).startswith(starts):
        return []
    shown = ", ".join(f'"{text[:40]}"' for text in page_starts) or "none"
    return [
        f'the DOCX must break the page once, before "{part.starts}" (forced page starts: {shown})'
    ]


DESIGN_DOCUMENTS = Citation("DESIGN.md", "Rendered documents")
DESIGN_GAPS = Citation("DESIGN.md", "Gaps in the source forms")
DESIGN_APPROVAL = Citation("DESIGN.md", "Amendments, A9")


@document_rule(
    "DOC-UNFILLED-BLANK",
    title="A blank left in the output",
    severity="error",
    cites=(notice(""), exhibit(), DESIGN_DOCUMENTS),
    explanation="Every blank of the source form ([____], 20__, [NAME, ###-###-####) must be "
    "filled from the facts before a document is issued.",
    reads=EACH_TEXT,
    sources=(rsu_src.NOTICE_F3, rsu_src.EXHIBIT_INTRO),
    remedy="Supply the missing fact, or fix the template that left the blank.",
)
def unfilled_blank(copy: CheckedCopy, text: str) -> list[str]:
    """Each blank left in one text read back."""
    return [f"unfilled blank {blank}" for blank in unfilled_blanks(text)]


@document_rule(
    "DOC-FACT-ABSENT",
    title="A key fact missing from the output text",
    severity="error",
    cites=(notice("A"), exhibit(), DESIGN_DOCUMENTS),
    explanation="Each issued document must carry its key facts (name, grant date, units, fair "
    "market value, deadline), read back from the rendered PDF or DOCX.",
    reads=EACH_TEXT,
    sources=(rsu_src.NOTICE_A, rsu_src.EXHIBIT_FILED),
    remedy="Re-render; if the fact is still missing, fix the template.",
)
def fact_absent(copy: CheckedCopy, text: str) -> list[str]:
    """Each of the copy's key facts one text read back does not carry."""
    return [f'key fact "{fact}" is missing' for fact in absent_facts(text, list(copy.key_facts))]


@document_rule(
    "DOC-FORMAT-MISMATCH",
    title="PDF and DOCX text differ",
    severity="error",
    cites=(DESIGN_DOCUMENTS, Citation("DESIGN.md", "One template, two formats")),
    explanation="The PDF and the DOCX come from one rendered template and must carry the same "
    "text (after whitespace normalisation), so counsel redlines what is issued.",
    reads=READ_BACK,
    sources=(
        SourceText(
            Citation("DESIGN.md", "One template, two formats"),
            "The two carry the same text; a test proves it.",
            quoted=True,
        ),
    ),
    remedy="Re-render both formats from the same facts; report the difference as a bug.",
)
def format_mismatched(copy: CheckedCopy, reading: Reading) -> list[str]:
    """Where the PDF's text and the DOCX's part, when both were made."""
    if reading.pdf_text is None or reading.docx_text is None:
        return []
    difference = format_mismatch(reading.pdf_text, reading.docx_text)
    return [difference] if difference else []


@document_rule(
    "DOC-DRAFTED-CLAUSE",
    title="A drafted clause not approved by counsel",
    severity="error",
    cites=(
        notice("B"),
        notice("C.1"),
        notice("F.1"),
        exhibit("Sections III-IV"),
        Citation("Plan", "2.03(b)"),
        DESIGN_GAPS,
        DESIGN_APPROVAL,
    ),
    explanation="Where a source form is silent (the Notice's Sections B and C.1 and the F.1 "
    "list, Exhibit I's headings and fill-in parts, the whole RRP Deferral Election Form) "
    "docgen drafts the words, one clause per gap, each with its own id, wording and SHA-256 "
    "(`docgen clauses`). A company's own document template (templates_dir) whose words are "
    "not the built-in's is a wording too (template.<name>). Each wording a document carries "
    "must be approved by counsel in clause_approvals, bound to the SHA-256 of the wording as "
    "it reads (blanks named, conditions as If lines, no template syntax or markup): an "
    "approval of other wording is no approval, and one that records the wording it approved "
    "shows the change as a redline. Checked from the facts and templates before anything "
    "renders, and again on each rendered copy, whose drafted marks must be the clauses "
    "expected.",
    reads=SOURCE,
    sources=(
        rsu_src.NOTICE_F1,
        rsu_src.EXHIBIT_DEFAULT_PAYMENT,
        rrp_src.PLAN_FORM,
        SourceText(
            DESIGN_APPROVAL,
            "Each drafted clause has a stable id, its wording and the SHA-256 of that "
            "wording. `clause_approvals: [{clause, sha256, by, on, wording}]` approves one "
            "clause's exact wording; an approval whose hash no longer matches the clause is no "
            "approval.",
            quoted=False,
        ),
    ),
    remedy="Have counsel read each clause (`docgen clauses FACTS`, or the check report's "
    "drafted clauses) and record the approval: `docgen approve FACTS --wording ID --by NAME` "
    "(or `--shown REVIEW --all-shown`).",
)
def drafted_clause(copy: CheckedCopy, reading: Reading) -> list[str]:
    """The copy's HTML's drafted marks against the clauses it should carry (a copy rendered
    now: an issued folder records no HTML)."""
    if copy.html is None or copy.expected_clauses is None:
        return []
    expected, known = copy.expected_clauses
    return clause_mark_problems(copy.html, set(expected), set(known))


@document_rule(
    "DOC-SEED-UNDEFINED",
    title="Seed text refers to something no document defines",
    severity="info",
    cites=(notice("I"), DESIGN_GAPS),
    explanation="docgen keeps a source form's words verbatim. Where they refer to something no "
    "document of the cycle provides (the Notice's Section I shifts the expenses \"related to "
    'the arbitration" and speaks of "the arbitrator", but neither the Notice nor Exhibit I '
    "provides for arbitration), the finding quotes the seed's words for counsel, who may supply "
    "the missing provision in a company template or confirm the words as they stand. Read from "
    "the templates' wording before anything renders.",
    reads=SOURCE,
    sources=(
        SourceText(
            notice("I"),
            "then insofar as such action is not deemed to be frivolous by the arbitrator, the "
            "Company shall bear all expenses related to the arbitration, including all legal "
            "fees incurred by you.",
        ),
    ),
    remedy="Supply the missing provision (`docgen templates --export`, then approve the "
    "company's template), or confirm the seed's words as they stand.",
)
def seed_undefined(copy: CheckedCopy, reading: Reading) -> list[str]:
    """Reported from the templates' wording by docgen.checker.seed_references, not per copy."""
    return []


@document_rule(
    "DOC-RETURN-PAGE",
    title="The part to be filed is not page 2 alone",
    severity="error",
    cites=(exhibit(), DESIGN_DOCUMENTS),
    explanation="Exhibit I tells the director that Sections III and IV are on Page 2 and that "
    "Page 2 is what must be filed with the Company. So the PDF must have exactly two pages, "
    "page 2 beginning with the line that names the director and the grant and ending with "
    "Section IV; the DOCX must break the page before that line and nowhere else, and is set "
    "in the form's own type size so that a word processor lays it out on two pages too. A "
    "long company or director name that pushes text over is caught here, before issue.",
    reads=READ_BACK,
    sources=(rsu_src.EXHIBIT_PAGE_2, rsu_src.EXHIBIT_FILED),
    remedy="Shorten what runs over (a long name, a drafted clause), or report the layout as a "
    "bug: a form whose page 2 is not the part to be filed cannot be issued.",
)
def return_page(copy: CheckedCopy, reading: Reading) -> list[str]:
    """The part to be filed, in the PDF's pages and at the DOCX's forced page starts."""
    part = copy.return_part
    if part is None:
        return []
    pages, starts = reading.pdf_pages, reading.docx_page_starts
    found = [f"PDF: {problem}" for problem in return_page_problems(pages, part)] if pages else []
    if starts is not None:
        found.extend(f"DOCX: {problem}" for problem in docx_return_problems(starts, part))
    return found
