"""Benchmark of `docgen check`: a 10,000-participant RRP file, and the cold start on the sample.

Run by `make bench`, or directly: `.venv/bin/python bench/bench_check.py [--participants 10000]`.
Aims (issue 3): `docgen check` on 10,000 participants < 2 s wall; the cold start of
`docgen check samples/director-grant-2026.yaml` as a subprocess < 0.5 s. Also splits the
in-process time into load and check, so a slow loader is named as such.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCGEN = [sys.executable, "-m", "docgen"]


def participant(index: int) -> dict:
    """One participant; every 20th breaks a rule, so the report has rows to print."""
    made_on = date(2025, 11, 1) + timedelta(days=index % 61)  # Nov 1, 2025 .. Dec 31, 2025
    person = {
        "id": f"e{index:05d}",
        "name": f"Participant {index}",
        "eligible_employee": True,
        "compensation": str(380_000 + (index % 97) * 1_000),
        "hired_on": "2015-04-01",
        "key_employee_on": ["2025-12-31"] if index % 50 == 0 else [],
        "beneficiaries": [
            {"name": f"Beneficiary {index}", "relationship": "spouse", "percent": 100}
        ],
        "investments": {"Stable Value Fund": 40, "S&P 500 Index Fund": 60},
        "elections": [
            {
                "kind": "salary",
                "plan_year": 2026,
                "percent": 5 + index % 20,
                "made_on": made_on.isoformat(),
            },
            {"kind": "bonus", "plan_year": 2026, "percent": 10, "made_on": made_on.isoformat()},
        ],
    }
    if index % 20 == 7:
        person["elections"][0]["made_on"] = "2026-01-05"  # RRP-ELECTION-LATE
    if index % 40 == 3:
        person["elections"].append(
            {
                "kind": "performance_based",
                "plan_year": 2026,
                "percent": 20,
                "made_on": "2026-05-01",
                "performance_period": {
                    "start": "2026-01-01",
                    "end": "2026-12-31",
                    "criteria_established_on": "2026-02-15",
                },
            }
        )
    return person


def write_facts(folder: Path, count: int) -> Path:
    facts = {
        "kind": "rrp-plan-year",
        "company": {"name": "CarMax, Inc.", "publicly_traded": True},
        "plan": {"name": "CarMax, Inc. Retirement Restoration Plan"},
        "plan_year": 2026,
        "retirement_contribution_percent": "4",
        "participants": [participant(i) for i in range(count)],
    }
    path = folder / f"rrp-{count}.json"
    path.write_text(json.dumps(facts, indent=1), encoding="utf-8")
    return path


def wall(command: list[str], runs: int) -> tuple[float, int]:
    times, code = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        code = done.returncode
        if code not in (0, 1):
            sys.exit(f"{' '.join(command)} failed ({code}):\n{done.stderr}")
    return statistics.median(times), code


def in_process(path: Path) -> tuple[tuple[float, float, float], int]:
    from docgen.check.runner import run_checks
    from docgen.load import load_facts

    start = time.perf_counter()
    loaded = load_facts(path)
    loaded_at = time.perf_counter()
    loaded.source.locate("participants[0]")  # builds the line index (lazy for JSON)
    indexed_at = time.perf_counter()
    report = run_checks(loaded, date(2026, 8, 1), "year")  # as `check --as-of 2026-08-01` does (A8)
    done_at = time.perf_counter()
    return (loaded_at - start, indexed_at - loaded_at, done_at - indexed_at), len(report.findings)


def write_yaml(folder: Path, json_path: Path, count: int) -> Path:
    """The first ``count`` participants of the JSON file, as block-style YAML."""
    from ruamel.yaml import YAML

    facts = json.loads(json_path.read_text(encoding="utf-8"))
    facts["participants"] = facts["participants"][:count]
    path = folder / f"rrp-{count}.yaml"
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    with path.open("w", encoding="utf-8") as handle:
        yaml.dump(facts, handle)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--participants", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="docgen-bench-check-") as folder:
        path = write_facts(Path(folder), options.participants)
        size = path.stat().st_size / 1e6
        (load_s, index_s, check_s), findings = in_process(path)
        big, code = wall(
            [*DOCGEN, "check", str(path), "--as-of", "2026-08-01", "--format", "json"], options.runs
        )
        text, _ = wall([*DOCGEN, "check", str(path), "--as-of", "2026-08-01"], 1)
        # The same facts as YAML go through the pure-Python, line-exact reader: measure its
        # pace on 2,000 participants (the README's advice on when to prefer JSON rests on it).
        yaml_path = write_yaml(Path(folder), path, 2_000)
        started = time.perf_counter()
        from docgen.load import load_facts

        load_facts(yaml_path)
        yaml_s = time.perf_counter() - started
    cold, _ = wall(
        [*DOCGEN, "check", "samples/director-grant-2026.yaml", "--as-of", "2026-06-23"],
        max(options.runs, 5),
    )
    print(
        f"docgen check, {options.participants:,} RRP participants ({size:.1f} MB JSON, "
        f"{findings} findings, exit {code}):"
    )
    print(f"  wall, --format json (median of {options.runs}): {big:.2f} s   (aim < 2 s)")
    print(f"  wall, text table:                  {text:.2f} s")
    print(
        f"  in process: load {load_s:.2f} s + line index {index_s:.2f} s (docgen/loader.py) "
        f"+ rules {check_s:.2f} s"
    )
    print(f"  the first 2,000 participants as YAML: load {yaml_s:.2f} s (pure-Python reader)")
    print(
        f"cold start, docgen check samples/director-grant-2026.yaml: {cold:.2f} s   (aim < 0.5 s)"
    )


if __name__ == "__main__":
    main()
