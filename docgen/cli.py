"""The command line: a thin adapter. Each command parses options, calls one library function, and
prints its result; the one decorator every command carries (docgen.console.process.exits_on_error)
turns docgen's errors into a message and an exit code (0 ok, 1 findings or a failed verify,
2 bad input). No command prints a traceback for a user's mistake.

Unlike the rest of docgen, this module's annotations are not postponed (no ``from __future__
import annotations``): Typer reads every command's parameters from them each time the program
runs, and objects are read as they are, where strings would be evaluated again (604 of them).
"""

import inspect
import json
import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from typer.core import TyperGroup, TyperOption

from docgen import __version__, api
from docgen.console.options import (
    AsOf,
    FactsFile,
    IssuedOn,
    Output,
    as_of_option,
    format_option,
    output_option,
    parse_as_of,
    parse_date_option,
    parse_received_on,
)
from docgen.console.output import emit
from docgen.console.printers import (
    ProgressBar,
    print_approved,
    print_batch,
    print_decided,
    print_recorded,
    print_render,
    print_verified,
    rules_table,
)
from docgen.console.process import exit_flushed, exits_on_error, run
from docgen.console.terminal import err, out


class _StageOption(TyperOption):
    """``--stage``, whose help names each kind's stages (api.stage_help): worked out when the
    help is shown, so that a command that runs imports only the kind of the file it reads."""

    @property
    def help(self) -> str | None:
        given = self.__dict__.get("_given_help")
        return given + api.stage_help() if given == _STAGE_HELP else given

    @help.setter
    def help(self, value: str | None) -> None:
        self.__dict__["_given_help"] = value


class _InWorkOrder(TyperGroup):
    """Lists commands in the order of the work (load, check, issue, verify, then the tools)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for command in self.commands.values():
            for param in command.params:
                if type(param) is TyperOption and param.__dict__.get("help") == _STAGE_HELP:
                    given = param.__dict__.pop("help")
                    param.__class__ = _StageOption
                    param.help = given

    ORDER = (
        "validate check clauses approve batch render verify send intake elect decide status "
        "section16 compute payroll calendar proxy export-ocf rules explain templates schema "
        "columns"
    ).split()

    def list_commands(self, ctx):
        names = super().list_commands(ctx)
        return sorted(
            names, key=lambda n: self.ORDER.index(n) if n in self.ORDER else len(self.ORDER)
        )


app = typer.Typer(
    cls=_InWorkOrder,
    name="docgen",
    help="Plan facts in, director RSU grant packets and Retirement Restoration Plan paperwork "
    "out.\n\n"
    "docgen refuses to issue anything that breaks the plan or Code section 409A.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)


def _version(value: bool) -> None:
    if value:
        out.print(f"docgen {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", help="Print docgen's version and exit.", callback=_version, is_eager=True
        ),
    ] = False,
) -> None:
    """Plan facts in, compliant paperwork out."""


@app.command()
@exits_on_error
def validate(file: FactsFile) -> None:
    """Load FILE and report every problem with its file:line and field (exit 0 ok, 2 not)."""
    _, summary = api.validate(file)
    out.print(summary, markup=False)


@app.command()
@exits_on_error
def schema() -> None:
    """Print the JSON Schema of every kind of facts file."""
    sys.stdout.write(json.dumps(api.json_schema(), indent=2) + "\n")


class ComputeFormat(StrEnum):
    text = "text"
    json = "json"
    csv = "csv"


@app.command()
@exits_on_error
def compute(
    file: FactsFile,
    output_format: Annotated[
        ComputeFormat, format_option("text (a table), json or csv.")
    ] = ComputeFormat.text,
    output: Output = None,
) -> None:
    """The RRP's arithmetic per participant: deferral, match, restoration, vesting, payment date.

    Plan Compensation, the Elective Deferral, Matching and Retirement Restoration Contributions,
    vesting and the last day the Plan allows payment (docs/rrp-arithmetic.md). For a director
    grant: each director's Vesting Date or forfeiture, dividend-equivalent units, shares to
    deliver, Payment Date and delivery window."""
    emit(api.compute(file, output_format.value), output)


class PayrollFormat(StrEnum):
    csv = "csv"
    json = "json"
    text = "text"


@app.command()
@exits_on_error
def payroll(
    file: FactsFile,
    output_format: Annotated[
        PayrollFormat, format_option("csv (for payroll), json or text (a table).")
    ] = PayrollFormat.csv,
    output: Output = None,
    pay_date: Annotated[
        str | None,
        typer.Option(
            "--pay-date",
            help="One pay date's deductions and matches (YYYY-MM-DD): as csv, in the facts' "
            "payroll.layout when they give one (docs/payroll-layouts.md).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """The RRP payroll feed: per participant, per paycheck, the deferral and match to withhold.

    Each paycheck's salary and bonus, the year's pay through it, its Plan Compensation (the part
    above the 401(a)(17) limit, Plan 1.21), the election in force, the Elective Deferral (Plan
    3.03) and the match with its cap (Plan 3.04): `docgen compute`'s figures, paycheck by
    paycheck. Paychecks are the participants' pay_periods, or plan.pay_schedule's pay dates."""
    day = None if pay_date is None else parse_date_option("--pay-date", pay_date)
    emit(api.payroll(file, output_format.value, day), output, "payroll")


@app.command()
@exits_on_error
def columns(
    file: Annotated[Path, typer.Argument(help="The spreadsheet as exported (.csv or .xlsx).")],
    kind: Annotated[str, typer.Option("--kind", help="The kind of facts file it is for.")],
    file_is: Annotated[
        str | None,
        typer.Option(
            "--as",
            help="Which of the kind's files it is: participants or directors (the roster, the "
            "default), elections, beneficiaries, allocations.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Propose a columns: block for a spreadsheet as the company exports it (A24).

    Reads the header and a sample of rows and prints the block, each guess with its reason as a
    comment and each thing it cannot decide marked FILL IN. Nothing is read through it until you
    paste it under columns: in the facts file (docs/spreadsheets.md)."""
    sys.stdout.write(api.columns(file, kind, file_is))


class RenderFormat(StrEnum):
    """What `docgen render --to` makes: api.RENDER_FORMATS, in its order (tests/test_render.py)."""

    pdf = "pdf"
    docx = "docx"
    html = "html"


_STAGE_HELP = "The stage to check or issue. "  # and each kind's stages: _StageOption
_OUT_HELP = "Folder to issue into: the stage folder is OUT/<cycle>/<stage>/."
_HOLD_HELP = (
    "Issue every packet but this one; its findings do not stop the rest, and the manifest names "
    "it with them. Several: repeat it, or --hold A,B."
)
_ONLY_HELP = (
    "Re-issue just this packet into the issued stage folder; all else stays as it is. Several: "
    "repeat it, or --only A,B."
)
_FORCE_HELP = (
    "Render every packet again as of --as-of, even one whose facts are as issued (a document "
    "that comes out byte for byte the same stays as issued)."
)
_RENDER_OUT_HELP = "For pdf and docx: the folder batch issues into (OUT/<cycle>/<stage>/)."
_COPY_HELP = "Also write a copy here (for html or --review: where the file goes)."


_SIGN_HELP = (
    "Certify every issued PDF with the company's key (PAdES; no changes allowed after, or form "
    "filling for a blank form). The key: --sign-config or DOCGEN_SIGN_CONFIG; its passphrase: "
    "DOCGEN_SIGN_PASSPHRASE, or asked for."
)
_SIGN_CONFIG_HELP = (
    "The signing config (TOML: key = PKCS#12 or PEM file, optional chain and timestamp_url)."
)
Sign = Annotated[bool, typer.Option("--sign", help=_SIGN_HELP)]
SignConfig = Annotated[
    Path | None, typer.Option("--sign-config", help=_SIGN_CONFIG_HELP, show_default=False)
]


def _signing(sign: bool, config: Path | None):
    """The company's key when --sign asks for it (refused, exit 2, before anything renders)."""
    if not sign:
        if config is not None:
            raise api.DocgenError("--sign-config names a key for --sign: add --sign to sign.")
        return None
    return api.signing_key(config, prompt=sys.stdin.isatty())


def _ids(flag: str, words: str):
    """A repeatable option naming packets by their subject's id."""
    return typer.Option(
        flag, help=f"{words} An id as the facts write it; repeat for more.", show_default=False
    )


@app.command()
@exits_on_error
def batch(
    file: FactsFile,
    out_dir: Annotated[Path, typer.Option("--out", help=_OUT_HELP)],
    stage: Annotated[str | None, typer.Option(help=_STAGE_HELP, show_default=False)] = None,
    workers: Annotated[
        int | None, typer.Option(min=1, help="Worker processes (default: 2, or 1 on one core).")
    ] = None,
    as_of: IssuedOn = None,
    hold: Annotated[list[str] | None, _ids("--hold", _HOLD_HELP)] = None,
    only: Annotated[list[str] | None, _ids("--only", _ONLY_HELP)] = None,
    force: Annotated[bool, typer.Option("--force", help=_FORCE_HELP)] = False,
    sign: Sign = False,
    sign_config: SignConfig = None,
) -> None:
    """Check FILE, then issue a stage's packets into OUT/<cycle>/<stage>/ with a manifest.

    Stages sit side by side (OUT/2026-annual/elections/, .../grant/); OUT/<cycle>/returned/ is
    for forms sent back, and docgen never touches it. PDF and DOCX are read back (no blank,
    every key fact, the same text) and the stage folder is published whole. A re-issue issues
    the packets that changed, says which facts changed, and keeps what they replace in
    superseded/<n>/. An error finding writes nothing, unless it is about a packet held with
    --hold; a file docgen did not write in the stage folder stops a re-issue.
    Exit 0 issued, 1 refused, 2 bad input."""
    issued_on = parse_as_of(as_of)
    signing = _signing(sign, sign_config)
    bar = ProgressBar()
    try:
        result = api.batch(
            file,
            out_dir,
            stage=stage,
            as_of=issued_on,
            workers=workers,
            force=force,
            hold=hold or [],
            only=only or [],
            progress=bar,
            signing=signing,
        )
    finally:
        bar.stop()  # before a refusal's report is printed
    print_batch(result, file, out_dir, issued_on)


@app.command()
@exits_on_error
def render(
    file: FactsFile,
    doc: Annotated[str, typer.Option("--doc", help="Document name: notice, exhibit-i, ...")],
    subject: Annotated[str, typer.Option("--for", help="The director or participant id.")],
    to: Annotated[RenderFormat, typer.Option("--to", help="pdf, docx or html.")],
    out_dir: Annotated[Path | None, typer.Option("--out", help=_RENDER_OUT_HELP)] = None,
    output: Annotated[Path | None, output_option(_COPY_HELP)] = None,
    stage: Annotated[str | None, typer.Option(help=_STAGE_HELP, show_default=False)] = None,
    as_of: IssuedOn = None,
    review: Annotated[
        bool, typer.Option(help="Counsel's review copy (docx), not for issue.")
    ] = False,
    sign: Sign = False,
    sign_config: SignConfig = None,
) -> None:
    """Check FILE, then issue one document (pdf, docx), or write a preview or review copy.

    Every PDF or DOCX that leaves docgen is in a manifest: render issues the subject's packet
    into OUT/<cycle>/<stage>/ as `batch --only ID` does (changed: re-issued, the old copies kept
    in superseded/<n>/), and -o PATH gets a byte-for-byte copy of the issued file. --to html (a
    preview) and --review (counsel's DOCX, a comment per drafted clause) write to -o PATH and
    issue nothing. Errors about the subject or the cycle refuse. Exit 0 written, 1 refused, 2 bad
    input."""
    issued_on = parse_as_of(as_of)
    signing = _signing(sign, sign_config)
    result = api.render_one(
        file,
        doc,
        subject,
        to.value,
        output,
        out=out_dir,
        stage=stage,
        as_of=issued_on,
        review=review,
        signing=signing,
    )
    print_render(result)


@app.command()
@exits_on_error
def verify(
    target: Annotated[
        Path,
        typer.Argument(
            help="A stage folder (out/2026-annual/grant), a cycle folder (out/2026-annual), or "
            "one issued PDF, e.g. a Notice.",
            show_default=False,
        ),
    ],
    trust: Annotated[
        Path | None,
        typer.Option(
            "--trust",
            help="The company's CA certificate (PEM): a signed PDF verifies only when its "
            "signer's certificate chains to it.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Re-check an issued stage folder, every stage of a cycle, or one issued PDF on its own.

    A folder: compares every file's SHA-256 (superseded copies too), then reads every current
    document back: no blank, every key fact, the same text in PDF and DOCX; returned/ is not
    checked. A PDF (a Notice e-mailed away from its folder): makes it again from the record it
    carries and compares the bytes (the text, when this docgen is not the version that made it).
    A signed PDF: also who certified it (certificate, signing time, timestamp), whether anything
    changed after signing, and with --trust whether the signer is the company's; an unsigned one
    is only consistent with its own record, which proves nothing about who made it.
    Exit 0 intact (and, signed, the certification holds), 1 changed, 2 no such folder or file."""
    print_verified(api.verify(target, trust))


class CalendarFormat(StrEnum):
    table = "table"
    csv = "csv"
    ics = "ics"


@app.command()
@exits_on_error
def calendar(
    file: FactsFile,
    output_format: Annotated[
        CalendarFormat, format_option("table, csv or ics (RFC 5545).")
    ] = CalendarFormat.table,
    output: Output = None,
    as_of: Annotated[
        str | None, as_of_option("Show the windows still open on this date (default: today).")
    ] = None,
) -> None:
    """The election windows still open: who may elect, from when, until when, under which rule.

    Windows that closed before --as-of, or before their person was hired or first eligible,
    are left out. The .ics has one event per deadline (everyone who shares it named in it),
    with reminders a week and a day before."""
    shown_on = parse_as_of(as_of)
    emit(api.calendar(file, output_format.value, shown_on), output)


class CheckFormat(StrEnum):
    text = "text"
    json = "json"
    md = "md"
    html = "html"


MinSeverity = StrEnum("MinSeverity", {"error": "error", "warning": "warning", "info": "info"})


@app.command()
@exits_on_error
def check(
    file: FactsFile,
    as_of: AsOf = None,
    stage: Annotated[str | None, typer.Option(help=_STAGE_HELP, show_default=False)] = None,
    output_format: Annotated[
        CheckFormat, format_option("text (a table), json, md or html.")
    ] = CheckFormat.text,
    strict: Annotated[bool, typer.Option("--strict", help="Exit 1 on warnings too.")] = False,
    output: Annotated[
        Path | None, output_option("Write the report here instead of stdout.")
    ] = None,
    min_severity: Annotated[
        MinSeverity | None,
        typer.Option(
            "--min-severity",
            help="Show only findings this severe or more (error, warning or info; default: "
            "all). The summary counts those left out, and the exit code still follows them.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Run every rule over FILE and report the findings with their citations.

    Exit 0 no errors (with --strict: no warnings either), 1 findings, 2 bad input."""
    checked_on = parse_as_of(as_of)
    table = output_format is CheckFormat.text and output is None
    loaded, report = api.check_loaded(file, checked_on, stage)
    report = report.at_least(min_severity.value if min_severity else None)
    rendered = api.report_view(report, "rich" if table else output_format.value, loaded)
    if table:
        out.print(rendered)
    else:
        emit(rendered, output, report.summary_line())
    raise typer.Exit(report.exit_code(strict))


ClausesFormat = StrEnum("ClausesFormat", {"text": "text", "json": "json"})


@app.command()
@exits_on_error
def clauses(
    file: FactsFile,
    output_format: Annotated[ClausesFormat, format_option()] = ClausesFormat.text,
    stage: Annotated[str | None, typer.Option(help="Only this stage's documents.")] = None,
    by: Annotated[str | None, typer.Option(help="Counsel's name, for the block.")] = None,
    on: Annotated[str | None, typer.Option(help="The day counsel approved.")] = None,
    output: Annotated[Path | None, output_option("Write here.")] = None,
) -> None:
    """Every drafted clause (and company template) FILE's documents carry, for counsel.

    Each wording's id, documents, text as it reads, SHA-256, rationale, approval and, when
    stale, its redline; then the clause_approvals block to paste into FILE (approvals are bound
    to the wording and carry it)."""
    approved_on = parse_as_of(on) if on is not None else None
    emit(api.clauses(file, output_format.value, stage=stage, by=by, on=approved_on), output)


_WORDING_HELP = (
    "A wording to approve, by its id as `docgen clauses` lists it (a drafted clause, or "
    "template.<name> for a company template); repeat for more."
)
_SHOWN_HELP = (
    "The review counsel read: the file `docgen clauses FILE -o REVIEW` wrote (text or "
    "--format json). A wording whose words changed since is refused, named."
)


@app.command()
@exits_on_error
def approve(
    file: FactsFile,
    wording: Annotated[
        list[str] | None,
        typer.Option("--wording", metavar="ID", help=_WORDING_HELP, show_default=False),
    ] = None,
    all_shown: Annotated[
        bool, typer.Option("--all-shown", help="Approve every wording --shown holds.")
    ] = False,
    shown: Annotated[
        Path | None, typer.Option("--shown", help=_SHOWN_HELP, show_default=False)
    ] = None,
    by: Annotated[
        str | None, typer.Option(help="Counsel's name, as the record gives it.", show_default=False)
    ] = None,
    on: Annotated[
        str | None, typer.Option(help="The day counsel approved (default: today).")
    ] = None,
) -> None:
    """Record counsel's approval of a wording in FILE, with the words approved.

    Each approval goes into FILE's clause_approvals as `docgen clauses` prints the block: the
    wording's id, its SHA-256, --by, --on and the wording itself, so a later change shows as a
    redline. --shown REVIEW holds it to what counsel read: a wording that changed since, or that
    the review did not show, is refused by name and nothing is written. FILE is edited as
    `docgen intake` edits it (same lock; every other byte kept). Exit 0 recorded (or approved
    already), 2 refused."""
    approved_on = parse_date_option("--on", on) if on is not None else parse_as_of(None)
    result = api.approve(
        file, wording or [], by=by or "", on=approved_on, all_shown=all_shown, shown=shown
    )
    print_approved(result)


@app.command()
@exits_on_error
def decide(
    file: FactsFile,
    subject: Annotated[str, typer.Option("--for", help="The director or participant id.")],
    form: Annotated[
        int | None,
        typer.Option(
            "--form",
            metavar="N",
            help="Which of their forms on record, from 1 in the order the facts hold them "
            "(elections[0] is 1); may be left out when they have one.",
            show_default=False,
        ),
    ] = None,
    ineffective: Annotated[
        bool, typer.Option("--ineffective", help="The form is not in effect (status: ineffective).")
    ] = False,
    in_effect: Annotated[
        bool,
        typer.Option(
            "--in-effect", help="The form is in effect after all: the decision is taken out."
        ),
    ] = False,
    reason: Annotated[
        str | None, typer.Option(help="Why it is not in effect (recorded as reason).")
    ] = None,
    by: Annotated[
        str | None, typer.Option(help="Who decided (recorded as decided_by).", show_default=False)
    ] = None,
    signature_seen_by: Annotated[
        str | None,
        typer.Option(
            "--signature-seen-by",
            metavar="NAME",
            help="Exhibit I: who saw the director's signature on the form (recorded as "
            "signature_seen_by; the on-file copy then says the form was signed).",
            show_default=False,
        ),
    ] = None,
    as_of: AsOf = None,
) -> None:
    """Record a decision about a form on record: not in effect, in effect after all, or who saw
    the signature on it.

    --ineffective --reason WHY --by NAME writes status: ineffective, reason and decided_by on the
    form where it is on record (FILE, its elections_csv row, or the roster row's election_*
    cells), as `docgen intake` writes (same lock; every other byte kept); --in-effect takes them
    out. The form then governs nothing and its findings are info (DESIGN "Forms not in effect").
    --signature-seen-by NAME (alone or with either) records who saw the director's signature on
    an Exhibit I, in the same place; only then does the on-file copy say the form was signed.
    Then the person is checked. Exit 0 recorded and clean, 1 recorded with error findings about
    the person, 2 refused with nothing written."""
    checked_on = parse_as_of(as_of)
    if ineffective and in_effect or not (ineffective or in_effect or signature_seen_by):
        raise api.DocgenError(
            "docgen decide: say what was decided: --ineffective --reason WHY --by NAME, or "
            "--in-effect, or --signature-seen-by NAME."
        )
    result = api.decide(
        file,
        subject,
        form,
        in_effect=True if in_effect else False if ineffective else None,
        reason=reason,
        by=by,
        as_of=checked_on,
        signature_seen_by=signature_seen_by,
    )
    print_decided(result)
    raise typer.Exit(result.report.exit_code())


@app.command()
@exits_on_error
def templates(
    export: Annotated[Path, typer.Option("--export", help="A new folder to copy them into.")],
) -> None:
    """Copy the built-in templates, clause fragments and stylesheet into a folder to edit.

    Name that folder in the facts file (templates_dir: DIR, beside the facts file) and its
    files override the built-ins by name, sandboxed and checked like them."""
    written = api.export_templates(export)
    out.print(f"Wrote {len(written)} files to {export}. {api.EXPORTED_NOTE}", markup=False)


@app.command()
@exits_on_error
def rules() -> None:
    """The rule catalogue: id, severity, title and citations of every rule."""
    out.print(rules_table(api.all_rules()))


@app.command()
@exits_on_error
def explain(rule_id: Annotated[str, typer.Argument(help="A rule id, e.g. RRP-PBC-LATE.")]) -> None:
    """One rule: what it checks, its citations, the text it rests on, and two worked examples."""
    sys.stdout.write(api.explain(rule_id))


# ---------------------------------------------------------------- the election loop


_RECEIVED_HELP = (
    "The day the Company received the form(s), YYYY-MM-DD: recorded as the filing date."
)
_ACCEPT_NAME_HELP = (
    "Accept a printed name that does not read as the name on record (Exhibit I, Section IV), "
    "for this REASON: recorded beside the filing as name_accepted."
)
AcceptName = Annotated[
    str | None, typer.Option("--accept-name", metavar="REASON", help=_ACCEPT_NAME_HELP)
]


def _ended(result: "api.Recorded") -> None:
    """Print what was recorded; exit 2 when a form was refused (each said why), else by the
    check's findings."""
    print_recorded(result)
    if result.refused:
        for problem in result.refused:
            err.print(str(problem), markup=False)
        count = len(result.refused_forms)
        err.print(
            f"{count} form{'s' if count != 1 else ''} refused and not recorded; the others "
            "were recorded.",
            style="bold red",
        )
        raise typer.Exit(2)
    raise typer.Exit(result.report.exit_code())


@app.command()
@exits_on_error
def intake(
    file: FactsFile,
    forms: Annotated[
        list[Path],
        typer.Argument(help="Returned, filled PDF forms (Exhibit I or RRP).", show_default=False),
    ],
    received_on: Annotated[str, typer.Option("--received-on", help=_RECEIVED_HELP)],
    as_of: AsOf = None,
    accept_name: AcceptName = None,
    trust: Annotated[
        Path | None,
        typer.Option(
            "--trust",
            help="The company's CA certificate (PEM): a form the company certified is taken in "
            "only when its certificate chains to it (default: the signing config's chain).",
            show_default=False,
        ),
    ] = None,
    sign_config: SignConfig = None,
) -> None:
    """Read returned forms into FILE as filings on the day received, then check it.

    Each form is matched to its director or participant by the identity it carries, its fields
    validated (one option, a date where the option needs one, the signature block completed),
    and recorded in FILE as written (comments, order, quoting kept), or in the CSV the person
    lives in (the roster row, or elections_csv, beneficiaries_csv, allocations_csv when the
    facts name them). Exit 0 recorded and clean, 1 recorded with error findings, 2 refused with
    nothing written: a scan (use `docgen elect`), another cycle's form, someone not in FILE, a
    form already recorded, blank or unclear fields. Of several forms, every valid one is
    recorded and each refused one named with its reason (exit 2)."""
    checked_on = parse_as_of(as_of)
    received = parse_received_on(received_on, checked_on)
    result = api.intake(
        file,
        forms,
        received_on=received,
        as_of=checked_on,
        accept_name=accept_name,
        trust=trust,
        sign_config=sign_config,
    )
    _ended(result)


@app.command()
@exits_on_error
def elect(
    file: FactsFile,
    subject: Annotated[str, typer.Option("--for", help="The director or participant id.")],
    received_on: Annotated[str, typer.Option("--received-on", "--filed-on", help=_RECEIVED_HELP)],
    pay_on: Annotated[
        str | None,
        typer.Option(
            help="Exhibit I, Section III: separation, date or earlier_of_separation_or_date."
        ),
    ] = None,
    pay_date: Annotated[
        str | None, typer.Option(help="Exhibit I: the date beside option (b) or (c).")
    ] = None,
    printed_name: Annotated[
        str | None, typer.Option(help="Exhibit I, Section IV: the name printed (checked).")
    ] = None,
    signed_on: Annotated[str | None, typer.Option(help="The date the form was signed.")] = None,
    recorded_by: Annotated[
        str | None,
        typer.Option(help="Who is recording the paper form (the on-file copy names them)."),
    ] = None,
    salary_percent: Annotated[
        str | None, typer.Option(help="RRP form, Section II(a): percent of base salary.")
    ] = None,
    bonus_percent: Annotated[
        str | None, typer.Option(help="RRP form, Section II(b): percent of bonus.")
    ] = None,
    performance_percent: Annotated[
        list[str] | None,
        typer.Option(help="RRP form: END=PERCENT for the performance period ending END."),
    ] = None,
    allocation: Annotated[
        list[str] | None, typer.Option(help="RRP form, Section IV: FUND=PERCENT, each fund.")
    ] = None,
    beneficiary: Annotated[
        list[str] | None,
        typer.Option(help='RRP form, Section V: "NAME;RELATIONSHIP;SHARE", each Beneficiary.'),
    ] = None,
    as_of: AsOf = None,
    accept_name: AcceptName = None,
) -> None:
    """Record a paper form's content (a scan, a fax) in FILE, with intake's validation.

    Give what the form says as options: for Exhibit I --pay-on (and --pay-date), for the RRP
    form the percentages, allocation and Beneficiaries. Exit codes as `docgen intake`."""
    checked_on = parse_as_of(as_of)
    received = parse_received_on(received_on, checked_on)
    options = {
        "pay-on": pay_on,
        "pay-date": pay_date,
        "printed-name": printed_name,
        "signed-on": signed_on,
        "recorded-by": recorded_by,
        "salary-percent": salary_percent,
        "bonus-percent": bonus_percent,
        "performance-percent": performance_percent,
        "allocation": allocation,
        "beneficiary": beneficiary,
        "accept-name": accept_name,
    }
    result = api.elect(file, subject, options, received_on=received, as_of=checked_on)
    _ended(result)


class StatusFormat(StrEnum):
    text = "text"
    json = "json"
    csv = "csv"


@app.command()
@exits_on_error
def status(
    file: FactsFile,
    as_of: Annotated[
        str | None, as_of_option("Count days left from this date (default: today).")
    ] = None,
    out_dir: Annotated[
        Path | None,
        typer.Option("--out", help="The folder the blank forms were issued into (batch --out)."),
    ] = None,
    output_format: Annotated[
        StatusFormat, format_option("text (a table), json or csv.")
    ] = StatusFormat.text,
    output: Output = None,
) -> None:
    """Who has returned a form and when, whether it is in effect, and the days left to file.

    Per director or participant: the day the blank form was sent (from the folder it was issued
    into, with --out), forms returned and the last one's filing day, the election in effect (or
    why not), the last day to file and the days left. Exit 0 (2 for bad input)."""
    checked_on = parse_as_of(as_of)
    result = api.status(file, as_of=checked_on, out=out_dir)
    view = "rich" if output_format is StatusFormat.text else output_format.value
    emit(api.status_view(result, view), output)


@app.command()
@exits_on_error
def send(
    file: FactsFile,
    out_dir: Annotated[
        Path,
        typer.Option("--out", help="The folder the blank forms were issued into (batch --out)."),
    ],
    stage: Annotated[
        str | None,
        typer.Option(
            "--stage", help="The forms stage (default: the kind's: elections, enrollment)."
        ),
    ] = None,
    eml: Annotated[
        Path | None,
        typer.Option("--eml", help="Write one .eml draft per person into this folder."),
    ] = None,
    smtp: Annotated[
        bool, typer.Option("--smtp", help="Send through the company's server (sending.smtp).")
    ] = False,
    smtp_config: Annotated[
        Path | None,
        typer.Option("--smtp-config", help="A TOML file with an [smtp] table over sending.smtp."),
    ] = None,
    ca_file: Annotated[
        Path | None,
        typer.Option("--ca-file", help="A private CA's certificate to verify the server with."),
    ] = None,
    password_prompt: Annotated[
        bool,
        typer.Option(
            "--password-prompt", help="Ask for the server's password (else DOCGEN_SMTP_PASSWORD)."
        ),
    ] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show who would get what; send nothing.")
    ] = False,
    reminders: Annotated[
        bool, typer.Option("--reminders", help="Remind those whose form is not recorded.")
    ] = False,
    days_before: Annotated[
        int | None,
        typer.Option("--days-before", help="With --reminders: only within N days of the last day."),
    ] = None,
    again: Annotated[
        list[str] | None,
        typer.Option("--again", help="Send this person's message again (repeatable)."),
    ] = None,
    as_of: Annotated[
        str | None, as_of_option("Count days left from this date (default: today).")
    ] = None,
) -> None:
    """Mail each person their issued form with the cover letter counsel approved, or reminders.

    One message per person with a packet in the forms stage folder: their PDFs attached, each
    checked against the manifest's SHA-256, and the letter (letter.forms-out, or letter.reminder
    with --reminders, approved in clause_approvals; `docgen clauses` lists them) naming the last
    day, how to return the form and whom to ask. --eml FOLDER writes drafts (X-Unsent, Outlook
    opens them to send); --smtp sends over verified TLS, the password from DOCGEN_SMTP_PASSWORD
    or --password-prompt. Each message is recorded in sent.json beside the manifest; nothing is
    sent twice unless --again names the person. Reminders go only to those whose form is not
    recorded, not held, and whose last day has not passed. Exit 0; 1 when a person has no email
    (named, skipped) or the server refused a message (the rest are sent), or the letter is not
    approved; 2 for bad input."""
    checked_on = parse_as_of(as_of)
    password = os.environ.get("DOCGEN_SMTP_PASSWORD")
    if smtp and password is None and password_prompt and not dry_run:
        password = typer.prompt("SMTP password", hide_input=True, err=True)
    result = api.send(
        file,
        out_dir,
        as_of=checked_on,
        stage=stage,
        eml=eml,
        smtp=smtp,
        smtp_config=smtp_config,
        ca_file=ca_file,
        password=password,
        dry_run=dry_run,
        reminders=reminders,
        days_before=days_before,
        again=again or (),
    )
    what = "reminder" if reminders else "form"
    if result.via == "dry-run":
        for planned in result.planned:
            files = ", ".join(a.file for a in planned.attachments)
            out.print(
                f"would send {planned.subject} ({planned.name} <{planned.address}>): {files}",
                markup=False,
            )
    for message in result.messages:
        line = f"{message.outcome} {message.subject} ({message.name} <{message.address}>)"
        line += f": {message.detail}" if message.detail else ""
        (out if message.delivered else err).print(line, markup=False)
    for skipped in result.skipped:
        out.print(f"not sent {skipped.subject} ({skipped.name}): {skipped.reason}", markup=False)
    for person in result.no_address:
        err.print(
            f"no address {person.subject} ({person.name}): {person.reason}; add email: to them "
            "(or the roster's email column) and run again",
            markup=False,
        )
    delivered = sum(1 for m in result.messages if m.delivered)
    counted = len(result.planned) if result.via == "dry-run" else delivered
    verb = {"dry-run": "would be sent", "eml": "drafted", "smtp": "sent"}[result.via]
    out.print(
        f"{counted} {what} message{'s' if counted != 1 else ''} {verb}; log: "
        f"{result.folder}/sent.json.",
        markup=False,
    )
    if result.exit_code:
        problems = len(result.no_address) + len(result.refused)
        err.print(
            f"{problems} {'people' if problems != 1 else 'person'} not reached (named above).",
            style="bold red",
        )
    raise typer.Exit(result.exit_code)


# ---------------------------------------------------------------- after the grant


@app.command()
@exits_on_error
def section16(
    file: FactsFile,
    out_dir: Annotated[Path, typer.Option("--out", help="The folder the cycle's folder is in.")],
    as_of: IssuedOn = None,
    only: Annotated[
        list[str] | None,
        typer.Option(
            "--only",
            help="Draft only this director (repeat for more); the others' drafts in the folder "
            "are kept as they are.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Draft each director's Form 4 for the grant: EDGAR ownership XML and a readable PDF.

    Written whole into OUT/<grant>/section16/ with drafts-manifest.json (SHA-256s). Needs the
    issuer's cik and trading_symbol, company.form4_table (I or II) and each director's cik; each
    missing one is named (exit 2) and nothing is written. Filer credentials are never facts.
    The Form 4 is due by the end of the second business day after the grant date
    (RSU-FORM4-DUE)."""
    drafted_on = parse_as_of(as_of)
    result = api.section16(file, out_dir, as_of=drafted_on, only=tuple(only or ()))
    for note in result.notes:
        out.print(note)
    out.print(
        f"Drafted {result.count} {result.noun}s into {result.folder} "
        f"({len(result.files)} files, SHA-256s in drafts-manifest.json)."
    )
    if result.due_on:
        out.print(f"Due on EDGAR by {result.due_on.isoformat()}.")


class ProxyFormat(StrEnum):
    csv = "csv"
    html = "html"


@app.command()
@exits_on_error
def proxy(
    files: Annotated[
        list[Path],
        typer.Argument(help="The cycles' facts files (director grants).", show_default=False),
    ],
    fiscal_year_end: Annotated[
        str, typer.Option("--fiscal-year-end", help="The fiscal year's last day, YYYY-MM-DD.")
    ],
    output_format: Annotated[ProxyFormat, format_option("csv or html.")] = ProxyFormat.csv,
    output: Output = None,
) -> None:
    """The proxy's Director Compensation stock award figures (Regulation S-K Item 402(k)).

    Per director: the grant-date fair value of each award granted in the fiscal year (the twelve
    months ending --fiscal-year-end; units x the grant's Fair Market Value, ASC 718, rounded to
    the whole dollar half up) and the units outstanding at the fiscal year-end, dividend
    equivalents included. A director in several cycles is one row summing them."""
    end = parse_date_option("--fiscal-year-end", fiscal_year_end)
    emit(api.proxy(files, end, output_format.value), output, "proxy figures")


@app.command("export-ocf")
@exits_on_error
def export_ocf(
    file: FactsFile,
    output: Annotated[
        Path, output_option("The bundle to write, e.g. cycle.ocf.zip (written atomically).")
    ],
    as_of: Annotated[
        str | None, as_of_option("The bundle's as-of date (default: today); on or after the grant.")
    ] = None,
    issued: Annotated[
        Path | None,
        typer.Option(
            "--issued",
            help="The issued grant stage folder (or the OUT folder holding it): its Notices "
            "are listed as OCF Documents with their MD5.",
        ),
    ] = None,
) -> None:
    """The cycle as an Open Cap Format 1.2.0 bundle (a zip), validated before it is written.

    Issuer, a Stakeholder per director (BOARD_MEMBER), StockPlan, StockClass, VestingTerms, and
    per director the RSU issuance, its vesting start and its acceptance; the issued Notices as
    Documents (--issued). Deferral elections, which OCF cannot express, go beside them in
    docgen-elections.json (docs/ocf-export.md)."""
    written = api.export_ocf(file, output, parse_as_of(as_of), issued)
    out.print(
        f"Wrote {output}: OCF 1.2.0 bundle of cycle {written['cycle']} "
        f"({len(written['files'])} files, {written['documents']} Notices as Documents).",
        markup=False,
    )
    for note in written["notes"]:
        err.print(f"Note: {note}", markup=False)


# ---------------------------------------------------------------- the workspace (issue 41)


@app.command()
@exits_on_error
def serve(
    folder: Annotated[
        Path, typer.Argument(help="The folder of the facts files (default: this one).")
    ] = Path("."),
    out_dir: Annotated[
        Path | None,
        typer.Option("--out", help="Where stages are issued, inside FOLDER (default FOLDER/out)."),
    ] = None,
    host: Annotated[
        str,
        typer.Option(
            "--host",
            help="The address to listen on (default 127.0.0.1, this machine only). Another "
            "address lets other machines reach the workspace: docgen warns.",
        ),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="The port (default: a free one).")] = 0,
) -> None:
    """A local web workspace over the facts files in FOLDER: the cycle at a glance, findings,
    counsel's review and approval, returned forms, issuing a stage, the RRP's arithmetic.

    Prints an address with a random token, as Jupyter does; open it in a browser on this
    machine. Every page is a view over the same functions as the commands (docs/workspace.md).
    Stop it with Ctrl-C."""
    from docgen.web.server import serve as run_workspace  # starlette and uvicorn, only here

    if host not in ("127.0.0.1", "localhost", "::1"):
        err.print(
            f"Warning: listening on {host}, not 127.0.0.1: anyone who can reach this machine "
            "and learns the address with its token can use the workspace.",
            markup=False,
            style="bold yellow",
        )

    def announce(url: str) -> None:
        out.print(f"docgen workspace over {folder.resolve()}:", markup=False)
        out.print(f"    {url}", markup=False, soft_wrap=True)
        out.print("Open that address in a browser on this machine; Ctrl-C stops it.", markup=False)

    run_workspace(folder, out_dir, host, port, announce)


# Typer's help keeps a docstring's line breaks: prose wrapped at 100 columns in the source came
# out as ragged half-lines in an 80-column terminal. Each paragraph on one line, the terminal wraps.
for _info in app.registered_commands:
    if _info.help is None and _info.callback is not None and _info.callback.__doc__:
        _paragraphs = inspect.cleandoc(_info.callback.__doc__).split("\n\n")
        _info.help = "\n\n".join(" ".join(paragraph.split()) for paragraph in _paragraphs)


def main() -> None:
    """Console-script entry point: the app, with every way it can end turned into one line and
    an exit code (docgen.console.process.run)."""
    run(app)


def entry() -> NoReturn:
    """`docgen` and `python -m docgen`: :func:`main`, then its exit once standard output is
    flushed (docgen.console.process.exit_flushed). Tests call :func:`main` in their process."""
    try:
        main()
    except SystemExit as stop:
        exit_flushed(stop.code)
    exit_flushed(0)
