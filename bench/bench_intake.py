"""Benchmark of recording a returned form into a realistic 10,000-participant HRIS roster: one
paper form with `docgen elect` (what `docgen intake` does after reading the PDF), into the CSVs of
filings the facts name (bench/realistic.py).

Run by `make bench`, or directly: `.venv/bin/python bench/bench_intake.py [--participants 10000]`.
Each run records into a fresh copy of the export, in a fresh process, as a benefits administrator
runs it: load, validate, write the election, Beneficiaries and allocation into their CSVs (every
other byte kept), then check the people recorded. Best of several runs, CPU time beside.
Aim (issue 39): no more than 15% slower than before the pruning, on the same machine.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from machine import DOCGEN, Timing, describe, run_command  # noqa: E402
from realistic import rrp_facts, write_hris  # noqa: E402

DAY = "2025-12-31"  # within the prior-year route for the 2026 Plan Year (Plan 2.03(b))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--participants", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="docgen-bench-intake-") as scratch:
        original = Path(scratch) / "export"
        original.mkdir()
        facts = rrp_facts(args.participants)
        subject = next(p["id"] for p in reversed(facts["participants"]) if p["eligible_employee"])
        write_hris(facts, original, "rrp")
        timings = []
        for number in range(args.runs):
            work = Path(scratch) / f"run{number}"
            shutil.copytree(original, work)
            command = [
                *DOCGEN,
                "elect",
                str(work / "rrp-hris.yaml"),
                "--for",
                subject,
                "--received-on",
                DAY,
                "--as-of",
                DAY,
                "--salary-percent",
                "7",
                "--allocation",
                "Stable Value Fund=100",
                "--beneficiary",
                "Robin Example;spouse;100",
            ]
            timings.append(run_command(command, 1))
        print(
            f"docgen elect, one paper form into {args.participants:,} participants (HRIS CSVs), "
            f"on {describe()}:\n  {Timing.merged(timings).show()}"
        )


if __name__ == "__main__":
    main()
