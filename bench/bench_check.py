"""Benchmark of `docgen check` over a realistic HRIS export: 10,000 participants in a roster CSV
with their elections, Beneficiaries and allocations in three more (bench/realistic.py).

Run by `make bench`, or directly: `.venv/bin/python bench/bench_check.py [--participants 10000]`.
This is what a benefits administrator waits for before an enrollment: the command as they run it,
a fresh process each time, the text report and the JSON one. Each figure is the best of several
runs with the CPU time (user+sys) beside it and the load average (bench/machine.py).
Aim (issue 39): no more than 15% slower than before the pruning, on the same machine.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from machine import DOCGEN, describe, run_command  # noqa: E402
from realistic import rrp_facts, write_hris  # noqa: E402

AS_OF = "2025-12-31"  # the last day of the enrollment (Plan 2.03(b))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--participants", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="docgen-bench-check-") as scratch:
        facts = write_hris(rrp_facts(args.participants), Path(scratch), "rrp")
        print(
            f"docgen check, {args.participants:,} participants from an HRIS export (4 CSVs), "
            f"on {describe()}:"
        )
        for output in ("text", "json"):
            command = [*DOCGEN, "check", str(facts), "--as-of", AS_OF, "--format", output]
            print(f"  --format {output}: {run_command(command, args.runs).show()}")


if __name__ == "__main__":
    main()
