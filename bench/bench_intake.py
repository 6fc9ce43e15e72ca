"""Benchmark of recording returned forms: `docgen elect` (and so `docgen intake` after its PDF is
read) into a realistic 10,000-participant RRP roster (bench/realistic.py), JSON and YAML; 100
forms recorded in one call; reading one filled form back.

Run by `make bench`, or directly: `.venv/bin/python bench/bench_intake.py [--participants 10000]`.
Recording loads the facts, splices the filings into the file's text, proves the edit on the
subjects edited (docgen/intake/proof.py: the text outside them unchanged, each read alone equal
to the intended subject), writes, and runs the record's rules over the people recorded
(docgen/checker/part.py). Aims (issue
27): one form into 10,000 participants under 1.5 s (JSON and YAML); 100 forms in one call under
3 s. Figures are CPU time (user+sys) of this process, best of N, with the load average beside
them (a shared machine's wall time says more about its neighbours than about docgen).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from datetime import date
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from machine import describe, run_here  # noqa: E402
from realistic import rrp_facts, write_json, write_yaml  # noqa: E402

DAY = date(2025, 12, 31)  # within the prior-year route for the 2026 Plan Year (Plan 2.03(b))


def eligible_ids(facts: dict, count: int) -> list[str]:
    return [p["id"] for p in facts["participants"] if p["eligible_employee"]][-count:]


def record_one(original: Path, work: Path, subject: str) -> None:
    from docgen.intake.forms import elect

    shutil.copyfile(original, work)  # each run records into the same file as the first
    elect(work, subject, {"salary-percent": "7"}, received_on=DAY, as_of=DAY)


def record_many(original: Path, work: Path, subjects: list[str]) -> None:
    """As `docgen intake` records a stack of forms: every filing validated, then one edit."""
    from docgen.core.heap import collector_asleep_and_heap_settled
    from docgen.intake import forms
    from docgen.kinds import kind_of
    from docgen.load import load_facts

    shutil.copyfile(original, work)
    with collector_asleep_and_heap_settled():  # as forms.intake runs
        loaded = load_facts(work)
        hooks = forms._hooks(loaded)
        kind = kind_of(loaded.facts)
        filings = []
        for subject_id in subjects:
            subject = kind.subject(loaded.facts, subject_id)
            answers = hooks.answers_from_options(loaded.facts, subject, {"salary-percent": "7"})
            filing = hooks.record(loaded.facts, subject, answers, DAY, None, "options")
            filings.append((f"docgen elect --for {subject_id}", filing))
        forms._record(loaded, hooks, filings, DAY)


def read_back_seconds(runs: int) -> str:
    from docgen.load import load_facts
    from docgen.render.form_reader import read_form
    from docgen.render.html import render_document

    root = Path(__file__).resolve().parent.parent
    loaded = load_facts(root / "samples" / "director-grant-2026.yaml")
    pdf = render_document(loaded, "exhibit-i", "tnguyen", "elections", "pdf")
    timing = run_here(lambda: read_form(pdf), runs)
    return f"best {timing.best * 1000:.0f} ms, CPU {timing.cpu * 1000:.0f} ms of {runs}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--participants", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    count = options.participants
    facts = rrp_facts(count)
    subjects = eligible_ids(facts, 100)
    print(f"recording returned forms into {count:,} realistic participants, on {describe()}:")
    with tempfile.TemporaryDirectory(prefix="docgen-bench-intake-") as name:
        folder = Path(name)
        for writer, suffix in ((write_json, ".json"), (write_yaml, ".yaml")):
            original = writer(facts, folder / f"original{suffix}")
            work = folder / f"work{suffix}"
            one = run_here(partial(record_one, original, work, subjects[-1]), options.runs)
            print(
                f"  one form (docgen elect), {suffix[1:].upper()}: {one.show(1.5)}   [{describe()}]"
            )
            many = run_here(partial(record_many, original, work, subjects), options.runs)
            print(
                f"  100 forms in one call, {suffix[1:].upper()}: {many.show(3.0)}   [{describe()}]"
            )
    print(f"  reading one filled Exhibit I back (read_form): {read_back_seconds(5)}")


if __name__ == "__main__":
    main()
