"""Meta-tests that keep the documentation complete: every command in the README, with help."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer.main

from docgen.cli import app

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = sorted(typer.main.get_command(app).commands)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_is_in_the_readme_tour(command):
    assert f"docgen {command}" in (ROOT / "README.md").read_text()


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help(cli, command):
    result = cli(command, "--help")
    assert result.exit_code == 0
    assert "Usage: " in result.stdout and len(result.stdout) > 200


def test_readme_shows_exactly_the_two_set_up_commands():
    text = (ROOT / "README.md").read_text()
    setup = text.split("## Set up and run", 1)[1].split("##", 1)[0]
    block = setup.split("```sh", 1)[1].split("```", 1)[0]
    assert [line.split("#")[0].strip() for line in block.strip().splitlines()] == [
        "make demo",
        "make test",
    ]


def test_every_exit_code_is_documented():
    text = (ROOT / "README.md").read_text()
    for code in ("| 0 |", "| 1 |", "| 2 |"):
        assert code in text


@pytest.mark.parametrize("command", COMMANDS)
def test_help_prose_is_wrapped_to_the_terminal_not_to_the_source(cli, command):
    """In an 80-column terminal each line of a command's description is as full as the next
    word allows: no line broken where the docstring's source line happened to end."""
    result = cli(command, "--help", env={"COLUMNS": "80", "TERMINAL_WIDTH": ""})
    lines = result.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if "Usage: " in line) + 1
    end = next(i for i, line in enumerate(lines) if line.lstrip().startswith("╭"))
    text = [line.strip() for line in lines[start:end]]
    assert any(text), "the command has a description"
    widest = max(len(line) for line in lines)
    for line, following in zip(text, text[1:], strict=False):
        if line and following:  # within a paragraph
            assert len(line) + 1 + len(following.split()[0]) > widest - 2, (line, following)
