"""Benchmark of `docgen check` on realistic rosters (bench/realistic.py): 10,000 participants as
JSON and as YAML, the text report beside the JSON one, 50,000 with peak memory, the cold start.

Run by `make bench`, or directly:
`.venv/bin/python bench/bench_check.py [--participants 10000] [--large 50000] [--runs 5]`.
Aims (issue 27): 10,000 realistic participants checked in under 1 s from JSON and under 1.5 s
from YAML, text report included; 50,000 under 10 s and 1 GB; the cold start of
`docgen check samples/director-grant-2026.yaml` under 0.3 s, importing no renderer. Each figure
is the best of several runs with the CPU time (user+sys) beside it and the load average (see
bench/machine.py); the in-process split into load and rules names a slow loader as such.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

import realistic
from machine import DOCGEN, ROOT, describe, instructions, run_command
from realistic import rrp_facts, write_json


def write_facts(folder: Path, count: int, warn_each: bool = False) -> Path:
    """A realistic roster (bench/realistic.py) as JSON."""
    name = f"rrp-{count}{'-warn' if warn_each else ''}.json"
    return write_json(rrp_facts(count, warn_each=warn_each), folder / name)


def write_yaml(folder: Path, json_path: Path) -> Path:
    """The same facts as block-style YAML, the way the samples are written."""
    facts = rrp_facts(_count_of(json_path), warn_each=json_path.stem.endswith("-warn"))
    return realistic.write_yaml(facts, json_path.with_suffix(".yaml"))


def _count_of(path: Path) -> int:
    return int(path.stem.split("-")[1])


def in_process(path: Path) -> tuple[tuple[float, float], int]:
    """CPU seconds to load and to check (lines of the findings included), and the findings."""
    from docgen.checker.runner import run_checks
    from docgen.core.heap import collector_asleep
    from docgen.load import load_facts

    with collector_asleep():  # as `docgen check` runs (docgen.api.check_loaded)
        start = time.process_time()
        loaded = load_facts(path)
        loaded_at = time.process_time()
        report = run_checks(loaded, date(2026, 8, 1), "year")  # as `check --as-of 2026-08-01`
        done_at = time.process_time()
    return (loaded_at - start, done_at - loaded_at), len(report.findings)


def peak_memory(command: list[str]) -> float:
    """The peak resident memory (MiB) of ``command``, run in a child of a fresh process."""
    probe = (
        "import resource, subprocess, sys\n"
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, *command], cwd=ROOT, capture_output=True, text=True
    )
    return int(done.stdout.split()[-1]) / 1024


def renderer_modules_imported() -> list[str]:
    """Modules of the renderers, of the other kind and of the arithmetic that `docgen check` of
    a director grant loads (there should be none)."""
    probe = (
        "import sys\n"
        "sys.argv = ['docgen', 'check', 'samples/director-grant-2026.yaml', '--as-of', "
        "'2026-06-23']\n"
        "from docgen.cli import main  # main, not entry: entry's exit would skip the count\n"
        "try:\n    main()\n"
        "except SystemExit:\n    pass\n"
        "heavy = ('weasyprint', 'docx', 'pypdf', 'pydyf', 'docgen.render')\n"
        "other = ('docgen.kinds.rrp.kind', 'checks.rrp', 'docgen.kinds.rrp.arithmetic', "
        "'docgen.kinds.director_rsu.arithmetic')  # another kind, the figures\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy or "
        "m.startswith('docgen.render') or m in other))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1].replace("'", '"'))


def _check(path: Path, *extra: str) -> list[str]:
    return [*DOCGEN, "check", str(path), "--as-of", "2026-08-01", *extra]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--participants", type=int, default=10_000)
    parser.add_argument("--large", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=5)
    options = parser.parse_args()
    count = options.participants
    print(f"docgen check benchmark on {describe()}")
    print("  figures: best wall time and median of N fresh processes, CPU (user+sys) of the best")
    with tempfile.TemporaryDirectory(prefix="docgen-bench-check-") as folder:
        json_path = write_facts(Path(folder), count)
        yaml_path = write_yaml(Path(folder), json_path)
        for path, aim in ((json_path, 1.0), (yaml_path, 1.5)):
            label = path.suffix[1:].upper()
            size = path.stat().st_size / 1e6
            (load_s, check_s), findings = in_process(path)
            print(
                f"  {count:,} realistic participants as {label} ({size:.1f} MB, "
                f"{findings} findings):"
            )
            json_timing = run_command(_check(path, "--format", "json"), options.runs)
            print(f"    docgen check --format json: {json_timing.show(aim)}   [{describe()}]")
            text_timing = run_command(_check(path), options.runs)
            print(f"    docgen check (text report): {text_timing.show(aim)}   [{describe()}]")
            print(f"    in process (CPU): load {load_s:.2f} s + rules and lines {check_s:.2f} s")
        warned = write_facts(Path(folder), count, warn_each=True)
        (_, _), findings = in_process(warned)
        print(f"  {count:,} participants with a warning each ({findings} findings), JSON:")
        for label, extra in (("--format json", ("--format", "json")), ("text report", ())):
            timing = run_command(_check(warned, *extra), max(options.runs // 2, 2))
            print(f"    docgen check {label}: {timing.show()}   [{describe()}]")
        board = realistic.write_yaml(
            realistic.director_facts(2_400), Path(folder) / "directors-2400.yaml"
        )
        timing = run_command(
            [*DOCGEN, "check", str(board), "--as-of", "2026-06-23", "--format", "json"],
            options.runs,
        )
        print(f"  2,400 realistic directors as YAML: docgen check {timing.show()}   [{describe()}]")
        if options.large:
            # At that size the roster comes from the HRIS as a CSV (participants_csv) beside a
            # small YAML file (50,000 as JSON is about 41 MB, under the 100 MB MAX_BYTES).
            large = realistic.write_roster(rrp_facts(options.large), Path(folder), "large")
            command = _check(large, "--format", "json")
            timing = run_command(command, 1)
            peak = peak_memory(command)
            print(
                f"  {options.large:,} realistic participants as a roster CSV: docgen check "
                f"--format json {timing.show(10.0)}, peak memory {peak:.0f} MiB (aim < 1024)   "
                f"[{describe()}]"
            )
    cold_command = [*DOCGEN, "check", "samples/director-grant-2026.yaml", "--as-of", "2026-06-23"]
    cold = run_command(cold_command, max(options.runs, 10))
    print(
        f"  cold start, docgen check samples/director-grant-2026.yaml: {cold.show(0.3)}   "
        f"[{describe()}]; {instructions(cold_command)}"
    )
    heavy = renderer_modules_imported()
    print(
        "  renderer, other-kind and arithmetic modules imported by docgen check: "
        f"{', '.join(heavy) or 'none'}"
    )


if __name__ == "__main__":
    main()
