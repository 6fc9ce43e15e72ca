"""What the command line calls: one function per command, each over the engine's layers.

The command line (docgen/cli.py, docgen/cli_forms.py, docgen/console/) imports only this module
of the engine; it parses options, calls one function here, and turns docgen's errors into
messages and exit codes. Heavy layers (rendering, issuing) are imported by the functions that
need them, so `docgen check` never loads a renderer; the types of their results are imported
for the type checker only (TYPE_CHECKING), at no cost to a start.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from docgen.checker.rules import Rule, UnknownRule, all_rules, get_rule
from docgen.checker.runner import StageError, resolve_stage, run_checks
from docgen.core.documents import FORMATS
from docgen.core.errors import QUOTE_LIMIT, DocgenError, LoadError, Problem, clipped
from docgen.core.findings import Report
from docgen.core.model import EARLIEST_DATE, LATEST_DATE
from docgen.core.output import OutputError, write_report
from docgen.core.safe_text import for_terminal
from docgen.kinds import all_kinds, kind_of
from docgen.load import LoadedFacts, load_facts
from docgen.load.heap import collector_asleep

# The types of the results, for annotations only (docgen.console.printers names them from here):
# their modules load when a function needs them.
if TYPE_CHECKING:
    from rich.console import RenderableType

    from docgen.checker.calendar import Format as CalendarFormat
    from docgen.intake.forms import Recorded
    from docgen.intake.status import Status
    from docgen.issue.batch import BatchResult
    from docgen.issue.one import RenderResult
    from docgen.issue.section16 import Section16Result
    from docgen.issue.signing import Signing
    from docgen.issue.verify import FolderCheck
    from docgen.issue.verify_file import FileCheck
    from docgen.issue.verify_signed import SignedFileCheck
    from docgen.kinds.registry import ComputeFormat

RENDER_FORMATS = FORMATS  # what `docgen render --to` makes

DATE_RANGE = (EARLIEST_DATE, LATEST_DATE)  # the dates a facts file and --as-of may name

__all__ = [
    "DATE_RANGE",
    "QUOTE_LIMIT",
    "DocgenError",
    "LoadError",
    "OutputError",
    "Rule",
    "StageError",
    "UnknownRule",
    "all_rules",
    "batch",
    "calendar",
    "check_loaded",
    "clauses",
    "clipped",
    "compute",
    "elect",
    "explain",
    "export_templates",
    "for_terminal",
    "get_rule",
    "intake",
    "json_schema",
    "load_facts",
    "render_one",
    "signing_key",
    "report_view",
    "resolve_stage",
    "run_checks",
    "stage_help",
    "status",
    "status_view",
    "validate",
    "verify",
    "verify_document",
    "write_report",
]


class BadOption(DocgenError, ValueError):
    """A command-line option docgen cannot use as given. Exit code 2."""


def validate(path: str | Path) -> tuple[LoadedFacts, str]:
    """Load a facts file; return it and a one-line summary ("ok (kind, 3 directors)")."""
    loaded = load_facts(path)
    kind = kind_of(loaded.facts)
    count = len(kind.subjects(loaded.facts))
    noun = kind.subject_noun + ("s" if count != 1 else "")
    return loaded, f"{loaded.source.file}: ok ({kind.name}, {count} {noun})"


def json_schema() -> dict[str, Any]:
    """The JSON Schema of every kind of facts file, for `docgen schema` and editors."""
    from typing import Annotated, Union

    from pydantic import Field, TypeAdapter

    # The union of the registered kinds' models is made at run time, so it is a value to the
    # type checker (Any), not a type it could check.
    models = tuple(kind.model for kind in all_kinds())
    union: Any = models[0] if len(models) == 1 else Union[models]  # noqa: UP007
    facts_file: Any = Annotated[union, Field(discriminator="kind")]
    schema = TypeAdapter(facts_file).json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "docgen fact file"
    return schema


def check_loaded(
    path: str | Path, as_of: date, stage: str | None = None
) -> tuple[LoadedFacts, Report]:
    """`docgen check`: the facts as loaded, and the report on them.

    The cycle collector sleeps through the load and the rules (docgen.load.heap): a large roster
    is a million objects with no cycles, and each collection the rules' allocations would set off
    rescans all of them (measured: 10,000 participants checked in 1.67 s awake, 1.14 s asleep).
    """
    with collector_asleep():
        loaded = load_facts(path)
        return loaded, run_checks(loaded, as_of, stage)


def report_view(report: Report, view: str, loaded: LoadedFacts | None = None) -> RenderableType:
    """The report as ``rich`` (a renderable), or as the text of ``text``, ``json``, ``md`` or
    ``html``; the HTML page shows each drafted clause as it reads in the documents of ``loaded``."""
    with collector_asleep():  # the loaded roster is still alive: see check_loaded
        return _report_view(report, view, loaded)


def _report_view(report: Report, view: str, loaded: LoadedFacts | None) -> RenderableType:
    from docgen.checker import views

    if view == "html":
        from docgen.checker.clause_wording import clause_wording
        from docgen.checker.report_html import render_report_html

        wording = clause_wording(loaded, report) if loaded is not None else None
        return render_report_html(report, wording)
    return {
        "rich": views.as_rich,
        "text": views.as_text,
        "json": views.as_json,
        "md": views.as_markdown,
    }[view](report)


def stage_help() -> str:
    """The stages each kind has, its default first, for `--stage`'s help."""
    return " ".join(
        f"{kind.title}: {' or '.join(kind.stages)} (default {kind.stages[0]}"
        f"{'; check chooses by --as-of' if kind.chooses_stage_by_date else ''})."
        for kind in all_kinds()
    )


def compute(path: str | Path, output_format: str) -> RenderableType:
    """The Plan's arithmetic for a kind that has one (`docgen compute`): ``json`` or ``csv``
    text, or ``text`` as a rich table."""
    loaded = load_facts(path)
    kind = kind_of(loaded.facts)
    if not kind.has_compute:
        having = [k.name for k in all_kinds() if k.has_compute]
        raise LoadError(
            [
                Problem(
                    loaded.source.file,
                    loaded.source.line_of(("kind",)),
                    "kind",
                    f"a {kind.name} file has no arithmetic to compute",
                    kind.name,
                    f"Give a file of kind {' or '.join(having)} (see samples/).",
                )
            ]
        )
    shown = cast("ComputeFormat", output_format)  # the command line offers no other
    return kind.compute(loaded.facts, shown)


def calendar(path: str | Path, output_format: str, as_of: date) -> RenderableType:
    """`docgen calendar`: the election windows open on ``as_of``, ``csv`` or ``ics`` text or a
    ``table`` (rich)."""
    from docgen.checker.calendar import render

    shown = cast("CalendarFormat", output_format)  # the command line offers no other
    return render(load_facts(path).facts, shown, as_of)


def explain(rule_id: str) -> str:
    """`docgen explain`: one rule, its citations, the text it rests on and worked examples."""
    from docgen.checker.explain import explain_rule

    return explain_rule(rule_id)


def batch(path: str | Path, out: str | Path, **options: Any) -> BatchResult:
    """`docgen batch`: check the facts, then issue a stage's packets (docgen.issue.batch)."""
    from docgen.issue.batch import issue_batch

    return issue_batch(path, out, **options)


def signing_key(config: str | Path | None, *, prompt: bool = False) -> Signing:
    """`--sign`: the company's key from the signing config (``config``, else the one
    DOCGEN_SIGN_CONFIG names), its passphrase from DOCGEN_SIGN_PASSPHRASE or, with ``prompt``,
    asked for; checked before anything is rendered (docgen.issue.signing)."""
    from docgen.issue.signing import SigningConfig, load, passphrase

    named = SigningConfig.named(config)
    return load(named, passphrase(prompt))


def render_one(
    path: str | Path, doc: str, subject: str, fmt: str, output: Path | None, **options: Any
) -> RenderResult:
    """`docgen render`: one subject's packet issued (pdf, docx), or a preview or review copy."""
    from docgen.issue.one import render_one as render

    return render(path, doc, subject, fmt, output, **options)


def clauses(
    path: str | Path,
    output_format: str = "text",
    *,
    stage: str | None = None,
    by: str | None = None,
    on: date | None = None,
) -> str:
    """`docgen clauses`: every drafted clause the cycle's documents carry, with its text, SHA-256
    and approval, and the clause_approvals block to paste. Reads a first-release facts file
    (drafted_clauses_approved_by) too, since this is how to move on from it."""
    from docgen.checker.clause_views import clauses_view
    from docgen.checker.clauses import review_clauses

    if by is not None and not by.strip():
        raise BadOption("--by: write counsel's name, e.g. --by 'A. Counsel'.")
    loaded = load_facts(path, migrating=True)
    if stage is not None:
        stage = resolve_stage(loaded.facts, stage)
    reviews = review_clauses(loaded, stage)
    return clauses_view(
        loaded,
        reviews,
        output_format,
        stage=stage,
        by=by,
        on=on.isoformat() if on else None,
    )


EXPORTED_NOTE = (
    "Edit them (its README.txt says how), then name the folder in the facts file as "
    "templates_dir: FOLDER, with the folder beside the facts file."
)


def export_templates(folder: str | Path) -> list[Path]:
    """`docgen templates --export DIR`: the built-in templates, for a company to edit."""
    from docgen.render.overrides import export_templates as export

    return export(folder)


def verify(
    target: str | Path, trust: str | Path | None = None
) -> FileCheck | SignedFileCheck | list[FolderCheck]:
    """`docgen verify`: one issued PDF (a FileCheck, or a SignedFileCheck when the company
    certified it; ``trust``: the company's CA to check its signer against), or a stage folder or
    a cycle folder with every stage in it (a list of FolderChecks)."""
    target = Path(target)
    if target.suffix.lower() == ".pdf" or target.is_file():
        return verify_document(target, trust)
    if trust is not None:
        raise BadOption(
            f"--trust checks who signed one PDF: name the file, e.g. {target}/jsmith/notice.pdf."
        )
    from docgen.issue.verify_cycle import verify_issued

    return verify_issued(target)


def verify_document(
    path: str | Path, trust: str | Path | None = None
) -> FileCheck | SignedFileCheck:
    """`docgen verify FILE.pdf`: one issued PDF's certification judged (when signed) and the
    document re-made from the record it carries (docgen.issue.verify_signed)."""
    from docgen.issue.verify_signed import verify_pdf

    return verify_pdf(path, trust)


def intake(
    path: str | Path, forms: Sequence[str | Path], *, received_on: date, as_of: date
) -> Recorded:
    """`docgen intake`: returned forms recorded in the facts file, then checked."""
    from docgen.intake.forms import intake as take_in

    return take_in(path, list(forms), received_on=received_on, as_of=as_of)


def elect(
    path: str | Path,
    subject: str,
    options: Mapping[str, str | list[str] | None],
    *,
    received_on: date,
    as_of: date,
) -> Recorded:
    """`docgen elect`: a paper form's content recorded in the facts file, then checked;
    ``options`` are the form's fields by their option's name (``pay-on``, ``allocation``...)."""
    from docgen.intake.forms import elect as record

    return record(path, subject, options, received_on=received_on, as_of=as_of)


def status(path: str | Path, *, as_of: date, out: str | Path | None = None) -> Status:
    """`docgen status`: who was sent a form, who has returned one, what is in effect (the day
    each was sent read from the folder ``out`` they were issued into)."""
    from docgen.intake.status import status as who

    return who(path, as_of=as_of, out=out)


def section16(path: str | Path, out: str | Path, *, as_of: date) -> Section16Result:
    """`docgen section16`: each director's Form 4 draft for the grant (EDGAR ownership XML and a
    readable PDF) written whole into ``out``/<grant>/section16/ with a manifest."""
    from docgen.issue.section16 import section16 as draft_all

    return draft_all(path, out, as_of=as_of)


def status_view(result: Status, view: str) -> RenderableType:
    """The status as ``rich`` (a table), ``json`` or ``csv`` text."""
    from docgen.intake import status as views

    return {"rich": views.as_rich, "json": views.as_json, "csv": views.as_csv}[view](result)
