"""Views of a check report: the text table (rich), plain text, Markdown and JSON text.

The HTML page for counsel is docgen.checker.report_html. A report is data (docgen.core.findings);
how it reads in a terminal or a file is decided here, each view safe for the program that shows
it (docgen.core.safe_text): no markup or escape sequence in a name or a file's name reaches the
terminal, and the Markdown is literal text (a name holding ``<!--`` hides nothing after it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePath
from typing import TYPE_CHECKING

from docgen.core.finding_groups import sections
from docgen.core.findings import Finding, Report
from docgen.core.safe_text import for_terminal, json_text, markdown_text
from docgen.kinds import get_kind

if TYPE_CHECKING:
    from rich.console import RenderableType


def as_json(report: Report) -> str:
    import json

    return json_text(json.dumps(report.to_json_dict(), indent=2, ensure_ascii=False)) + "\n"


def as_rich(report: Report) -> RenderableType:
    """A table grouped by director or participant, severities in colour, a summary line; past
    MOST_ROWS rows, the findings counted by rule instead (:func:`_by_rule`)."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    summary = Text(
        for_terminal(report.summary_line()), style="bold red" if report.errors else "bold green"
    )
    notes = [Text(for_terminal(line), style="dim") for line in notes_lines(report)]
    if not report.findings:
        return Group(Text(_none_shown(report)), *notes, summary)
    sections = _rows(report)
    if sum(len(rows) for rows in sections) > MOST_ROWS:
        return Group(*_by_rule(report), *notes, summary)
    # Every cell and the title are Text, never a string rich would read as markup.
    title = Text(f"Findings: {for_terminal(report.facts.file)}")
    table = Table(show_lines=False, expand=True, title=title)
    table.add_column("subject", ratio=1, min_width=10, overflow="fold")
    table.add_column("severity", no_wrap=True)
    table.add_column("finding", ratio=3, min_width=24, overflow="fold")
    table.add_column("cites", ratio=1, min_width=16, overflow="fold")
    table.add_column("where", no_wrap=True, justify="right")
    for rows in sections:
        for index, row in enumerate(rows):
            cell = Text(row.rule, style="bold")
            cell.append(f"\n{row.message}")
            if row.remedy:
                cell.append(f" {row.remedy}", style="dim")
            if row.names:
                cell.append(f"\n{row.names}")
            table.add_row(
                Text(row.subject),
                Text(row.severity, style=COLOUR[row.severity]),
                cell,
                Text(row.cites),
                Text(row.where),
                end_section=index == len(rows) - 1,
            )
    return Group(table, *notes, summary)


COLOUR = {"error": "bold red", "warning": "yellow", "info": "cyan"}

# A table of more rows than this is more than anyone reads in a terminal: the terminal gets the
# findings counted by rule, and the formats made for long reports (HTML, JSON, Markdown) list
# each one.
MOST_ROWS = 300


def _by_rule(report: Report) -> list[RenderableType]:
    """The findings counted by rule and severity (how many, about how many people), and where
    each one is listed."""
    from rich.table import Table
    from rich.text import Text

    found: dict[tuple[str, str], list[str]] = {}
    for finding in report.findings:
        found.setdefault((finding.severity, finding.rule), []).append(finding.subject)
    noun = get_kind(report.facts.kind).subject_noun
    title = Text(f"Findings by rule: {for_terminal(report.facts.file)}")
    table = Table(show_lines=False, title=title)
    table.add_column("severity", no_wrap=True)
    table.add_column("rule", no_wrap=True)
    table.add_column("findings", justify="right")
    table.add_column(f"{noun}s", justify="right")
    order = {severity: index for index, severity in enumerate(COLOUR)}
    for (severity, rule), subjects in sorted(
        found.items(), key=lambda item: (order[item[0][0]], item[0][1])
    ):
        table.add_row(
            Text(severity, style=COLOUR[severity]),
            Text(rule),
            str(len(subjects)),
            str(len(set(subjects))),
        )
    where = Text(
        f"{len(report.findings)} findings are too many to list here: `docgen check` with "
        "--format html -o FILE (a page for counsel), --format json or --format md lists each "
        "one with its citations and where its fact is written."
    )
    return [table, where]


@dataclass(frozen=True)
class _Row:
    """One row of the text table, every text safe for the terminal."""

    subject: str
    severity: str
    rule: str
    message: str
    remedy: str
    names: str  # for a group: the subjects it names
    cites: str
    where: str
    path: str  # the fact's path (none for a group, whose facts are many)


def _rows(report: Report, safe: Callable[[str], str] = for_terminal) -> list[list[_Row]]:
    """The text table's rows, section by section: a subject's own findings (its label on the
    first), or one group of the same finding about many (its count, and the subjects named).
    Every text passes through ``safe`` (for the terminal; Markdown escapes its own)."""
    noun = get_kind(report.facts.kind).subject_noun
    result = []
    for section in sections(report.findings):
        rows = []
        for index, finding in enumerate(section.findings):
            group = section.group
            if group is not None:
                subject = f"{len(group.subjects)} {noun}s"
                names = safe(", ".join(group.subjects))
                located = ", ".join(
                    beside(report, f) for f in group.files if f != report.facts.file
                )
            else:
                first = index == 0 and section.subject is not None
                subject = report.label(finding.subject) if first else ""
                names, located = "", where(report, finding)
            rows.append(
                _Row(
                    safe(subject),
                    finding.severity,
                    finding.rule,
                    safe(finding.message),
                    safe(finding.remedy),
                    names,
                    safe("; ".join(str(c) for c in finding.citations)),
                    safe(located),
                    "" if group is not None else finding.path,
                )
            )
            if group is not None:
                break  # one row for the group
        result.append(rows)
    return result


def _none_shown(report: Report) -> str:
    if report.left_out:
        return f"No findings at {report.min_severity} or above."
    return "No findings."


def where(report: Report, finding: Finding) -> str:
    """Where a finding's fact is written: its line in the facts file the report is about, else
    ``file:line`` in the file that holds it, with the column for a CSV cell (``roster.csv:2:10``:
    line 2, the tenth cell of the row, a spreadsheet's column J). A file beside the facts file
    is named as the facts file names it, without the folder the report's title already gives."""
    if finding.file and finding.file != report.facts.file and finding.line:
        return beside(report, finding.file) + finding.where.removeprefix(finding.file)
    return str(finding.line) if finding.line else ""


def beside(report: Report, file: str) -> str:
    """``file`` without its folder when it is the facts file's folder."""
    path = PurePath(file)
    return path.name if path.parent == PurePath(report.facts.file).parent else file


def notes_lines(report: Report) -> list[str]:
    """What the report says beside its findings: the drafted clauses and the defaulted terms."""
    lines = []
    drafted = [review for review in report.clauses if review.unit == "clause"]
    if drafted:
        approved = sum(1 for review in drafted if review.approved)
        lines.append(
            f"Drafted clauses in this stage's documents: {len(drafted)}, "
            f"{approved} approved by counsel (`docgen clauses {report.facts.file}` shows each)."
        )
    own = [review for review in report.clauses if review.source != "built-in"]
    if own:
        lines.append(
            "The company's own templates (templates_dir) replace the built-ins: "
            + "; ".join(f"{r.source} ({r.id}): {r.status_words()}" for r in own)
            + "."
        )
    if report.defaulted:
        lines.append(
            "Taken by default (not set in the facts file): "
            + "; ".join(f"{t.path} = {t.value} ({t.source})" for t in report.defaulted)
            + "."
        )
    return lines


def as_text(report: Report, width: int = 140) -> str:
    """The text table without colour, for a file."""
    import io

    from rich.console import Console

    buffer = io.StringIO()
    console = Console(
        file=buffer, width=width, no_color=True, highlight=False, markup=False, emoji=False
    )
    console.print(as_rich(report))
    return buffer.getvalue()


# The heading of each part of a report's findings (every error first, Report.build), by severity.
PART_HEADINGS = {
    "error": "Errors: each stops an issue",
    "warning": "Warnings: matters for judgment",
    "info": "For information",
}


def as_markdown(report: Report) -> str:
    """CommonMark (with GitHub tables): every text from the facts or a finding is literal
    (docgen.core.safe_text.markdown_text), so no name can open a comment, a tag or a link."""
    md = markdown_text
    lines = [
        f"# Compliance review: {md(report.facts.file)}",
        "",
        f"- Facts: {md(report.facts.file)} ({md(report.facts.kind)}), SHA-256 "
        f"{md(report.facts.sha256)}",
        f"- As of: {report.as_of.isoformat()}; stage: {md(report.stage)}",
        f"- Summary: {md(report.summary_line().removeprefix(report.facts.file + ': '))}",
        "",
    ]
    if not report.findings:
        lines.append(_none_shown(report))
    lines += [*(f"- {md(line)}" for line in notes_lines(report)), ""] if notes_lines(report) else []
    header = ["| severity | rule | finding | cites | where |", "| --- | --- | --- | --- | --- |"]
    part = None
    for rows in _rows(report, str):
        if rows[0].severity != part:
            part = rows[0].severity
            lines += [f"## {PART_HEADINGS[part]}", ""]
        lines += [f"### {md(rows[0].subject)}", "", *header]
        for row in rows:
            text = row.message + (f" {row.remedy}" if row.remedy else "")
            text += f" ({row.names})" if row.names else ""
            at = f"line {row.where}" if row.where.isdigit() else row.where
            where_cell = md(row.path) + (f" ({md(at)})" if at and row.path else md(at))
            lines.append(
                f"| {row.severity} | {md(row.rule)} | {md(text)} | {md(row.cites)} | {where_cell} |"
            )
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
