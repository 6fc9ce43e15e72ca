"""What every bench prints beside its figures: the machine (cores, load) and repeated timings.

A shared machine's wall-clock times vary from run to run with what else is running, so each
figure is the best of several runs, with the median beside it, and the CPU time a command used
(which a busy machine changes far less than the wall time).
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCGEN = [sys.executable, "-m", "docgen"]


def compile_bytecode() -> None:
    """Write docgen's bytecode before anything is timed, as pip does when it installs a wheel (an
    editable install compiles each module on first import, which no installed docgen pays). The
    docgen compiled is the one these benches import: this checkout, or the tree PYTHONPATH names
    (a bench run against another commit's worktree)."""
    import compileall
    import importlib.util

    spec = importlib.util.find_spec("docgen")
    assert spec is not None and spec.submodule_search_locations, "docgen is not importable"
    tree = Path(next(iter(spec.submodule_search_locations))).parent
    for package in ("docgen", "checks"):
        compileall.compile_dir(tree / package, quiet=1)


compile_bytecode()


def describe() -> str:
    """``2 cores, load average 3.1 (busy: figures are best of several runs)``."""
    cores = os.cpu_count() or 1
    load = os.getloadavg()[0]
    note = " (busy: other work shares the cores)" if load > 0.5 * cores else ""
    return f"{cores} cores, load average {load:.1f}{note}"


@dataclass(frozen=True)
class Timing:
    """Several runs of one thing: best and median wall time, and CPU time of the best run."""

    walls: list[float]
    cpus: list[float]

    @classmethod
    def merged(cls, timings: list[Timing]) -> Timing:
        return cls([w for t in timings for w in t.walls], [c for t in timings for c in t.cpus])

    @property
    def best(self) -> float:
        return min(self.walls)

    @property
    def median(self) -> float:
        return statistics.median(self.walls)

    @property
    def cpu(self) -> float:
        return min(self.cpus)

    def show(self, aim: float | None = None) -> str:
        text = (
            f"best {self.best:.2f} s, median {self.median:.2f} s of {len(self.walls)}, "
            f"CPU {self.cpu:.2f} s"
        )
        if aim is not None:
            # The aims are CPU seconds: on a shared machine the wall time is mostly the others'.
            verdict = "ok" if self.cpu < aim else "OVER"
            text += f"   (aim < {aim:g} s CPU: {verdict})"
        return text


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run_command(command: list[str], runs: int, ok: tuple[int, ...] = (0, 1)) -> Timing:
    """Run a command ``runs`` times in a new process each time."""
    walls, cpus = [], []
    for _ in range(runs):
        cpu_before, start = _children_cpu(), time.perf_counter()
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        walls.append(time.perf_counter() - start)
        cpus.append(_children_cpu() - cpu_before)
        if done.returncode not in ok:
            sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
    return Timing(walls, cpus)


def run_here(work: Callable[[], object], runs: int) -> Timing:
    """Call ``work`` ``runs`` times in this process (its CPU time is this process's)."""
    walls, cpus = [], []
    for _ in range(runs):
        cpu_before, start = _own_cpu(), time.perf_counter()
        work()
        walls.append(time.perf_counter() - start)
        cpus.append(_own_cpu() - cpu_before)
    return Timing(walls, cpus)
