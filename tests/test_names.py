"""Names that read the same (issue 44): a format character (Unicode Cf: a zero-width space, a
joiner, a soft hyphen) in a person's name is refused at load as a bidi control is, and two people
whose names are equal once compared as UTS #39 compares look-alikes get a warning finding."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from docgen.core.lookalikes import name_key
from tests.conftest import SAMPLES

GRANT = SAMPLES / "director-grant-2026.yaml"


def _grant(tmp_path: Path, old: str, new: str) -> Path:
    text = GRANT.read_text(encoding="utf-8")
    assert old in text
    facts = tmp_path / "grant.yaml"
    facts.write_text(text.replace(old, new, 1), encoding="utf-8")
    return facts


@pytest.mark.parametrize("char", ["\u200b", "\u200c", "\u200d", "\u2060", "\u00ad", "\ufeff"])
def test_a_format_character_in_a_directors_name_is_refused(cli, tmp_path, char):
    escaped = json.dumps(char)[1:-1]  # \u200b, as YAML reads it in double quotes
    facts = _grant(tmp_path, "name: Aisha Khan", f'name: "Aisha{escaped} Khan"')
    result = cli("validate", facts)
    assert result.exit_code == 2, result.stdout
    message = " ".join(result.stderr.split())
    assert "directors[4].name: contains U+" in message
    assert "Retype the" in message  # (U+FEFF was refused before, in its own words)


def test_jane_q_smith_with_a_zero_width_space_is_refused(cli, tmp_path):
    facts = _grant(tmp_path, "name: Lin Chen", 'name: "Jane Q.\\u200b Smith"')
    result = cli("check", facts, "--as-of", "2026-06-23")
    assert result.exit_code == 2
    assert "U+200B (ZERO WIDTH SPACE) at character 8" in " ".join(result.stderr.split())


def test_a_format_character_in_a_roster_name_is_refused(cli, tmp_path):
    shutil.copy(SAMPLES / "director-grant-2026-roster.yaml", tmp_path)
    roster = (SAMPLES / "roster.csv").read_text(encoding="utf-8")
    name = roster.splitlines()[1].split(",")[1]
    (tmp_path / "roster.csv").write_text(
        roster.replace(name, name[:2] + "\u200d" + name[2:], 1), encoding="utf-8"
    )
    result = cli("validate", tmp_path / "director-grant-2026-roster.yaml")
    assert result.exit_code == 2
    assert "roster.csv:2" in result.stderr and "U+200D" in result.stderr


def test_a_name_of_letters_only_loads_as_ever(cli, tmp_path):
    """Accents, apostrophes and other scripts are letters, not format characters."""
    facts = _grant(tmp_path, "name: Lin Chen", "name: Zoë Ó Dálaigh-Łukasz 陈林")
    assert cli("validate", facts).exit_code == 0


def test_aisha_khan_with_a_cyrillic_a_is_a_warning(cli, tmp_path):
    facts = _grant(tmp_path, "name: Lin Chen", "name: Aish\u0430 Khan")
    result = cli("check", facts, "--as-of", "2026-06-23", "--format", "json")
    report = json.loads(result.stdout)
    found = [f for f in report["findings"] if f["rule"] == "RSU-NAME-LOOKALIKE"]
    assert len(found) == 1 and found[0]["severity"] == "warning"
    assert found[0]["subject"] == "lchen"
    assert "U+0430 (CYRILLIC SMALL LETTER A) at character 5" in found[0]["message"]
    assert "akhan" in found[0]["message"]
    assert cli("check", facts, "--as-of", "2026-06-23", "--strict").exit_code == 1


def test_the_sample_has_no_lookalike_names(cli):
    result = cli("check", GRANT, "--as-of", "2026-06-23", "--format", "json")
    assert "NAME-LOOKALIKE" not in result.stdout


@pytest.mark.parametrize(
    ("one", "other", "same"),
    [
        ("Aisha Khan", "Aish\u0430 Khan", True),  # Cyrillic a
        ("Jane Q. Smith", "Jane Q.\u200b Smith", True),  # a format character, dropped
        ("Jane", "\uff2aane", True),  # fullwidth J: NFKC
        ("Ivan", "\u0406van", True),  # Cyrillic I, and Latin I: both read as l
        ("Jim", "Jirn", False),  # UTS #39's m -> rn is left out (see the module)
        ("jane smith", "Jane Smith", False),  # case is kept, as in UTS #39
        ("Lin Chen", "Aisha Khan", False),
    ],
)
def test_the_name_key(one, other, same):
    assert (name_key(one) == name_key(other)) is same
