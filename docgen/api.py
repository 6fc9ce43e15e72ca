"""What the command line calls: one function per command, each over the engine's layers.

The command line (docgen/cli.py, docgen/console/) imports only this module
of the engine; it parses options, calls one function here, and turns docgen's errors into
messages and exit codes. Heavy layers (rendering, issuing) are imported by the functions that
need them, so `docgen check` never loads a renderer; the types of their results are imported
for the type checker only (TYPE_CHECKING), at no cost to a start.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from docgen.checker.rules import Rule, UnknownRule, all_rules, get_rule
from docgen.checker.runner import StageError, resolve_stage, run_checks
from docgen.core.documents import FORMATS
from docgen.core.errors import QUOTE_LIMIT, DocgenError, LoadError, clipped
from docgen.core.findings import Report
from docgen.core.formats import amount_shown
from docgen.core.model import EARLIEST_DATE, LATEST_DATE
from docgen.core.output import OutputError, inputs_of_one_command, write_report
from docgen.core.safe_text import for_terminal
from docgen.kinds import ComputesPlan, PayDateTotals, RunsPayroll, all_kinds, kind_of
from docgen.load import LoadedFacts, load_facts
from docgen.load.offering import kind_offering
from docgen.load.proposal import propose_columns

# The types of the results, for annotations only (docgen.console.printers names them from here):
# their modules load when a function needs them.
if TYPE_CHECKING:
    from rich.console import RenderableType

    from docgen.checker.calendar import Format as CalendarFormat
    from docgen.core.clauses import ClauseReview
    from docgen.intake.approve import Approved, Shown
    from docgen.intake.decide import Decided
    from docgen.intake.forms import Recorded
    from docgen.intake.status import Status
    from docgen.issue.batch import BatchResult
    from docgen.issue.one import RenderResult
    from docgen.issue.section16 import Section16Result
    from docgen.issue.signing import Signing
    from docgen.issue.verify import FileCheck, FolderCheck, SignedFileCheck
    from docgen.issue.verify_drafts import DraftsCheck
    from docgen.kinds.registry import ComputeFormat
    from docgen.send.run import SendResult

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
    "amount_shown",
    "approve",
    "batch",
    "calendar",
    "check_loaded",
    "clauses",
    "clipped",
    "compute",
    "decide",
    "elect",
    "explain",
    "export_templates",
    "for_terminal",
    "get_rule",
    "intake",
    "json_schema",
    "load_facts",
    "render_one",
    "send",
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
    "inputs_of_one_command",
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
    """`docgen check`: the facts as loaded, and the report on them."""
    loaded = load_facts(path)
    return loaded, run_checks(loaded, as_of, stage)


def report_view(report: Report, view: str, loaded: LoadedFacts | None = None) -> RenderableType:
    """The report as ``rich`` (a renderable), or as the text of ``text``, ``json``, ``md`` or
    ``html``; the HTML page shows each drafted clause as it reads in the documents of ``loaded``."""
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
    kind = kind_offering(loaded, "has_compute", "no arithmetic to compute")
    assert isinstance(kind, ComputesPlan)  # kind_offering refused any other
    shown = cast("ComputeFormat", output_format)  # the command line offers no other
    return kind.compute(loaded.facts, shown)


def proxy(paths: Sequence[str | Path], fiscal_year_end: date, output_format: str) -> str:
    """`docgen proxy`: the Director Compensation table's stock award figures (Regulation S-K
    Item 402(k)) of one or more cycles for the fiscal year ending ``fiscal_year_end``, as ``csv``
    or ``html`` text (docgen.checker.proxy_table)."""
    from docgen.checker.proxy_table import ProxyFormat, figures

    shown = cast("ProxyFormat", output_format)  # the command line offers no other
    return figures([Path(p) for p in paths], fiscal_year_end, shown)


def export_ocf(
    path: str | Path, output: str | Path, as_of: date, issued: str | Path | None = None
) -> dict[str, Any]:
    """`docgen export-ocf`: the cycle as a validated Open Cap Format 1.2.0 bundle, a zip at
    ``output``; ``issued``: the issued folder whose Notices it lists (docgen.issue.ocf_bundle)."""
    from docgen.issue.ocf_bundle import export

    return export(Path(path), Path(output), as_of, None if issued is None else Path(issued))


def payroll(path: str | Path, output_format: str, pay_date: date | None = None) -> RenderableType:
    """`docgen payroll`: per participant, per paycheck, the Plan Compensation, the percentage in
    force, the deferral and the match with its cap (DESIGN.md, "The Plan's arithmetic"),
    ``csv`` or ``json`` text or ``text`` as a rich table; with ``pay_date``, that pay date's
    paychecks alone, in the facts' ``payroll.layout`` when they give one (A24)."""
    loaded = load_facts(path)
    kind = kind_offering(loaded, "has_payroll", "no payroll: only a Plan with pay periods has one")
    assert isinstance(kind, RunsPayroll)  # kind_offering refused any other
    shown = cast("ComputeFormat", output_format)  # the command line offers no other
    return kind.payroll(loaded.facts, shown, pay_date)


def columns(path: str | Path, kind_name: str, file_is: str | None = None) -> str:
    """`docgen columns`: a proposed ``columns:`` block (A24) for a spreadsheet as exported, each
    guess with its reason and each thing undecided marked FILL IN (docgen.load.proposal)."""
    return propose_columns(Path(path), kind_name, file_is)


def calendar(
    path: str | Path, output_format: str, as_of: date, *, loaded: LoadedFacts | None = None
) -> RenderableType:
    """`docgen calendar`: the election windows open on ``as_of``, ``csv`` or ``ics`` text or a
    ``table`` (rich). ``loaded``: ``path`` as already loaded."""
    from docgen.checker.calendar import render

    shown = cast("CalendarFormat", output_format)  # the command line offers no other
    return render((load_facts(path) if loaded is None else loaded).facts, shown, as_of)


def explain(rule_id: str) -> str:
    """`docgen explain`: one rule, its citations, the text it rests on and worked examples."""
    from docgen.checker.explain import explain_rule

    return explain_rule(rule_id)


def batch(path: str | Path, out: str | Path, **options: Any) -> BatchResult:
    """`docgen batch`: check the facts, then issue a stage's packets (docgen.issue.batch)."""
    from docgen.issue.batch import issue_batch

    return issue_batch(path, out, **options)


def forms_stage_missing(result: BatchResult, facts_file: str | Path) -> str | None:
    """The warning for a stage issued into an ``--out`` whose cycle has no folder of the stage
    that sends the blank forms (a grant stage without its elections stage): the issue is then a
    second complete record of the cycle, apart from the one that holds the forms sent."""
    from docgen.issue.layout import MANIFEST_NAME
    from docgen.kinds import get_kind

    kind = get_kind(result.report.facts.kind)
    forms_stage = kind.intake.stage if kind.intake is not None else None
    if forms_stage is None or result.report.stage == forms_stage or not result.packets:
        return None
    cycle_dir = result.folder.parent
    if (cycle_dir / forms_stage / MANIFEST_NAME).is_file():
        return None
    return (
        f"{cycle_dir} holds no {forms_stage} stage: the blank forms of cycle {result.cycle} were "
        f"not issued into this --out, so this {result.report.stage} stage is a second complete "
        f"record of the cycle, apart from the one that holds the forms sent. If they were issued "
        f"into another folder, issue this stage there instead (docgen batch {facts_file} --out "
        f"THAT_FOLDER --stage {result.report.stage}), so the cycle has one record; if the forms "
        "were never issued with docgen, nothing need change."
    )


def signing_key(config: str | Path | None, *, prompt: bool = False) -> Signing:
    """`--sign`: the company's key from the signing config (``config``, else the one
    DOCGEN_SIGN_CONFIG names), its passphrase from DOCGEN_SIGN_PASSPHRASE or, with ``prompt``,
    asked for; checked before anything is rendered (docgen.issue.signing)."""
    from docgen.issue.key_file import check_key_file
    from docgen.issue.signing import SigningConfig, load, passphrase

    named = SigningConfig.named(config)
    check_key_file(named)  # others may not write the key (docgen.issue.key_file)
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
    kind = kind_of(loaded.facts)
    if kind.intake is not None and stage in (None, kind.intake.stage):
        from docgen.send.letters import letter_reviews

        reviews += letter_reviews(loaded)  # the cover letters of `docgen send` (DESIGN.md A26)
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
) -> FileCheck | SignedFileCheck | list[FolderCheck] | DraftsCheck:
    """`docgen verify`: one issued PDF (a FileCheck, or a SignedFileCheck when the company
    certified it; ``trust``: the company's CA to check its signer against), a drafts folder or
    an OCF bundle (a DraftsCheck: docgen.issue.verify_drafts), or a stage folder or
    a cycle folder with every stage in it (a list of FolderChecks)."""
    target = Path(target)
    if target.suffix.lower() == ".zip" and trust is None:
        from docgen.issue.verify_drafts import verify_bundle

        return verify_bundle(target)
    if target.suffix.lower() == ".pdf" or target.is_file():
        return verify_document(target, trust)
    from docgen.issue.verify_drafts import is_drafts_folder, verify_drafts

    if is_drafts_folder(target):
        if trust is not None:
            raise BadOption("--trust: Form 4 drafts are not signed; verify them without it.")
        return verify_drafts(target)
    from docgen.issue.verify import verify_issued

    return verify_issued(target, trust)


def verify_document(
    path: str | Path, trust: str | Path | None = None
) -> FileCheck | SignedFileCheck:
    """`docgen verify FILE.pdf`: one issued PDF's certification judged (when signed) and the
    document re-made from the record it carries (docgen.issue.verify)."""
    from docgen.issue.verify import verify_pdf

    return verify_pdf(path, trust)


def intake(
    path: str | Path,
    forms: Sequence[str | Path],
    *,
    received_on: date,
    as_of: date,
    accept_name: str | None = None,
    trust: str | Path | None = None,
    sign_config: str | Path | None = None,
) -> Recorded:
    """`docgen intake`: returned forms recorded in the facts file, then checked; the forms
    refused are in ``Recorded.refused`` (``accept_name``: see docgen.intake.forms.intake). A
    certified form's certificate must chain to the company's CA: ``trust``, else the signing
    config's chain (``sign_config`` or DOCGEN_SIGN_CONFIG; docgen.intake.certified)."""
    from docgen.intake.certified import company_ca
    from docgen.intake.forms import intake as take_in

    return take_in(
        path,
        list(forms),
        received_on=received_on,
        as_of=as_of,
        accept_name=accept_name,
        company=company_ca(trust, sign_config),
    )


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


def status(
    path: str | Path,
    *,
    as_of: date,
    out: str | Path | None = None,
    checked: tuple[LoadedFacts, Report] | None = None,
) -> Status:
    """`docgen status`: who was sent a form, who has returned one, what is in effect (the day
    each was sent read from the folder ``out`` they were issued into). ``checked``: ``path`` as
    already loaded and checked as of ``as_of`` (`docgen check`'s report, at any stage): its
    findings are used instead of checking again (the workspace's, once per version)."""
    from docgen.intake.status import status as who

    return who(path, as_of=as_of, out=out, checked=checked)


def send(
    path: str | Path,
    out: str | Path,
    *,
    as_of: date,
    stage: str | None = None,
    eml: str | Path | None = None,
    smtp: bool = False,
    smtp_config: str | Path | None = None,
    ca_file: str | Path | None = None,
    password: str | None = None,
    dry_run: bool = False,
    reminders: bool = False,
    days_before: int | None = None,
    again: Sequence[str] = (),
) -> SendResult:
    """`docgen send`: the forms stage's issued forms mailed with the approved cover letter (or
    reminders), as .eml drafts into ``eml`` or through the company's server (``smtp``), each
    message recorded in the stage folder's send log (docgen.send.run)."""
    from docgen.send.run import send as mail
    from docgen.send.transport import smtp_settings

    if eml is not None and smtp:
        raise BadOption("--eml and --smtp: choose one (drafts to send yourself, or send now).")
    if days_before is not None and not reminders:
        raise BadOption("--days-before: only with --reminders.")
    if days_before is not None and days_before < 0:
        raise BadOption("--days-before: a number of days, 0 or more.")
    settings = None
    if smtp:
        facts = load_facts(path).facts
        sending = getattr(facts, "sending", None)
        settings = smtp_settings(
            sending.smtp if sending is not None else None,
            Path(smtp_config) if smtp_config else None,
            Path(ca_file) if ca_file else None,
        )
    elif smtp_config is not None or ca_file is not None:
        raise BadOption("--smtp-config and --ca-file: only with --smtp.")
    return mail(
        path,
        out,
        as_of=as_of,
        stage=stage,
        eml=Path(eml) if eml is not None else None,
        smtp=settings,
        password=password,
        dry_run=dry_run,
        reminders=reminders,
        days_before=days_before,
        again=tuple(again),
    )


def section16(
    path: str | Path, out: str | Path, *, as_of: date, only: tuple[str, ...] = ()
) -> Section16Result:
    """`docgen section16`: each director's Form 4 draft for the grant (EDGAR ownership XML and a
    readable PDF) written whole into ``out``/<grant>/section16/ with a manifest; ``only``: draft
    these directors only, keeping the others' drafts in the folder."""
    from docgen.issue.section16 import section16 as draft_all

    return draft_all(path, out, as_of=as_of, only=only)


def status_view(result: Status, view: str) -> RenderableType:
    """The status as ``rich`` (a table), ``json`` or ``csv`` text."""
    from docgen.intake import status as views

    return {"rich": views.as_rich, "json": views.as_json, "csv": views.as_csv}[view](result)


def warnings_by_words(warnings: Sequence[Any]) -> list[tuple[Any, tuple[str, ...]]]:
    """Each warning with the people it speaks for, in order: the same warning (the same words)
    for many people once, naming them all (docgen.core.finding_groups), every other one alone."""
    from docgen.core.finding_groups import finding_groups

    groups = {group.indexes[0]: group for group in finding_groups(warnings)}
    grouped = {index for group in groups.values() for index in group.indexes}
    lines: list[tuple[Any, tuple[str, ...]]] = []
    for index, finding in enumerate(warnings):
        if index in groups:
            lines.append((finding, groups[index].subjects))
        elif index not in grouped:
            lines.append((finding, (finding.subject,)))
    return lines


# ------------------------------------------------------------------ `docgen serve` (issue 41)
# The workspace's routes call the functions above, as the commands do; these few give it what a
# page needs beside them: its templates, the files a check read (to know when to check again),
# the stage folders issued, and a returned form read without recording it.


def web_page(template: str, context: Mapping[str, Any]) -> str:
    """`docgen serve`: one page of the workspace (templates/web/), rendered by the documents' one
    sandboxed, autoescaping, strict environment: whatever the facts hold prints as text."""
    from docgen.render.templating import environment

    return str(environment().get_template(f"web/{template}").render(**context))


def fact_files(loaded: LoadedFacts) -> list[Path]:
    """Every file a load and a check read: the facts file, its roster, the CSVs of filings it
    names and the company's templates folder (whose clauses counsel approves)."""
    return list(loaded.inputs)


def cycle_of(loaded: LoadedFacts) -> tuple[str, tuple[str, ...], str | None]:
    """The cycle's folder name, its kind's stages, and the stage that sends the forms."""
    kind = kind_of(loaded.facts)
    forms_stage = kind.intake.stage if kind.intake is not None else None
    return kind.cycle_name(loaded.facts), tuple(kind.stages), forms_stage


def issued_stages(out: str | Path, cycle: str) -> dict[str, dict[str, Any]]:
    """The manifest of each stage issued into ``out``/``cycle``/, by stage (docgen.issue.layout's
    MANIFEST_NAME; a manifest that does not read is left out: `docgen verify` says why)."""
    import json

    from docgen.issue.layout import MANIFEST_NAME

    found: dict[str, dict[str, Any]] = {}
    folder = Path(out) / cycle
    if not folder.is_dir():
        return found
    for manifest in sorted(folder.glob(f"*/{MANIFEST_NAME}")):
        try:
            found[manifest.parent.name] = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
    return found


def read_returned(path: str | Path, form: str | Path, *, received_on: date) -> Any:
    """`docgen serve`'s returned forms: what `docgen intake` would record from ``form`` (the
    Filing: its subject and its summary in words), read and validated as intake reads it, with
    nothing written; a form intake would refuse raises the same FormsRefused."""
    from docgen.intake.forms import read_returned as read

    return read(path, form, received_on=received_on)


def read_paper(
    loaded: LoadedFacts,
    subject: str,
    options: Mapping[str, str | list[str] | None],
    *,
    received_on: date,
    as_of: date,
) -> Any:
    """`docgen serve`'s paper forms: what `docgen elect` would record from ``options`` (the
    Filing) in ``loaded`` (the facts as the workspace loaded them, not read again), validated as
    elect validates them, with nothing written; a paper form elect would refuse raises the same
    FormsRefused."""
    from docgen.intake.forms import read_paper as read

    return read(loaded, subject, options, received_on=received_on, as_of=as_of)


def filing_words(filing: Any) -> list[tuple[str, list[tuple[str, str]]]]:
    """`docgen serve`'s returned forms: what a Filing (read_returned's, read_paper's) records, in
    words: (heading, [(label, value)]) per election, allocation or Beneficiaries recorded."""
    from docgen.intake.filing_words import filing_words as words

    return words(filing)


def pay_on_choices() -> tuple[tuple[str, str], ...]:
    """Exhibit I, Section III's payment options as (the value `docgen elect --pay-on` takes, the
    words the returned forms screen shows it in: docgen.intake.filing_words)."""
    from docgen.intake.filing_words import PAY_ON

    return tuple(PAY_ON.items())


def stated_kind(path: str | Path) -> str:
    """The kind a facts file states on its top-level ``kind:`` line, as the kind's title and
    name ("TITLE (NAME)"), read without loading the file (the workspace lists every file of a
    folder); what it cannot read there is said as such."""
    import re

    try:
        text = Path(path).read_text(encoding="utf-8-sig", errors="replace")
    except OSError:
        return "not readable"
    found = re.search(r"""^kind:[ \t]*(["']?)([A-Za-z0-9_-]+)\1[ \t]*(?:#.*)?$""", text, re.M)
    if found is None:
        return "no kind: line (docgen check says what it lacks)"
    titles = {kind.name: kind.title for kind in all_kinds()}
    name = found.group(2)
    return f"{titles[name]} ({name})" if name in titles else f"{name}: not a kind docgen knows"


def subject_ids(loaded: LoadedFacts) -> list[str]:
    """The ids of the file's people (directors, participants), in file order."""
    return [person.id for person in kind_of(loaded.facts).subjects(loaded.facts)]


def figures_of(loaded: LoadedFacts, ids: Collection[str]) -> dict[str, Any]:
    """`docgen compute --format json`, parsed, with the participants of ``ids`` alone: each
    participant's arithmetic is their own, so these are the figures the whole file gives them."""
    return _payroll_kind(loaded).figures_of(loaded.facts, ids)


def paychecks_of(loaded: LoadedFacts, ids: Collection[str]) -> dict[str, Any]:
    """`docgen payroll --format json`, parsed, with the participants of ``ids`` alone."""
    return _payroll_kind(loaded).paychecks_of(loaded.facts, ids)


def totals_by_pay_date(loaded: LoadedFacts) -> PayDateTotals:
    """Every participant's deferral and match added up per pay date, as `docgen payroll`'s rows
    give them, and the notes every participant shares: worked without writing the rows."""
    return _payroll_kind(loaded).totals_by_pay_date(loaded.facts)


def _payroll_kind(loaded: LoadedFacts) -> RunsPayroll[Any]:
    kind = kind_offering(loaded, "has_payroll", "no payroll: only a Plan with pay periods has one")
    assert isinstance(kind, RunsPayroll)  # kind_offering refused any other
    return kind


def has_payroll(loaded: LoadedFacts) -> bool:
    """Whether the file's kind works the Plan's arithmetic per paycheck (`docgen payroll`)."""
    return isinstance(kind_of(loaded.facts), RunsPayroll)


def paper_options(loaded: LoadedFacts) -> tuple[str, ...]:
    """The `docgen elect` options a paper form of this file's kind is recorded with (its
    FormIntake's, then who recorded it), or none when the kind takes no forms in."""
    hooks = kind_of(loaded.facts).intake
    if hooks is None:
        return ()
    accept = ("accept-name",) if "printed-name" in hooks.options else ()
    return (*hooks.options, "recorded-by", *accept)


def report_context(report: Report, loaded: LoadedFacts | None = None) -> dict[str, Any]:
    """The check report's content as data, as the HTML report shows it (findings grouped, each
    with its citations and quoted sources; each drafted clause with its words, its redline
    against the approved or built-in wording, and its approval): the workspace's findings and
    counsel's review pages."""
    from docgen.checker.clause_wording import clause_wording
    from docgen.checker.report_html import report_context as context

    wording = clause_wording(loaded, report) if loaded is not None else None
    return context(report, wording)


def approve(
    path: str | Path,
    wordings: Sequence[str] = (),
    *,
    by: str,
    on: date,
    all_shown: bool = False,
    shown: Shown | str | Path | None = None,
) -> Approved:
    """`docgen approve`: counsel's approval of each wording named (a drafted clause's id, or a
    company template's ``template.<name>``), or with ``all_shown`` of every wording the review
    ``shown`` holds, recorded in the facts file's clause_approvals with the words approved, as
    `docgen clauses`' block holds it. ``shown`` is what counsel read: a file `docgen clauses`
    wrote (text or JSON), or {wording id: SHA-256} as a screen showed them; a wording whose
    words changed since is refused by name (ApprovalRefused, exit 2, nothing written). Written
    as intake writes (docgen.intake.approve). The result lists the approvals written, those
    approved already, and the wordings still awaiting approval."""
    from docgen.intake.approve import approve as record
    from docgen.send.letters import letter_reviews

    def letters(loaded: LoadedFacts) -> list[ClauseReview]:
        """The cover letters of `docgen send`, which `docgen clauses` lists beside the clauses."""
        return letter_reviews(loaded) if kind_of(loaded.facts).intake is not None else []

    return record(
        path, wordings, by=by, on=on, all_shown=all_shown, shown=shown, more_wordings=letters
    )


def decide(
    path: str | Path,
    subject: str,
    form: int | None,
    *,
    in_effect: bool | None,
    reason: str | None = None,
    by: str | None = None,
    as_of: date,
    signature_seen_by: str | None = None,
) -> Decided:
    """`docgen decide`: form number ``form`` (from 1, in the order the facts hold the person's
    forms; None: their only one) of ``subject`` recorded as not in effect (``in_effect`` False,
    with ``reason`` and ``by``: status, reason, decided_by), or in effect again (``in_effect``
    True: the decision taken out; None: neither), and, given ``signature_seen_by``, who saw the
    director's signature on it, where the form is on record (the facts file, the CSV of
    filings, the roster row), as intake writes; then the person checked as of ``as_of``
    (docgen.intake.decide). A bad request is DecisionRefused (exit 2, nothing written)."""
    from docgen.intake.decide import decide as record

    return record(
        path,
        subject,
        form,
        in_effect=in_effect,
        reason=reason,
        by=by,
        as_of=as_of,
        signature_seen_by=signature_seen_by,
    )
