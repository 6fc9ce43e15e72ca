"""`docgen export-ocf` follows the units to settlement (DESIGN.md A27; docs/ocf-export.md): the
dividend-equivalent units as issuances of their own tied to the grant, the release once the
shares are delivered, and a director who left no longer a board member; the bundle validated
here against the vendored OCF 1.2.0 schemas, independently of docgen.

Worked by hand from the 2025 fixture (grant 2025-06-24, 1,000 units to Jane Q. Smith, vesting and
default payment on the second anniversary, 2027-06-24; dividends $0.50 on 2026-01-15 at $42.00
and on 2027-03-15 at $44.00) and Notice E (units held x dividend / FMV, half up to four places):
1,000 x 0.50 / 42 = 11.90476 -> 11.9048; 1,011.9048 x 0.50 / 44 = 11.49892 -> 11.4989; in all
1,023.4037 units, settled 2027-07-15 as 1,023 whole shares, 0.4037 of a unit left over."""

from __future__ import annotations

import json
from pathlib import Path

from tests.test_ocf_export import EARLIER, OBJECT_SCHEMAS, bundle, validator

RELEASE_SCHEMA = "objects/transactions/release/EquityCompensationRelease"
SMITH = "  - { id: jsmith, name: Jane Q. Smith, units: 1000 }\n"
DELIVERED = (
    "  - { id: jsmith, name: Jane Q. Smith, units: 1000, settlement: { delivered_on: 2027-07-15,"
    ' delivered_fair_market_value: "48.00" } }\n'
)


def settled(tmp_path: Path, line: str = DELIVERED) -> Path:
    text = EARLIER.read_text(encoding="utf-8")
    assert text.count(SMITH) == 1
    path = tmp_path / "director-grant-2025.yaml"
    path.write_text(text.replace(SMITH, line), encoding="utf-8")
    return path


def test_dividend_units_a_release_and_a_departed_director_validate(cli, tmp_path):
    target = tmp_path / "c.zip"
    result = cli("export-ocf", settled(tmp_path), "-o", target, "--as-of", "2027-08-01")
    assert result.exit_code == 0, result.output
    files = bundle(target)
    items = json.loads(files["Transactions.ocf.json"])["items"]
    people = json.loads(files["Stakeholders.ocf.json"])["items"]
    for item in [*items, *people]:
        schema = OBJECT_SCHEMAS.get(item["object_type"], RELEASE_SCHEMA)
        assert not list(validator(schema).iter_errors(item)), item["id"]
    assert not list(
        validator("files/TransactionsFile").iter_errors(json.loads(files["Transactions.ocf.json"]))
    )
    mine = [i for i in items if i["security_id"].startswith("2025-annual-jsmith-rsu")]
    issued = {
        i["security_id"]: i["quantity"]
        for i in mine
        if i["object_type"] == "TX_EQUITY_COMPENSATION_ISSUANCE"
    }
    assert issued == {
        "2025-annual-jsmith-rsu": "1000",
        "2025-annual-jsmith-rsu-de-2026-01-15": "11.9048",
        "2025-annual-jsmith-rsu-de-2027-03-15": "11.4989",
    }
    dividend = next(i for i in mine if i["id"] == "2025-annual-jsmith-rsu-de-2027-03-15-issuance")
    assert dividend["date"] == "2027-03-15"
    assert "on 2025-annual-jsmith-rsu (Notice E)" in dividend["comments"][0]
    assert "$0.50 a share on 1011.9048 units" in dividend["comments"][0]
    assert "Fair Market Value $44.00" in dividend["comments"][0]
    releases = [i for i in mine if i["object_type"] == "TX_EQUITY_COMPENSATION_RELEASE"]
    assert [(r["security_id"], r["quantity"], r["date"]) for r in releases] == [
        ("2025-annual-jsmith-rsu", "1000", "2027-07-15"),
        ("2025-annual-jsmith-rsu-de-2026-01-15", "11.9048", "2027-07-15"),
        ("2025-annual-jsmith-rsu-de-2027-03-15", "11.4989", "2027-07-15"),
    ]
    assert releases[0]["release_price"] == {"amount": "48.00", "currency": "USD"}
    assert (
        "1,023 whole shares of common stock delivered 2027-07-15 for 1023.4037 units"
        in (releases[0]["comments"][0])
    )
    assert "the fraction 0.4037 of a unit" in releases[0]["comments"][0]
    # Ola Oldtimer separated 2026-01-31: not a current board member, and the comment says when.
    old = next(p for p in people if p["issuer_assigned_id"] == "oldtimer")
    assert "current_relationship" not in old
    assert old["comments"][0].startswith("Service as a Director ended 2026-01-31")
    smith = next(p for p in people if p["issuer_assigned_id"] == "jsmith")
    assert smith["current_relationship"] == "BOARD_MEMBER"


def test_before_the_delivery_no_release(cli, tmp_path):
    target = tmp_path / "c.zip"
    result = cli("export-ocf", settled(tmp_path), "-o", target, "--as-of", "2027-07-14")
    assert result.exit_code == 0, result.output
    items = json.loads(bundle(target)["Transactions.ocf.json"])["items"]
    assert not [i for i in items if i["object_type"] == "TX_EQUITY_COMPENSATION_RELEASE"]


def test_a_dividend_after_the_as_of_date_adds_no_units_yet(cli, tmp_path):
    target = tmp_path / "c.zip"
    result = cli("export-ocf", settled(tmp_path), "-o", target, "--as-of", "2027-03-14")
    assert result.exit_code == 0, result.output
    items = json.loads(bundle(target)["Transactions.ocf.json"])["items"]
    assert "2025-annual-jsmith-rsu-de-2027-03-15" not in {i["security_id"] for i in items}
    assert "2025-annual-jsmith-rsu-de-2026-01-15" in {i["security_id"] for i in items}


def test_a_release_without_the_fair_market_value_is_refused(cli, tmp_path):
    line = (
        "  - { id: jsmith, name: Jane Q. Smith, units: 1000, settlement: "
        "{ delivered_on: 2027-07-15 } }\n"
    )
    target = tmp_path / "c.zip"
    result = cli("export-ocf", settled(tmp_path, line), "-o", target, "--as-of", "2027-08-01")
    assert result.exit_code == 2
    text = " ".join(result.output.split())
    assert "directors[0].settlement.delivered_fair_market_value" in text
    assert "an OCF release needs the release price" in text
    assert not target.exists()
