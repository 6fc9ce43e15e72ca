"""Every command on the red team's hostile inputs (issue 44): a FIFO as the facts file, a roster
named through `../` or a link leading out of the facts' folder, a CSV cell over 128 KiB, names
carrying a bidirectional override or a zero-width space, formula text, and a returned form whose
page tree contains itself. Each ends in a refusal (exit 2, or verify's 1 for a file it cannot
vouch for) with the file named, and never a traceback or an internal error (exit 3)."""

from __future__ import annotations

import io
import os
import shutil
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
    }  # fmt: skip


COMMANDS = list(_commands(Path("f"), Path("d")))


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("hostile", list(HOSTILE))
def test_every_command_refuses_every_hostile_facts_file(cli, tmp_path, hostile, command):
    facts = HOSTILE[hostile](tmp_path)
    (tmp_path / "form.pdf").write_bytes(b"%PDF-1.7\n")
    args = _commands(facts, tmp_path)[command]
    result = cli(*args)
    said = result.stdout + result.stderr
    assert result.exit_code == 2, said
    assert "Traceback" not in said and "internal error" not in said
    assert facts.name in said or "roster.csv" in said
    assert not (tmp_path / "out").exists() and not (tmp_path / "x.ocf.zip").exists()


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
