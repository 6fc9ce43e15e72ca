"""Benchmark of one packet through the batch's own code, phase by phase.

Run by `make bench`, or directly: `.venv/bin/python bench/bench_render.py [--packets 12]`.
Renders packets of a grant cycle (Notice + Exhibit I, each as PDF and DOCX) exactly as a batch
worker does (docgen.issue.pool), in this process, and times each phase by wrapping the functions
that do it: the HTML (templates, record), WeasyPrint's layout and its PDF writing, the form
repair of a fillable PDF, the DOCX, the read-back and DOC-* rules, hashing, writing the files,
and the one flush to disk of the staging folder. The first packet (cold: fonts, templates,
stylesheet) is reported apart. Aim (issue 4): a warm packet well under a second.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from machine import describe

AIM_SECONDS = 1.0


class PhaseClock:
    """CPU time spent inside wrapped functions, by phase; nested calls count once. (CPU time,
    not wall time: on a shared machine it varies far less.)"""

    def __init__(self) -> None:
        self.wall: dict[str, float] = {}
        self.depth = 0

    def wrap(self, owner: Any, name: str, phase: str) -> None:
        original = getattr(owner, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            if self.depth:
                return original(*args, **kwargs)
            self.depth += 1
            start = time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                self.wall[phase] = self.wall.get(phase, 0.0) + time.process_time() - start
                self.depth -= 1

        setattr(owner, name, timed)

    def take(self) -> dict[str, float]:
        taken, self.wall = self.wall, {}
        return taken


def instrument(clock: PhaseClock) -> None:
    """Wrap the functions of each phase where the batch calls them."""
    import weasyprint
    import weasyprint.document

    from docgen.issue import pool
    from docgen.render import copy as rendered_copy
    from docgen.render import docx

    clock.wrap(pool, "resolve", "html + record")
    clock.wrap(
        rendered_copy, "render_template", "html + record"
    )  # a copy's HTML, made on first use
    clock.wrap(pool, "files_to_embed", "html + record")
    clock.wrap(weasyprint.HTML, "__init__", "HTML parse (WeasyPrint)")
    clock.wrap(weasyprint.HTML, "render", "layout (WeasyPrint)")
    clock.wrap(weasyprint.document.Document, "write_pdf", "PDF write (WeasyPrint)")
    # A form's repair runs in WeasyPrint's finisher, inside write_pdf: its time is in "PDF write".
    clock.wrap(docx, "html_to_docx", "DOCX")  # a copy imports it when it makes its DOCX
    clock.wrap(pool, "check_rendered", "read-back + DOC rules")
    write_file = pool.write_file

    def timed_write(path: Path, data: bytes, **options: Any) -> Any:
        # write_file hashes what it writes: the same hash timed alone is its share
        start = time.process_time()
        hashlib.sha256(data).hexdigest()
        hashed = time.process_time()
        entry = write_file(path, data, **options)
        done = time.process_time()
        clock.wall["hashing"] = clock.wall.get("hashing", 0.0) + hashed - start
        clock.wall["file write"] = (
            clock.wall.get("file write", 0.0) + (done - hashed) - (hashed - start)
        )
        return entry

    pool.write_file = timed_write


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packets", type=int, default=12)
    args = parser.parse_args()

    from bench_batch import AS_OF, write_cycle

    from docgen.issue import pool
    from docgen.issue.files import sync_tree
    from docgen.load import load_facts

    clock = PhaseClock()
    instrument(clock)
    print(f"one packet, phase by phase, on {describe()}")
    with tempfile.TemporaryDirectory(prefix="docgen-bench-render-") as scratch:
        folder = Path(scratch)
        loaded = load_facts(write_cycle(folder, args.packets + 1))
        staging = folder / "staging"
        staging.mkdir()
        pool.become_worker(loaded, "grant", str(staging), AS_OF, None)
        packets = pool.packets_of(loaded, "grant")
        walls: list[float] = []
        phases: list[dict[str, float]] = []
        for subject, documents in packets:
            start = time.process_time()
            pool._render_packet(subject, documents)
            walls.append(time.process_time() - start)
            phases.append(clock.take())
        start = time.perf_counter()  # waiting for the disk: wall time
        sync_tree(staging)
        flush = (time.perf_counter() - start) / len(packets)

    cold, warm = walls[0], walls[1:]
    median = statistics.median(warm)
    print(f"  first packet {cold:.3f} s CPU (cold: imports, fonts, templates, stylesheet)")
    print(f"  warm packet: median {median:.3f} s CPU, best {min(warm):.3f} s, over {len(warm)}")
    names = list(dict.fromkeys(name for taken in phases[1:] for name in taken))
    accounted = 0.0
    for name in names:
        share = statistics.median(taken.get(name, 0.0) for taken in phases[1:])
        accounted += share
        print(f"    {name:<24} {share * 1000:7.1f} ms  {share / median:6.1%}")
    print(f"    {'other (glue)':<24} {(median - accounted) * 1000:7.1f} ms")
    print(f"    {'fsync (one syncfs)':<24} {flush * 1000:7.1f} ms per packet, wall")
    verdict = "ok" if median < AIM_SECONDS else "OVER"
    print(f"  aim: a warm packet < {AIM_SECONDS} s: {verdict}")
    return 0 if median < AIM_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
