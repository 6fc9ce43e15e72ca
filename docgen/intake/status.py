"""`docgen status`: who was sent a form, who has returned one and when, whether what they
returned is in effect, and how many days each has left to file.

"Sent" comes from the issued folder of the stage that sends the blank forms (``--out``): its
manifest lists each subject's documents, each with the day it was issued. Folders are looked for as
``OUT/<cycle>/<stage>/`` (DESIGN.md, "Stages and issued folders"), and ``OUT`` itself may be that
folder; a folder the first release wrote at ``OUT/<cycle>/`` is refused with the commands that move
it into place. "In effect" is the kind's own terms (the election in force skips a form not in
effect), and no error finding about the form: the checker runs over the record as `docgen intake`
does.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from docgen.checker.runner import about_the_record, run_checks
from docgen.core.dates import long_date
from docgen.core.findings import Finding, Report
from docgen.core.model import fact_path
from docgen.core.safe_text import csv_text
from docgen.core.windows import FilingDue
from docgen.issue.files import BadRequest
from docgen.issue.layout import MANIFEST_NAME
from docgen.issue.manifest import FirstReleaseFolder, NotAnIssuedFolder, read
from docgen.issue.sent_log import SentLogUnreadable, read_log
from docgen.kinds import kind_of
from docgen.load import LoadedFacts, load_facts

COLUMNS = (
    "subject",
    "name",
    "sent_on",
    "returned",
    "returned_on",
    "election",
    "in_effect",
    "why_not",
    "deadline",
    "days_left",
    "file",
    "line",
    "emailed_on",
)


@dataclass(frozen=True)
class StatusRow:
    subject: str
    name: str
    sent_on: date | None  # None: not sent, or no issued folder given (see Status.sent_from)
    returned: int  # forms on record for this cycle
    returned_on: date | None  # the last one's filing day
    election: str  # what is in effect, in short (an earlier cycle's form rolled over, too)
    in_effect: bool  # some election is in effect
    why_not: str  # for a returned form not in effect: the decision or the finding
    deadline: date | None
    days_left: int | None  # negative once the deadline has passed
    file: str = ""  # where the person's record begins: their roster row, or their facts entry
    line: int | None = None
    # The day `docgen send` last e-mailed (or drafted) their form, from the stage folder's send
    # log (docgen.issue.sent_log); None: not e-mailed, or no --out given.
    emailed_on: date | None = None


@dataclass(frozen=True)
class Status:
    facts: str
    cycle: str
    document: str
    as_of: date
    sent_from: str | None  # the manifest consulted
    rows: list[StatusRow]
    filings: list[FilingDue] = field(default_factory=list)  # owed after the cycle (Form 4s)

    def to_json_dict(self) -> dict[str, Any]:
        def plain(value: Any) -> Any:
            return value.isoformat() if isinstance(value, date) else value

        return {
            "facts": self.facts,
            "cycle": self.cycle,
            "document": self.document,
            "as_of": self.as_of.isoformat(),
            "sent_from": self.sent_from,
            "summary": self.summary,
            "subjects": [{k: plain(v) for k, v in asdict(row).items()} for row in self.rows],
            "filings_due": [
                {k: plain(v) for k, v in asdict(filing).items()} for filing in self.filings
            ],
        }

    @property
    def summary(self) -> dict[str, int]:
        return {
            "forms_expected": len(self.rows),
            "returned": sum(1 for row in self.rows if row.returned),
            "in_effect": sum(1 for row in self.rows if row.in_effect),
            # a person with an election in effect awaits nothing, though it was made before
            # the form was sent (on a portal, say) and so is not counted as a return of it
            "awaited": sum(
                1
                for row in self.rows
                if not row.returned and not row.in_effect and (row.days_left or 0) >= 0
            ),
        }


def status(
    facts_path: str | Path,
    *,
    as_of: date,
    out: str | Path | None = None,
    checked: tuple[LoadedFacts, Report] | None = None,
) -> Status:
    """``checked``: the facts already loaded and checked as of ``as_of`` (at any stage, as
    `docgen check` does): their findings about the record are used, not a second run."""
    loaded = load_facts(facts_path) if checked is None else checked[0]
    facts = loaded.facts
    kind = kind_of(facts)
    hooks = kind.intake
    if hooks is None:
        raise BadRequest(f"{loaded.source.file}: a {kind.name} file sends no forms to return.")
    cycle = kind.cycle_name(facts)
    sent_from: str | None = None
    sent: dict[str, date] = {}
    emailed: dict[str, date] = {}
    if out is not None:
        sent_from, sent = sent_forms(Path(out), cycle, hooks.stage, hooks.document)
        emailed = emailed_on(Path(sent_from).parent)
    findings: Sequence[Finding]
    if checked is None:
        findings = run_checks(loaded, as_of, hooks.stage, issuing=False).findings
    else:
        findings = about_the_record(checked[1])
    errors = _errors_by_subject(findings, kind.subjects_field)
    rows = []
    for index, subject in enumerate(kind.subjects(facts)):
        if not hooks.expects_form(facts, subject):
            continue
        forms = hooks.returned(facts, subject)
        sent_on = sent.get(subject.id)
        # An election made before the form was sent (on the company's portal, say) is not a
        # return of that form: it is not counted as one, and its summary says when it was made.
        before = {
            number
            for number, form in enumerate(forms)
            if sent_on is not None and form.this_cycle and form.filed_on < sent_on
        }
        returned = [
            form for number, form in enumerate(forms) if form.this_cycle and number not in before
        ]
        reasons = []
        with_errors = set()
        for number, form in enumerate(forms):
            path = fact_path(kind.subjects_field, index, form.path)
            if form.not_in_effect:
                reasons.append(f"{form.filed_on}: {form.not_in_effect}")
            about = errors.get(fact_path(kind.subjects_field, index), ())
            found = [f"{form.filed_on}: {f.rule}" for p, f in about if _inside(p, path)]
            if found:
                with_errors.add(number)
            reasons += found
        governing = [
            form for number, form in enumerate(forms) if form.governs and number not in with_errors
        ]
        deadline = hooks.deadline(facts, subject)
        file, line = loaded.source.locate(fact_path(kind.subjects_field, index))
        rows.append(
            StatusRow(
                subject=subject.id,
                name=subject.name,
                sent_on=sent_on,
                returned=len(returned),
                returned_on=max((form.filed_on for form in returned), default=None),
                election=", ".join(
                    form.summary
                    + (
                        f" (made {form.filed_on}, before the form was sent)"
                        if forms.index(form) in before
                        else ""
                    )
                    for form in governing
                )
                or "-",
                in_effect=bool(governing),
                why_not="; ".join(reasons) if forms else "",
                deadline=deadline,
                days_left=(deadline - as_of).days if deadline is not None else None,
                file=file,
                line=line,
                emailed_on=emailed.get(subject.id),
            )
        )
    filings = kind.filings_due(facts)
    return Status(loaded.source.file, cycle, hooks.document, as_of, sent_from, rows, filings)


def emailed_on(folder: Path) -> dict[str, date]:
    """Who `docgen send` e-mailed (or drafted) a message for, the last day it did; nothing from
    a send log that is not as recorded (`docgen verify` says why)."""
    try:
        messages = read_log(folder)
    except SentLogUnreadable:
        return {}
    return {m.subject: date.fromisoformat(m.when[:10]) for m in messages if m.delivered}


def _errors_by_subject(
    findings: Sequence[Finding], field: str
) -> dict[str, list[tuple[str, Finding]]]:
    """The error findings by the subject entry their path lies in (``participants[12]``): a
    person's forms are looked for in their own errors, not in every error of the cycle (at
    10,000 participants that was 9 million comparisons)."""
    errors: dict[str, list[tuple[str, Finding]]] = {}
    for finding in findings:
        if finding.severity != "error" or not finding.path.startswith(field + "["):
            continue
        entry = finding.path[: finding.path.index("]") + 1]
        errors.setdefault(entry, []).append((finding.path, finding))
    return errors


def _inside(path: str, prefix: str) -> bool:
    return path == prefix or path.startswith((prefix + ".", prefix + "["))


def sent_forms(out: Path, cycle: str, stage: str, document: str) -> tuple[str, dict[str, date]]:
    """The manifest of the issued folder that sent the blank forms, and who got one, when."""
    candidates = [out / cycle / stage, out / cycle, out / stage, out]
    looked = []
    for folder in dict.fromkeys(candidates):
        if not (folder / MANIFEST_NAME).is_file():
            continue
        try:
            manifest = read(folder)
        except FirstReleaseFolder:
            raise  # it says how to move the folder into its stage's place
        except NotAnIssuedFolder:
            continue
        if manifest.cycle != cycle or manifest.stage != stage:
            looked.append(f"{folder} (cycle {manifest.cycle}, stage {manifest.stage})")
            continue
        # A stage folder re-issued since keeps each copy's own issue date (issued_as_of).
        sent = {
            packet.subject: date.fromisoformat(doc.issued_as_of or manifest.as_of)
            for packet in manifest.packets
            for doc in packet.documents
            if doc.name == document
        }
        return str(folder / MANIFEST_NAME), sent
    found = f"; found only {', '.join(looked)}" if looked else ""
    raise BadRequest(
        f"--out {out}: no folder issued at stage {stage} for {cycle} (looked for "
        f"{out / cycle / stage}/{MANIFEST_NAME} and {out / cycle}/{MANIFEST_NAME}{found}). "
        f"Name the --out the blank forms were issued into with `docgen batch --stage {stage}`."
    )


# ----------------------------------------------------------------------------------- views


def as_rows(status: Status) -> list[dict[str, str]]:
    """Each row as text, for the table and CSV."""
    rows = []
    for row in status.rows:
        if row.days_left is None:
            left = "-"
        elif row.days_left < 0:
            left = f"closed {-row.days_left} day{'s' if row.days_left != -1 else ''} ago"
        else:
            left = str(row.days_left)
        if status.sent_from is None:
            sent = "?"
        else:
            sent = row.sent_on.isoformat() if row.sent_on else "not sent"
        rows.append(
            {
                "subject": row.subject,
                "name": row.name,
                "sent_on": sent,
                "emailed_on": row.emailed_on.isoformat() if row.emailed_on else "-",
                "returned": str(row.returned),
                "returned_on": row.returned_on.isoformat() if row.returned_on else "-",
                "election": row.election,
                "in_effect": "yes" if row.in_effect else ("no" if row.returned else "-"),
                "why_not": row.why_not,
                "deadline": row.deadline.isoformat() if row.deadline else "-",
                "days_left": left,
            }
        )
    return rows


def as_csv(status: Status) -> str:
    """RFC 4180 CSV (CRLF), each cell safe to open in a spreadsheet: docgen's one CSV writer
    (docgen.core.safe_text.csv_text), so a name typed as a formula is never run."""
    rows = []
    for row in status.rows:
        cells = {
            **{k: ("" if v is None else v) for k, v in asdict(row).items()},
            "in_effect": "yes" if row.in_effect else "no",
        }
        rows.append([cells[column] for column in COLUMNS])
    return csv_text(COLUMNS, rows)


def as_json(status: Status) -> str:
    return json.dumps(status.to_json_dict(), indent=2, ensure_ascii=False) + "\n"


# The text table's columns: header -> the as_rows key it shows. The ids and dates keep to one line.
_TABLE = {
    "id": "subject",
    "name": "name",
    "sent": "sent_on",
    "e-mailed": "emailed_on",
    "returned": "returned_on",
    "in effect": "election",
    "not in effect because": "why_not",
    "last day": "deadline",
    "days left": "days_left",
}
_ONE_LINE = ("id", "sent", "e-mailed", "last day", "days left")


class _StatusTable:
    """The status rows as a rich table whose texts keep their words whole: each wrapping column
    is at least as wide as its longest word (a rule id folded in two, RSU-ELECTION-FU / TURE,
    names no rule; "Muñoz-Qui / ñones" is no name), up to 32 characters, beyond which a word
    still folds. Where the terminal is too narrow for every column at that width, rich folds."""

    def __init__(self, title: str, rows: list[dict[str, str]]):
        self.title = title
        self.rows = rows
        # "e-mailed" only once `docgen send` has sent something: a table of forms never
        # e-mailed keeps its room for the others.
        mailed = any(row["emailed_on"] != "-" for row in rows)
        self.columns = {h: k for h, k in _TABLE.items() if mailed or k != "emailed_on"}

    def _table(self, widths: dict[str, int] | None) -> Any:
        from rich.table import Table

        table = Table(title=self.title, expand=widths is None)
        for header in self.columns:
            width = widths.get(header) if widths else None
            short = header in _ONE_LINE
            table.add_column(header, overflow="fold", no_wrap=short, width=width)
        for row in self.rows:
            table.add_row(*(self._cell(row, key) for key in self.columns.values()))
        return table

    @staticmethod
    def _cell(row: dict[str, str], key: str) -> str:
        if key != "returned_on":
            return row[key]
        returned = row["returned_on"] if row["returned"] != "0" else "no"
        if row["returned"] not in ("0", "1"):
            returned += f" ({row['returned']} forms)"
        return returned

    def _widths(self, available: int) -> dict[str, int] | None:
        """Each wrapping column's width: its longest word (up to 32), and of the room left over a
        share in proportion to how much more its longest text needs; None where even the
        longest words do not fit (rich then folds them)."""
        fixed, least, most = {}, {}, {}
        for header, key in self.columns.items():
            texts = [self._cell(row, key) for row in self.rows]
            if header in _ONE_LINE:
                fixed[header] = max((len(text) for text in texts), default=0)
                fixed[header] = max(fixed[header], len(header))
                continue
            words = [len(word) for text in [*texts, header] for word in text.split()]
            least[header] = min(max(words, default=1), 32)
            most[header] = max(least[header], *(len(text) for text in [*texts, header]))
        room = available - 3 * len(self.columns) - 1 - sum(fixed.values())
        if sum(least.values()) > room:
            return None
        spare = room - sum(least.values())
        wanted = sum(most[h] - least[h] for h in least) or 1
        widths = {
            h: least[h] + min(most[h] - least[h], spare * (most[h] - least[h]) // wanted)
            for h in least
        }
        return {**fixed, **widths}

    def __rich_console__(self, console: Any, options: Any) -> Any:
        yield self._table(self._widths(options.max_width))


def as_rich(status: Status) -> Any:
    from rich.console import Group
    from rich.text import Text

    table = _StatusTable(
        f"{status.document} forms, {status.cycle}, as of {long_date(status.as_of)}",
        as_rows(status),
    )
    counts = status.summary
    line = (
        f"{counts['returned']} of {counts['forms_expected']} returned, {counts['in_effect']} in "
        f"effect, {counts['awaited']} awaited before their deadline."
    )
    where = (
        f"Sent: from {status.sent_from}."
        if status.sent_from
        else ("Sent: not known (give --out, the folder the blank forms were issued into).")
    )
    return Group(table, Text(line, style="bold"), Text(where), *_filing_lines(status))


def _filing_lines(status: Status) -> list[Any]:
    """One line per filing owed after the cycle: due when, filed when (or days left)."""
    from rich.text import Text

    lines = []
    for filing in status.filings:
        if filing.due_on is None:
            when = f"due date not counted: {filing.note}"
        else:
            when = f"due {filing.due_on.isoformat()}"
        if filing.filed_on is not None:
            late = filing.due_on is not None and filing.filed_on > filing.due_on
            done = f"filed {filing.filed_on.isoformat()}" + (" (late)" if late else "")
        elif filing.due_on is not None:
            left = (filing.due_on - status.as_of).days
            days = f"{left} day{'' if left == 1 else 's'} left"
            done = f"not filed, {days}" if left >= 0 else "not filed, overdue"
        else:
            done = "not filed"
        lines.append(Text(f"{filing.document}: {filing.subject} ({filing.name}), {when}; {done}."))
    return lines
