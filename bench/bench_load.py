"""Benchmark: how fast each kind of bad input is refused (issue: "within a second" each).

Run by `make bench`. Builds each bad input in a temporary folder, runs `docgen validate` on it
in-process, and prints the wall time of the refusal.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from machine import describe
from typer.testing import CliRunner

from docgen.cli import app
from docgen.load import MAX_BYTES

ROOT = Path(__file__).resolve().parent.parent


def alias_bomb() -> str:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for level in range(1, 10):
        lines.append(f"a{level}: &a{level} [{', '.join([f'*a{level - 1}'] * 9)}]")
    return "kind: director-rsu-grant\n" + "\n".join(lines) + "\n"


def main() -> None:
    runner = CliRunner()
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        cases: dict[str, Path] = {}
        (work / "bomb.yaml").write_text(alias_bomb())
        cases["alias bomb (9^10 expansions)"] = work / "bomb.yaml"
        (work / "binary.yaml").write_bytes(b"%PDF-1.7\n\x00\x01binary" * 1000)
        cases["binary file"] = work / "binary.yaml"
        (work / "empty.yaml").write_text("")
        cases["empty file"] = work / "empty.yaml"
        cases["missing file"] = work / "missing.yaml"
        with (work / "huge.yaml").open("wb") as handle:
            handle.truncate(MAX_BYTES + 1)
        cases["over-large file"] = work / "huge.yaml"
        for fixture in sorted((ROOT / "tests" / "fixtures" / "bad").glob("*.yaml")):
            cases[f"fixture {fixture.name}"] = fixture
        print(f"bad input refused by docgen validate (aim: each under 1 s), on {describe()}:")
        worst = 0.0
        for name, path in cases.items():
            started = time.perf_counter()
            result = runner.invoke(app, ["validate", str(path)])
            elapsed = time.perf_counter() - started
            worst = max(worst, elapsed)
            assert result.exit_code == 2, (name, result.output)
            if not name.startswith("fixture"):
                print(f"  {name:<30} {elapsed * 1000:7.1f} ms")
        fixtures = sum(1 for name in cases if name.startswith("fixture"))
        print(
            f"  {fixtures} pinned bad-input fixtures; slowest refusal of all: {worst * 1000:.1f} ms"
        )


if __name__ == "__main__":
    main()
