"""`docgen section16` (DESIGN.md, "After the grant: Form 4 drafts"): each director's Form 4 for
the grant as EDGAR ownership XML, read back by an independent parser (edgartools), its elements in
the order of the SEC's EDGAR Ownership XML Technical Specification, a readable PDF carrying the
same XML, written whole with a manifest of SHA-256s, and refused (nothing written) when a fact it
needs is missing."""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import zipfile
from decimal import Decimal
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from pypdf import PdfReader

from tests.readers import pdf_words
from tests.test_batch import DOCGEN

ROOT = Path(__file__).resolve().parent.parent
TOUR = ROOT / "samples" / "tour" / "4-after-grant.yaml"


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(DOCGEN), *map(str, args)], capture_output=True, text=True, check=False
    )


def facts_with(tmp_path: Path, *edits: tuple[str, str]) -> Path:
    text = TOUR.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text
        text = text.replace(old, new, 1)
    path = tmp_path / "facts.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def drafted(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("out")
    result = run("section16", TOUR, "--out", out, "--as-of", "2026-06-24")
    assert result.returncode == 0, result.stderr
    assert "Drafted 3 Form 4s" in result.stdout
    assert "Due on EDGAR by 2026-06-25." in result.stdout
    return out / "2026-annual" / "section16"


def edgar_form4(xml: bytes):
    """edgartools' own reading of an ownership XML document. It asks EDGAR whether each
    reporting owner's CIK is a company (a network call): answered here, offline, as a person."""
    # The `edgar` extra (pyproject.toml): `make test` installs it; the lowest-versions job does not.
    owners = pytest.importorskip("edgar.ownership.owners")
    Form4 = pytest.importorskip("edgar.ownership").Form4

    looked_up = owners.Entity
    owners.Entity = lambda cik: None  # not a company: edgartools reverses "Last First" names
    try:
        return Form4.parse_xml(xml.decode("utf-8"))
    finally:
        owners.Entity = looked_up


def test_the_manifest_holds_every_file_s_sha256(drafted):
    manifest = json.loads((drafted / "drafts-manifest.json").read_text(encoding="utf-8"))
    names = {
        f"{who}/{name}"
        for who in ("jsmith", "rgarcia", "ebrooks")
        for name in ("form4.xml", "form4.pdf")
    }
    assert set(manifest["files"]) == names
    for name, entry in manifest["files"].items():
        data = (drafted / name).read_bytes()
        assert entry == {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
    assert (manifest["due_on"], manifest["grant_date"]) == ("2026-06-25", "2026-06-23")
    assert manifest["form4_table"] == "II"
    assert manifest["facts_sha256"] == hashlib.sha256(TOUR.read_bytes()).hexdigest()
    assert not [p for p in drafted.parent.iterdir() if p.name.startswith(".section16")]


def test_edgartools_reads_the_grant_back_table_ii(drafted):
    form = edgar_form4((drafted / "rgarcia" / "form4.xml").read_bytes())
    assert form.form == "4"
    assert (form.issuer.cik, form.issuer.name, form.issuer.ticker) == (
        "0001170010",
        "CarMax, Inc.",
        "KMX",
    )
    assert form.reporting_period == "2026-06-23"
    (owner,) = form.reporting_owners.owners
    assert owner.cik == "0001990002" and owner.is_director
    (row,) = form.derivative_table.transactions.data.to_dict("records")
    assert row["Date"] == "2026-06-23"
    assert row["Code"] == "A"
    assert Decimal(str(row["Shares"])) == 2450
    assert Decimal(str(row["Price"] or 0)) == 0
    assert row["Security"] == "Restricted Stock Units"
    assert (
        form.non_derivative_table.transactions.data is None
        or form.non_derivative_table.transactions.data.empty
    )
    assert form.signatures.signatures[0].signature == "Roberto García"
    assert form.signatures.signatures[0].date == "2026-06-24"
    assert "DRAFT" in form.remarks
    notes = str(form.footnotes)
    assert "Rule 16b-3(d)" in notes and "June 23, 2027" in notes and "July 1, 2030" in notes


def test_edgartools_reads_the_grant_back_table_i(tmp_path):
    facts = facts_with(tmp_path, ('form4_table: "II"', 'form4_table: "I"'))
    out = tmp_path / "out"
    out.mkdir()
    assert run("section16", facts, "--out", out, "--as-of", "2026-06-23").returncode == 0
    xml = (out / "2026-annual" / "section16" / "jsmith" / "form4.xml").read_bytes()
    form = edgar_form4(xml)
    (owner,) = form.reporting_owners.owners
    assert (owner.cik, owner.name) == ("0001990001", "Jane Q. Smith")  # from "Smith Jane Q."
    (row,) = form.non_derivative_table.transactions.data.to_dict("records")
    # The title carries the vesting and deferral footnotes, as edgartools shows them.
    assert (row["Date"], row["Code"]) == ("2026-06-23", "A")
    assert row["Security"] == "Common Stock [F2,F3]"
    assert Decimal(str(row["Shares"])) == 2450
    assert Decimal(str(row["Price"] or 0)) == 0
    assert Decimal(str(row["Remaining"])) == 7350  # shares_owned_after
    assert (
        form.derivative_table.transactions.data is None
        or form.derivative_table.transactions.data.empty
    )


# The EDGAR Ownership XML Technical Specification (X0508), each element's children in order, as
# far as a Form 4 draft uses them.
ORDER = {
    "ownershipDocument": [
        "schemaVersion",
        "documentType",
        "periodOfReport",
        "dateOfOriginalSubmission",
        "notSubjectToSection16",
        "form3HoldingsReported",
        "form4TransactionsReported",
        "issuer",
        "reportingOwner",
        "aff10b5One",
        "nonDerivativeTable",
        "derivativeTable",
        "footnotes",
        "remarks",
        "ownerSignature",
    ],
    "issuer": ["issuerCik", "issuerName", "issuerTradingSymbol"],
    "reportingOwner": ["reportingOwnerId", "reportingOwnerAddress", "reportingOwnerRelationship"],
    "reportingOwnerId": ["rptOwnerCik", "rptOwnerCcc", "rptOwnerName"],
    "reportingOwnerAddress": [
        "rptOwnerStreet1",
        "rptOwnerStreet2",
        "rptOwnerCity",
        "rptOwnerState",
        "rptOwnerZipCode",
        "rptOwnerStateDescription",
    ],
    "reportingOwnerRelationship": [
        "isDirector",
        "isOfficer",
        "isTenPercentOwner",
        "isOther",
        "officerTitle",
        "otherText",
    ],
    "nonDerivativeTransaction": [
        "securityTitle",
        "transactionDate",
        "deemedExecutionDate",
        "transactionCoding",
        "transactionTimeliness",
        "transactionAmounts",
        "postTransactionAmounts",
        "ownershipNature",
    ],
    "derivativeTransaction": [
        "securityTitle",
        "conversionOrExercisePrice",
        "transactionDate",
        "deemedExecutionDate",
        "transactionCoding",
        "transactionTimeliness",
        "transactionAmounts",
        "exerciseDate",
        "expirationDate",
        "underlyingSecurity",
        "postTransactionAmounts",
        "ownershipNature",
    ],
    "transactionCoding": [
        "transactionFormType",
        "transactionCode",
        "equitySwapInvolved",
        "footnoteId",
    ],
    "transactionAmounts": [
        "transactionShares",
        "transactionPricePerShare",
        "transactionAcquiredDisposedCode",
    ],
    "underlyingSecurity": ["underlyingSecurityTitle", "underlyingSecurityShares"],
    "ownerSignature": ["signatureName", "signatureDate"],
}
REQUIRED = {
    "schemaVersion",
    "documentType",
    "periodOfReport",
    "issuer",
    "reportingOwner",
    "ownerSignature",
}


def _in_order(element: ET.Element) -> None:
    order = ORDER.get(element.tag)
    if order is not None:
        tags = [child.tag for child in element]
        assert set(tags) <= set(order), (element.tag, set(tags) - set(order))
        positions = [order.index(tag) for tag in tags]
        assert positions == sorted(positions), (element.tag, tags)
    for child in element:
        _in_order(child)


@pytest.mark.parametrize("who", ["jsmith", "rgarcia", "ebrooks"])
def test_the_xml_is_well_formed_in_the_specification_s_order(drafted, who):
    data = (drafted / who / "form4.xml").read_bytes()
    assert data.startswith(b"<?xml version='1.0' encoding='utf-8'?>")
    root = ET.fromstring(data)
    assert root.tag == "ownershipDocument"
    assert REQUIRED <= {child.tag for child in root}
    assert root.findtext("schemaVersion") == "X0508"
    assert root.findtext("documentType") == "4"
    _in_order(root)
    # Every footnote a value points to is there, and none is left unreferenced.
    cited = {note.get("id") for note in root.iter("footnoteId")}
    written = {note.get("id") for note in root.iter("footnote")}
    assert cited == written
    # No filer credential is ever written.
    assert root.find(".//rptOwnerCcc") is None


def test_the_pdf_reads_as_the_draft_and_carries_the_xml(drafted):
    data = (drafted / "jsmith" / "form4.pdf").read_bytes()
    words = pdf_words(data)
    for expected in (
        "DRAFT: FOR REVIEW, NOT FILED",
        "Smith Jane Q.",
        "CarMax, Inc. [KMX]",
        "June 23, 2026",
        "2,450",
        "7,350",
        "Rule 16b-3(d)",
        "June 25, 2026",
        "Jane Q. Smith",
    ):
        assert expected in words, expected
    reader = PdfReader(io.BytesIO(data))
    assert reader.attachments["form4.xml"] == [(drafted / "jsmith" / "form4.xml").read_bytes()]


def test_the_same_facts_give_the_same_bytes(drafted, tmp_path):
    again = tmp_path / "again"
    again.mkdir()
    assert run("section16", TOUR, "--out", again, "--as-of", "2026-06-24").returncode == 0
    folder = again / "2026-annual" / "section16"
    for path in sorted(drafted.rglob("*")):
        if path.is_file():
            assert (folder / path.relative_to(drafted)).read_bytes() == path.read_bytes(), path


def test_missing_facts_are_each_named_and_nothing_is_written(tmp_path):
    facts = facts_with(
        tmp_path,
        ('  cik: "0001170010"\n', ""),
        ('  form4_table: "II"', "  # no table"),
        ('    cik: "0001990002"\n', ""),
        ('["6 Riverside Drive", "New York, NY 10023"]', '["6 Riverside Drive", "New York"]'),
    )
    out = tmp_path / "out"
    out.mkdir()
    result = run("section16", facts, "--out", out, "--as-of", "2026-06-24")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    for path in ("company.cik", "company.form4_table", "directors[1].cik", "directors[2].address"):
        assert "facts.yaml:" in result.stderr and f": {path}: missing" in result.stderr, path
    assert "company.trading_symbol" not in result.stderr
    assert list(out.iterdir()) == []


def test_a_filer_credential_is_refused_as_an_unknown_field(tmp_path):
    facts = facts_with(
        tmp_path, ("  trading_symbol: KMX\n", "  trading_symbol: KMX\n  ccc: 'x1y2z3@a'\n")
    )
    out = tmp_path / "out"
    out.mkdir()
    result = run("section16", facts, "--out", out, "--as-of", "2026-06-24")
    assert result.returncode == 2
    assert "company.ccc" in result.stderr
    assert list(out.iterdir()) == []


def test_a_draft_before_the_grant_is_refused(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    result = run("section16", TOUR, "--out", out, "--as-of", "2026-06-22")
    assert result.returncode == 2
    assert "before the grant date 2026-06-23" in result.stderr


def test_check_judges_a_late_form4_citing_the_exchange_act(tmp_path):
    facts = facts_with(tmp_path, ("form4_filed_on: 2026-06-25", "form4_filed_on: 2026-06-26"))
    result = run("check", facts, "--as-of", "2026-06-26", "--format", "json")
    findings = [f for f in json.loads(result.stdout)["findings"] if f["rule"] == "RSU-FORM4-DUE"]
    assert [f["severity"] for f in findings] == ["error"]
    assert findings[0]["path"] == "directors[0].form4_filed_on"
    assert "after its due date June 25, 2026" in findings[0]["message"]
    cited = " ".join(findings[0]["citations"])
    assert "Exchange Act Section 16(a)(2)(C)" in cited and "Rule 16a-3(g)(1)" in cited
    timely = run("check", TOUR, "--as-of", "2026-06-25", "--format", "json")
    assert "RSU-FORM4-DUE" not in timely.stdout


def test_status_shows_each_form4_due_date_and_filing():
    result = run("status", TOUR, "--as-of", "2026-06-24", "--format", "json")
    assert result.returncode == 0, result.stderr
    filings = {f["subject"]: f for f in json.loads(result.stdout)["filings_due"]}
    assert {who: (f["due_on"], f["filed_on"]) for who, f in filings.items()} == {
        "jsmith": ("2026-06-25", "2026-06-25"),
        "rgarcia": ("2026-06-25", None),
        "ebrooks": ("2026-06-25", None),
    }
    table = run("status", TOUR, "--as-of", "2026-06-24")
    assert "rgarcia (Roberto García), due 2026-06-25; not filed, 1 day left." in table.stdout
    assert "jsmith (Jane Q. Smith), due 2026-06-25; filed 2026-06-25." in table.stdout


@pytest.mark.slow
def test_the_readme_s_form4_commands_run_as_written_and_make_the_tree_shown(tmp_path):
    import shlex
    import shutil

    section = (ROOT / "README.md").read_text(encoding="utf-8").split("### Form 4 drafts", 1)[1]
    block = section.split("```sh", 1)[1].split("```", 1)[0]
    shutil.copytree(ROOT / "samples", tmp_path / "samples")
    (tmp_path / "out" / "tour").mkdir(parents=True)
    for line in block.strip().splitlines():
        argv = shlex.split(line.partition("  #")[0])
        assert argv[0] == "docgen"
        result = subprocess.run(
            [str(DOCGEN), *argv[1:]], cwd=tmp_path, capture_output=True, text=True, check=False
        )
        assert result.returncode == 0, (line, result.stderr)
    tree = section.split("```\nout/tour/2026-annual/", 1)[1].split("```", 1)[0]
    folder = tmp_path / "out" / "tour" / "2026-annual" / "section16"
    shown = {"drafts-manifest.json"} | {
        f"{who}/{name}"
        for who in ("ebrooks", "jsmith", "rgarcia")
        for name in ("form4.pdf", "form4.xml")
        if f"{who}/form4.pdf, form4.xml" in tree
    }
    made = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    assert made == shown


def test_a_kind_with_no_section16_filings_is_refused_clearly(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    result = run("section16", ROOT / "samples" / "rrp-2026.yaml", "--out", out)
    assert result.returncode == 2
    assert "has no Section 16 filings to draft" in result.stderr
    assert "Traceback" not in result.stderr
    assert list(out.iterdir()) == []


def test_documents_issued_without_form4_facts_are_as_before():
    """A facts file without the Form 4 facts gives each packet the record it gave before they
    existed (they are left out when absent), and the drafts' templates are not in the templates
    digest every issued document records: the Notices stay byte for byte as they were."""
    from docgen.issue.reports import templates_sha256
    from docgen.kinds import kind_of
    from docgen.load import load_facts

    new = {"cik", "edgar_name", "form4_filed_on", "shares_owned_after"}
    company = {"cik", "trading_symbol", "form4_table", "form4_price_per_share"}
    plain = load_facts(ROOT / "samples" / "director-grant-2026.yaml").facts
    record = kind_of(plain).slice(plain, "jsmith")
    assert not new & set(record["directors"][0]) and not company & set(record["company"])
    # Given, they are still left out (issue 44): no document prints them, so adding them
    # re-issues nothing (tests/test_reissue_printed.py).
    tour = load_facts(TOUR).facts
    record = kind_of(tour).slice(tour, "jsmith")
    assert not new & set(record["directors"][0]) and not company & set(record["company"])
    assert (ROOT / "templates" / "drafts" / "form4-draft.html.j2").is_file()
    import hashlib

    from docgen.issue.reports import _file_digests

    digest = hashlib.sha256()
    for name, sha in _file_digests(ROOT / "templates").items():
        if not name.startswith("drafts/"):
            digest.update(name.encode() + b"\0" + bytes.fromhex(sha))
    assert templates_sha256() == digest.hexdigest()


@pytest.mark.slow
def test_verify_of_the_cycle_passes_over_the_drafts(tmp_path):
    """The drafts sit beside the cycle's stage folders; `docgen verify OUT/<cycle>` checks the
    stages and is not thrown by a folder nobody issued to anyone."""
    out = tmp_path / "out"
    out.mkdir()
    tour = ROOT / "samples" / "tour" / "1-forms-out.yaml"
    issued = run("batch", tour, "--out", out, "--stage", "elections", "--as-of", "2026-06-01")
    assert issued.returncode == 0, issued.stderr
    assert run("section16", TOUR, "--out", out, "--as-of", "2026-06-24").returncode == 0
    checked = run("verify", out / "2026-annual")
    assert checked.returncode == 0, checked.stderr + checked.stdout
    assert (out / "2026-annual" / "section16" / "drafts-manifest.json").is_file()
    assert not (out / "2026-annual" / "section16" / "manifest.json").exists()


# ------------------------------------------------- a Form 4 EDGAR would reject is not drafted


def test_a_state_edgar_does_not_take_refuses_every_draft_naming_the_rule_and_person(tmp_path):
    """RSU-FORM4-STATE-CODE is an error: EDGAR rejects rptOwnerState ZZ (issue 44). The run is
    refused whole, as batch refuses on an error, and names the --only that drafts the others."""
    facts = facts_with(tmp_path, ('"Richmond, VA 23226"', '"Richmond, ZZ 23226"'))
    out = tmp_path / "out"
    out.mkdir()
    result = run("section16", facts, "--out", out, "--as-of", "2026-06-24")
    assert result.returncode == 2, result.stdout
    assert "Traceback" not in result.stderr
    assert "facts.yaml:" in result.stderr and "directors[0].address:" in result.stderr
    assert "RSU-FORM4-STATE-CODE (jsmith, Jane Q. Smith)" in result.stderr
    assert "EDGAR would reject the Form 4" in result.stderr
    assert "--only rgarcia,ebrooks" in result.stderr
    assert list(out.iterdir()) == []


@pytest.mark.parametrize(
    ("cik", "words"), [('"0000000000"', "is zero"), ('"0001170010"', "is the issuer's")]
)
def test_a_cik_edgar_would_reject_refuses_the_drafts(tmp_path, cik, words):
    """CIK 0, and a director whose CIK is the issuer's (company.cik 0001170010)."""
    facts = facts_with(tmp_path, ('    cik: "0001990002"', f"    cik: {cik}"))
    out = tmp_path / "out"
    out.mkdir()
    result = run("section16", facts, "--out", out, "--as-of", "2026-06-24")
    assert result.returncode == 2, result.stdout
    assert "directors[1].cik: RSU-FORM4-CIK (rgarcia, Roberto García)" in result.stderr
    assert words in result.stderr
    assert list(out.iterdir()) == []


def test_only_the_others_are_drafted_while_one_director_s_error_stands(tmp_path):
    facts = facts_with(tmp_path, ('    cik: "0001990002"', '    cik: "0"'))
    out = tmp_path / "out"
    out.mkdir()
    result = run("section16", facts, "--out", out, "--as-of", "2026-06-24", "--only", "jsmith")
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in (out / "2026-annual" / "section16").iterdir()) == [
        "drafts-manifest.json",
        "jsmith",
    ]
    again = run("section16", facts, "--out", out, "--as-of", "2026-06-24", "--only", "rgarcia")
    assert again.returncode == 2 and "RSU-FORM4-CIK (rgarcia" in again.stderr


def test_the_issuer_s_zero_cik_refuses_even_one_director_s_draft(tmp_path):
    """The issuer's CIK is in every Form 4: --only does not step around it."""
    facts = facts_with(tmp_path, ('  cik: "0001170010"', '  cik: "0000000000"'))
    out = tmp_path / "out"
    out.mkdir()
    result = run("section16", facts, "--out", out, "--as-of", "2026-06-24", "--only", "jsmith")
    assert result.returncode == 2
    assert "company.cik: RSU-FORM4-CIK (2026-annual, the grant)" in result.stderr
    assert "--only" not in result.stderr.split("company.cik", 1)[1]
    assert list(out.iterdir()) == []


def test_proxy_and_the_ocf_export_report_no_edgar_fact_and_are_not_held_by_one(tmp_path):
    """The proxy table and the OCF bundle print neither a CIK nor a Form 4 address: a Form 4
    error does not stop them (the check report and section16 say it)."""
    facts = facts_with(
        tmp_path,
        ('"Richmond, VA 23226"', '"Richmond, ZZ 23226"'),
        ('    cik: "0001990002"', '    cik: "0"'),
    )
    proxy = run("proxy", facts, "--fiscal-year-end", "2027-02-28")
    assert proxy.returncode == 0, proxy.stderr
    assert "rgarcia,Roberto García,110495" in proxy.stdout
    assert "ZZ" not in proxy.stdout and "0001990001" not in proxy.stdout
    sample = (ROOT / "samples" / "director-grant-2026.yaml").read_text(encoding="utf-8")
    broken = tmp_path / "grant.yaml"
    broken.write_text(
        sample.replace('"Richmond, VA 23226"', '"Richmond, ZZ 23226"', 1), encoding="utf-8"
    )
    bundle = tmp_path / "ocf.zip"
    ocf = run("export-ocf", broken, "-o", bundle, "--as-of", "2026-06-24")
    assert ocf.returncode == 0, ocf.stderr
    with zipfile.ZipFile(bundle) as archive:
        assert not any(b"ZZ" in archive.read(name) for name in archive.namelist())
