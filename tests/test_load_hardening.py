"""Nothing silently misread (issue 13): numbers as written, YAML 1.2, bounded dates, depth and
text, and only regular files inside the facts file's folder. Each case runs through the CLI and
asserts the exit code, the message's file:line and field, and that nothing was written.

The messages themselves are pinned one fixture each in tests/fixtures/bad/ (test_loader_errors).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BAD = Path(__file__).parent / "fixtures" / "bad"
DOCGEN = Path(sys.executable).parent / "docgen"
GRANT = (BAD / "money-negative.yaml").read_text().replace('"-1"', '"45.10"')


def _refused(cli, facts: Path, where: str, field: str, tmp_path: Path, *words: str) -> str:
    """`docgen batch` refuses at load: exit 2, `where: field: ...`, and no OUT folder made."""
    out = tmp_path / "out"
    result = cli("batch", facts, "--out", out, "--as-of", "2026-06-23")
    assert result.exit_code == 2, result.output
    assert f"{where}: {field}" in result.stderr, result.stderr
    for word in words:
        assert word in result.stderr, result.stderr
    assert result.stdout == ""
    assert not out.exists(), "nothing is written on a load error"
    assert "Traceback" not in result.stderr
    return result.stderr


# Every load-time case of the issue, through `batch` (validate is pinned by the fixtures).
BATCH_CASES = [
    ("fmv-decimal-comma.yaml", 13, "grant.fair_market_value", "decimal comma"),
    ("fmv-commas-mixed.yaml", 13, "grant.fair_market_value", "do not group"),
    ("rrp-percent-decimal-comma.yaml", 15, "participants[0].elections[0].percent", "7.5"),
    ("yaml-1-1-directive.yaml", 1, None, "YAML 1.2 only"),
    ("units-leading-zero.yaml", 17, "directors[0].units", "leading zero"),
    ("units-hex.yaml", 17, "directors[0].units", "hexadecimal"),
    ("units-octal.yaml", 17, "directors[0].units", "octal"),
    ("units-underscore.yaml", 17, "directors[0].units", "underscores"),
    ("fmv-negative-zero.yaml", 13, "grant.fair_market_value", "negative zero"),
    ("fmv-zero.yaml", 13, "grant.fair_market_value", "more than zero"),
    ("fmv-exponent.yaml", 13, "grant.fair_market_value", "exponent"),
    ("fmv-exponent-quoted.yaml", 13, "grant.fair_market_value", "exponent"),
    ("date-year-one.yaml", 20, "directors[0].elections[0].filed_on", "1900 to 2199"),
    ("date-year-9999.yaml", 10, "grant.grant_date", "1900 to 2199"),
    ("rrp-plan-year-10000.yaml", 6, "plan_year", "1900 to 2199"),
    ("nesting-too-deep.yaml", 14, None, "nested more than 20 levels"),
    ("json-huge-integer.json", 8, "participants[0].elections[0].percent", "too many digits"),
    ("json-nesting-too-deep.json", 6, None, "nested more than 20 levels"),
    ("json-negative-zero.json", 7, "participants[0].compensation", "negative zero"),
    ("json-exponent.json", 7, "participants[0].compensation", "exponent"),
    ("json-not-a-number.json", 8, "participants[0].elections[0].percent", "finite"),
    ("json-control-character.json", 7, "participants[0].name", "U+0007 (BEL)"),
    ("text-too-long.yaml", 16, "directors[0].name", "too long"),
    ("address-too-many-lines.yaml", 17, "directors[0].address", "at most 6"),
    ("text-nul.yaml", 16, "directors[0].name", "U+0000 (NUL)"),
    ("text-bel.yaml", 16, "directors[0].name", "U+0007 (BEL)"),
    ("text-esc.yaml", 16, "directors[0].name", "U+001B (ESC)"),
    ("text-line-separator.yaml", 16, "directors[0].name", "U+2028"),
    ("text-bidi-override.yaml", 16, "directors[0].name", "U+202E (RIGHT-TO-LEFT OVERRIDE)"),
    ("text-carriage-return.yaml", 16, "directors[0].name", "CARRIAGE RETURN"),
    ("roster-outside-folder.yaml", 14, "directors_csv", "absolute path"),
    ("roster-parent-folder.yaml", 14, "directors_csv", "(..)"),
    ("roster-device.yaml", 14, "directors_csv", "/dev/zero"),
    ("roster-units-commas.yaml", None, "directors[2].units", "comma in a whole number"),
]


@pytest.mark.parametrize("name, line, field, words", BATCH_CASES, ids=[c[0] for c in BATCH_CASES])
def test_each_misreading_is_refused_at_load_with_nothing_written(
    cli, tmp_path, monkeypatch, name, line, field, words
):
    monkeypatch.chdir(BAD)
    where = f"{name}:{line}" if line else "roster-units-commas.csv:3"
    stderr = _refused(cli, Path(name), where, field or "", tmp_path, words)
    if field is None:  # a problem of the whole file, found before any field is read
        assert stderr.startswith(f"{where}: "), stderr
    else:
        assert f"{where}: {field}" in stderr.splitlines()[0], stderr


def test_etc_passwd_is_never_read_or_echoed(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(BAD)
    stderr = _refused(
        cli,
        Path("roster-outside-folder.yaml"),
        "roster-outside-folder.yaml:14",
        "directors_csv",
        tmp_path,
    )
    assert "root:" not in stderr and "unknown column" not in stderr


def _facts(tmp_path: Path, text: str, name: str = "grant.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_megabyte_name_is_refused_not_issued(cli, tmp_path):
    facts = _facts(tmp_path, GRANT.replace("name: Jane Smith", "name: " + "J" * 1_000_000))
    _refused(cli, facts, "grant.yaml:16", "directors[0].name", tmp_path, "1,000,000 characters")


def test_twenty_thousand_address_lines_are_refused(cli, tmp_path):
    lines = "".join(f"      - Line {n}\n" for n in range(20_000))
    facts = _facts(tmp_path, GRANT.replace("    units:", f"    address:\n{lines}    units:"))
    _refused(cli, facts, "grant.yaml:17", "directors[0].address", tmp_path, "20000 items")


def test_yes_and_off_are_text_in_yaml_1_2(cli, tmp_path):
    facts = _facts(tmp_path, GRANT.replace("    units: 2450", "    employee: off\n    units: 2450"))
    _refused(cli, facts, "grant.yaml:17", "directors[0].employee", tmp_path, '(got "off")')


def test_a_yaml_1_2_directive_is_accepted(cli, tmp_path):
    facts = _facts(tmp_path, "%YAML 1.2\n---\n" + GRANT)
    assert cli("validate", facts).exit_code == 0


# ------------------------------------------------------------------ exact decimals


def test_an_unquoted_decimal_is_read_from_its_digits_not_a_float(cli, tmp_path):
    """99.99999999999999999 as a float is 100.0, which RSU-ELECTION-PARTIAL would pass."""
    facts = _facts(tmp_path, GRANT.replace("percent: 100", "percent: 99.99999999999999999"))
    result = cli("check", facts, "--as-of", "2026-06-23", "--format", "json")
    assert result.exit_code == 1, result.output
    partial = [
        f for f in json.loads(result.stdout)["findings"] if f["rule"] == "RSU-ELECTION-PARTIAL"
    ]
    assert partial and "99.99999999999999999" in partial[0]["message"]
    assert partial[0]["line"] == 21


def test_a_json_decimal_is_read_from_its_digits_not_a_float(cli, tmp_path):
    data = json.loads((BAD / "json-bad-date.json").read_text().replace("2025-12-32", "2025-12-10"))
    text = json.dumps(data).replace('"percent": 10', '"percent": 9.99999999999999999')
    facts = _facts(tmp_path, text, "rrp.json")
    result = cli("check", facts, "--as-of", "2025-12-15", "--format", "json")
    increment = [
        f for f in json.loads(result.stdout)["findings"] if f["rule"] == "RRP-DEFERRAL-INCREMENT"
    ]
    assert increment and "9.99999999999999999%" in increment[0]["message"]


def test_well_grouped_money_and_roster_units_are_read(cli, tmp_path):
    facts = _facts(tmp_path, GRANT.replace('"45.10"', '"$1,225.50"'))
    (tmp_path / "roster.csv").write_text('id,name,units\nkpatel,Kiran Patel,"2,450"\n')
    facts.write_text(
        facts.read_text().replace("directors:\n", "directors_csv: roster.csv\ndirectors:\n")
    )
    from docgen.load import load_facts

    loaded = load_facts(facts)
    assert str(loaded.facts.grant.fair_market_value) == "1225.50"
    assert loaded.facts.directors[1].units == 2450


# ------------------------------------------------------------------ files a facts file names


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """A real process with a time limit: a FIFO that were opened would hang it, not the suite."""
    return subprocess.run(
        [str(DOCGEN), *args], cwd=cwd, capture_output=True, text=True, timeout=60, check=False
    )


def test_a_fifo_roster_is_refused_without_opening_it(tmp_path):
    os.mkfifo(tmp_path / "roster.csv")
    _facts(tmp_path, GRANT.replace("directors:\n", "directors_csv: roster.csv\ndirectors:\n"))
    result = _run("batch", "grant.yaml", "--out", "out", "--as-of", "2026-06-23", cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert "roster.csv: is not a regular file (a device, pipe or socket)." in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_fifo_facts_file_is_refused_without_opening_it(tmp_path):
    os.mkfifo(tmp_path / "grant.yaml")
    result = _run("validate", "grant.yaml", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("grant.yaml: is not a regular file")


def test_a_device_as_facts_file_is_refused(cli):
    result = cli("validate", "/dev/zero")
    assert result.exit_code == 2
    assert result.stderr.startswith("/dev/zero: is not a regular file")


def test_a_roster_link_leading_outside_the_folder_is_refused(cli, tmp_path):
    (tmp_path / "roster.csv").symlink_to("/etc/passwd")
    facts = _facts(
        tmp_path, GRANT.replace("directors:\n", "directors_csv: roster.csv\ndirectors:\n")
    )
    _refused(cli, facts, "grant.yaml:14", "directors_csv", tmp_path, "link to a file outside")


def test_a_roster_in_a_subfolder_or_linked_within_the_folder_is_read(cli, tmp_path):
    (tmp_path / "rosters").mkdir()
    (tmp_path / "rosters" / "2026.csv").write_text("id,name,units\nkpatel,Kiran Patel,100\n")
    (tmp_path / "roster.csv").symlink_to(tmp_path / "rosters" / "2026.csv")
    for named in ("rosters/2026.csv", "roster.csv"):
        facts = _facts(
            tmp_path, GRANT.replace("directors:\n", f"directors_csv: {named}\ndirectors:\n")
        )
        result = cli("validate", facts)
        assert result.exit_code == 0, result.output
        assert "2 directors" in result.stdout


@pytest.mark.parametrize("as_of", ["9999-12-31", "0001-01-01", "2200-01-01"])
def test_as_of_has_the_same_date_range_as_the_facts(cli, tmp_path, as_of):
    out = tmp_path / "out"
    facts = _facts(tmp_path, GRANT)
    result = cli("batch", facts, "--out", out, "--as-of", as_of)
    assert result.exit_code == 2
    assert result.stderr.startswith(
        f"--as-of: a date outside the years 1900 to 2199 (got {as_of})."
    )
    assert not out.exists()


def _with_templates(cli, tmp_path: Path) -> Path:
    facts = _facts(tmp_path, GRANT.replace("directors:\n", "templates_dir: tpl\ndirectors:\n"))
    assert cli("templates", "--export", tmp_path / "tpl").exit_code == 0
    assert cli("validate", facts).exit_code == 0
    (tmp_path / "tpl" / "notice.html.j2").unlink()
    return facts


def test_a_template_linked_from_outside_the_folder_is_refused_never_read(cli, tmp_path):
    facts = _with_templates(cli, tmp_path)
    (tmp_path / "tpl" / "notice.html.j2").symlink_to("/etc/passwd")
    _refused(cli, facts, "grant.yaml:14", "templates_dir", tmp_path, "tpl/notice.html.j2 is a link")


def test_a_fifo_in_the_templates_folder_is_refused_never_opened(tmp_path, cli):
    facts = _with_templates(cli, tmp_path)
    os.mkfifo(tmp_path / "tpl" / "notice.html.j2")
    result = _run("batch", facts.name, "--out", "out", "--as-of", "2026-06-23", cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert "grant.yaml:14: templates_dir: tpl/notice.html.j2 is not a regular file" in result.stderr
    assert not (tmp_path / "out").exists()
