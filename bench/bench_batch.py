"""Benchmark of `docgen batch`, in what a secretary and a benefits administrator wait for: the
sample grant batch, one worker against raw WeasyPrint on the same HTML, and a 1,000-form RRP
enrollment batch with two workers.

Run by `make bench`, or directly: `.venv/bin/python bench/bench_batch.py [--packets 48]`.
Aims (issue 39): one worker within 1.2x raw WeasyPrint making the same PDFs from the same HTML (in
a fresh process, with one font configuration, as a careful WeasyPrint user would); the sample
batch and the enrollment no more than 15% slower than before the pruning on the same machine.
Each figure is the best of several runs, with CPU time beside the wall time, because the machine
may be shared.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from copy import deepcopy
from datetime import date
from pathlib import Path

from machine import DOCGEN, ROOT, Timing, describe, run_command
from ruamel.yaml import YAML

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


def write_enrollment(folder: Path, participants: int) -> Path:
    """The sample RRP Plan Year (samples/rrp-2026.yaml, clean at its enrollment) with its
    participants repeated to ``participants``, each with its own id and name."""
    yaml = YAML()
    yaml.width = 4096
    data = yaml.load((ROOT / "samples" / "rrp-2026.yaml").read_text(encoding="utf-8"))
    people = [p for p in data["participants"] if p.get("eligible_employee")]
    made = []
    for number in range(participants):
        person = deepcopy(people[number % len(people)])
        person["id"] = f"p{number:05d}"
        person["name"] = f"Participant {number} {SURNAMES[number % len(SURNAMES)]}"
        made.append(person)
    data["participants"] = made
    path = folder / f"rrp-enrollment-{participants}.yaml"
    with path.open("w", encoding="utf-8") as handle:
        yaml.dump(data, handle)
    return path


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed_batches(facts: Path, out: Path, workers: int, runs: int, as_of: date = AS_OF) -> Timing:
    """``runs`` first issues of the cycle (a fresh folder each time), in this process."""
    from docgen.issue.batch import issue_batch

    walls, cpus = [], []
    for _ in range(runs):
        shutil.rmtree(out, ignore_errors=True)
        cpu, start = _cpu(), time.perf_counter()
        result = issue_batch(facts, out, as_of=as_of, workers=workers)
        walls.append(time.perf_counter() - start)
        cpus.append(_cpu() - cpu)
        assert not result.current and result.packets > 0
    return Timing(walls, cpus)


RAW = """
import json, sys, time
from pathlib import Path
import weasyprint
from weasyprint.text.fonts import FontConfiguration

folder, base = Path(sys.argv[1]), sys.argv[2]
start, cpu = time.perf_counter(), time.process_time()
fonts = FontConfiguration()
for page in sorted(folder.glob("*.html")):
    options = json.loads(page.with_suffix(".json").read_text())
    options["pdf_identifier"] = options["pdf_identifier"].encode()
    html = weasyprint.HTML(string=page.read_text(encoding="utf-8"), base_url=base)
    html.write_pdf(font_config=fonts, **options)
print(json.dumps([time.perf_counter() - start, time.process_time() - cpu]))
"""


def raw_weasyprint(
    facts: Path, folder: Path, runs: int, stage: str = "grant", as_of: date = AS_OF
) -> Timing:
    """WeasyPrint alone making the batch's PDFs from the batch's HTML, with the same options
    (tagged, PDF/A-3b unless a form): no DOCX, no record, no read-back, no files written. It runs
    in a fresh process and is timed from after its imports (the batch's are done before it is
    timed); its first document pays for the fonts, as each batch worker's does."""
    from docgen.issue.record import files_to_embed
    from docgen.load import load_facts
    from docgen.render import html as render
    from docgen.render.pdf import _templates_root, pdf_options

    loaded = load_facts(facts)
    folder.mkdir()
    for subject, doc in render.documents_for(loaded.facts, stage):
        html = render.render_html(loaded, doc, subject, stage, as_of)
        meta = render.document_meta(loaded, doc, subject, stage, as_of)
        embedded = files_to_embed(loaded, doc, subject, stage, as_of, meta, html)
        options = pdf_options(html, meta, embedded)
        options["pdf_identifier"] = options["pdf_identifier"].decode()
        (folder / f"{subject}-{doc}.html").write_text(html, encoding="utf-8")
        (folder / f"{subject}-{doc}.json").write_text(json.dumps(options), encoding="utf-8")
    base = _templates_root().as_uri() + "/"
    walls, cpus = [], []
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-c", RAW, str(folder), base],
            capture_output=True,
            text=True,
            check=True,
        )
        wall, cpu = json.loads(done.stdout.strip().splitlines()[-1])
        walls.append(wall)
        cpus.append(cpu)
    return Timing(walls, cpus)


ENROLLMENT_AS_OF = date(2025, 12, 1)  # the sample's day the Deferral Election Forms go out


def enrollment(folder: Path, participants: int, runs: int) -> None:
    """An RRP enrollment batch (one Deferral Election Form per participant, PDF and DOCX) with
    two workers, as `docgen batch` runs it on this machine, beside raw WeasyPrint making its PDFs
    from the same HTML in one process."""
    folder.mkdir()
    facts = write_enrollment(folder, participants)
    rounds = [
        (
            timed_batches(facts, folder / "out2", 2, 1, ENROLLMENT_AS_OF),
            raw_weasyprint(facts, folder / f"raw{number}", 1, "enrollment", ENROLLMENT_AS_OF),
        )
        for number in range(runs)
    ]
    two, raw = (Timing.merged(list(timings)) for timings in zip(*rounds, strict=True))
    print(f"  RRP enrollment batch of {participants:,} participants, on {describe()}:")
    print(f"    2 workers: {two.show()}")
    print(f"    raw WeasyPrint, the same PDFs from the same HTML, one process: {raw.show()}")


def sample_batch(folder: Path, runs: int) -> None:
    """`docgen batch` of the sample grant cycle as the README's first command runs it: a fresh
    process, a fresh folder each time."""
    walls, cpus = [], []
    for number in range(runs):
        command = [
            *DOCGEN,
            "batch",
            str(ROOT / "samples" / "director-grant-2026.yaml"),
            "--out",
            str(folder / f"sample{number}"),
            "--stage",
            "grant",
            "--as-of",
            AS_OF.isoformat(),
        ]
        done = run_command(command, 1, (0,))
        walls.extend(done.walls)
        cpus.extend(done.cpus)
    timing = Timing(walls, cpus)
    print(f"  the sample grant batch (samples/director-grant-2026.yaml): {timing.show()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packets", type=int, default=48)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument(
        "--enrollment",
        type=int,
        default=1000,
        help="an RRP enrollment batch of this many participants; 0 leaves it out",
    )
    args = parser.parse_args()
    packets, runs = args.packets, args.runs
    print(f"docgen batch benchmark, on {describe()}")
    with tempfile.TemporaryDirectory(prefix="docgen-bench-") as scratch:
        folder = Path(scratch)
        sample_batch(folder, max(runs, 3))
        facts = write_cycle(folder, packets)
        # Rounds interleaved, so each of the two sees the machine as busy as the other.
        rounds = [
            (
                timed_batches(facts, folder / "out1", 1, 1),
                raw_weasyprint(facts, folder / f"raw{round_number}", 1),
            )
            for round_number in range(runs)
        ]
        one, raw = (Timing.merged(list(timings)) for timings in zip(*rounds, strict=True))
        print(f"  {packets} director packets (Notice + Exhibit I, PDF + DOCX):")
        print(f"    1 worker : {one.show()}  {packets / one.best:.2f} packets/s")
        print(f"    raw WeasyPrint, the same PDFs from the same HTML: {raw.show()}")
        ratio, cpu_ratio = one.best / raw.best, one.cpu / raw.cpu
        print(
            f"    1-worker batch / raw: {ratio:.2f}x wall, {cpu_ratio:.2f}x CPU "
            f"(aim <= 1.2x: {'ok' if ratio <= 1.2 else 'OVER'})"
        )
        if args.enrollment:
            enrollment(folder / "enrollment", args.enrollment, runs)


if __name__ == "__main__":
    main()
