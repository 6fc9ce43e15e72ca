"""Benchmark of recording a returned form: `docgen elect` (and so `docgen intake` after its PDF
is read) into a large RRP facts file, JSON and YAML, and reading one filled form back.

Run by `make bench`, or directly: `.venv/bin/python bench/bench_intake.py [--participants 10000]`.
Recording loads the facts, splices the filing into the file's text, loads the edited text again
to prove it is the old facts plus the filing, writes, and runs the record's rules: about two
loads and a check. No aim is set (issue 11 sets none); the figures say what a large file costs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_check import write_facts, write_yaml  # noqa: E402


def record_once(path: Path, subject: str, day: date) -> float:
    from docgen.intake.forms import elect

    start = time.perf_counter()
    elect(path, subject, {"salary-percent": "7"}, received_on=day, as_of=day)
    return time.perf_counter() - start


def read_back_seconds(runs: int) -> float:
    from docgen.load import load_facts
    from docgen.render.form_reader import read_form
    from docgen.render.html import render_document

    root = Path(__file__).resolve().parent.parent
    loaded = load_facts(root / "samples" / "director-grant-2026.yaml")
    pdf = render_document(loaded, "exhibit-i", "tnguyen", "elections", "pdf")
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        read_form(pdf)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--participants", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="docgen-bench-intake-") as folder:
        json_path = write_facts(Path(folder), options.participants)
        yaml_path = write_yaml(Path(folder), json_path, 2_000)
        days = [date(2025, 12, 1 + n) for n in range(options.runs)]
        json_s = statistics.median(
            record_once(json_path, f"e{options.participants - 1:05d}", day) for day in days
        )
        yaml_s = statistics.median(record_once(yaml_path, "e01999", day) for day in days)
    read_s = read_back_seconds(max(options.runs, 5))
    print(f"docgen elect (the recording half of docgen intake), median of {options.runs}:")
    print(f"  {options.participants:,} participants, JSON: {json_s:.2f} s")
    print(f"  2,000 participants, YAML:  {yaml_s:.2f} s (pure-Python reader, loaded twice)")
    print(f"reading one filled Exhibit I back (read_form): {read_s * 1000:.0f} ms")


if __name__ == "__main__":
    main()
