"""Views of a check report: the text table (rich), plain text, Markdown and JSON text.

The HTML page for counsel is docgen.checker.report_html. A report is data (docgen.core.findings);
how it reads in a terminal or a file is decided here, each view safe for the program that shows
it (docgen.core.safe_text): no markup or escape sequence in a name or a file's name reaches the
terminal, and the Markdown is literal text (a name holding ``<!--`` hides nothing after it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docgen.core.findings import Report
from docgen.core.safe_text import for_terminal, json_text, markdown_text

if TYPE_CHECKING:
    from rich.console import RenderableType


def as_json(report: Report) -> str:
    import json

    return json_text(json.dumps(report.to_json_dict(), indent=2, ensure_ascii=False)) + "\n"


def as_rich(report: Report) -> RenderableType:
    """A table grouped by director or participant, severities in colour, a summary line."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    colour = {"error": "bold red", "warning": "yellow", "info": "cyan"}
    summary = Text(
        for_terminal(report.summary_line()), style="bold red" if report.errors else "bold green"
    )
    notes = [Text(for_terminal(line), style="dim") for line in notes_lines(report)]
    if not report.findings:
        return Group(Text("No findings."), *notes, summary)
    # Every cell and the title are Text, never a string rich would read as markup.
    title = Text(f"Findings: {for_terminal(report.facts.file)}")
    if len(report.findings) >= LARGE_REPORT:
        return Group(_findings_table(report, title, colour), *notes, summary)
    table = Table(show_lines=False, expand=True, title=title)
    table.add_column("subject", ratio=1, min_width=10, overflow="fold")
    table.add_column("severity", no_wrap=True)
    table.add_column("finding", ratio=3, min_width=24, overflow="fold")
    table.add_column("cites", ratio=1, min_width=16, overflow="fold")
    table.add_column("line", no_wrap=True, justify="right")
    for subject, findings in report.by_subject():
        for index, finding in enumerate(findings):
            cell = Text(finding.rule, style="bold")
            cell.append(f"\n{for_terminal(finding.message)}")
            if finding.remedy:
                cell.append(f" {for_terminal(finding.remedy)}", style="dim")
            table.add_row(
                Text(for_terminal(report.label(subject)) if index == 0 else ""),
                Text(finding.severity, style=colour[finding.severity]),
                cell,
                Text(for_terminal("; ".join(str(c) for c in finding.citations))),
                Text(str(finding.line) if finding.line else ""),
                end_section=index == len(findings) - 1,
            )
    return Group(table, *notes, summary)


# From this many findings the table is drawn by docgen.checker.findings_table (the same text as
# rich's Table, at a fiftieth of its cost); below it, by rich's Table.
LARGE_REPORT = 200


def _findings_table(report: Report, title: RenderableType, colour: dict[str, str]) -> Any:
    """The findings table of :func:`as_rich`, drawn cell by cell (findings_table)."""
    from docgen.checker.findings_table import Cell, Column, FindingsTable

    table = FindingsTable(
        title,
        [
            Column("subject", ratio=1, min_width=10, fold=True),
            Column("severity"),
            Column("finding", ratio=3, min_width=24, fold=True),
            Column("cites", ratio=1, min_width=16, fold=True),
            Column("line", right=True),
        ],
    )
    for subject, findings in report.by_subject():
        for index, finding in enumerate(findings):
            text = f"{finding.rule}\n{for_terminal(finding.message)}"
            runs = []  # the whole cell is bold, as rich's Text(rule, style="bold") makes it
            if finding.remedy:
                remedy = f" {for_terminal(finding.remedy)}"
                runs.append((len(text), len(text) + len(remedy), "dim"))
                text += remedy
            table.add_row(
                [
                    Cell(for_terminal(report.label(subject)) if index == 0 else ""),
                    Cell(finding.severity, colour[finding.severity]),
                    Cell(text, "bold", tuple(runs)),
                    Cell(for_terminal("; ".join(str(c) for c in finding.citations))),
                    Cell(str(finding.line) if finding.line else ""),
                ],
                end_section=index == len(findings) - 1,
            )
    return table


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
        f"- Summary: {report.summary['error']} errors, {report.summary['warning']} warnings, "
        f"{report.summary['info']} info",
        "",
    ]
    if not report.findings:
        lines.append("No findings.")
    lines += [*(f"- {md(line)}" for line in notes_lines(report)), ""] if notes_lines(report) else []
    for subject, findings in report.by_subject():
        lines += [
            f"## {md(report.label(subject))}",
            "",
            "| severity | rule | finding | cites | where |",
            "| --- | --- | --- | --- | --- |",
        ]
        for f in findings:
            text = f.message + (f" {f.remedy}" if f.remedy else "")
            where = md(f.path) + (f" (line {f.line})" if f.line else "")
            cites = "; ".join(str(c) for c in f.citations)
            lines.append(f"| {f.severity} | {md(f.rule)} | {md(text)} | {md(cites)} | {where} |")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
