"""Benchmark of `docgen check`: 10,000 RRP participants as JSON and as YAML, and the cold start.

Run by `make bench`, or directly: `.venv/bin/python bench/bench_check.py [--participants 10000]`.
Aims (issues 3 and 16): 10,000 participants checked in under 1 s as JSON and under 2 s as YAML;
the cold start of `docgen check samples/director-grant-2026.yaml` under 0.3 s, importing no
renderer. Each figure is the best of several runs (see bench/machine.py); the in-process split
into load, line index and rules names a slow loader as such.
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

from machine import DOCGEN, ROOT, describe, run_command


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


def in_process(path: Path) -> tuple[tuple[float, float, float], int]:
    from docgen.check.runner import run_checks
    from docgen.load import load_facts
    from docgen.load.heap import collector_asleep

    with collector_asleep():  # as `docgen check` runs (docgen.api.check_loaded)
        start = time.perf_counter()
        loaded = load_facts(path)
        loaded_at = time.perf_counter()
        loaded.source.locate("participants[0]")  # builds the line index (lazy for JSON)
        indexed_at = time.perf_counter()
        report = run_checks(loaded, date(2026, 8, 1), "year")  # as `check --as-of 2026-08-01`
        done_at = time.perf_counter()
    return (loaded_at - start, indexed_at - loaded_at, done_at - indexed_at), len(report.findings)


_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _as_written(value: object) -> object:
    """Dates as dates, so the YAML carries them plain (2026-06-23), as a person writes them."""
    if isinstance(value, dict):
        return {key: _as_written(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_as_written(item) for item in value]
    if isinstance(value, str) and _ISO_DATE.match(value):
        return datetime.date.fromisoformat(value)
    return value


def write_yaml(folder: Path, json_path: Path) -> Path:
    """The same facts as block-style YAML, the way the samples are written."""
    import yaml

    facts = _as_written(json.loads(json_path.read_text(encoding="utf-8")))
    path = json_path.with_suffix(".yaml")
    with path.open("w", encoding="utf-8") as handle:
        yaml.dump(facts, handle, Dumper=yaml.CSafeDumper, sort_keys=False, allow_unicode=True)
    return path


def renderer_modules_imported() -> list[str]:
    """Modules of the renderers that `docgen check` loads (there should be none)."""
    probe = (
        "import sys\n"
        "sys.argv = ['docgen', 'check', 'samples/director-grant-2026.yaml', '--as-of', "
        "'2026-06-23']\n"
        "from docgen.cli import main  # main, not entry: entry's exit would skip the count\n"
        "try:\n    main()\n"
        "except SystemExit:\n    pass\n"
        "heavy = ('weasyprint', 'docx', 'pypdf', 'pydyf', 'docgen.render')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy or "
        "m.startswith('docgen.render')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1].replace("'", '"'))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--participants", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    options = parser.parse_args()
    count = options.participants
    print(f"docgen check benchmark on {describe()}")
    with tempfile.TemporaryDirectory(prefix="docgen-bench-check-") as folder:
        json_path = write_facts(Path(folder), count)
        yaml_path = write_yaml(Path(folder), json_path)
        for path, aim in ((json_path, 1.0), (yaml_path, 2.0)):
            label = path.suffix[1:].upper()
            size = path.stat().st_size / 1e6
            (load_s, index_s, check_s), findings = in_process(path)
            command = [*DOCGEN, "check", str(path), "--as-of", "2026-08-01", "--format", "json"]
            timing = run_command(command, options.runs)
            print(f"  {count:,} participants as {label} ({size:.1f} MB, {findings} findings):")
            print(f"    docgen check --format json: {timing.show(aim)}")
            print(
                f"    in process: load {load_s:.2f} s + line index {index_s:.2f} s "
                f"+ rules {check_s:.2f} s"
            )
    cold = run_command(
        [*DOCGEN, "check", "samples/director-grant-2026.yaml", "--as-of", "2026-06-23"],
        max(options.runs, 10),
    )
    print(f"  cold start, docgen check samples/director-grant-2026.yaml: {cold.show(0.3)}")
    heavy = renderer_modules_imported()
    print(f"  renderer modules imported by docgen check: {', '.join(heavy) or 'none'}")


if __name__ == "__main__":
    main()
