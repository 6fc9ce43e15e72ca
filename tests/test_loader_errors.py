"""Every load error message, pinned: one bad-input fixture per message, one parametrised test.

Fixtures live in tests/fixtures/bad/; each NAME.yaml (or .json) has NAME.expected beside it, the
exact text `docgen validate` must print. To accept new wording after review, run
`DOCGEN_RESET_GOLDEN=1 make test` and read the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

BAD = Path(__file__).parent / "fixtures" / "bad"
FIXTURES = sorted(p for p in BAD.iterdir() if p.suffix in (".yaml", ".json"))
RESET = os.environ.get("DOCGEN_RESET_GOLDEN") == "1"


@pytest.mark.parametrize("fixture", FIXTURES, ids=[p.name for p in FIXTURES])
def test_bad_input_message_is_pinned(fixture: Path, cli, monkeypatch):
    monkeypatch.chdir(BAD)
    result = cli("validate", fixture.name)
    assert result.exit_code == 2
    assert result.stdout == "", "nothing goes to standard output on a load error"
    expected = fixture.with_suffix(".expected")
    if RESET or not expected.exists():
        expected.write_text(result.stderr)
    assert result.stderr == expected.read_text()
    assert "Traceback" not in result.stderr


def test_every_message_names_file_line_and_field(cli, monkeypatch):
    """The contract: FILE:LINE: field.path: what (got VALUE). How to fix it."""
    monkeypatch.chdir(BAD)
    for fixture in FIXTURES:
        for line in fixture.with_suffix(".expected").read_text().splitlines()[:-1]:
            where, _, rest = line.partition(": ")
            assert ":" in where and where.rsplit(":", 1)[1].isdigit(), line
            assert rest.rstrip().endswith("."), line


def _validate_quickly(cli, path: Path):
    """Refused with exit 2 and no traceback, however large or deep the input (no timed assertion:
    speed belongs in a benchmark, not in a timed test)."""
    result = cli("validate", path)
    assert result.exit_code == 2
    assert "Traceback" not in result.stderr
    return result.stderr


def test_missing_file(cli, tmp_path):
    message = _validate_quickly(cli, tmp_path / "nope.yaml")
    assert message.startswith(f"{tmp_path / 'nope.yaml'}: no such file. Check the path")


def test_folder_instead_of_file(cli, tmp_path):
    assert "is a folder, not a facts file" in _validate_quickly(cli, tmp_path)


def test_empty_file(cli, tmp_path):
    path = tmp_path / "empty.yaml"
    path.write_text("\n   \n")
    assert ": file is empty. Start from a sample" in _validate_quickly(cli, path)


def test_comment_only_file(cli, tmp_path):
    path = tmp_path / "comments.yaml"
    path.write_text("# nothing here yet\n")
    assert ": file has no content." in _validate_quickly(cli, path)


def test_binary_file(cli, tmp_path):
    path = tmp_path / "facts.yaml"
    path.write_bytes(b"%PDF-1.7\n\x00\x01\x02binary")
    assert "is a binary file, not YAML or JSON text" in _validate_quickly(cli, path)


def test_not_utf8(cli, tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes("kind: director-rsu-grant\nname: Garc\xeda\n".encode("latin-1"))
    assert "latin1.yaml:2: is not UTF-8 text. Save the file as UTF-8." in _validate_quickly(
        cli, path
    )


def test_over_large_file(cli, tmp_path):
    from docgen.load import MAX_BYTES

    path = tmp_path / "huge.yaml"
    with path.open("wb") as handle:
        handle.truncate(MAX_BYTES + 1)
    assert "file is too large" in _validate_quickly(cli, path)


def test_a_facts_file_a_real_50000_person_roster_needs_is_not_too_large(cli, tmp_path, samples):
    """A realistic 50,000-participant roster is about 24 MB even as compact JSON: the cap is
    100 MB (shared DESIGN.md, the note for the speed round), no longer 20 MB."""
    from docgen.load import MAX_BYTES

    assert MAX_BYTES == 100 * 1024 * 1024
    facts = (samples / "rrp-2026.yaml").read_text(encoding="utf-8")
    path = tmp_path / "large.yaml"
    path.write_text(facts + "#" + " " * (24 * 1024 * 1024) + "\n", encoding="utf-8")
    result = cli("validate", path)
    assert result.exit_code == 0, result.output


def test_alias_bomb_is_refused_quickly(cli, tmp_path):
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for level in range(1, 10):
        prev = f"*a{level - 1}"
        lines.append(f"a{level}: &a{level} [{', '.join([prev] * 9)}]")
    path = tmp_path / "bomb.yaml"
    path.write_text("kind: director-rsu-grant\n" + "\n".join(lines) + "\n")
    assert "(an alias bomb?)" in _validate_quickly(cli, path)


def test_self_referencing_alias(cli, tmp_path):
    path = tmp_path / "loop.yaml"
    path.write_text("kind: director-rsu-grant\ncompany: &c\n  name: X\n  again: *c\n")
    assert "an alias refers to itself" in _validate_quickly(cli, path)


def test_missing_roster(cli, tmp_path, samples):
    text = (samples / "director-grant-2026-roster.yaml").read_text()
    path = tmp_path / "cycle.yaml"
    path.write_text(text.replace("directors_csv: roster.csv", "directors_csv: gone.csv"))
    assert "gone.csv: no such file." in _validate_quickly(cli, path)


def test_many_problems_reported_in_one_pass(cli, monkeypatch):
    monkeypatch.chdir(BAD)
    result = cli("validate", "roster-bad-row.yaml")
    assert result.stderr.count("roster-bad-row.csv:3:") == 4
    assert result.stderr.rstrip().endswith("4 problems found; nothing was written.")
