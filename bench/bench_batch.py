"""Benchmark of `docgen batch`: 1 and 2 workers, against raw WeasyPrint on the same HTML, an
unchanged rerun, and a one-director correction (the whole batch, and `--only` that director).

Run by `make bench`, or directly: `.venv/bin/python bench/bench_batch.py [--packets 48]`.
Aims (issue 16): a one-worker batch within 1.15x raw WeasyPrint making the same PDFs from the
same HTML (in a fresh process, with one font configuration, as a careful WeasyPrint user would);
two workers at least 1.85x one; a one-director correction in a 24-director cycle under 15% of
the first run. Issue 27: the same correction in a 240-director cycle at most 1.15x the
24-director one (`--large-cycle`); an RRP enrollment batch of 1,000 participants
(`--enrollment`) within 1.2x raw WeasyPrint on the same HTML, two workers at least 1.9x one.
(Issue 4: an unchanged rerun under 10% of the first run.) Each figure is the best of several
runs, with CPU time beside the wall time, because the machine may be shared.
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from copy import deepcopy
from datetime import date
from pathlib import Path

from machine import DOCGEN, ROOT, Timing, describe, instructions, run_command
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


# The command line imported as the `docgen` script imports it, not yet run.
CLI = """
from docgen.__main__ import command_line
command_line()
"""

# What any `docgen batch` that renders pays before its first document: the interpreter, the
# command line and the renderers imported, the stylesheet parsed and its fonts configured.
FLOOR = (
    CLI
    + """
from docgen.render.pdf import prepare
from docgen.render.docx import prepare as prepare_docx
from docgen.render.readback import prepare as prepare_readback
prepare(); prepare_docx(); prepare_readback()
"""
)

# The floor's parts in one process, each in CPU seconds: where it goes (README, "Speed").
FLOOR_PARTS = """
import json, time
marks = [time.process_time()]
from docgen.__main__ import command_line
command_line()
marks.append(time.process_time())
from docgen.render.pdf import prepare
prepare()
marks.append(time.process_time())
from docgen.render.docx import prepare as prepare_docx
prepare_docx()
marks.append(time.process_time())
from docgen.render.readback import prepare as prepare_readback
prepare_readback()
marks.append(time.process_time())
print(json.dumps(marks))
"""
PARTS = (
    "Python itself",
    "the CLI and its fact models",
    "WeasyPrint, stylesheet and fonts",
    "the DOCX template",
    "the read-back readers",
)


def floor_parts(runs: int) -> str:
    """The floor's parts, each the least of ``runs`` fresh processes."""
    least: list[float] | None = None
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-c", FLOOR_PARTS], cwd=ROOT, capture_output=True, text=True
        )
        if done.returncode != 0:
            sys.exit(f"the floor's parts failed:\n{done.stderr}")
        marks = json.loads(done.stdout.splitlines()[-1])
        parts = [marks[0], *(after - before for before, after in itertools.pairwise(marks))]
        least = parts if least is None else [min(a, b) for a, b in zip(least, parts, strict=True)]
    assert least is not None
    return ", ".join(f"{name} {seconds:.3f} s" for name, seconds in zip(PARTS, least, strict=True))


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


class Cycle:
    """A cycle of ``directors`` issued once, then re-issued after each correction of one
    director's units (d007's: the cycle has at least seven directors), each a new value so that
    no re-issue is "already current"."""

    def __init__(self, folder: Path, directors: int):
        folder.mkdir()
        self.facts = write_cycle(folder, directors)
        self.out = folder / "out"
        self.text = self.facts.read_text(encoding="utf-8")
        self.corrections = 0
        self.first = run_command(self._batch(), 1, (0,))

    def _batch(self) -> list[str]:
        return [
            *DOCGEN,
            "batch",
            str(self.facts),
            "--out",
            str(self.out),
            "--as-of",
            AS_OF.isoformat(),
        ]

    def corrected(self) -> Timing:
        """One correction re-issued, in a fresh process."""
        units = 1071 + self.corrections
        self.corrections += 1
        fixed, count = re.subn(r"units: 1070\b", f"units: {units}", self.text, count=1)
        assert count == 1, "the bench cycle no longer has d007's units"
        self.facts.write_text(fixed, encoding="utf-8")
        return run_command(self._batch(), 1, (0,))


def corrections(cycles: list[Cycle], runs: int) -> list[Timing]:
    """``runs`` corrections of each cycle, the cycles taking turns, so that a ratio between
    them compares runs that saw the machine alike (a batch's workers raise the load average for
    a minute after them)."""
    done: list[list[Timing]] = [[] for _ in cycles]
    for _ in range(runs):
        for cycle, timings in zip(cycles, done, strict=True):
            timings.append(cycle.corrected())
    return [Timing.merged(timings) for timings in done]


# The floor's figures are the least of this many fresh processes: a single process's CPU time on a
# shared 2-core machine varies by a tenth from run to run, and the least is the one the machine
# disturbed least (timeit's reasoning).
FLOOR_RUNS = 10


def startup() -> None:
    """Issue 27: a fresh process's floor under 0.35 s CPU (Python, the CLI, WeasyPrint imported,
    the stylesheet parsed and its fonts ready), beside `python -c pass` and the CLI alone.

    Measured first, before any batch: the issue's figures are a quiet machine's, and a batch's
    two workers leave the cores busy for a minute after them (the floor read 0.36 s after the
    batches in one `make bench`, and 0.33 s on the quiet machine)."""
    python = run_command([sys.executable, "-c", "pass"], FLOOR_RUNS)
    cli = run_command([sys.executable, "-c", CLI], FLOOR_RUNS)
    floor = run_command([sys.executable, "-c", FLOOR], FLOOR_RUNS)
    print(f"  a fresh process, before any batch, on {describe()} (CPU seconds are the aims):")
    print(f"    python -c pass: {python.show()}")
    print(f"    the CLI imported as the docgen script imports it: {cli.show()}")
    print(
        f"    the floor (the CLI and renderers imported, stylesheet and fonts ready): "
        f"{floor.show()} (aim < 0.35 s CPU: {'ok' if floor.cpu < 0.35 else 'OVER'}); "
        f"{instructions([sys.executable, '-c', FLOOR])}"
    )
    print(f"      its parts (CPU, least of {FLOOR_RUNS}): {floor_parts(FLOOR_RUNS)}")


def only_one(folder: Path, runs: int) -> None:
    """The least `docgen` that renders a packet: `batch --only` re-issuing one corrected director
    of the 24-director cycle ``folder`` (issued by :class:`Cycle`), in a fresh process."""
    facts, out = folder / "grant-bench.yaml", folder / "out"
    text = facts.read_text(encoding="utf-8")
    walls, cpus = [], []
    for round_number in range(max(runs, 3)):
        fixed, count = re.subn(r"units: 10[78]\d\b", f"units: {1080 + round_number}", text, count=1)
        assert count == 1, "the bench cycle no longer has d007's units"
        facts.write_text(fixed, encoding="utf-8")
        command = [*DOCGEN, "batch", str(facts), "--out", str(out), "--as-of", AS_OF.isoformat()]
        done = run_command([*command, "--only", "d007"], 1, (0,))
        walls.append(done.walls[0])
        cpus.append(done.cpus[0])
    only = Timing(walls, cpus)
    print(f"  batch --only d007, one corrected packet of 24 re-issued: {only.show()}")


ENROLLMENT_AS_OF = date(2025, 12, 1)  # the sample's day the Deferral Election Forms go out


def enrollment(folder: Path, participants: int, runs: int) -> None:
    """An RRP enrollment batch (one Deferral Election Form per participant, PDF and DOCX) with
    1 and 2 workers, against raw WeasyPrint making its PDFs from the same HTML (issue 27: within
    1.2x; two workers at least 1.9x one)."""
    folder.mkdir()
    facts = write_enrollment(folder, participants)
    rounds = [
        (
            timed_batches(facts, folder / "out1", 1, 1, ENROLLMENT_AS_OF),
            timed_batches(facts, folder / "out2", 2, 1, ENROLLMENT_AS_OF),
            raw_weasyprint(facts, folder / f"raw{number}", 1, "enrollment", ENROLLMENT_AS_OF),
        )
        for number in range(runs)
    ]
    one, two, raw = (Timing.merged(list(timings)) for timings in zip(*rounds, strict=True))
    print(f"  RRP enrollment batch of {participants:,} participants, on {describe()}:")
    print(f"    1 worker : {one.show()}")
    print(f"    2 workers: {two.show()}  speed-up {one.best / two.best:.2f}x (aim >= 1.9x)")
    print(f"    raw WeasyPrint, the same PDFs from the same HTML: {raw.show()}")
    print(
        f"    1-worker batch / raw: {one.best / raw.best:.2f}x wall, {one.cpu / raw.cpu:.2f}x CPU "
        f"(aim <= 1.2x: {'ok' if one.best / raw.best <= 1.2 else 'OVER'})"
    )


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packets", type=int, default=48)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument(
        "--enrollment",
        type=int,
        default=1000,
        help="an RRP enrollment batch of this many participants (issue 27); 0 leaves it out",
    )
    parser.add_argument(
        "--large-cycle",
        type=int,
        default=240,
        help="a one-director correction in a cycle this large, against the 24-director one "
        "(issue 27: at most 1.15x); 0 leaves it out",
    )
    args = parser.parse_args()
    packets, runs = args.packets, args.runs
    print(
        f"docgen batch benchmark: {packets} director packets (Notice + Exhibit I, PDF + DOCX), "
        f"on {describe()}"
    )
    startup()
    with tempfile.TemporaryDirectory(prefix="docgen-bench-") as scratch:
        folder = Path(scratch)
        facts = write_cycle(folder, packets)
        # Rounds interleaved, so each of the three sees the machine as busy as the others.
        rounds = [
            (
                timed_batches(facts, folder / "out1", 1, 1),
                timed_batches(facts, folder / "out2", 2, 1),
                raw_weasyprint(facts, folder / f"raw{round_number}", 1),
            )
            for round_number in range(runs)
        ]
        one, two, raw = (Timing.merged(list(timings)) for timings in zip(*rounds, strict=True))
        print(f"  1 worker : {one.show()}  {packets / one.best:.2f} packets/s")
        print(f"  2 workers: {two.show()}  {packets / two.best:.2f} packets/s")
        speedup = one.best / two.best
        print(f"    speed-up {speedup:.2f}x (aim >= 1.85x: {'ok' if speedup >= 1.85 else 'UNDER'})")
        print(f"  raw WeasyPrint, the same PDFs from the same HTML: {raw.show()}")
        ratio, cpu_ratio = one.best / raw.best, one.cpu / raw.cpu
        print(
            f"    1-worker batch / raw: {ratio:.2f}x wall, {cpu_ratio:.2f}x CPU "
            f"(aim <= 1.15x: {'ok' if ratio <= 1.15 else 'OVER'})"
        )
        rerun = run_command(
            [
                *DOCGEN,
                "batch",
                str(facts),
                "--out",
                str(folder / "out2"),
                "--as-of",
                AS_OF.isoformat(),
            ],
            runs,
            (0,),
        )
        print(
            f"  unchanged rerun (CLI, new process): {rerun.show()} = "
            f"{rerun.best / two.best:.1%} of the 2-worker first run (aim < 10%)"
        )
        cycles = [Cycle(folder / "correction", 24)]
        if args.large_cycle:
            cycles.append(Cycle(folder / "correction-large", args.large_cycle))
        timings = corrections(cycles, max(runs, 3))
        again, first = timings[0], cycles[0].first
        # The earlier aim (under 15% of the first issue) is replaced by issue 27's: a correction
        # that costs no more in a 240-director cycle, and a fresh process's floor (below).
        print(
            f"  24-director cycle, one director corrected: first issue {first.best:.2f} s, "
            f"re-issue {again.show()} = {again.best / first.best:.1%} of it"
        )
        if args.large_cycle:
            large = timings[1]
            ratio = large.cpu / again.cpu
            print(
                f"  one director corrected in a {args.large_cycle}-director cycle, the two "
                f"cycles' corrections alternated: re-issue {large.show()}; against the "
                f"24-director cycle's {ratio:.2f}x CPU, {large.best / again.best:.2f}x wall "
                f"(aim <= 1.15x CPU: {'ok' if ratio <= 1.15 else 'OVER'})   [{describe()}]"
            )
        only_one(folder / "correction", runs)
        reissue_seconds(folder, packets, two.best)
        if args.enrollment:
            enrollment(folder / "enrollment", args.enrollment, runs)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"  peak memory of one process (children's ru_maxrss): {peak:.0f} MiB")


if __name__ == "__main__":
    main()
