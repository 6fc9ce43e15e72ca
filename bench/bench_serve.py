"""Benchmark of `docgen serve`: each page of the workspace over a realistic HRIS export of
10,000 participants (bench/realistic.py's write_hris), as a browser asks for it.

Run by `make bench`, or directly: `.venv/bin/python bench/bench_serve.py [--participants 10000]`.
Aim (issue 41): every page under 300 ms once the facts are checked. The first page checks them
(its time is printed apart: it is `docgen check`'s); the check's result is then kept by the
facts' SHA-256 for the server's lifetime, so every later page is a view over it, and a page
after an edit checks again once (also printed). Each page's figure is the best and the median of
several requests, through the whole ASGI stack (Starlette's TestClient: no network between).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from machine import describe  # noqa: E402
from realistic import rrp_facts, write_hris  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from docgen.web.app import create_app  # noqa: E402
from docgen.web.security import LOCAL_HOSTS  # noqa: E402

AS_OF = "2025-12-31"  # the last day of the enrollment (Plan 2.03(b))
AIM = 0.300


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--participants", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="docgen-bench-serve-") as scratch:
        folder = Path(scratch)
        facts = write_hris(rrp_facts(args.participants), folder, "rrp")
        name = facts.name
        app = create_app(folder, folder / "out", "bench", LOCAL_HOSTS | {"testserver"}, 0)
        client = TestClient(app)
        client.get("/?token=bench")  # the cookie, as a browser gets it
        query = f"f={name}&as_of={AS_OF}"
        pages = {
            "cycle at a glance": f"/cycle?{query}",
            "findings": f"/findings?{query}",
            "findings, one person": f"/findings?{query}&person=e100042",
            "counsel's review": f"/review?{query}",
            "returned forms": f"/returned?{query}",
            "issue": f"/issue?{query}",
            "RRP": f"/rrp?{query}",
            "RRP, one participant": f"/rrp?{query}&person=e100042",
        }
        print(
            f"docgen serve, {args.participants:,} participants from an HRIS export (4 CSVs), "
            f"on {describe()}:"
        )
        started = time.perf_counter()
        for url in pages.values():  # every result made once: the check and its views
            assert client.get(url).status_code == 200, url
        print(f"  first visit of every page (checks once): {time.perf_counter() - started:.2f} s")
        slowest = 0.0
        for label, url in pages.items():
            times = []
            for _ in range(args.runs):
                start = time.perf_counter()
                response = client.get(url)
                times.append(time.perf_counter() - start)
                assert response.status_code == 200, url
            slowest = max(slowest, min(times))
            print(
                f"  {label:24} best {min(times) * 1000:6.0f} ms, median "
                f"{statistics.median(times) * 1000:6.0f} ms ({len(response.content):,} bytes)"
            )
        facts.write_text(facts.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
        start = time.perf_counter()
        assert client.get(pages["cycle at a glance"]).status_code == 200
        print(
            f"  the glance after an edit (checks again once): {time.perf_counter() - start:.2f} s"
        )
        verdict = "under" if slowest < AIM else "OVER"
        print(
            f"  slowest page (best of {args.runs}): {slowest * 1000:.0f} ms, "
            f"{verdict} the 300 ms aim"
        )


if __name__ == "__main__":
    main()
