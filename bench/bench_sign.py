"""Benchmark of `batch --sign`: what certifying every PDF adds to a packet (issue 26; aim: under
10%), without a timestamp server and with one on 127.0.0.1 (a network server adds its own
round trip), against the same batch unsigned.

Run by `make bench`, or directly: `.venv/bin/python bench/bench_sign.py [--packets 12]`. The
key, its CA and the timestamp server are made here (tests/signing_pki.py), never the network.
Each batch runs with one worker, best of several runs, CPU time beside the wall time (the
machine may be shared; the verdict is on CPU time); the signature alone is also timed
in-process on one Notice. The timestamp server here is pyHanko's test TSA in this very process,
so its own signing counts in the CPU figure: a real server costs a network round trip instead.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from machine import ROOT, Timing, describe

sys.path.insert(0, str(ROOT))

from bench_batch import _cpu, write_cycle  # noqa: E402

from tests.signing_pki import PASSPHRASE, make_pki  # noqa: E402

AS_OF = date(2026, 6, 23)


def batches(facts: Path, out: Path, runs: int, signing) -> Timing:
    from docgen.issue.batch import issue_batch

    walls, cpus = [], []
    for _ in range(runs):
        shutil.rmtree(out, ignore_errors=True)
        cpu, start = _cpu(), time.perf_counter()
        result = issue_batch(facts, out, as_of=AS_OF, workers=1, signing=signing)
        walls.append(time.perf_counter() - start)
        cpus.append(_cpu() - cpu)
        assert not result.current and result.packets > 0
    return Timing(walls, cpus)


def one_signature(signing, notice: bytes, runs: int = 20) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        signing.sign_pdf(notice, fillable=False)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    from docgen.issue.signing import SigningConfig, load

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packets", type=int, default=12)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"bench_sign: {args.packets} packets (2 PDFs each), 1 worker; {describe()}")
    with tempfile.TemporaryDirectory(prefix="docgen-bench-sign-") as scratch:
        scratch = Path(scratch)
        pki, server = make_pki(scratch / "pki")
        try:
            keys = {
                "signed, no timestamp": load(
                    SigningConfig.read(pki.config_no_tsa), PASSPHRASE.encode()
                ),
                "signed, timestamped (127.0.0.1)": load(
                    SigningConfig.read(pki.config), PASSPHRASE.encode()
                ),
            }
            facts = write_cycle(scratch, args.packets)
            plain = batches(facts, scratch / "out-plain", args.runs, None)
            print(f"  unsigned:                        {plain.show()}")
            per_packet = plain.best / args.packets
            for label, signing in keys.items():
                timing = batches(facts, scratch / "out-signed", args.runs, signing)
                added = (timing.best - plain.best) / plain.best
                added_cpu = (timing.cpu - plain.cpu) / plain.cpu
                # CPU is the verdict: wall time on a shared machine swings by more than 10%.
                verdict = "ok" if added_cpu < 0.10 else "OVER"
                print(
                    f"  {label + ':':32} {timing.show()}   adds {added:+.1%} wall, "
                    f"{added_cpu:+.1%} CPU   (aim < 10% CPU: {verdict})"
                )
            notice = (scratch / "out-plain").rglob("notice.pdf").__next__().read_bytes()
            for label, signing in keys.items():
                seconds = one_signature(signing, notice)
                share = 2 * seconds / per_packet
                print(
                    f"  one signature, {label}: {seconds * 1000:.0f} ms; two per packet = "
                    f"{share:.1%} of an unsigned packet ({per_packet:.2f} s)"
                )
        finally:
            server.shutdown()


if __name__ == "__main__":
    main()
