"""The workspace's routes: each parses the request, calls docgen.api and renders a page.

Reading pages (GET) never write; every form post carries its CSRF token and the SHA-256 of the
facts the page showed, so a decision made on a page someone else's decision has since changed is
refused ("reload") instead of recorded over it. Writes go one at a time through the same
docgen.api functions (and so the same locks) as the commands.
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import hashlib
import io
import re
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Awaitable, Callable, Hashable, Iterator
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from docgen import api
from docgen.web import charts, plan_year, readings
from docgen.web.cache import Results
from docgen.web.security import Guard, csrf_token, inside, same, security_headers

PAGE_ROWS = 100  # people per page of a table: a page of a 10,000-person cycle stays quick
# Up to this many participants the RRP chart's plan-wide totals are worked in the page (about
# 0.2 s with biweekly paychecks); past it, in a thread while the page shows the table at once
CHART_AT_ONCE = 1_000
PERSON_CHOICES = 300  # past this many people with findings, the filter takes a typed id
FACTS_SUFFIXES = (".yaml", ".yml")
UPLOADS = "returned"  # the folder (inside the workspace's) a dropped form is kept in
MAX_UPLOAD = 20 * 1024 * 1024
# `docgen elect`'s options (docgen/cli.py) as a paper form's fields on the Returned forms screen:
# their label, and whether each is given once per item (one a line: a fund, a Beneficiary, a period)
PAPER_FIELDS = {
    "pay-on": ("Payment on (Exhibit I, Section III)", False),
    "pay-date": ("Payment date beside option (b) or (c), as written", False),
    "printed-name": ("Printed name (Section IV), as written", False),
    "signed-on": ("Date signed, as written", False),
    "salary-percent": ("Percent of base salary (Section II(a))", False),
    "bonus-percent": ("Percent of bonus (Section II(b))", False),
    "performance-percent": ("Performance-based pay: END=PERCENT, one period a line", True),
    "allocation": ("Investment allocation: FUND=PERCENT, one fund a line", True),
    "beneficiary": ("Beneficiaries: NAME;RELATIONSHIP;SHARE, one a line", True),
    "recorded-by": ("Recorded by (your name, on the on-file copy)", False),
    "accept-name": ("Accept a printed name that differs from the record, because", False),
}
SERVED = {
    ".pdf": "application/pdf",
    ".html": "text/html; charset=utf-8",
    ".json": "application/json",
    ".csv": "text/csv; charset=utf-8",
    ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ".xml": "application/xml",
    ".txt": "text/plain; charset=utf-8",
}


class Refused(Exception):
    """A request the workspace cannot carry out: shown on the page, nothing written."""

    def __init__(self, messages: list[str], status: int = 400):
        super().__init__("\n".join(messages))
        self.messages = messages
        self.status = status


@dataclass
class Job:
    """An issue running in the background: its progress, then its result or refusal."""

    facts: str
    stage: str
    total: int = 0
    done: int = 0
    current: str = ""
    finished: bool = False
    result: Any = None
    messages: list[str] = field(default_factory=list)

    def start(self, total: int) -> None:
        self.total = total

    def advance(self, subject: str) -> None:
        self.done += 1
        self.current = subject


@dataclass
class Workspace:
    folder: Path
    out: Path
    token: str
    results: Results = field(default_factory=lambda: Results(api.load_facts, api.fact_files))
    writing: threading.Lock = field(default_factory=threading.Lock)
    jobs: dict[str, Job] = field(default_factory=dict)

    @property
    def csrf(self) -> str:
        return csrf_token(self.token)

    @contextlib.contextmanager
    def write(self) -> Iterator[None]:
        """One write at a time: a second is refused at once (the page says to try again),
        never left waiting; the commands' own locks keep a command and the workspace apart."""
        if not self.writing.acquire(blocking=False):
            raise Refused(
                [
                    "Another change is being written (an issue or a recording): nothing was "
                    "recorded. Try again when it has finished."
                ],
                409,
            )
        try:
            yield
        finally:
            self.writing.release()


# ------------------------------------------------------------------ parsing a request


def facts_of(ws: Workspace, request: Request, given: str | None = None) -> tuple[str, Path]:
    """The facts file a request names (``f``), inside the folder, as (its name, its path)."""
    name = given if given is not None else request.query_params.get("f", "")
    path = inside(ws.folder, name)
    if path is None or path.suffix not in FACTS_SUFFIXES:
        raise Refused([f"{name or '(none)'}: name a facts file inside {ws.folder}."], 404)
    if not path.is_file():
        raise Refused([f"{name}: no such facts file in {ws.folder}."], 404)
    return name, path


def as_of_of(value: str | None) -> date:
    if not value:
        return date.today()
    try:
        day = date.fromisoformat(value)
    except ValueError:
        raise Refused([f"as of {value!r}: write a date as YYYY-MM-DD, e.g. 2026-06-22."]) from None
    low, high = api.DATE_RANGE
    if not low <= day <= high:
        raise Refused([f"as of {value}: give a date from {low} to {high}."])
    return day


def page_of(request: Request) -> int:
    try:
        return max(1, int(request.query_params.get("page", "1")))
    except ValueError:
        return 1


async def posted(ws: Workspace, request: Request) -> Any:
    """A form post's fields, once its CSRF token is checked."""
    form = await request.form(max_files=50, max_fields=200, max_part_size=MAX_UPLOAD)
    token = form.get("csrf")
    if not isinstance(token, str) or not same(token, ws.csrf):
        raise Refused(["This form is stale or not from this workspace: reload the page."], 403)
    return form


def text_field(form: Any, name: str, required: str | None = None) -> str:
    value = form.get(name)
    value = value.strip() if isinstance(value, str) else ""
    if required is not None and not value:
        raise Refused([required])
    return value


def problems_of(error: Exception) -> list[str]:
    """A docgen error in the words the command line prints it: one line per problem."""
    problems = getattr(error, "problems", None)
    if problems:
        return [str(problem) for problem in problems]
    return [api.clipped(line, 3 * api.QUOTE_LIMIT) for line in str(error).split("\n") if line]


# ------------------------------------------------------------------ results, kept while unchanged


def checked(ws: Workspace, path: Path, as_of: date, stage: str | None = None) -> tuple[Any, Any]:
    """`docgen check`: the facts as loaded (once per version of their files) and their report
    as of ``as_of``, at the stage the day chooses or at ``stage``, each checked once."""
    version = ws.results.version(path)
    loaded = version.loaded
    report = version.get(("check", as_of, None), lambda: api.run_checks(loaded, as_of))
    if stage is not None and report.stage != stage:  # the check at the stage asked, once
        report = version.get(("check", as_of, stage), lambda: api.run_checks(loaded, as_of, stage))
    return loaded, report


def files_of(ws: Workspace, path: Path, as_of: date) -> list[Path]:
    """Every file the facts read, as the version shown was made from them."""
    return list(ws.results.version(path).files)


def issued_key(ws: Workspace, cycle: str) -> str:
    """What the issued folders' state is: their manifests' names, sizes and times."""
    parts = []
    for manifest in sorted((ws.out / cycle).glob("*/manifest.json")):
        stat = manifest.stat()
        parts.append(f"{manifest}:{stat.st_size}:{stat.st_mtime_ns}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def issued_of(ws: Workspace, cycle: str) -> dict[str, dict[str, Any]]:
    """The manifest of each stage of ``cycle`` issued, read again once one is written."""
    key = ("issued", cycle, issued_key(ws, cycle))
    return ws.results.outside(key, lambda: api.issued_stages(ws.out, cycle))


def status_of(ws: Workspace, path: Path, as_of: date) -> Any:
    """`docgen status` from the check's findings (no check of its own), with the day each form
    was sent once the forms' stage is issued."""
    checks = checked(ws, path, as_of)
    cycle_name, _, forms_stage = api.cycle_of(checks[0])
    sent = (
        forms_stage is not None and (ws.out / cycle_name / forms_stage / "manifest.json").is_file()
    )
    out = ws.out if sent else None
    return derived(
        ws,
        "status",
        path,
        as_of,
        lambda: api.status(path, as_of=as_of, out=out, checked=checks),
        issued=True,
    )


def derived(
    ws: Workspace,
    name: Hashable,
    path: Path,
    as_of: date | None,
    make: Callable[[], Any],
    *,
    issued: bool = False,
) -> Any:
    """A result made from the facts (status, calendar, a page's view of the check), made when
    a screen first shows it and kept with the facts' version: ``as_of`` None for one the day
    does not change (compute, payroll); ``issued``: one that shows the issued folders too."""
    version = ws.results.version(path)
    key: tuple[Any, ...] = (name, as_of)
    if issued:
        key += (issued_key(ws, api.cycle_of(version.loaded)[0]),)
    return version.get(key, make)


# ------------------------------------------------------------------ pages


def page(ws: Workspace, template: str, request: Request | None, **context: Any) -> HTMLResponse:
    base = {
        "csrf": ws.csrf,
        "folder": str(ws.folder),
        "f": "",
        "as_of": "",
        "title": "",
        "section": "",
        "messages": [],
        "notice": "",
    }
    if request is not None:
        base["notice"] = request.query_params.get("done", "")
    html = api.web_page(template, {**base, **context})
    status = context.get("status_code", 200)
    return HTMLResponse(html, status_code=status, headers=security_headers())


def refusal_page(ws: Workspace, request: Request, messages: list[str], status: int) -> Response:
    wrote = request.method not in ("GET", "HEAD")
    return page(
        ws,
        "refused.html.j2",
        request,
        messages=messages,
        title="Refused" if wrote else "This page cannot be shown",
        wrote=wrote,
        status_code=status,
        f=request.query_params.get("f", ""),
        as_of=request.query_params.get("as_of", ""),
    )


Handler = Callable[[Workspace, Request], Awaitable[Response]]


def route(ws: Workspace, handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    """Every route: a refusal or a docgen error shown on the page (4xx), anything else a page
    saying so, never a traceback."""

    async def endpoint(request: Request) -> Response:
        try:
            with ws.results.request():  # the page made from one version of each facts file
                return await handler(ws, request)
        except Refused as refused:
            return refusal_page(ws, request, refused.messages, refused.status)
        except api.DocgenError as error:
            report = getattr(error, "report", None)
            messages = problems_of(error)
            if report is not None:
                messages += [
                    f"{f.where or f.subject}: {f.rule}: {f.message}" for f in report.errors
                ]
            return refusal_page(ws, request, messages, 422 if report is None else 409)
        except HTTPException:
            raise
        except Exception as error:  # the server never shows a traceback; stderr says what
            print(f"docgen serve: {type(error).__name__}: {error}", file=sys.stderr)
            return refusal_page(
                ws,
                request,
                [
                    f"docgen could not show this page ({type(error).__name__}). Nothing was "
                    "written. Run the same step with the command line to see its message."
                ],
                500,
            )

    return endpoint


def common(request: Request, name: str, as_of: date, section: str, title: str) -> dict[str, Any]:
    return {
        "f": name,
        "as_of": as_of.isoformat(),
        "section": section,
        "title": title,
    }


async def home(ws: Workspace, request: Request) -> Response:
    found = []
    for path in sorted(ws.folder.rglob("*")):
        relative = path.relative_to(ws.folder)
        if (
            path.suffix in FACTS_SUFFIXES
            and path.is_file()
            and len(relative.parts) <= 2
            and not any(part.startswith(".") for part in relative.parts)
            and not path.is_relative_to(ws.out)
        ):
            found.append((relative.as_posix(), api.stated_kind(path)))
    as_of = as_of_of(request.query_params.get("as_of"))
    return page(ws, "home.html.j2", request, files=found, as_of=as_of.isoformat(), title="Cycles")


def _people(status: Any, issued: dict[str, dict[str, Any]], report: Any) -> list[dict[str, Any]]:
    findings: dict[str, int] = {}
    for finding in report.findings:
        findings[finding.subject] = findings.get(finding.subject, 0) + 1
    held: dict[str, list[str]] = {}
    documents: dict[str, list[tuple[str, str]]] = {}
    for stage, manifest in issued.items():
        for entry in manifest.get("held", []):
            subject = entry.get("subject") if isinstance(entry, dict) else str(entry)
            held.setdefault(str(subject), []).append(stage)
        for packet in manifest.get("packets", []):
            for document in packet.get("documents", []):
                pdf = document.get("files", {}).get("pdf")
                if pdf:
                    documents.setdefault(packet["subject"], []).append(
                        (f"{stage}: {document['name']}", f"{manifest['cycle']}/{stage}/{pdf}")
                    )
    rows = []
    for row in status.rows if status is not None else ():
        rows.append(
            {
                "row": row,
                "findings": findings.get(row.subject, 0),
                "held": held.get(row.subject, []),
                "documents": documents.get(row.subject, []),
            }
        )
    return rows


async def cycle(ws: Workspace, request: Request) -> Response:
    name, path = facts_of(ws, request)
    as_of = as_of_of(request.query_params.get("as_of"))
    loaded, report = checked(ws, path, as_of)
    cycle_name, stages, forms_stage = api.cycle_of(loaded)
    status = None
    if forms_stage is not None:
        status = status_of(ws, path, as_of)
    timeline = derived(
        ws,
        "timeline",
        path,
        as_of,
        lambda: charts.timeline(
            list(csv.DictReader(io.StringIO(str(api.calendar(path, "csv", as_of, loaded=loaded))))),
            as_of,
        ),
    )
    issued = issued_of(ws, cycle_name)
    people = derived(
        ws, "people", path, as_of, lambda: _people(status, issued, report), issued=True
    )
    number = page_of(request)
    pages = max(1, -(-len(people) // PAGE_ROWS))
    reports = [
        (stage, f"{cycle_name}/{stage}/check-report.html")
        for stage in issued
        if (ws.out / cycle_name / stage / "check-report.html").is_file()
    ]
    return page(
        ws,
        "cycle.html.j2",
        request,
        **common(request, name, as_of, "cycle", f"{cycle_name}: the cycle at a glance"),
        report=report,
        status=status,
        people=people[(number - 1) * PAGE_ROWS : number * PAGE_ROWS],
        people_count=len(people),
        number=number,
        pages=pages,
        timeline=timeline,
        issued=issued,
        reports=reports,
        cycle=cycle_name,
        stages=stages,
    )


def _filter_choices(report: Any, person: str, rule: str) -> dict[str, list[tuple[str, int]]]:
    """The Findings filter's choices: each person, rule and severity the findings name, with how
    many each has (a person or rule asked for that has none is listed too, with 0); severities
    in the report's order and counts (Report.summary)."""
    people = Counter(finding.subject for finding in report.findings)
    rules = Counter(finding.rule for finding in report.findings)
    for counts, asked in ((people, person), (rules, rule)):
        if asked:
            counts.setdefault(asked, 0)
    return {
        "person": sorted(people.items()),
        "rule": sorted(rules.items()),
        "severity": [(severity, n) for severity, n in report.summary.items() if n],
    }


async def findings(ws: Workspace, request: Request) -> Response:
    name, path = facts_of(ws, request)
    as_of = as_of_of(request.query_params.get("as_of"))
    loaded, report = checked(ws, path, as_of)
    person = request.query_params.get("person", "").strip()
    rule = request.query_params.get("rule", "").strip()
    severity = request.query_params.get("severity", "").strip()
    shown = tuple(
        f
        for f in report.findings
        if (not person or f.subject == person)
        and (not rule or f.rule == rule)
        and (not severity or f.severity == severity)
    )
    filtered = dataclasses.replace(report, findings=shown)
    key = ("findings", person, rule, severity)
    context = derived(ws, key, path, as_of, lambda: api.report_context(filtered))
    number = page_of(request)
    groups = context["groups"]
    return page(
        ws,
        "findings.html.j2",
        request,
        **common(request, name, as_of, "findings", "Findings"),
        report=report,
        groups=groups[(number - 1) * PAGE_ROWS : number * PAGE_ROWS],
        group_count=len(groups),
        number=number,
        pages=max(1, -(-len(groups) // PAGE_ROWS)),
        person=person,
        rule=rule,
        severity=severity,
        choices=(choices := _filter_choices(report, person, rule)),
        person_list=len(choices["person"]) <= PERSON_CHOICES,
        shown=len(shown),
    )


async def review(ws: Workspace, request: Request) -> Response:
    name, path = facts_of(ws, request)
    as_of = as_of_of(request.query_params.get("as_of"))
    loaded, report = checked(ws, path, as_of)
    context = derived(ws, "review", path, as_of, lambda: api.report_context(report, loaded))
    cycle_name = api.cycle_of(loaded)[0]
    issued = issued_of(ws, cycle_name)
    previews = []
    for stage, manifest in issued.items():
        for packet in manifest.get("packets", [])[:1]:
            for document in packet.get("documents", []):
                pdf = document.get("files", {}).get("pdf")
                if pdf:
                    previews.append(
                        (
                            f"{stage}: {document['name']} for {packet['subject']}",
                            f"{cycle_name}/{stage}/{pdf}",
                        )
                    )
    chosen = request.query_params.get("preview", "")
    pages: list[str] = []
    if chosen and any(chosen == target for _, target in previews):
        pages = [f"{chosen}?page={n}" for n in range(1, pdf_pages(ws, chosen) + 1)]
    return page(
        ws,
        "review.html.j2",
        request,
        **common(request, name, as_of, "review", "Counsel's review"),
        report=report,
        clauses=context["clauses"],
        unapproved=context["unapproved"],
        facts_sha=ws.results.version(path).sha256,
        previews=previews,
        chosen=chosen,
        pages=pages,
    )


def pdf_pages(ws: Workspace, relative: str) -> int:
    from pypdf import PdfReader

    target = inside(ws.out, relative)
    if target is None or not target.is_file():
        raise Refused([f"{relative}: no such issued file."], 404)
    return len(PdfReader(target).pages)


async def page_image(ws: Workspace, request: Request) -> Response:
    """One page of an issued PDF as a PNG (pdftoppm, to stdout: nothing written)."""
    relative = request.path_params["path"]
    target = inside(ws.out, relative)
    if target is None or target.suffix != ".pdf" or not target.is_file():
        raise Refused([f"{relative}: no such issued PDF."], 404)
    try:
        number = int(request.query_params.get("page", "1"))
    except ValueError:
        number = 1
    run = subprocess.run(
        [
            "pdftoppm",
            "-png",
            "-r",
            "60",
            "-f",
            str(number),
            "-l",
            str(number),
            "-singlefile",
            str(target),
        ],
        capture_output=True,
        timeout=30,
        check=False,
    )
    if run.returncode != 0 or not run.stdout:
        raise Refused([f"{relative}: page {number} could not be drawn (pdftoppm)."], 404)
    return Response(run.stdout, media_type="image/png", headers=security_headers())


async def issued_file(ws: Workspace, request: Request) -> Response:
    """An issued document or report, from the issued folder only."""
    relative = request.path_params["path"]
    target = inside(ws.out, relative)
    if target is None or not target.is_file() or target.suffix not in SERVED:
        raise Refused([f"{relative}: no such file in {ws.out}."], 404)
    headers = security_headers()
    if target.suffix == ".html":
        headers["Content-Security-Policy"] = (
            "default-src 'none'; style-src 'unsafe-inline'; font-src data:; img-src data:"
        )
    return FileResponse(target, media_type=SERVED[target.suffix], headers=headers)


def stale_check(ws: Workspace, path: Path, as_of: date, shown: str) -> None:
    """Refuse a decision made on a page whose facts have changed since it was shown."""
    now = ws.results.current(path)
    if not shown or shown != now:
        raise Refused(
            [
                "The facts changed since this page was shown (another decision was recorded, in "
                "another browser or at the command line). Nothing was recorded: reload the page "
                "and look again."
            ],
            409,
        )


async def approve(ws: Workspace, request: Request) -> Response:
    form = await posted(ws, request)
    name, path = facts_of(ws, request, text_field(form, "f"))
    as_of = as_of_of(text_field(form, "as_of"))
    wording = text_field(form, "wording", "Choose the wording to approve.")
    by = text_field(form, "by", "Write counsel's name (Approved by).")
    shown_sha = text_field(form, "sha256", "Reload the page: it names no wording's SHA-256.")
    on = as_of_of(text_field(form, "on") or date.today().isoformat())
    with ws.write():
        stale_check(ws, path, as_of, text_field(form, "facts_sha"))
        # What this page showed: the wording's SHA-256. Words changed since are refused by name.
        api.approve(path, [wording], by=by, on=on, shown={wording: shown_sha})
    return RedirectResponse(
        f"/review?f={name}&as_of={as_of}&done=Approved+{wording}", status_code=303
    )


async def decide(ws: Workspace, request: Request) -> Response:
    form = await posted(ws, request)
    name, path = facts_of(ws, request, text_field(form, "f"))
    as_of = as_of_of(text_field(form, "as_of"))
    person = text_field(form, "person", "Choose the person whose form this is.")
    number = text_field(form, "form")
    reason = text_field(form, "reason")
    by = text_field(form, "by")
    seen_by = text_field(form, "signature_seen_by")
    # `docgen decide`'s --in-effect, --ineffective (the form's choice unless another is made),
    # or neither ("unchanged": who saw the signature alone)
    effective = {"yes": True, "no": False}.get(text_field(form, "effective") or "no")
    try:
        index = int(number) if number else None
    except ValueError:
        raise Refused([f"form {number!r}: give the form's number, e.g. 1."]) from None
    with ws.write():
        stale_check(ws, path, as_of, text_field(form, "facts_sha"))
        api.decide(
            path,
            person,
            index,
            in_effect=effective,
            reason=reason or None,
            by=by or None,
            as_of=as_of,
            signature_seen_by=seen_by or None,
        )
    return RedirectResponse(
        f"/returned?f={name}&as_of={as_of}&done=Decision+recorded+for+{person}", status_code=303
    )


# ------------------------------------------------------------------ returned forms


def _upload_name(filename: str, data: bytes) -> str:
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", Path(filename or "form.pdf").name)[:80] or "form.pdf"
    if not stem.lower().endswith(".pdf"):
        stem += ".pdf"
    return f"{hashlib.sha256(data).hexdigest()[:12]}-{stem}"


def paper_given(fields: Any, options: tuple[str, ...]) -> dict[str, str | list[str] | None]:
    """A paper form's fields (a query or a post) as `docgen elect`'s options: only the options
    of this file's kind, a repeated one a line each."""
    given: dict[str, str | list[str] | None] = {}
    for option in options:
        if PAPER_FIELDS.get(option, ("", False))[1]:
            lines = [
                line.strip()
                for value in fields.getlist(option)
                if isinstance(value, str)
                for line in value.splitlines()
                if line.strip()
            ]
            if lines:
                given[option] = lines
            continue
        value = fields.get(option)
        if isinstance(value, str) and value.strip():
            given[option] = value.strip()
    return given


async def returned(ws: Workspace, request: Request) -> Response:
    name, path = facts_of(ws, request)
    as_of = as_of_of(request.query_params.get("as_of"))
    received = as_of_of(request.query_params.get("received_on") or as_of.isoformat())
    loaded, report = checked(ws, path, as_of)
    status = status_of(ws, path, as_of)
    names = {row.subject: row.name for row in status.rows}
    waiting = [n for n in request.query_params.getlist("form") if n]
    shown = []
    for upload in waiting:
        target = inside(ws.folder / UPLOADS, upload)
        if target is None or not target.is_file():
            shown.append(
                readings.Reading(upload, refusals=[("no such upload", "Drop the form again.")])
            )
            continue
        try:
            filing = api.read_returned(path, target, received_on=received)
            shown.append(readings.reading(upload, filing, names.get(filing.subject, "")))
        except api.DocgenError as error:
            shown.append(readings.refused(upload, error))
    options = api.paper_options(loaded)
    paper, person = None, request.query_params.get("person", "").strip()
    given = paper_given(request.query_params, options)
    if request.query_params.get("paper"):
        try:
            filing = api.read_paper(loaded, person, given, received_on=received, as_of=as_of)
            paper = readings.reading("The paper form", filing, names.get(filing.subject, ""))
        except api.DocgenError as error:
            paper = readings.refused("The paper form", error)
    number = page_of(request)
    rows = status.rows
    return page(
        ws,
        "returned.html.j2",
        request,
        **common(request, name, as_of, "returned", "Returned forms"),
        readings=shown,
        received_on=received.isoformat(),
        recordable=[r.name for r in shown if not r.refusals],
        paper=paper,
        person=person,
        given=given,
        paper_fields=[(o, *PAPER_FIELDS.get(o, (o, False))) for o in options],
        pay_on=api.pay_on_choices(),
        rows=rows[(number - 1) * PAGE_ROWS : number * PAGE_ROWS],
        number=number,
        pages=max(1, -(-len(rows) // PAGE_ROWS)),
        facts_sha=ws.results.version(path).sha256,
        report=report,
    )


async def upload(ws: Workspace, request: Request) -> Response:
    form = await posted(ws, request)
    name, path = facts_of(ws, request, text_field(form, "f"))
    as_of = as_of_of(text_field(form, "as_of"))
    received = as_of_of(text_field(form, "received_on") or as_of.isoformat())
    saved = []
    folder = ws.folder / UPLOADS
    for item in form.getlist("forms"):
        if not isinstance(item, UploadFile):
            continue
        data = await item.read()
        if not data:
            continue
        if len(data) > MAX_UPLOAD:
            raise Refused([f"{item.filename}: too large to be a returned form."])
        folder.mkdir(exist_ok=True)
        target = folder / _upload_name(item.filename or "form.pdf", data)
        if not target.exists():
            partial = target.with_name(f".{target.name}.part")
            partial.write_bytes(data)
            partial.replace(target)  # atomic: old or new, never half a form
        saved.append(target.name)
    if not saved:
        raise Refused(["Choose or drop one or more filled PDFs first."])
    query = "&".join(f"form={n}" for n in saved)
    return RedirectResponse(
        f"/returned?f={name}&as_of={as_of}&received_on={received}&{query}", status_code=303
    )


async def record(ws: Workspace, request: Request) -> Response:
    form = await posted(ws, request)
    name, path = facts_of(ws, request, text_field(form, "f"))
    as_of = as_of_of(text_field(form, "as_of"))
    received = as_of_of(text_field(form, "received_on"))
    targets = []
    for upload_name in form.getlist("form"):
        target = inside(ws.folder / UPLOADS, str(upload_name))
        if target is None or not target.is_file():
            raise Refused([f"{upload_name}: no such upload: drop the form again."])
        targets.append(target)
    if not targets:
        raise Refused(["No form to record: drop the filled PDFs first."])
    with ws.write():
        stale_check(ws, path, as_of, text_field(form, "facts_sha"))
        result = api.intake(path, targets, received_on=received, as_of=as_of)
    words = f"Recorded {len(result.filings)} form{'s' if len(result.filings) != 1 else ''}"
    if result.refused:
        words += f"; refused {len(result.refused)}: " + "; ".join(str(p) for p in result.refused)
    return RedirectResponse(
        f"/returned?f={name}&as_of={as_of}&done={_quoted(words)}", status_code=303
    )


async def elect(ws: Workspace, request: Request) -> Response:
    """A paper form's content through `docgen elect`'s fields (their option names)."""
    form = await posted(ws, request)
    name, path = facts_of(ws, request, text_field(form, "f"))
    as_of = as_of_of(text_field(form, "as_of"))
    received = as_of_of(text_field(form, "received_on"))
    person = text_field(form, "person", "Choose the person whose paper form this is.")
    options = paper_given(form, api.paper_options(checked(ws, path, as_of)[0]))
    if not options:
        raise Refused(["Fill in what the paper form says: no field is given."])
    with ws.write():
        stale_check(ws, path, as_of, text_field(form, "facts_sha"))
        api.elect(path, person, options, received_on=received, as_of=as_of)
    return RedirectResponse(
        f"/returned?f={name}&as_of={as_of}&done=Recorded+{_quoted(person)}", status_code=303
    )


def _quoted(text: str) -> str:
    from urllib.parse import quote_plus

    return quote_plus(text[:500])


# ------------------------------------------------------------------ issuing a stage


async def issue(ws: Workspace, request: Request) -> Response:
    name, path = facts_of(ws, request)
    as_of = as_of_of(request.query_params.get("as_of"))
    loaded, shown = checked(ws, path, as_of)
    cycle_name, stages, _ = api.cycle_of(loaded)
    # the stage the day chooses, as `docgen check` and every other screen check it (not another)
    stage = request.query_params.get("stage") or shown.stage
    if stage not in stages:
        raise Refused([f"stage {stage}: this cycle's stages are {', '.join(stages)}."])
    report = checked(ws, path, as_of)[1]
    if report.stage != stage:  # the check at the stage asked, unless it is the one shown
        report = checked(ws, path, as_of, stage)[1]
    issued = issued_of(ws, cycle_name)
    errors_by: dict[str, int] = {}
    for finding in report.errors:
        errors_by[finding.subject] = errors_by.get(finding.subject, 0) + 1
    return page(
        ws,
        "issue.html.j2",
        request,
        **common(request, name, as_of, "issue", f"Issue a stage of {cycle_name}"),
        report=report,
        stage=stage,
        stages=stages,
        errors_by=sorted(errors_by.items()),
        # an error about the cycle itself (not a person) is lifted by no hold: batch refuses it
        people=sorted({row.subject for row in status_of(ws, path, as_of).rows}),
        manifest=issued.get(stage),
        cycle=cycle_name,
        out=str(ws.out),
    )


async def issue_post(ws: Workspace, request: Request) -> Response:
    form = await posted(ws, request)
    name, path = facts_of(ws, request, text_field(form, "f"))
    as_of = as_of_of(text_field(form, "as_of"))
    stage = text_field(form, "stage", "Choose the stage to issue.")
    hold = sorted({str(h) for h in form.getlist("hold") if str(h).strip()})
    if not ws.writing.acquire(blocking=False):
        raise Refused(
            ["Another change is being written (an issue or a recording): wait for it to finish."],
            409,
        )
    job = Job(facts=name, stage=stage)
    number = str(len(ws.jobs) + 1)
    ws.jobs[number] = job

    def run() -> None:
        try:
            job.result = api.batch(path, ws.out, stage=stage, as_of=as_of, hold=hold, progress=job)
        except api.DocgenError as error:
            job.messages = problems_of(error)
            report = getattr(error, "report", None)
            if report is not None:
                job.messages += [
                    f"{f.where or f.subject}: {f.rule}: {f.message}" for f in report.errors
                ]
        except Exception as error:  # shown as a refusal, never a traceback
            job.messages = [f"docgen could not issue the stage ({type(error).__name__})."]
            print(f"docgen serve: {type(error).__name__}: {error}", file=sys.stderr)
        finally:
            job.finished = True
            ws.writing.release()

    threading.Thread(target=run, daemon=True).start()
    return RedirectResponse(f"/issue/{number}?f={name}&as_of={as_of}", status_code=303)


async def issue_job(ws: Workspace, request: Request) -> Response:
    name, _ = facts_of(ws, request)
    as_of = as_of_of(request.query_params.get("as_of"))
    job = ws.jobs.get(request.path_params["job"])
    if job is None:
        raise Refused(["No such issue: start it from the Issue page."], 404)
    result = job.result
    return page(
        ws,
        "issue_job.html.j2",
        request,
        **common(request, name, as_of, "issue", f"Issuing {job.stage}"),
        job=job,
        result=result,
        manifest=(
            api.issued_stages(ws.out, result.cycle).get(job.stage) if result is not None else None
        ),
        held=[
            h.subject if hasattr(h, "subject") else str(h) for h in (result.held if result else [])
        ],
    )


# ------------------------------------------------------------------ the Plan's arithmetic


def _by_pay_date(paychecks: dict[str, Any], person: str) -> list[tuple[str, Decimal, Decimal]]:
    """`docgen payroll`'s deferral and match summed per pay date (of one participant, or all)."""
    by_pay_date: dict[str, tuple[Decimal, Decimal]] = {}
    for participant in paychecks["participants"]:
        if person and participant["id"] != person:
            continue
        for check in participant["paychecks"]:
            day = check["paid_on"] or f"Plan Year {paychecks['plan_year']}"
            deferral, match = by_pay_date.get(day, (Decimal(0), Decimal(0)))
            by_pay_date[day] = (
                deferral + Decimal(check["elective_deferral"] or 0),
                match + Decimal(check["matching_restoration"] or 0),
            )
    return [(day, d, m) for day, (d, m) in sorted(by_pay_date.items())]


def _plan_wide(totals: Any, plan_year: int) -> list[tuple[str, Decimal, Decimal]]:
    """Every participant's deferral and match per pay date (api.totals_by_pay_date), each day
    named and ordered as :func:`_by_pay_date` names and orders them."""
    return sorted(
        (day.isoformat() if day is not None else f"Plan Year {plan_year}", d, m)
        for day, d, m in totals.by_pay_date
    )


def _totals(ws: Workspace, path: Path, loaded: Any, everyone: int) -> tuple[bool, Any]:
    """The plan-wide totals per pay date and the notes every participant shares, once per
    version: worked in the page for a small plan, else in a thread of their own while the page
    shows the table at once and says the chart is being worked out (``False``)."""
    version = ws.results.version(path)
    key = ("totals by pay date", None)
    make = lambda: api.totals_by_pay_date(loaded)  # noqa: E731
    if everyone <= CHART_AT_ONCE:
        return True, version.get(key, make)
    return version.started(key, make)


async def rrp(ws: Workspace, request: Request) -> Response:
    name, path = facts_of(ws, request)
    as_of = as_of_of(request.query_params.get("as_of"))
    loaded, report = checked(ws, path, as_of)
    title = common(request, name, as_of, "rrp", "Retirement Restoration Plan")
    if not api.has_payroll(loaded):  # a director grant has no Plan arithmetic to show
        return page(ws, "rrp.html.j2", request, **title, report=report, figures=None, working=False)
    # Each participant's arithmetic is their own (Plan 1.21, 2.03, 3.02-3.06): the table and a
    # participant's page work out only the participants they show, with compute's and payroll's
    # own functions; only the chart over everyone needs every participant's paychecks.
    ids = derived(ws, "participant ids", path, None, lambda: api.subject_ids(loaded))
    known = derived(ws, "participant id set", path, None, lambda: frozenset(ids))
    status = status_of(ws, path, as_of)
    person = request.query_params.get("person", "").strip()
    missing = ""
    if person and person not in known:  # said on the page, with every participant to choose from
        missing, person = person, ""
    number = page_of(request)
    shown = [person] if person else ids[(number - 1) * PAGE_ROWS : number * PAGE_ROWS]
    figures = derived(
        ws, ("compute", tuple(shown)), path, None, lambda: api.figures_of(loaded, shown)
    )
    people = figures["participants"]
    enrolled = derived(
        ws, "enrolled", path, as_of, lambda: {row.subject: row for row in status.rows}, issued=True
    )
    detail = None
    shared: list[str] = []
    working = False
    if person:
        paychecks = derived(
            ws, ("payroll", person), path, None, lambda: api.paychecks_of(loaded, [person])
        )
        series = _by_pay_date(paychecks, person)
        detail = next(iter(paychecks["participants"]), None)
    else:
        done, totals = _totals(ws, path, loaded, len(ids))
        working = not done
        series = [] if working else _plan_wide(totals, figures["plan_year"])
        shared = [] if working else list(totals.shared_notes)
    # Without pay dates (no plan.pay_schedule, no pay periods) payroll works the Plan Year as one
    # line: the chart then shows the year's deferral and match per participant instead.
    dated = any(not day.startswith("Plan Year") for day, _, _ in series)
    if working:
        columns: list[tuple[str, Decimal, Decimal]] = []
    elif not dated and not person:  # the participants of this page: a chart stays readable
        columns = [
            (p["id"], Decimal(p["elective_deferral"] or 0), Decimal(p["matching_restoration"] or 0))
            for p in people
        ]
    else:
        columns = series if dated else []
    return page(
        ws,
        "rrp.html.j2",
        request,
        **title,
        figures=figures,
        limit=plan_year.money(figures.get("compensation_limit")),
        people=plan_year.rows(people, enrolled, shared),
        everyone=len(ids),
        shared=shared,
        number=number,
        pages=1 if person else max(1, -(-len(ids) // PAGE_ROWS)),
        chart=charts.deferral_and_match(columns, by_pay_date=dated),
        dated=dated,
        working=working,
        series=[(day, plan_year.money(d), plan_year.money(m)) for day, d, m in series],
        person=person,
        missing=missing,
        figure=people[0] if person else None,
        elections=plan_year.elections(people[0]) if person else [],
        detail=detail,
        money=plan_year.money,
        report=report,
    )


async def drop_script(ws: Workspace, request: Request) -> Response:
    """The Returned forms screen's few lines of JavaScript (templates/web/drop.js): the workspace's
    own script, served from itself as its Content-Security-Policy allows; nothing fetched."""
    return Response(
        api.web_page("drop.js", {}), media_type="text/javascript", headers=security_headers()
    )


def create_app(folder: Path, out: Path, token: str, hosts: frozenset[str], port: int) -> Any:
    """The workspace over ``folder`` (issuing into ``out``, inside it), its every request
    guarded by ``token`` and answered only at ``hosts``:``port``."""
    ws = Workspace(folder=folder.resolve(), out=out.resolve(), token=token)
    get = [
        ("/", home),
        ("/cycle", cycle),
        ("/findings", findings),
        ("/review", review),
        ("/returned", returned),
        ("/issue", issue),
        ("/issue/{job}", issue_job),
        ("/rrp", rrp),
        ("/files/{path:path}", issued_file),
        ("/pages/{path:path}", page_image),
        ("/static/drop.js", drop_script),
    ]
    post = [
        ("/approve", approve),
        ("/decide", decide),
        ("/returned/upload", upload),
        ("/returned/record", record),
        ("/returned/elect", elect),
        ("/issue", issue_post),
    ]
    routes = [Route(p, route(ws, h), methods=["GET"]) for p, h in get]
    routes += [Route(p, route(ws, h), methods=["POST"], name=f"post {p}") for p, h in post]

    async def not_found(request: Request, exc: Exception) -> Response:
        code = getattr(exc, "status_code", 404)
        return refusal_page(ws, request, ["No such page in the workspace."], code)

    app = Starlette(routes=routes, exception_handlers={404: not_found, 405: not_found}, debug=False)
    app.state.workspace = ws
    return Guard(app, token, hosts, port)
