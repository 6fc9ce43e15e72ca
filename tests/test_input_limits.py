"""Input limits (issue 25): encrypted forms read when they open without a password and refused
clearly when not; pypdf's own limits, and docgen's, refusals rather than exit 3; `verify` and
`intake` bounded in what they read; a message never echoes a runaway value whole. Through the
CLI: exit code, message, the facts file untouched."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter
from pypdf.generic import DictionaryObject, NameObject, TextStringObject

from docgen.load import load_facts
from docgen.render import html as render
from tests.fillers import pypdf_fill

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
RECEIVED = "2026-06-22"
ANSWERS = {"pay_on": "separation", "printed_name": "Thanh Nguyen", "date_signed": "June 20, 2026"}


@pytest.fixture(scope="module")
def filled() -> bytes:
    loaded = load_facts(SAMPLES / "director-grant-2026.yaml")
    blank = render.render_document(loaded, "exhibit-i", "tnguyen", "elections", "pdf")
    return pypdf_fill(blank, ANSWERS)


@pytest.fixture
def facts(tmp_path) -> Path:
    path = tmp_path / "grant.yaml"
    shutil.copy(SAMPLES / "director-grant-2026.yaml", path)
    return path


def _intake(cli, facts: Path, form: Path):
    return cli("intake", facts, form, "--received-on", RECEIVED, "--as-of", RECEIVED)


def _encrypted(pdf: bytes, user: str, algorithm: str) -> bytes:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    writer.encrypt(user_password=user, owner_password="owner-secret", algorithm=algorithm)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _refused(result, facts: Path, before: bytes, *says: str) -> str:
    assert result.exit_code == 2, result.output
    message = " ".join(result.stderr.split())
    for words in says:
        assert words in message, message
    assert "Traceback" not in result.output and "internal error" not in result.output
    assert facts.read_bytes() == before
    assert sorted(p.name for p in facts.parent.iterdir() if p.name.startswith(".")) == []
    return message


@pytest.mark.parametrize("algorithm", ["AES-256", "AES-128", "RC4-128"])
def test_a_form_saved_with_restricted_editing_is_read(cli, facts, filled, tmp_path, algorithm):
    form = tmp_path / "returned.pdf"
    form.write_bytes(_encrypted(filled, "", algorithm))  # an owner password only
    result = _intake(cli, facts, form)
    assert result.exit_code == 0, result.output
    director = load_facts(facts).facts.director("tnguyen")
    assert [e.pay_on for e in director.elections] == ["separation"]


def test_a_form_that_asks_for_a_password_to_open_is_refused(cli, facts, filled, tmp_path):
    form = tmp_path / "returned.pdf"
    form.write_bytes(_encrypted(filled, "open-secret", "AES-256"))
    _refused(
        _intake(cli, facts, form),
        facts,
        facts.read_bytes(),
        "returned.pdf: not a form docgen can read back: the PDF asks for a password to open it",
        "ask for a copy saved without one",
    )


def _with_fields(pdf: bytes, count: int) -> bytes:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    fields = writer._root_object["/AcroForm"]["/Fields"]
    for number in range(count):
        field = DictionaryObject(
            {NameObject("/T"): TextStringObject(f"x{number}"), NameObject("/FT"): NameObject("/Tx")}
        )
        fields.append(writer._add_object(field))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


@pytest.mark.slow  # renders documents or runs many cases: make test, not test-fast
@pytest.mark.parametrize(
    "count, says",
    [
        (200_000, "larger inside than any form docgen issues (Reached maximum array element"),
        (5_000, "more than 2,000 form fields and widgets"),
    ],
    ids=["pypdf-limit", "docgen-limit"],
)
def test_a_form_with_too_many_fields_is_refused_not_a_crash(
    cli, facts, filled, tmp_path, count, says
):
    form = tmp_path / "returned.pdf"
    form.write_bytes(_with_fields(filled, count))
    _refused(_intake(cli, facts, form), facts, facts.read_bytes(), says)


def test_a_form_larger_than_any_docgen_issues_is_refused_unread(cli, facts, tmp_path):
    form = tmp_path / "returned.pdf"
    with form.open("wb") as handle:
        handle.truncate(2 * 1024**3)  # 2 GB, sparse: never read
    _refused(_intake(cli, facts, form), facts, facts.read_bytes(), "is too large to be a returned")


def test_verify_refuses_a_huge_file_unread(cli, tmp_path):
    big = tmp_path / "notice.pdf"
    with big.open("wb") as handle:
        handle.write(b"%PDF-1.7\n")
        handle.truncate(2 * 1024**3)
    result = cli("verify", big)
    assert result.exit_code == 2, result.output
    message = " ".join(result.stderr.split())
    assert "notice.pdf: larger than 52,428,800 bytes, far more than any document docgen" in message
    assert "Traceback" not in result.output


@pytest.mark.slow  # renders documents or runs many cases: make test, not test-fast
def test_a_runaway_printed_name_is_not_echoed_whole(cli, facts, tmp_path, filled):
    loaded = load_facts(facts)
    blank = render.render_document(loaded, "exhibit-i", "tnguyen", "elections", "pdf")
    form = tmp_path / "returned.pdf"
    form.write_bytes(pypdf_fill(blank, {**ANSWERS, "printed_name": "Thanh " + "X" * 3_000_000}))
    message = _refused(
        _intake(cli, facts, form), facts, facts.read_bytes(), "printed_name: reads 'Thanh XXX"
    )
    assert (
        "characters not shown" in message and "but the form was issued to Thanh Nguyen" in message
    )
    assert len(message) < 2_000


def test_a_runaway_value_in_the_facts_is_not_echoed_whole(cli, tmp_path):
    facts = tmp_path / "grant.yaml"
    text = (SAMPLES / "director-grant-2026.yaml").read_text(encoding="utf-8")
    facts.write_text(text.replace("units: 2450", "units: " + "9" * 3_000_000, 1), encoding="utf-8")
    result = cli("validate", facts)
    assert result.exit_code == 2
    assert len(result.stderr) < 3_000, result.stderr[:500]
