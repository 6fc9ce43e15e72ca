"""A value quoted back in a message shows what is really in the cell (issue 44): a zero-width
space (U+200B) or a right-to-left override (U+202E) in a name or a header is written as an escape
(``\\u200b``, ``\\u202e``), never raw, so a message never reads as if the cell held a plain name,
and never reorders the text after it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from docgen.core.errors import Problem

ROOT = Path(__file__).resolve().parent.parent
HIDDEN = ("\u200b", "\u202e")


def _roster(tmp_path: Path, name: str, extra_header: str | None) -> Path:
    shutil.copy(ROOT / "samples" / "director-grant-2026-roster.yaml", tmp_path / "grant.yaml")
    lines = (ROOT / "samples" / "roster.csv").read_text(encoding="utf-8").splitlines()
    header = lines[0] + ("," + extra_header if extra_header else "")
    rows = [
        (line.replace("Kiran Patel", name, 1) if line.startswith("kpatel,") else line)
        + ("," if extra_header and line[:1].isalpha() else "")
        for line in lines[1:]
    ]
    (tmp_path / "roster.csv").write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    return tmp_path / "grant.yaml"


@pytest.mark.parametrize("hidden", HIDDEN, ids=["zero-width-space", "right-to-left-override"])
def test_a_header_with_a_hidden_character_is_quoted_escaped(cli, tmp_path, hidden):
    result = cli(
        "check", _roster(tmp_path, "Kiran Patel", f"Cost{hidden}Center"), "--as-of", "2026-06-01"
    )
    assert result.exit_code == 2, result.output
    assert hidden not in result.stderr
    escape = f"\\u{ord(hidden):04x}"
    assert f"column Cost{escape}Center: unknown column." in result.stderr


@pytest.mark.parametrize("hidden", HIDDEN, ids=["zero-width-space", "right-to-left-override"])
def test_a_name_with_a_hidden_character_is_quoted_escaped(cli, tmp_path, hidden):
    result = cli("check", _roster(tmp_path, f"Kiran{hidden} Patel", None), "--as-of", "2026-06-01")
    assert result.exit_code == 2, result.output
    assert hidden not in result.stderr
    escape = f"\\u{ord(hidden):04x}"
    (said,) = [line for line in result.stderr.splitlines() if "].name:" in line]
    assert f'(got "Kiran{escape} Patel")' in said, said


def test_a_problem_shows_every_character_that_does_not_show_itself():
    problem = Problem("roster.csv", 3, "column Hire\u00a0Date\u200b", "unknown column", "a\u2060b")
    assert str(problem) == (
        "roster.csv:3: column Hire\\xa0Date\\u200b: unknown column (got a\\u2060b)."
    )


def test_a_findings_message_shows_a_hidden_character(tmp_path):
    """A finding quotes what the facts hold (a name, a clause's words): in the terminal, the
    Markdown, HTML and JSON reports alike, a zero-width space or an override is an escape."""
    from docgen.checker.rules import get_rule

    finding = get_rule("RSU-NAME-LOOKALIKE").finding(
        "kpatel", "directors[0].name", "Kiran\u200b Patel and Kiran Patel\u202e.", remedy="x\u2060y"
    )
    assert (finding.message, finding.remedy) == (
        "Kiran\\u200b Patel and Kiran Patel\\u202e.",
        "x\\u2060y",
    )
