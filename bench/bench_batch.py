"""Benchmark of `docgen batch`: packets per second with 1 and 2 workers, overhead over raw
WeasyPrint + python-docx on the same HTML, peak memory per worker, an unchanged rerun, and a
re-issue after one director's address changed (the whole batch, and `--only` that director).

Run by `make bench`, or directly: `.venv/bin/python bench/bench_batch.py [--packets 100]`.
Aims (issue 4): 2 workers >= 1.6x the packets/s of 1; our time per packet <= 1.25x the raw
conversions; an unchanged rerun < 10% of the first run.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from copy import deepcopy
from datetime import date
from pathlib import Path

from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parent.parent
AS_OF = date(2026, 6, 23)
SURNAMES = [
    "Smith",
    "García",
    "O'Brien",
    "Nguyen",
    "Khan",
    "Chen",
    "White",
    "Johnson-Ames",
    "Murphy",
]


def write_cycle(folder: Path, packets: int, moved: int | None = None) -> Path:
    """The sample grant cycle with ``packets`` directors, each with a timely election; director
    number ``moved`` with a new address."""
    yaml = YAML()
    yaml.width = 4096  # ruamel would wrap a long flow mapping into invalid YAML
    data = yaml.load((ROOT / "samples" / "director-grant-2026.yaml").read_text(encoding="utf-8"))
    template = data["directors"][0]
    directors = []
    for number in range(1, packets + 1):
        director = deepcopy(template)
        surname = SURNAMES[number % len(SURNAMES)]
        director["id"] = f"d{number:03d}"
        director["name"] = f"Director {number} {surname}"
        director["salutation"] = f"Dr. {surname}"
        director["units"] = 1000 + 10 * number
        if number == moved:
            director["address"] = ["40 Cedar Road", "Richmond, VA 23226"]
        directors.append(director)
    data["directors"] = directors
    path = folder / ("grant-bench.yaml" if moved is None else "grant-bench-moved.yaml")
    with path.open("w", encoding="utf-8") as handle:
        yaml.dump(data, handle)
    return path


def timed_batch(facts: Path, out: Path, workers: int) -> float:
    from docgen.issue.batch import issue_batch

    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    result = issue_batch(facts, out, as_of=AS_OF, workers=workers)
    elapsed = time.perf_counter() - start
    assert not result.current and result.packets > 0
    return elapsed


def raw_conversion_seconds(facts: Path) -> tuple[float, int]:
    """Only WeasyPrint and python-docx (via the renderer) on HTML made beforehand, one process."""
    from docgen.load import load_facts
    from docgen.render import html as render
    from docgen.render.docx import html_to_docx
    from docgen.render.pdf import html_to_pdf

    loaded = load_facts(facts)
    jobs = []
    for subject, doc in render.documents_for(loaded.facts, "grant"):
        html = render.render_html(loaded, doc, subject, "grant")
        jobs.append((html, render.document_meta(loaded, doc, subject, "grant")))
    start = time.perf_counter()
    for html, meta in jobs:
        html_to_pdf(html, meta)
        html_to_docx(html, meta)
    return time.perf_counter() - start, len(
        {s for s, _ in render.documents_for(loaded.facts, "grant")}
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packets", type=int, default=100)
    args = parser.parse_args()
    packets = args.packets
    with tempfile.TemporaryDirectory(prefix="docgen-bench-") as scratch:
        scratch_path = Path(scratch)
        facts = write_cycle(scratch_path, packets)
        print(
            f"docgen batch benchmark: {packets} director packets (notice + Exhibit I, PDF + DOCX), "
            f"{os.cpu_count()} CPUs"
        )

        one = timed_batch(facts, scratch_path / "out1", workers=1)
        memory_one = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        two = timed_batch(facts, scratch_path / "out2", workers=2)
        memory_all = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"  1 worker : {one:6.1f} s  {packets / one:5.2f} packets/s")
        print(
            f"  2 workers: {two:6.1f} s  {packets / two:5.2f} packets/s  "
            f"speed-up {one / two:.2f}x (aim >= 1.6x)"
        )

        raw, raw_packets = raw_conversion_seconds(facts)
        ours = one / packets
        print(
            f"  per packet: docgen {ours * 1000:6.0f} ms (1 worker: check, render, read back, "
            f"verify, write, manifest) vs raw WeasyPrint + python-docx "
            f"{raw / raw_packets * 1000:6.0f} ms: {ours / (raw / raw_packets):.2f}x (aim <= 1.25x)"
        )
        print(
            f"  peak memory per worker (ru_maxrss of children): {memory_one:.0f} MiB with 1 "
            f"worker, {memory_all:.0f} MiB max over both runs"
        )

        docgen = Path(sys.executable).parent / "docgen"
        command = [
            str(docgen),
            "batch",
            str(facts),
            "--out",
            str(scratch_path / "out2"),
            "--as-of",
            AS_OF.isoformat(),
        ]
        start = time.perf_counter()
        rerun = subprocess.run(command, capture_output=True, text=True)
        again = time.perf_counter() - start
        assert rerun.returncode == 0 and "already current" in rerun.stdout, (
            rerun.stdout + rerun.stderr
        )
        print(
            f"  unchanged rerun (CLI, new process): {again:5.2f} s = {again / two:.1%} of the "
            f"2-worker first run (aim < 10%)"
        )
        reissue_seconds(scratch_path, packets, two)


def reissue_seconds(scratch: Path, packets: int, first: float) -> None:
    """One director's address changed: the whole batch again (every packet's inputs compared with
    its record, the changed one rendered and re-issued), and the same change with `--only`."""
    from docgen.issue.batch import issue_batch

    moved = write_cycle(scratch, packets, moved=1)
    for label, only in (("whole batch", ()), ("--only d001", ("d001",))):
        out = scratch / f"out-reissue-{len(only)}"
        shutil.rmtree(out, ignore_errors=True)
        issue_batch(scratch / "grant-bench.yaml", out, as_of=AS_OF, workers=2)
        start = time.perf_counter()
        result = issue_batch(moved, out, as_of=date(2026, 6, 25), workers=2, only=only)
        elapsed = time.perf_counter() - start
        changed = [c.subject for c in result.changes if c.what == "re-issued"]
        assert changed == ["d001"] and result.reissue == 1, changed
        print(
            f"  re-issue of 1 changed packet in {packets}, {label}: {elapsed:5.2f} s = "
            f"{elapsed / first:.1%} of the 2-worker first run"
        )


if __name__ == "__main__":
    main()
