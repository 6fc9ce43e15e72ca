"""Benchmark of rendering one director's packet (Notice + Exhibit I, each as PDF and DOCX).

Run by `make bench`, or directly: `.venv/bin/python bench/bench_render.py [--rounds 20]`.
Aim (issue 4): one packet well under a second once the process is warm. Prints the first
(cold) packet, then the median and worst warm packet, and each step's median.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
AIM_SECONDS = 1.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()

    from docgen.load import load_facts
    from docgen.render import html as render
    from docgen.render.docx import html_to_docx
    from docgen.render.pdf import html_to_pdf

    loaded = load_facts(ROOT / "samples" / "director-grant-2026.yaml")
    subjects = [d.id for d in loaded.facts.directors if not d.employee]
    steps: dict[str, list[float]] = {"html": [], "pdf": [], "docx": []}
    packets: list[float] = []
    for round_number in range(args.rounds + 1):
        subject = subjects[round_number % len(subjects)]
        started = time.perf_counter()
        for doc in ("notice", "exhibit-i"):
            t0 = time.perf_counter()
            html = render.render_html(loaded, doc, subject, "grant")
            meta = render.document_meta(loaded, doc, subject, "grant")
            t1 = time.perf_counter()
            html_to_pdf(html, meta)
            t2 = time.perf_counter()
            html_to_docx(html, meta)
            t3 = time.perf_counter()
            if round_number:
                steps["html"].append(t1 - t0)
                steps["pdf"].append(t2 - t1)
                steps["docx"].append(t3 - t2)
        packets.append(time.perf_counter() - started)

    cold, warm = packets[0], packets[1:]
    median = statistics.median(warm)
    print(f"render: first packet {cold:.3f} s (cold: fonts, templates, styles)")
    print(f"render: warm packet median {median:.3f} s, worst {max(warm):.3f} s over {len(warm)}")
    for step, times in steps.items():
        print(f"render:   {step:<4} per document, median {statistics.median(times) * 1000:.0f} ms")
    if median >= AIM_SECONDS:
        print(f"render: FAIL, a packet takes {median:.3f} s (aim < {AIM_SECONDS} s)")
        return 1
    print(f"render: ok, a packet takes {median:.3f} s (aim < {AIM_SECONDS} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
