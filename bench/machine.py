"""What every bench prints beside its figures: the machine (cores, load) and repeated timings.

A shared machine's wall-clock times vary from run to run with what else is running, so each
figure is the best of several runs, with the median beside it, and the CPU time a command used
(which a busy machine changes far less than the wall time).
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCGEN = [sys.executable, "-m", "docgen"]


def compile_bytecode() -> None:
    """Write docgen's bytecode before anything is timed, as pip does when it installs a wheel.

    An editable install compiles each module when it is first imported and keeps the bytecode
    only where Python may write it: under PYTHONDONTWRITEBYTECODE (set on some build machines)
    every new process compiled docgen's ~90 modules again, 0.03 to 0.08 s of each cold start
    that no installed docgen pays. compileall writes the files whatever that variable says, and
    skips those already current.
    """
    import compileall

    for package in ("docgen", "checks"):
        compileall.compile_dir(ROOT / package, quiet=1)


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


def instructions(command: list[str]) -> str:
    """What ``command`` costs in instructions (billions) under valgrind's callgrind, the same
    whatever else the machine is doing (its seconds are not: they drift with the host), or why
    there is no count. About 50 times slower than the command itself: for short commands only."""
    if shutil.which("valgrind") is None:
        return "no instruction count (valgrind is not installed)"
    with tempfile.TemporaryDirectory(prefix="docgen-callgrind-") as scratch:
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--trace-children=yes",  # forks are followed anyway; this follows execs
                f"--callgrind-out-file={scratch}/out.%p",
                *command,
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
    counts = re.findall(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or not counts:
        return f"no instruction count (valgrind exited {done.returncode})"
    return f"{sum(map(int, counts)) / 1e9:.2f} billion instructions (callgrind)"


def run_here(work: Callable[[], object], runs: int) -> Timing:
    """Call ``work`` ``runs`` times in this process (its CPU time is this process's)."""
    walls, cpus = [], []
    for _ in range(runs):
        cpu_before, start = _own_cpu(), time.perf_counter()
        work()
        walls.append(time.perf_counter() - start)
        cpus.append(_own_cpu() - cpu_before)
    return Timing(walls, cpus)
