"""Benchmark at scale: `docgen check` and one `docgen elect` over 50,000 RRP participants, with
the wall time, CPU time and peak memory of each.

Run by `make bench`, or directly: `.venv/bin/python bench/bench_scale.py [--participants 50000]`.
The roster is realistic (issue 25): every participant has a salary and a bonus Deferral Election,
two Beneficiaries and an allocation across two funds, written as YAML the way the samples are
(a participant's lists and mappings in flow style, so that 50,000 fit the 20 MB a facts file
may hold); one in fifty is a Key Employee, one in twenty files late. `elect` records one paper form
(salary, allocation, two Beneficiaries) for a participant with none on file, into a copy of the
file, as `docgen elect` would. The speed issue sets the aims; this prints the figures.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

from machine import DOCGEN, ROOT, describe

FUNDS = ["Stable Value Fund", "Bond Index Fund", "S&P 500 Index Fund", "International Equity Fund"]


def participant(index: int, *, elections: bool = True) -> str:
    """One participant as the samples write one (flow style for its lists and mappings)."""
    made_on = date(2025, 11, 1) + timedelta(days=index % 45)  # Nov 1 .. Dec 15, 2025
    late = date(2026, 1, 5) if index % 20 == 7 else made_on  # RRP-ELECTION-LATE
    first, second = FUNDS[index % 4], FUNDS[(index + 1) % 4]
    lines = [
        f"- id: e{index:05d}",
        f"  name: Pat {index}",
        "  eligible_employee: true",
        f'  compensation: "{380_000 + (index % 97) * 1_000}"',
        "  hired_on: 2015-04-01",
    ]
    if index % 50 == 0:
        lines.append("  key_employee_on: [2025-12-31]")
    lines += [
        f"  beneficiaries: [{{name: Spouse {index}, percent: 60}}, "
        f"{{name: Child {index}, percent: 40}}]",
        f'  investments: {{"{first}": 40, "{second}": 60}}',
    ]
    if elections:
        lines.append(
            f"  elections: [{{kind: salary, plan_year: 2026, percent: {5 + index % 20}, "
            f"made_on: {late}}}, {{kind: bonus, plan_year: 2026, percent: 10, made_on: {made_on}}}]"
        )
    return "\n".join(lines) + "\n"


def write_facts(folder: Path, count: int) -> Path:
    """The roster as YAML; the last participant has no election on file (elect's)."""
    head = (
        "kind: rrp-plan-year\n"
        'company: {name: "CarMax, Inc.", publicly_traded: true}\n'
        "plan:\n"
        "  name: CarMax, Inc. Retirement Restoration Plan\n"
        f"  investment_options: [{', '.join(FUNDS)}]\n"
        "plan_year: 2026\n"
        'retirement_contribution_percent: "4"\n'
        "participants:\n"
    )
    path = folder / f"rrp-{count}.yaml"
    with path.open("w", encoding="utf-8") as handle:
        handle.write(head)
        for index in range(count):
            handle.write(participant(index, elections=index < count - 1))
    return path


# Runs a command and prints its exit code and peak resident memory (the child's ru_maxrss, KB).
_MEASURE = (
    "import json, resource, subprocess, sys\n"
    "done = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
    "usage = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "print(json.dumps([done.returncode, usage.ru_maxrss, usage.ru_utime + usage.ru_stime,"
    " done.stderr[-2000:]]))\n"
)


def measure(command: list[str]) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds and peak memory (MB) of one run of ``command``."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, *command],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    wall = time.perf_counter() - start
    code, peak_kb, cpu, stderr = json.loads(done.stdout)
    if code not in (0, 1):
        sys.exit(f"{' '.join(command)} failed ({code}):\n{stderr}")
    return wall, cpu, peak_kb / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--participants", type=int, default=50_000)
    options = parser.parse_args()
    count = options.participants
    print(f"docgen at scale on {describe()}")
    with tempfile.TemporaryDirectory(prefix="docgen-bench-scale-") as folder:
        facts = write_facts(Path(folder), count)
        size = facts.stat().st_size / 1e6
        print(
            f"  {count:,} participants as YAML ({size:.1f} MB): elections, two beneficiaries, "
            "an allocation each"
        )
        check = [*DOCGEN, "check", str(facts), "--as-of", "2025-12-20", "--format", "json"]
        wall, cpu, peak = measure(check)
        print(f"    docgen check: {wall:.1f} s, CPU {cpu:.1f} s, peak memory {peak:,.0f} MB")
        copy = Path(folder) / "elect.yaml"
        shutil.copy(facts, copy)
        elect = [
            *DOCGEN,
            "elect",
            str(copy),
            "--for",
            f"e{count - 1:05d}",
            "--salary-percent",
            "3",
            "--allocation",
            "Stable Value Fund=100",
            "--beneficiary",
            "Marley Example;spouse;60",
            "--beneficiary",
            "Sky Example;child;40",
            "--received-on",
            "2025-12-05",
            "--as-of",
            "2025-12-05",
        ]
        wall, cpu, peak = measure(elect)
        shown = f"{wall:.1f} s, CPU {cpu:.1f} s, peak memory {peak:,.0f} MB"
        print(f"    docgen elect (one form): {shown}")


if __name__ == "__main__":
    main()
