"""A fresh rendering process's floor at one commit against another's, the two taking turns.

Run: `.venv/bin/python bench/floor_against.py REV [OTHER] [--runs 15]` (not part of `make bench`:
it checks out REV, and OTHER when given; without it, the other side is this checkout). The
seconds of a shared machine drift by a tenth within minutes, so a change to the floor is
measured against the commit before it run by run, each side in a fresh process in turn, and by
instructions under callgrind, which do not drift (README, "Speed").

Each commit is checked out into a temporary git worktree and both trees' bytecode is written, as
an install does. Each side runs its own commit's FLOOR (bench/bench_batch.py's, as that commit
defined it), with its own tree first on ``sys.path``; both use this checkout's virtual
environment and the same kept files. Printed: best and median CPU of each side, the ratio of the
medians, and each side's instruction count (``--no-count``: not).
"""

from __future__ import annotations

import argparse
import compileall
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from machine import ROOT, describe, instructions, run_command


def floor_of(tree: Path) -> str:
    """The FLOOR that ``tree``'s bench/bench_batch.py defines (a script's text)."""
    done = subprocess.run(
        [sys.executable, "-c", "import sys, bench_batch; sys.stdout.write(bench_batch.FLOOR)"],
        cwd=tree / "bench",
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        sys.exit(f"{tree}: could not read its bench_batch.FLOOR:\n{done.stderr}")
    return done.stdout


def script(scratch: Path, name: str, tree: Path) -> Path:
    """``tree``'s FLOOR as a script that imports docgen from ``tree``."""
    path = scratch / f"{name}.py"
    path.write_text(f"import sys\nsys.path.insert(0, {str(tree)!r})\n" + floor_of(tree))
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev", help="the commit to measure against (e.g. the one before a change)")
    parser.add_argument("other", nargs="?", help="the commit to measure (default: this checkout)")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument(
        "--no-count", action="store_true", help="seconds only, no callgrind (a minute less)"
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="docgen-floor-") as scratch_name:
        scratch = Path(scratch_name)
        revs = [args.rev] + ([args.other] if args.other else [])
        trees = [scratch / f"tree{number}" for number in range(len(revs))]
        try:
            for rev, tree in zip(revs, trees, strict=True):
                subprocess.run(
                    ["git", "worktree", "add", "--detach", "--quiet", str(tree), rev],
                    cwd=ROOT,
                    check=True,
                )
            if not args.other:
                revs.append("this checkout")
                trees.append(ROOT)
            for tree in trees:
                for package in ("docgen", "checks"):
                    if (tree / package).is_dir():
                        compileall.compile_dir(tree / package, quiet=1)
            sides = {
                rev: script(scratch, f"side{number}", tree)
                for number, (rev, tree) in enumerate(zip(revs, trees, strict=True))
            }
            cpus: dict[str, list[float]] = {name: [] for name in sides}
            for _ in range(args.runs):
                for name, path in sides.items():
                    cpus[name] += run_command([sys.executable, str(path)], 1, (0,)).cpus
            print(f"the floor, {args.runs} fresh processes each, in turn, on {describe()}:")
            for name, path in sides.items():
                count = "" if args.no_count else f"; {instructions([sys.executable, str(path)])}"
                print(
                    f"  {name}: best {min(cpus[name]):.3f} s, median "
                    f"{statistics.median(cpus[name]):.3f} s CPU{count}"
                )
            then, now = (statistics.median(cpus[name]) for name in sides)
            print(f"  {revs[1]} / {revs[0]}: {now / then:.3f} (medians)")
        finally:
            for tree in trees:
                if tree != ROOT and tree.exists():
                    subprocess.run(
                        ["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False
                    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
