"""docgen-record.json and `docgen verify FILE.pdf`: one issued document checked away from its
folder (DESIGN.md, "Command line", DESIGN.md, "Trusted documents")."""

from __future__ import annotations

import dataclasses
import io
import json
import shutil
from datetime import date
from pathlib import Path

import pytest
from pypdf import PdfReader

import docgen.issue.record as record_module
from docgen import __version__
from docgen.core.errors import RenderError
from docgen.issue.batch import issue_batch
from docgen.issue.pool import render_and_read_back
from docgen.issue.record import RECORD_NAME, read_record
from docgen.kinds import all_kinds, kind_of
from docgen.kinds.registry import Kind
from docgen.load import load_facts
from docgen.render import html as render
from docgen.render.pdf import html_to_pdf
from tests.readers import pdf_words

# Every test here issues documents and verifies them end to end: slow (not in `make test-fast`).
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
GRANT = ROOT / "samples" / "director-grant-2026.yaml"
AS_OF = date(2026, 6, 23)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("out")
    return issue_batch(GRANT, out, stage="grant", as_of=AS_OF).folder


@pytest.fixture
def away(folder, tmp_path) -> Path:
    """jsmith's Notice as a director keeps it: copied out of its folder, manifest left behind."""
    copy = tmp_path / "inbox" / "Notice from CarMax.pdf"
    copy.parent.mkdir()
    shutil.copyfile(folder / "jsmith" / "notice.pdf", copy)
    return copy


def embedded(pdf: bytes) -> dict:
    return json.loads(PdfReader(io.BytesIO(pdf)).attachments[RECORD_NAME][0])


# ------------------------------------------------------------------ the record


def test_the_record_names_what_the_notice_was_made_from(folder):
    manifest = json.loads((folder / "manifest.json").read_text())
    record = embedded((folder / "jsmith" / "notice.pdf").read_bytes())
    assert record["facts_sha256"] == manifest["facts"]["sha256"]
    assert record["facts_file"] == manifest["facts"]["file"] == "director-grant-2026.yaml"
    assert record["docgen_version"] == manifest["docgen_version"] == __version__
    assert record["templates_sha256"] == manifest["templates_sha256"]
    assert record["renderer"].startswith("WeasyPrint ")
    assert (record["stage"], record["as_of"], record["cycle"]) == (
        "grant",
        "2026-06-23",
        "2026-annual",
    )
    assert (record["document"], record["subject"]) == ("notice", "jsmith")
    assert record["record_format"] == 2  # 2: it names the fonts (issue 25)
    assert record["fonts"].startswith("DejaVuSerif-Bold.ttf sha256:")


@pytest.mark.parametrize("doc", ["notice", "exhibit-i"])
def test_the_record_carries_that_directors_facts_and_no_one_elses(folder, doc):
    loaded = load_facts(GRANT)
    others = [d for d in loaded.facts.directors if d.id != "jsmith"]
    pdf = (folder / "jsmith" / f"{doc}.pdf").read_bytes()
    record = embedded(pdf)
    facts = record["facts"]
    assert [d["id"] for d in facts["directors"]] == ["jsmith"]
    assert facts["directors"][0]["units"] == 2450
    cycle = loaded.facts.model_dump(mode="json")
    # every cycle-level fact but those no document prints (KindFacts.not_in_slice: ocf; how the
    # spreadsheets were read, columns; docgen send's sending block and its letters' approvals)
    left_out = {"directors", "columns", "sending", *type(loaded.facts).not_in_slice}
    cycle["clause_approvals"] = [
        a for a in cycle["clause_approvals"] if not a["clause"].startswith("letter.")
    ]
    assert {k: v for k, v in facts.items() if k != "directors"} == {
        k: v for k, v in cycle.items() if k not in left_out
    }
    carried = json.dumps(record) + pdf_words(pdf)
    for other in others:
        assert other.name not in carried
        assert f'"{other.id}"' not in carried
        assert not any(line in carried for line in other.address)


def test_every_subjects_slice_loads_as_a_one_person_facts_file(tmp_path):
    """Kind.slice: each person's share of each sample loads through the facts loader; for the
    director documents (those that carry it) it makes the very same HTML again."""
    samples = sorted((ROOT / "samples").rglob("*.yaml"))
    assert {load_facts(s).facts.kind for s in samples} == {k.name for k in all_kinds()}
    for sample in samples:
        loaded = load_facts(sample)
        kind = kind_of(loaded.facts)
        for subject in kind.subjects(loaded.facts):
            path = tmp_path / f"{sample.stem}-{subject.id}.json"
            path.write_text(json.dumps(kind.slice(loaded.facts, subject.id)))
            alone = load_facts(path)
            assert [s.id for s in kind.subjects(alone.facts)] == [subject.id]
            if kind.roster is not None:
                assert getattr(alone.facts, kind.roster.field) is None
            for stage in kind.stages:
                for who, doc in render.documents_for(alone.facts, stage):
                    meta = render.document_meta(alone, doc, who, stage)
                    if meta.fillable:
                        continue  # no record: see test_a_fillable_form_carries_no_record
                    assert render.render_html(alone, doc, who, stage) == render.render_html(
                        loaded, doc, who, stage
                    ), (sample.name, subject.id, doc)


def test_a_record_that_would_not_make_the_document_again_stops_the_issue(monkeypatch):
    """Were a kind's documents to depend on another person's facts, the record could not make
    them again: docgen refuses at issue time rather than let `verify` fail months later."""
    original = Kind.slice

    def lossy(self, facts, subject_id):
        data = original(self, facts, subject_id)
        data["directors"][0]["units"] = 1
        return data

    monkeypatch.setattr(Kind, "slice", lossy)
    with pytest.raises(RenderError, match="do not make the same document again"):
        render_and_read_back(load_facts(GRANT), "notice", "jsmith", "grant", as_of=AS_OF)


def test_a_fillable_form_carries_no_record(tmp_path, cli):
    blank = tmp_path / "exhibit-i.pdf"
    made = cli(
        "render",
        GRANT,
        "--doc",
        "exhibit-i",
        "--for",
        "jsmith",
        "--stage",
        "elections",
        "--to",
        "pdf",
        "--out",
        tmp_path / "out",
        "-o",
        blank,
        "--as-of",
        "2026-06-22",
    )
    assert made.exit_code == 0, made.output
    assert RECORD_NAME not in PdfReader(blank).attachments
    result = cli("verify", blank)
    assert result.exit_code == 1
    assert f"cannot be verified on its own: it carries no {RECORD_NAME}" in result.stderr
    assert "docgen verify DIR" in result.stderr


# ------------------------------------------------------------------ verify FILE.pdf


def test_a_notice_copied_out_of_its_folder_verifies(away, cli):
    result = cli("verify", away)
    assert result.exit_code == 0, result.output
    # An unsigned file is only consistent with its own record (DESIGN.md, "Signed documents"):
    # the summary says so, and that it proves nothing about who made it.
    assert (
        f"{away}: consistent with the record it carries: docgen {__version__} makes these very "
        "bytes from its facts as of 2026-06-23 (notice for jsmith, 2026-annual, stage grant; "
        "the facts it carries have SHA-256 "
    ) in " ".join(result.stdout.split())
    assert "It is not signed, so this proves nothing about who made it" in result.stdout


def test_the_digest_shown_is_of_the_facts_the_file_carries(away, folder, cli):
    """Issue 44: the digest printed is the packet's own facts, as the manifest's packet inputs
    hold it; never the cycle's facts-file digest, which an edited record would carry unchanged."""
    manifest = json.loads((folder / "manifest.json").read_text())
    (packet,) = [p for p in manifest["packets"] if p["subject"] == "jsmith"]
    own = packet["inputs"]["facts_sha256"]
    said = " ".join(cli("verify", away).stdout.split())
    assert f"the facts it carries have SHA-256 {own[:12]}" in said
    assert manifest["facts"]["sha256"][:12] not in said


@pytest.mark.parametrize("where", [0.02, 0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9, 0.98])
def test_one_changed_byte_fails(away, cli, where):
    data = bytearray(away.read_bytes())
    data[int(len(data) * where)] ^= 0x01
    away.write_bytes(bytes(data))
    result = cli("verify", away)
    assert result.exit_code == 1, result.output
    assert "not shown to be the document docgen issued; do not rely on this copy" in result.stderr
    assert "Traceback" not in result.output


def test_a_changed_byte_that_leaves_the_text_is_found_in_the_bytes(away, cli):
    """A byte in the file's cross-reference table: the text and the record still read the same,
    the bytes do not."""
    data = away.read_bytes()
    at = data.rindex(b"startxref") - 40
    away.write_bytes(data[:at] + bytes([data[at] ^ 0x01]) + data[at + 1 :])
    result = cli("verify", away)
    assert result.exit_code == 1
    assert (
        f"bytes differ (1 byte of {len(data):,}, first at offset {at:,}) though the text and "
        "the record are as docgen makes them"
    ) in result.stderr


def _notice(record_edit=None, raw=None) -> bytes:
    """jsmith's Notice with its record changed after the fact, printed as docgen prints."""
    loaded = load_facts(GRANT)
    html = render.render_html(loaded, "notice", "jsmith", "grant", AS_OF)
    meta = render.document_meta(loaded, "notice", "jsmith", "grant", AS_OF)
    record = record_module.build_record(loaded, "notice", "jsmith", "grant", AS_OF)
    if record_edit:
        record_edit(record.data)
    file = record.embedded()
    if raw is not None:
        file = dataclasses.replace(file, data=raw(record.data))
    return html_to_pdf(html, meta, (file,))


def test_a_record_whose_facts_were_changed_fails_on_the_text(tmp_path, cli):
    def more_units(data):
        data["facts"]["directors"][0]["units"] = 9999

    path = tmp_path / "notice.pdf"
    path.write_bytes(_notice(more_units))
    result = cli("verify", path)
    assert result.exit_code == 1
    assert "text differs: the file says" in result.stderr
    assert "2,450" in result.stderr and "9,999" in result.stderr


def test_a_record_rewritten_without_changing_a_fact_is_named(tmp_path, cli):
    path = tmp_path / "notice.pdf"
    path.write_bytes(_notice(raw=lambda data: json.dumps(data).encode()))
    result = cli("verify", path)
    assert result.exit_code == 1
    assert f"record: its {RECORD_NAME} is not as docgen {__version__} wrote it (edited)" in (
        result.stderr
    )


def test_another_version_is_said_and_the_text_compared(tmp_path, cli):
    def older(data):
        data["docgen_version"] = "0.0.9"

    path = tmp_path / "notice.pdf"
    path.write_bytes(_notice(older))
    result = cli("verify", path)
    assert result.exit_code == 0, result.output
    assert (
        f"It was made by docgen 0.0.9; this is docgen {__version__}, so the text is compared, "
        "not the bytes."
    ) in result.stdout
    assert "the same text as docgen" in result.stdout

    def older_and_changed(data):
        older(data)
        data["facts"]["directors"][0]["units"] = 9999

    path.write_bytes(_notice(older_and_changed))
    result = cli("verify", path)
    assert result.exit_code == 1
    assert "made by docgen 0.0.9" in result.stderr and "text differs" in result.stderr


def test_another_renderer_is_said_and_the_text_compared(away, cli, monkeypatch):
    monkeypatch.setattr("docgen.issue.verify.renderer", lambda: "WeasyPrint 99.0")
    result = cli("verify", away)
    assert result.exit_code == 0, result.output
    assert "this docgen prints with WeasyPrint 99.0, so the text is compared" in result.stdout


def test_a_record_whose_facts_no_longer_load_says_so(tmp_path, cli):
    def unknown_field(data):
        data["facts"]["grant"]["vesting_cliff"] = 1

    path = tmp_path / "notice.pdf"
    path.write_bytes(_notice(unknown_field))
    result = cli("verify", path)
    assert result.exit_code == 1
    assert f"record: its facts do not load in docgen {__version__} (grant.vesting_cliff:" in (
        result.stderr
    )


@pytest.mark.parametrize(
    "edit, message",
    [
        (
            lambda data: data["facts"].update(directors_csv="/etc/passwd"),
            "record: its facts name a file to read (directors_csv: '/etc/passwd')",
        ),
        (
            lambda data: data.update(kind="toy") or data["facts"].update(kind="toy"),
            "record: no kind 'toy'",
        ),
        (
            lambda data: data["facts"].update(kind="rrp-plan-year"),
            "record: its facts are of kind 'rrp-plan-year', not 'director-rsu-grant'",
        ),
    ],
)
def test_a_record_that_asks_for_more_than_it_carries_is_refused(tmp_path, cli, edit, message):
    """A record comes from a file anyone could have made: its facts read no file beside them."""
    path = tmp_path / "notice.pdf"
    path.write_bytes(_notice(edit))
    result = cli("verify", path)
    assert result.exit_code == 1
    assert message in result.stderr


@pytest.mark.parametrize(
    "content, message",
    [
        (b"not a pdf at all", "cannot be verified on its own: not a readable PDF"),
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "cannot be verified on its own: not a readable PDF"),
    ],
)
def test_a_file_that_is_no_pdf_fails_with_a_reason(tmp_path, cli, content, message):
    path = tmp_path / "notice.pdf"
    path.write_bytes(content)
    result = cli("verify", path)
    assert result.exit_code == 1
    assert message in result.stderr


def test_no_such_file_is_bad_input(tmp_path, cli):
    result = cli("verify", tmp_path / "notice.pdf")
    assert result.exit_code == 2
    assert "no such file. Name an issued PDF" in result.stderr


def test_render_writes_a_pdf_that_verifies(tmp_path, cli):
    path = tmp_path / "notice.pdf"
    made = cli(
        "render",
        GRANT,
        "--doc",
        "notice",
        "--for",
        "rgarcia",
        "--to",
        "pdf",
        "--out",
        tmp_path / "out",
        "-o",
        path,
        "--as-of",
        "2026-06-23",
    )
    assert made.exit_code == 0, made.output
    assert read_record(path.read_bytes()).subject == "rgarcia"
    assert cli("verify", path).exit_code == 0


@pytest.mark.parametrize("version", [__version__, "0.0.9"])
def test_a_stamp_drawn_over_page_one_is_reported_whatever_the_version(tmp_path, cli, version):
    """Issue 44: an annotation the issued document did not have is reported, even when the
    record names another docgen and only the text is compared."""
    from pypdf import PdfWriter
    from pypdf.generic import ArrayObject, DictionaryObject, FloatObject, NameObject

    def versioned(data):
        data["docgen_version"] = version

    writer = PdfWriter(clone_from=io.BytesIO(_notice(versioned)))
    stamp = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/Annot"),
            NameObject("/Subtype"): NameObject("/Stamp"),
            NameObject("/Name"): NameObject("/Approved"),
            NameObject("/Rect"): ArrayObject([FloatObject(v) for v in (72, 500, 400, 700)]),
        }
    )
    writer.add_annotation(0, stamp)
    path = tmp_path / "notice.pdf"
    with path.open("wb") as handle:
        writer.write(handle)
    result = cli("verify", path)
    assert result.exit_code == 1, result.output
    said = " ".join(result.stderr.split())
    assert (
        "page 1 has 1 Stamp annotation the document docgen makes from its record does not" in said
    )
