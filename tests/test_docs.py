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
