"""`docgen export-ocf`: the sample cycle as an Open Cap Format 1.2.0 bundle, read back from the
zip and validated here against the vendored OCF schemas with a registry of its own; refused, with
nothing written, when an object breaks its schema or a reference does not resolve."""

from __future__ import annotations

import hashlib
import json
import shutil
import zipfile
from pathlib import Path

import pytest
from jsonschema import Draft7Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7

ROOT = Path(__file__).resolve().parent.parent
OCF = ROOT / "docgen" / "resources" / "ocf"
SCHEMAS = OCF / "1.2.0" / "schema"
BASE = "https://schema.opencaptablecoalition.com/v/1.2.0/"
EARLIER = Path(__file__).parent / "fixtures" / "proxy" / "director-grant-2025.yaml"
# Which schema each object type is validated against (named here, independently of docgen).
OBJECT_SCHEMAS = {
    "ISSUER": "objects/Issuer",
    "STAKEHOLDER": "objects/Stakeholder",
    "STOCK_CLASS": "objects/StockClass",
    "STOCK_PLAN": "objects/StockPlan",
    "VESTING_TERMS": "objects/VestingTerms",
    "DOCUMENT": "objects/Document",
    "TX_EQUITY_COMPENSATION_ISSUANCE": "objects/transactions/issuance/EquityCompensationIssuance",
    "TX_VESTING_START": "objects/transactions/vesting/VestingStart",
    "TX_EQUITY_COMPENSATION_ACCEPTANCE": (
        "objects/transactions/acceptance/EquityCompensationAcceptance"
    ),
    "TX_EQUITY_COMPENSATION_CANCELLATION": (
        "objects/transactions/cancellation/EquityCompensationCancellation"
    ),
}
FILE_SCHEMAS = {
    "OCF_MANIFEST_FILE": "files/OCFManifestFile",
    "OCF_STAKEHOLDERS_FILE": "files/StakeholdersFile",
    "OCF_STOCK_CLASSES_FILE": "files/StockClassesFile",
    "OCF_STOCK_PLANS_FILE": "files/StockPlansFile",
    "OCF_VESTING_TERMS_FILE": "files/VestingTermsFile",
    "OCF_TRANSACTIONS_FILE": "files/TransactionsFile",
    "OCF_DOCUMENTS_FILE": "files/DocumentsFile",
}


def validator(name: str) -> Draft7Validator:
    schemas = [json.loads(p.read_text(encoding="utf-8")) for p in SCHEMAS.rglob("*.schema.json")]
    registry = Registry().with_resources(
        (s["$id"], Resource.from_contents(s, DRAFT7)) for s in schemas
    )
    schema = registry.contents(f"{BASE}{name}.schema.json")
    return Draft7Validator(schema, registry=registry, format_checker=Draft7Validator.FORMAT_CHECKER)


@pytest.fixture(scope="module")
def issued(tmp_path_factory, samples_path=ROOT / "samples"):
    """The sample cycle's grant stage, issued once for the module."""
    from typer.testing import CliRunner

    from docgen.cli import app

    out = tmp_path_factory.mktemp("issued")
    result = CliRunner().invoke(
        app,
        [
            "batch",
            str(samples_path / "director-grant-2026.yaml"),
            "--out",
            str(out),
            "--stage",
            "grant",
            "--as-of",
            "2026-06-23",
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    return out


def bundle(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_the_sample_bundle_validates_against_the_vendored_schemas(cli, samples, issued, tmp_path):
    target = tmp_path / "cycle.ocf.zip"
    result = cli(
        "export-ocf",
        samples / "director-grant-2026.yaml",
        "-o",
        target,
        "--as-of",
        "2026-06-23",
        "--issued",
        issued,
    )
    assert result.exit_code == 0, result.output
    assert "10 Notices as Documents" in result.stdout
    files = bundle(target)
    manifest = json.loads(files["Manifest.ocf.json"])
    assert validator(FILE_SCHEMAS["OCF_MANIFEST_FILE"]).is_valid(manifest)
    assert not list(validator(OBJECT_SCHEMAS["ISSUER"]).iter_errors(manifest["issuer"]))
    assert manifest["issuer"]["legal_name"] == "CarMax, Inc."
    listed = {}
    for key, entries in manifest.items():
        if key.endswith("_files"):
            for entry in entries:
                name = entry["filepath"].removeprefix("./")
                assert hashlib.md5(files[name]).hexdigest() == entry["md5"], name
                listed[name] = json.loads(files[name])
    objects = []
    for name, content in listed.items():
        errors = list(validator(FILE_SCHEMAS[content["file_type"]]).iter_errors(content))
        assert not errors, (name, errors[:3])
        for item in content["items"]:
            errors = list(validator(OBJECT_SCHEMAS[item["object_type"]]).iter_errors(item))
            assert not errors, (item["id"], errors[:3])
            objects.append(item)
    by_type: dict[str, list[dict]] = {}
    for item in objects:
        by_type.setdefault(item["object_type"], []).append(item)
    stakeholders = {s["id"]: s for s in by_type["STAKEHOLDER"]}
    assert len(stakeholders) == 10
    assert {s["current_relationship"] for s in stakeholders.values()} == {"BOARD_MEMBER"}
    issuances = {t["security_id"]: t for t in by_type["TX_EQUITY_COMPENSATION_ISSUANCE"]}
    assert len(issuances) == 10
    smith = issuances["2026-annual-jsmith-rsu"]
    assert smith["compensation_type"] == "RSU"
    assert smith["quantity"] == "2450"
    assert smith["date"] == "2026-06-23"
    assert stakeholders[smith["stakeholder_id"]]["name"]["legal_name"] == "Jane Q. Smith"
    assert issuances["2026-annual-akhan-rsu"]["quantity"] == "1225"
    # every reference resolves
    plans = {p["id"] for p in by_type["STOCK_PLAN"]}
    terms = {t["id"]: {c["id"] for c in t["vesting_conditions"]} for t in by_type["VESTING_TERMS"]}
    for tx in [*by_type["TX_VESTING_START"], *by_type["TX_EQUITY_COMPENSATION_ACCEPTANCE"]]:
        assert tx["security_id"] in issuances
    for tx in by_type["TX_VESTING_START"]:
        owner = issuances[tx["security_id"]]
        assert tx["vesting_condition_id"] in terms[owner["vesting_terms_id"]]
        assert owner["stock_plan_id"] in plans
    vesting = by_type["VESTING_TERMS"][0]["vesting_conditions"]
    assert {"type": "VESTING_SCHEDULE_ABSOLUTE", "date": "2027-06-23"} in [
        c["trigger"] for c in vesting
    ]
    # Acceptances: the directors who returned a form in effect (tnguyen and ebrooks did not).
    accepted = {t["security_id"] for t in by_type["TX_EQUITY_COMPENSATION_ACCEPTANCE"]}
    assert "2026-annual-jsmith-rsu" in accepted
    assert "2026-annual-tnguyen-rsu" not in accepted
    # Each Notice as a Document, with the MD5 of the PDF as issued
    documents = {d["path"]: d for d in by_type["DOCUMENT"]}
    assert len(documents) == 10
    pdf = (issued / "2026-annual" / "grant" / "jsmith" / "notice.pdf").read_bytes()
    assert documents["./jsmith/notice.pdf"]["md5"] == hashlib.md5(pdf).hexdigest()
    # The elections beside the bundle, against their own schema
    elections = json.loads(files["docgen-elections.json"])
    schema = json.loads((OCF / "docgen-elections.schema.json").read_text(encoding="utf-8"))
    assert not list(Draft7Validator(schema).iter_errors(elections))
    garcia = next(s for s in elections["subjects"] if s["director_id"] == "rgarcia")
    assert [f["status"] for f in garcia["forms"]] == ["superseded", "governs"]
    assert garcia["payment_date"] == "2030-07-01"
    assert garcia["security_id"] in issuances and garcia["stakeholder_id"] in stakeholders


def test_the_bundle_is_reproducible(cli, samples, tmp_path):
    first, second = tmp_path / "a.zip", tmp_path / "b.zip"
    for target in (first, second):
        result = cli(
            "export-ocf",
            samples / "director-grant-2026.yaml",
            "-o",
            target,
            "--as-of",
            "2026-07-01",
        )
        assert result.exit_code == 0, result.output
    assert first.read_bytes() == second.read_bytes()
    with zipfile.ZipFile(first) as archive:
        infos = archive.infolist()
    names = [i.filename for i in infos]
    assert names == sorted(names)
    assert "Documents.ocf.json" not in names  # no --issued: no Documents
    assert {i.date_time for i in infos} == {(1980, 1, 1, 0, 0, 0)}


def test_a_forfeiture_is_a_cancellation(cli, tmp_path):
    """The 2025 fixture's Ola Oldtimer separated 2026-01-31, before the Vesting Date: by
    2027-01-01 the 500 units are cancelled, with the dividend-equivalent units credited on the
    dividend of 2026-01-15 (500 x $0.50 / $42.00 = 5.95238 -> 5.9524, Notice E; "any related
    dividend equivalent rights" are forfeited with them, Notice A), and the elections file pays
    nothing."""
    target = tmp_path / "c.zip"
    result = cli("export-ocf", EARLIER, "-o", target, "--as-of", "2027-01-01")
    assert result.exit_code == 0, result.output
    files = bundle(target)
    items = json.loads(files["Transactions.ocf.json"])["items"]
    cancelled = [i for i in items if i["object_type"] == "TX_EQUITY_COMPENSATION_CANCELLATION"]
    assert [(c["security_id"], c["quantity"], c["date"]) for c in cancelled] == [
        ("2025-annual-oldtimer-rsu", "500", "2026-01-31"),
        ("2025-annual-oldtimer-rsu-de-2026-01-15", "5.9524", "2026-01-31"),
    ]
    elections = json.loads(files["docgen-elections.json"])
    old = next(s for s in elections["subjects"] if s["director_id"] == "oldtimer")
    assert old["payment_date"] is None and "forfeited" in old["payment_event"]
    before = cli("export-ocf", EARLIER, "-o", target, "--as-of", "2026-01-30")
    assert before.exit_code == 0
    items = json.loads(bundle(target)["Transactions.ocf.json"])["items"]
    assert not [i for i in items if i["object_type"] == "TX_EQUITY_COMPENSATION_CANCELLATION"]


def test_an_object_with_an_extra_field_is_refused_before_anything_is_written(
    cli, samples, tmp_path, monkeypatch
):
    from docgen.kinds.director_rsu import ocf

    made = ocf._stakeholder
    monkeypatch.setattr(ocf, "_stakeholder", lambda d, on: {**made(d, on), "nickname": "J"})
    target = tmp_path / "cycle.ocf.zip"
    target.write_bytes(b"the bundle before")
    result = cli(
        "export-ocf", samples / "director-grant-2026.yaml", "-o", target, "--as-of", "2026-07-01"
    )
    assert result.exit_code == 2
    assert "does not validate against OCF 1.2.0; nothing was written" in result.stderr
    assert "Stakeholders.ocf.json: STAKEHOLDER director-jsmith" in result.stderr
    assert "'nickname' was unexpected" in result.stderr
    assert target.read_bytes() == b"the bundle before"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cycle.ocf.zip"]


def test_a_reference_that_does_not_resolve_is_refused(cli, samples, tmp_path, monkeypatch):
    from docgen.kinds.director_rsu import ocf

    monkeypatch.setattr(ocf, "stakeholder_id", lambda d: f"director-{d.id}")
    made = ocf._stakeholder
    monkeypatch.setattr(ocf, "_stakeholder", lambda d, on: {**made(d, on), "id": f"someone-{d.id}"})
    target = tmp_path / "cycle.ocf.zip"
    result = cli(
        "export-ocf", samples / "director-grant-2026.yaml", "-o", target, "--as-of", "2026-07-01"
    )
    assert result.exit_code == 2
    assert "stakeholder_id director-jsmith names no STAKEHOLDER in the bundle" in result.stderr
    assert not target.exists()


def test_what_the_export_refuses(cli, samples, tmp_path, issued):
    target = tmp_path / "x.zip"
    bare = tmp_path / "bare.yaml"
    text = EARLIER.read_text(encoding="utf-8")
    bare.write_text(text[: text.index("ocf:")], encoding="utf-8")
    no_block = cli("export-ocf", bare, "-o", target, "--as-of", "2027-01-01")
    assert no_block.exit_code == 2
    assert "bare.yaml" in no_block.stderr and "ocf: an Open Cap Format bundle needs" in (
        no_block.stderr
    )
    early = cli("export-ocf", EARLIER, "-o", target, "--as-of", "2025-06-23")
    assert early.exit_code == 2 and "the grant is made on 2025-06-24" in early.stderr
    # the grant date itself is the first day there is an issuance to export
    assert cli("export-ocf", EARLIER, "-o", target, "--as-of", "2025-06-24").exit_code == 0
    target.unlink()
    rrp = cli("export-ocf", samples / "rrp-2026.yaml", "-o", target, "--as-of", "2027-01-01")
    assert rrp.exit_code == 2 and "no Open Cap Format export" in rrp.stderr
    other = cli("export-ocf", EARLIER, "-o", target, "--as-of", "2027-01-01", "--issued", issued)
    assert other.exit_code == 2 and "not the grant stage of cycle 2025-annual" not in other.stderr
    assert "no issued grant stage of cycle 2025-annual" in other.stderr
    assert not target.exists()


def test_a_notice_changed_after_it_was_issued_is_refused(cli, samples, issued, tmp_path):
    copy = tmp_path / "out"
    shutil.copytree(issued, copy)
    notice = copy / "2026-annual" / "grant" / "jsmith" / "notice.pdf"
    notice.write_bytes(notice.read_bytes() + b"\n%changed\n")
    target = tmp_path / "x.zip"
    result = cli(
        "export-ocf",
        samples / "director-grant-2026.yaml",
        "-o",
        target,
        "--as-of",
        "2026-06-23",
        "--issued",
        copy / "2026-annual" / "grant",
    )
    assert result.exit_code == 2
    assert "jsmith/notice.pdf: not the file the manifest records as issued" in result.stderr
    assert not target.exists()


def test_the_vendored_schemas_are_the_v1_2_0_files_with_their_licence():
    licence = (OCF / "1.2.0" / "LICENSE.md").read_text(encoding="utf-8")
    assert "Open Cap Table Coalition" in licence
    names = list(SCHEMAS.rglob("*.schema.json"))
    assert len(names) == 168
    for path in names:
        schema = json.loads(path.read_text(encoding="utf-8"))
        assert schema["$id"].startswith(BASE)
        assert "/tree/v1.2.0/schema/" in schema["$comment"]


def test_the_ocf_facts_are_in_no_subjects_slice(samples):
    """No document prints them, so they are not in the record an issued document carries nor in
    what decides a re-issue: adding the block to a cycle re-issues nothing."""
    from docgen.kinds import kind_of
    from docgen.load import load_facts

    loaded = load_facts(samples / "director-grant-2026.yaml")
    assert loaded.facts.ocf is not None
    kind = kind_of(loaded.facts)
    assert "ocf" not in kind.slice(loaded.facts, "jsmith")
    assert "ocf" in loaded.facts.model_dump()  # the facts themselves round-trip whole


def test_the_readmes_after_the_grant_commands_run_as_written(cli, issued, tmp_path, monkeypatch):
    """The README's "After the grant" tour (the proxy figures and the OCF bundle) on the issued
    sample cycle, as a user types it."""
    import shlex

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### After the grant", 1)[1].split("\n## ", 1)[0]
    commands = [
        argv
        for block in section.split("```sh")[1:]
        for line in block.split("```", 1)[0].strip().splitlines()
        if (argv := shlex.split(line.partition("  #")[0]))[1] in ("proxy", "export-ocf")
    ]  # the Form 4 drafts' commands before them are test_section16's
    assert [argv[1] for argv in commands] == ["proxy", "proxy", "export-ocf"]
    shutil.copytree(ROOT / "samples", tmp_path / "samples")
    shutil.copytree(issued, tmp_path / "out")
    monkeypatch.chdir(tmp_path)
    for argv in commands:
        assert argv[0] == "docgen"
        result = cli(*argv[1:])
        assert result.exit_code == 0, (argv, result.output)
    assert "Note:" not in result.stderr  # the Notices were issued from these very facts
    assert zipfile.is_zipfile(tmp_path / "2026-annual.ocf.zip")
    assert (tmp_path / "proxy.csv").read_text(encoding="utf-8").startswith("director_id,")
