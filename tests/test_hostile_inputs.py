"""Every command on the red team's hostile inputs (issue 44): a FIFO as the facts file, a roster
named through `../` or a link leading out of the facts' folder, a CSV cell over 128 KiB, names
carrying a bidirectional override or a zero-width space, formula text, and a returned form whose
page tree contains itself. Each ends in a refusal (exit 2, or verify's 1 for a file it cannot
vouch for) with the file named, and never a traceback or an internal error (exit 3)."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter
from pypdf.generic import NameObject, NumberObject

from docgen.load import load_facts
from docgen.render import html as render
from tests.conftest import SAMPLES
from tests.fillers import pypdf_fill

GRANT = SAMPLES / "director-grant-2026.yaml"
ROSTER_GRANT = SAMPLES / "director-grant-2026-roster.yaml"


def _roster_copy(folder: Path) -> Path:
    shutil.copy(ROSTER_GRANT, folder / "facts.yaml")
    shutil.copy(SAMPLES / "roster.csv", folder / "roster.csv")
    return folder / "facts.yaml"


def _fifo(folder: Path) -> Path:
    os.mkfifo(folder / "facts.yaml")
    return folder / "facts.yaml"


def _dotdot(folder: Path) -> Path:
    inner = folder / "inner"
    inner.mkdir()
    shutil.copy(SAMPLES / "roster.csv", folder / "roster.csv")
    text = ROSTER_GRANT.read_text(encoding="utf-8").replace(
        "directors_csv: roster.csv", "directors_csv: ../roster.csv"
    )
    (inner / "facts.yaml").write_text(text, encoding="utf-8")
    return inner / "facts.yaml"


def _link_out(folder: Path) -> Path:
    inner = folder / "inner"
    inner.mkdir()
    shutil.copy(SAMPLES / "roster.csv", folder / "elsewhere.csv")
    (inner / "roster.csv").symlink_to(folder / "elsewhere.csv")
    shutil.copy(ROSTER_GRANT, inner / "facts.yaml")
    return inner / "facts.yaml"


def _huge_cell(folder: Path) -> Path:
    facts = _roster_copy(folder)
    lines = (folder / "roster.csv").read_text(encoding="utf-8").split("\n")
    cells = lines[1].split(",")
    cells[2] = "x" * (140 * 1024)  # the salutation
    lines[1] = ",".join(cells)
    (folder / "roster.csv").write_text("\n".join(lines), encoding="utf-8")
    return facts


def _named(name: str) -> Callable[[Path], Path]:
    def make(folder: Path) -> Path:
        text = GRANT.read_text(encoding="utf-8")
        (folder / "facts.yaml").write_text(
            text.replace("name: Lin Chen", f'name: "{name}"', 1), encoding="utf-8"
        )
        return folder / "facts.yaml"

    return make


HOSTILE: dict[str, Callable[[Path], Path]] = {
    "fifo-facts": _fifo,
    "dotdot-roster": _dotdot,
    "link-out-roster": _link_out,
    "huge-cell": _huge_cell,
    "bidi-name": _named("Lin \\u202eChen"),
    "zero-width-name": _named("Lin\\u200b Chen"),
}


def _commands(facts: Path, folder: Path) -> dict[str, list[object]]:
    """Each command of the app, given the hostile facts file (or, for a command that reads no
    facts file, the hostile file where it reads one): its arguments."""
    form = folder / "form.pdf"  # written by the test: the facts are refused before it is read
    return {
        "validate": ["validate", facts],
        "check": ["check", facts],
        "clauses": ["clauses", facts],
        "batch": ["batch", facts, "--out", folder / "out"],
        "render": ["render", facts, "--doc", "notice", "--for", "lchen", "--to", "pdf",
                   "--out", folder / "out"],
        "status": ["status", facts, "--format", "csv"],
        "section16": ["section16", facts, "--out", folder],
        "compute": ["compute", facts],
        "payroll": ["payroll", facts],
        "calendar": ["calendar", facts],
        "proxy": ["proxy", facts, "--fiscal-year-end", "2027-02-28"],
        "export-ocf": ["export-ocf", facts, "-o", folder / "x.ocf.zip"],
        "intake": ["intake", facts, form, "--received-on", "2026-06-22", "--as-of", "2026-06-22"],
        "elect": ["elect", facts, "--for", "lchen", "--pay-on", "separation",
                  "--received-on", "2026-06-22", "--as-of", "2026-06-22"],
        "approve": ["approve", facts, "--wording", "notice.grant-summary", "--by", "A. Counsel",
                    "--on", "2026-06-01"],
        "decide": ["decide", facts, "--for", "lchen", "--ineffective", "--reason", "late",
                   "--by", "A. Counsel", "--as-of", "2026-06-22"],
        "send": ["send", facts, "--out", folder / "out", "--dry-run", "--as-of", "2026-06-01"],
        # The spreadsheet to propose a columns: block for: here the hostile facts file itself
        # (test_columns_refuses_every_hostile_spreadsheet gives it hostile spreadsheets).
        "columns": ["columns", facts, "--kind", "director-rsu-grant"],
        # A hostile facts file where a folder or a PDF is wanted.
        "verify": ["verify", facts],
        "serve": ["serve", facts, "--port", "1"],
        "templates": ["templates", "--export", facts],
        "explain": ["explain", facts.read_text() if facts.is_file() else str(facts)],
    }  # fmt: skip


# Commands that read no input at all: nothing hostile can be given them (checked below).
NO_INPUT = {"schema", "rules"}


def _app_commands() -> list[str]:
    """Every command the app registers, as a user types it: a new command is in this list
    whether or not the table above knows it, and fails the test below until it does."""
    import typer

    from docgen.cli import app

    return sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]


COMMANDS = [name for name in _app_commands() if name not in NO_INPUT]


def test_every_command_of_the_app_is_tried_on_hostile_inputs():
    known = set(_commands(Path("f"), Path("d")))
    assert set(COMMANDS) - known == set(), "a command no hostile input is tried on"
    assert known - set(COMMANDS) == set(), "a command the app does not register"


@pytest.mark.parametrize("name", sorted(NO_INPUT))
def test_a_command_left_out_reads_no_input(name):
    import click
    import typer

    from docgen.cli import app

    command = typer.main.get_command(app).commands[name]  # type: ignore[attr-defined]
    for param in command.params:
        assert isinstance(param, click.Option) and param.is_flag, (name, param.name)


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("hostile", list(HOSTILE))
def test_every_command_refuses_every_hostile_facts_file(cli, tmp_path, hostile, command):
    facts = HOSTILE[hostile](tmp_path)
    (tmp_path / "form.pdf").write_bytes(b"%PDF-1.7\n")
    args = _commands(facts, tmp_path)[command]
    result = cli(*args)
    said = result.stdout + result.stderr
    # verify's 1: a file it cannot vouch for (DESIGN.md, "Command line"); every other command's 2
    assert result.exit_code in ((1, 2) if command == "verify" else (2,)), said
    assert "Traceback" not in said and "internal error" not in said
    assert facts.name in said or "roster.csv" in said or command == "explain"
    assert not (tmp_path / "out").exists() and not (tmp_path / "x.ocf.zip").exists()


def _sheet_fifo(folder: Path) -> Path:
    os.mkfifo(folder / "roster.csv")
    return folder / "roster.csv"


def _sheet_huge(folder: Path) -> Path:
    _huge_cell(folder)
    return folder / "roster.csv"


def _sheet_garbage(folder: Path) -> Path:
    (folder / "roster.xlsx").write_bytes(b"PK\x03\x04" + b"\x00garbage" * 100)
    return folder / "roster.xlsx"


def _sheet_facts(folder: Path) -> Path:
    """A facts file named where the spreadsheet goes: once read as a CSV, it gave a proposal
    from its YAML lines (exit 0)."""
    shutil.copy(GRANT, folder / "facts.yaml")
    return folder / "facts.yaml"


HOSTILE_SHEETS = {
    "fifo": _sheet_fifo,
    "huge-cell": _sheet_huge,
    "garbage-xlsx": _sheet_garbage,
    "facts-file": _sheet_facts,
}


@pytest.mark.parametrize("hostile", list(HOSTILE_SHEETS))
def test_columns_refuses_every_hostile_spreadsheet(cli, tmp_path, hostile):
    sheet = HOSTILE_SHEETS[hostile](tmp_path)
    result = cli("columns", sheet, "--kind", "director-rsu-grant")
    said = result.stdout + result.stderr
    assert result.exit_code == 2, said
    assert "Traceback" not in said and "internal error" not in said
    assert sheet.name in said


WORKSPACE_PAGES = ("/cycle", "/findings", "/review", "/returned", "/issue", "/rrp")


@pytest.mark.parametrize("hostile", list(HOSTILE))
def test_the_workspace_over_a_hostile_folder_shows_messages_not_a_crash(tmp_path, hostile):
    """`docgen serve` on a folder holding a hostile facts file: every page over it answers with
    the refusal's messages (the workspace's page for a facts file that does not load), never a
    server error or a traceback. Through Starlette's TestClient, as tests/test_workspace.py."""
    pytest.importorskip("starlette")
    pytest.importorskip("multipart")
    from starlette.testclient import TestClient

    from docgen.web.app import create_app
    from docgen.web.security import LOCAL_HOSTS

    facts = HOSTILE[hostile](tmp_path)
    folder = facts.parent
    app = create_app(folder, folder / "out", "a-test-token", LOCAL_HOSTS, 8765)
    browser = TestClient(app, base_url="http://127.0.0.1:8765", raise_server_exceptions=False)
    home = browser.get("/?token=a-test-token")
    assert home.status_code == 200 and "Traceback" not in home.text
    for page in WORKSPACE_PAGES:
        response = browser.get(f"{page}?f={facts.name}&as_of=2026-06-22")
        assert response.status_code < 500, (page, response.text[:2000])
        assert "Traceback" not in response.text, page
        assert facts.name in response.text or "roster.csv" in response.text, page
    assert not (folder / "out").exists()


def _looped_form(tmp_path: Path, facts: Path) -> Path:
    blank = render.render_document(load_facts(facts), "exhibit-i", "tnguyen", "elections", "pdf")
    filled = pypdf_fill(
        blank, {"pay_on": "separation", "printed_name": "Thanh Nguyen", "date_signed": "2026-06-20"}
    )
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(filled)))
    pages = writer.root_object["/Pages"].get_object()
    pages["/Kids"].append(writer.root_object.raw_get("/Pages"))  # the page tree holds itself
    pages[NameObject("/Count")] = NumberObject(len(pages["/Kids"]))
    out = io.BytesIO()
    writer.write(out)
    path = tmp_path / "looped.pdf"
    path.write_bytes(out.getvalue())
    return path


def test_a_returned_form_whose_page_tree_contains_itself_is_refused(cli, tmp_path):
    facts = tmp_path / "grant.yaml"
    shutil.copy(GRANT, facts)
    form = _looped_form(tmp_path, facts)
    before = facts.read_bytes()
    result = cli("intake", facts, form, "--received-on", "2026-06-22", "--as-of", "2026-06-22")
    assert result.exit_code == 2, result.stdout + result.stderr
    message = " ".join(result.stderr.split())
    assert "looped.pdf" in message and "its page tree contains itself" in message
    assert facts.read_bytes() == before
    verified = cli("verify", form)
    assert verified.exit_code in (1, 2), verified.stdout + verified.stderr
    assert "Traceback" not in verified.stdout + verified.stderr
    assert "internal error" not in verified.stdout + verified.stderr


@pytest.mark.parametrize("kind", ["fifo", "garbage"])
def test_verify_refuses_a_fifo_or_garbage_as_the_pdf(cli, tmp_path, kind):
    target = tmp_path / "notice.pdf"
    if kind == "fifo":
        os.mkfifo(target)
    else:
        target.write_bytes(b"%PDF-1.7\n" + b"\x00garbage" * 100)
    result = cli("verify", target)
    said = result.stdout + result.stderr
    assert result.exit_code in (1, 2), said
    assert "Traceback" not in said and "internal error" not in said


def test_a_huge_cell_is_refused_with_its_file_and_line(cli, tmp_path):
    facts = _huge_cell(tmp_path)
    result = cli("check", facts)
    assert result.exit_code == 2
    message = " ".join(result.stderr.split())
    assert "roster.csv:2: a cell docgen cannot read" in message
    assert "at most 131,072 characters" in message


def test_formula_text_in_elect_is_refused(cli, tmp_path):
    facts = tmp_path / "grant.yaml"
    shutil.copy(GRANT, facts)
    result = cli(
        "elect", facts, "--for", "tnguyen", "--pay-on", "separation",
        "--recorded-by", "=cmd|' /C calc'!A0", "--received-on", "2026-06-22",
        "--as-of", "2026-06-22",
    )  # fmt: skip
    assert result.exit_code == 2
    assert "which a spreadsheet runs as a formula" in " ".join(result.stderr.split())
    assert facts.read_bytes() == GRANT.read_bytes()


# ------------------------------------------------- every option naming a file docgen reads

# Each option of the app that takes a path, by what docgen does with it: reads a file there, or
# reads a folder there, or writes there. A new path option fails the test below until it is
# placed here, and each file read is then tried with a FIFO.
READS_FILE = {
    ("approve", "--shown"),
    ("batch", "--sign-config"),
    ("intake", "--sign-config"),
    ("intake", "--trust"),
    ("render", "--sign-config"),
    ("send", "--ca-file"),
    ("send", "--smtp-config"),
    ("verify", "--trust"),
}
READS_FOLDER = {("export-ocf", "--issued"), ("send", "--out"), ("status", "--out")}
WRITES = {
    *((name, "--output") for name in (
        "calendar", "check", "clauses", "compute", "export-ocf", "payroll", "proxy", "render",
        "status",
    )),
    ("batch", "--out"),
    ("render", "--out"),
    ("section16", "--out"),
    ("send", "--eml"),
    ("serve", "--out"),
    ("templates", "--export"),
}  # fmt: skip


def _path_options() -> set[tuple[str, str]]:
    """(command, its longest flag) for every option of the app whose value is a path."""
    import types
    import typing

    import typer

    from docgen.cli import app

    found = set()
    for name, command in typer.main.get_command(app).commands.items():  # type: ignore[attr-defined]
        hints = typing.get_type_hints(command.callback, include_extras=True)
        for param in command.params:
            hint = hints.get(param.name)
            if typing.get_origin(hint) is typing.Annotated:
                hint = typing.get_args(hint)[0]
            union = typing.get_origin(hint) in (typing.Union, types.UnionType)
            is_path = hint is Path or (union and Path in typing.get_args(hint))
            if is_path and param.param_type_name == "option":
                found.add((name, max(param.opts, key=len)))
    return found


def test_every_path_option_of_the_app_is_known_as_read_or_written():
    options = _path_options()
    assert options - (READS_FILE | READS_FOLDER | WRITES) == set(), "a path option not placed"
    assert (READS_FILE | READS_FOLDER | WRITES) - options == set(), "an option the app lacks"


def _reading(option: tuple[str, str], facts: Path, fifo: Path) -> list[object]:
    """A command line that reads ``option``'s file before anything else refuses."""
    command, flag = option
    base: dict[tuple[str, str], list[object]] = {
        ("approve", "--shown"): ["approve", facts, "--all-shown", "--by", "A. Counsel"],
        ("batch", "--sign-config"): ["batch", facts, "--out", fifo.parent / "out", "--sign"],
        ("intake", "--sign-config"): ["intake", facts, facts, "--received-on", "2026-06-22"],
        ("intake", "--trust"): ["intake", facts, facts, "--received-on", "2026-06-22"],
        ("render", "--sign-config"): ["render", facts, "--doc", "notice", "--for", "lchen",
                                      "--to", "pdf", "--out", fifo.parent / "out", "--sign"],
        ("send", "--smtp-config"): ["send", facts, "--out", fifo.parent, "--smtp", "--dry-run"],
        ("verify", "--trust"): ["verify", facts],
    }  # fmt: skip
    return [*base[option], flag, fifo]


@pytest.mark.parametrize("option", sorted(READS_FILE - {("send", "--ca-file")}))
def test_a_fifo_named_as_a_file_to_read_is_refused_not_waited_on(tmp_path, option):
    """A FIFO blocks the read of whoever opens it: `verify --trust`, `batch --sign-config` and
    `send --smtp-config` waited for ever (issue 44). Run as a process, so a wait fails."""
    facts = tmp_path / "grant.yaml"
    shutil.copy(GRANT, facts)
    fifo = tmp_path / "named.pipe"
    os.mkfifo(fifo)
    docgen = Path(sys.executable).parent / "docgen"
    args = [str(a) for a in _reading(option, facts, fifo)]
    try:
        result = subprocess.run(
            [str(docgen), *args], capture_output=True, text=True, timeout=120, check=False
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"docgen {' '.join(args)} waited on the FIFO")
    said = result.stdout + result.stderr
    assert result.returncode == 2, said
    assert "Traceback" not in said and "named.pipe" in said
    assert not (tmp_path / "out").exists()


def test_a_fifo_named_as_the_mail_server_s_ca_is_refused():
    """`send --ca-file` is read when docgen connects; read as a FIFO it blocked OpenSSL."""
    from docgen.send.transport import SendError, tls_context

    with tempfile.TemporaryDirectory() as folder:
        fifo = Path(folder) / "ca.pem"
        os.mkfifo(fifo)
        with pytest.raises(SendError, match="not a regular file"):
            tls_context(fifo)
