"""Meta-tests that keep the documentation complete and current: every command in the README, with
help; every module and source file the documents, docstrings and comments name exists."""

from __future__ import annotations

import io
import re
import tokenize
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


# ------------------------------------------------- modules and tests named in prose exist

# A module named by its dotted name (docgen.<package>.<module>, checks.<module>), perhaps with a
# name in it, and a source file named by its path; a path with a wildcard names no one file.
DOTTED = re.compile(r"(?<![\w./-])((?:docgen|checks)(?:\.[A-Za-z_]\w*)+)")
SOURCE_PATH = re.compile(r"(?<![\w./-])((?:docgen|checks|tests|tools|bench)/[\w./-]*\.py)\b")
PROSE = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").rglob("*.md")),
    *sorted((ROOT / "checks").glob("*.md")),
    *sorted((ROOT / "tests" / "cases").glob("*.yaml")),
]
PYTHON = sorted(
    path
    for folder in ("docgen", "checks", "tests", "tools", "bench")
    for path in (ROOT / folder).rglob("*.py")
    if "node_modules" not in path.parts
)


def _prose_of(path: Path) -> str:
    """The text a reader reads: a document whole; of Python, its comments and strings (the
    docstrings among them), not its code, where a list called ``checks`` has methods."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".py":
        return text
    kept = (tokenize.COMMENT, tokenize.STRING)
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    return "\n".join(token.string for token in tokens if token.type in kept)


def _module_file(name: str) -> Path | None:
    path = ROOT.joinpath(*name.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _names_something(dotted: str) -> bool:
    """A module, or a module and a name it defines or imports (docgen.load.load_facts)."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        module = _module_file(".".join(parts[:end]))
        if module is None:
            continue
        rest = parts[end:]
        if not rest or rest[0].startswith("__"):  # the module itself, or its __file__
            return True
        source = module.read_text(encoding="utf-8")
        defined = (
            rf"^\s*(?:async def|def|class)\s+{rest[0]}\b|^{rest[0]}\s*[:=]|import .*\b{rest[0]}\b"
        )
        return len(rest) <= 2 and re.search(defined, source, re.M) is not None
    return False


@pytest.mark.parametrize("path", [*PROSE, *PYTHON], ids=lambda path: str(path.relative_to(ROOT)))
def test_every_module_and_source_file_named_exists(path):
    text = _prose_of(path)
    stale = [name for name in DOTTED.findall(text) if not _names_something(name.rstrip("."))]
    stale += [named for named in SOURCE_PATH.findall(text) if not (ROOT / named).is_file()]
    assert not stale, f"{path.relative_to(ROOT)} names what no longer exists: {sorted(set(stale))}"


# ------------------------------------------------- the README's tested floors are pyproject's

# "Tested floors: Python 3.11, pydantic 2.12, ... (docs/DESIGN.md": each name and its version.
FLOOR = re.compile(r"([A-Za-z][A-Za-z0-9._-]*) (\d+(?:\.\d+)*)")


def _normal(name: str) -> str:
    """A distribution's name as PEP 503 compares names (PyYAML is pyyaml)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def test_the_readmes_tested_floors_are_exactly_pyprojects():
    """Every direct dependency's floor in pyproject.toml, and Python's, is listed in the README's
    "Tested versions" at the same version, and the README lists no other: a floor moved up, or a
    dependency added (python-calamine, starlette, uvicorn), cannot leave the README behind."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = {"python": project["requires-python"].removeprefix(">=")}
    for requirement in project["dependencies"]:
        found = re.fullmatch(r"([A-Za-z0-9._-]+)>=([0-9.]+)(?:,<[0-9.]+)?", requirement)
        assert found, f"{requirement}: a direct dependency with no >= floor"
        wanted[_normal(found.group(1))] = found.group(2)
    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    listed = text.split("Tested floors: ", 1)[1].split(" (docs/DESIGN.md", 1)[0]
    given: dict[str, str] = {}
    for name, version in FLOOR.findall(listed):
        assert _normal(name) not in given, f"{name} is listed twice"
        given[_normal(name)] = version
    assert given == wanted
