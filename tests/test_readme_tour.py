"""The README's grant-cycle tour runs as written and makes the folder tree the README shows."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.test_batch import DOCGEN

# Every test here runs the README's tour end to end: slow (`make test-fast` leaves them out).
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
SECTION = README.split("### A grant cycle, start to finish", 1)[1]


def tour_commands() -> list[tuple[list[str], int]]:
    """Each `docgen` line of the tour, with the exit code its comment promises (refused: 1)."""
    block = SECTION.split("```sh", 1)[1].split("```", 1)[0]
    commands = []
    for line in block.strip().splitlines():
        command, _, comment = line.partition("  #")
        commands.append((shlex.split(command), 1 if "refused" in comment else 0))
    return commands


def shown_tree() -> tuple[str, set[str]]:
    """The tree block as the paths it names: folders end in '/'; 'a/x, y' is a/x and a/y."""
    block = SECTION.split("The folder that results:", 1)[1].split("```", 2)[1]
    lines = [line for line in block.splitlines() if line.strip()]
    root = lines[0].strip()
    folders: list[str] = []  # the folder open at each level
    paths: set[str] = set()
    for line in lines[1:]:
        level = (len(line) - len(line.lstrip())) // 2 - 1
        entry = re.split(r"\s{2,}", line.strip())[0]
        folders = folders[:level]
        here = "".join(folders)
        first, *more = entry.split(", ")
        if first.endswith("/"):
            folders.append(first)
            paths.add(here + first)
            continue
        prefix = first.rsplit("/", 1)[0] + "/" if "/" in first else ""
        paths |= {here + first, *(here + prefix + name for name in more)}
    # A file's folders are shown by its path ("jsmith/notice.pdf"): they are in the tree too.
    paths |= {f"{parent.as_posix()}/" for path in paths for parent in Path(path).parents[:-1]}
    return root, paths


def test_the_tour_runs_as_written_and_makes_the_tree_it_shows(tmp_path):
    shutil.copytree(ROOT / "samples", tmp_path / "samples")
    commands = tour_commands()
    assert [argv[1] for argv, _ in commands] == [
        "batch",
        "batch",
        "batch",
        "render",
        "verify",
        "verify",
    ]
    for argv, expected in commands:
        assert argv[0] == "docgen"
        result = subprocess.run(
            [str(DOCGEN), *argv[1:]], cwd=tmp_path, capture_output=True, text=True, timeout=300
        )
        assert result.returncode == expected, (argv, result.stdout, result.stderr)
    root, paths = shown_tree()
    folder = tmp_path / root
    made = {
        p.relative_to(folder).as_posix() + ("/" if p.is_dir() else "") for p in folder.rglob("*")
    }
    assert paths == made
    assert (tmp_path / "jsmith-notice.pdf").read_bytes() == (
        folder / "grant" / "jsmith" / "notice.pdf"
    ).read_bytes()
