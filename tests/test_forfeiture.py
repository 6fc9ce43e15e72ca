"""DESIGN.md, "What the Notice says happens to the units": forfeited units are never delivered, and
a Change of Control is a payment event only when it is also a 409A change in control event.
Through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GRANT = ROOT / "samples" / "director-grant-2026.yaml"
JSMITH = """        pay_on: separation

  - id: rgarcia"""


def _with_settlement(tmp_path: Path, settlement: str) -> Path:
    text = GRANT.read_text(encoding="utf-8")
    assert JSMITH in text
    text = text.replace(
        JSMITH, f"        pay_on: separation\n    settlement: {settlement}\n\n  - id: rgarcia"
    )
    path = tmp_path / "grant.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _rules(cli, path: Path) -> tuple[int, dict[str, str]]:
    result = cli("check", path, "--as-of", "2027-09-01", "--format", "json")
    found = json.loads(result.stdout)["findings"]
    return result.exit_code, {f["rule"]: f["severity"] for f in found if f["subject"] == "jsmith"}


def test_delivering_forfeited_units_is_an_error(cli, tmp_path):
    # Jane Smith's service ends 2027-06-22, a day before the Vesting Date: the units are forfeited
    # "regardless of any election" (Notice A); shares delivered 2027-06-30 are an error.
    code, rules = _rules(
        cli, _with_settlement(tmp_path, "{separation_on: 2027-06-22, delivered_on: 2027-06-30}")
    )
    assert code == 1 and rules == {"RSU-FORFEITED-UNITS-DELIVERED": "error"}
    # Ending on the Vesting Date, the units vested: delivered within 60 days, nothing to say.
    code, rules = _rules(
        cli, _with_settlement(tmp_path, "{separation_on: 2027-06-23, delivered_on: 2027-06-30}")
    )
    assert code == 0 and rules == {}


def test_a_change_of_control_that_is_not_a_409a_event_is_no_payment_event(cli, tmp_path):
    settled = "{change_in_control_on: 2027-07-01, change_in_control_is_409a_event: %s, "
    settled += "delivered_on: 2027-07-15}"
    # Jane Smith elected payment on separation, which has not come: only a 409A change in
    # control event (Exhibit I (iii)) is a Payment Date before it.
    code, rules = _rules(cli, _with_settlement(tmp_path, settled % "true"))
    assert rules == {}, rules
    code, rules = _rules(cli, _with_settlement(tmp_path, settled % "false"))
    assert code == 1 and rules == {"RSU-DELIVERY-WINDOW": "error"}
    # Not recorded: taken as one, with a warning that says so.
    code, rules = _rules(cli, _with_settlement(tmp_path, settled % "null"))
    assert code == 0 and rules == {"RSU-DELIVERY-WINDOW": "warning"}
