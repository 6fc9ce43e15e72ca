"""Benchmark of `batch --sign`: what certifying every PDF adds to a packet (issue 26; aim: under
10%), in milliseconds and per cent of an unsigned packet, without a timestamp server and with
one on 127.0.0.1, against the same batch unsigned.

Run by `make bench`, or directly: `.venv/bin/python bench/bench_sign.py [--packets 12]`. The
key, its CA and the timestamp server are made here (tests/signing_pki.py), never the network.
Each batch runs with one worker, the three ways of issuing in turn, best of several runs, CPU
time beside the wall time (the machine may be shared; the verdict is on the CPU time the
worker spends signing, timed where it signs); the signature alone is also timed in-process on
the packet's own PDFs, and what a signing batch
spends once (importing pyHanko, opening the key, preparing the signer) apart from what each
packet adds. The timestamp server (pyHanko's test TSA) runs in a process of its own, so that its
signing is not counted in the batch's CPU time, as a real server's is not; its answer's round
trip is in the wall time (on 127.0.0.1, under load, tens of milliseconds).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from machine import ROOT, Timing, describe, run_command

sys.path.insert(0, str(ROOT))

from bench_batch import _cpu, write_cycle  # noqa: E402

from tests.signing_pki import PASSPHRASE, make_pki  # noqa: E402

AS_OF = date(2026, 6, 23)
# What `docgen batch --sign` costs once, whatever the number of packets: importing pyHanko (its
# timestamp module imports aiohttp, though docgen's client is the standard library's).
IMPORT = "import pyhanko.pdf_utils.incremental_writer, pyhanko.sign.signers"


def one_batch(facts: Path, out: Path, signing) -> tuple[float, float]:
    """The wall and CPU seconds of one batch (one worker), ``signing`` or unsigned."""
    from docgen.issue.batch import issue_batch

    shutil.rmtree(out, ignore_errors=True)
    cpu, start = _cpu(), time.perf_counter()
    result = issue_batch(facts, out, as_of=AS_OF, workers=1, signing=signing)
    wall = time.perf_counter() - start
    assert not result.current and result.packets > 0
    return wall, _cpu() - cpu


class InWorker:
    """Signing's CPU time where a batch spends it, in its worker: Signing.sign_pdf timed (the
    workers fork with the wrapper), each call's seconds appended to ``log``."""

    def __init__(self, log: Path) -> None:
        from docgen.issue.signing import Signing

        self.log = log
        original = Signing.sign_pdf

        def timed(signing, data: bytes, *, fillable: bool) -> bytes:
            cpu = time.process_time()
            try:
                return original(signing, data, fillable=fillable)
            finally:
                with log.open("a", encoding="utf-8") as handle:
                    handle.write(f"{time.process_time() - cpu}\n")

        Signing.sign_pdf = timed

    def take(self) -> float:
        """The seconds logged since the last take."""
        if not self.log.exists():
            return 0.0
        total = sum(float(line) for line in self.log.read_text(encoding="utf-8").split())
        self.log.unlink()
        return total


def interleaved(
    facts: Path, out: Path, runs: int, keys: dict, clock: InWorker
) -> tuple[dict[str, Timing], dict[str, float]]:
    """Each way of issuing run ``runs`` times, in turn (plain, signed, timestamped, plain, ...),
    so that a change in the machine's load falls on all of them alike; and the least CPU time
    each spent signing in its worker."""
    times: dict[str, tuple[list[float], list[float]]] = {label: ([], []) for label in keys}
    signing_cpu: dict[str, float] = {}
    for _ in range(runs):
        for label, signing in keys.items():
            clock.take()
            wall, cpu = one_batch(facts, out, signing)
            times[label][0].append(wall)
            times[label][1].append(cpu)
            signed = clock.take()
            signing_cpu[label] = min(signing_cpu.get(label, signed), signed)
    return {label: Timing(walls, cpus) for label, (walls, cpus) in times.items()}, signing_cpu


def one_signature(signing, pdf: bytes, runs: int = 20) -> tuple[float, float]:
    """The best wall and CPU seconds of certifying ``pdf`` once, in this process (as the
    batch does: this cycle's PDFs are all certified with no changes allowed)."""
    walls, cpus = [], []
    for _ in range(runs):
        start, cpu = time.perf_counter(), time.process_time()
        signing.sign_pdf(pdf, fillable=False)
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus)


def once_per_batch(config: Path, runs: int) -> tuple[float, float]:
    """The CPU seconds a signing batch spends once: importing pyHanko (in a new process, less
    an empty one's start), and opening the key and preparing the signer (the key file, the
    chain's validation, the container template of docgen.issue.cms_template)."""
    from docgen.issue.signing import SigningConfig, load

    started = run_command([sys.executable, "-c", "pass"], runs).cpu
    imported = run_command([sys.executable, "-c", IMPORT], runs).cpu - started
    prepare = []
    for _ in range(runs):
        cpu = time.process_time()
        load(SigningConfig.read(config), PASSPHRASE.encode()).prepare()
        prepare.append(time.process_time() - cpu)
    return imported, min(prepare)


def main() -> None:
    from docgen.issue.signing import SigningConfig, load

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packets", type=int, default=12)
    parser.add_argument("--runs", type=int, default=4)
    args = parser.parse_args()
    print(f"bench_sign: {args.packets} packets (2 PDFs each), 1 worker; {describe()}")
    with tempfile.TemporaryDirectory(prefix="docgen-bench-sign-") as scratch:
        scratch = Path(scratch)
        pki, server = make_pki(scratch / "pki", tsa_process=True)
        try:
            keys = {
                "unsigned": None,
                "signed, no timestamp": load(
                    SigningConfig.read(pki.config_no_tsa), PASSPHRASE.encode()
                ),
                "signed, timestamped": load(SigningConfig.read(pki.config), PASSPHRASE.encode()),
            }
            facts = write_cycle(scratch, args.packets)
            clock = InWorker(scratch / "signing-cpu.log")
            one_batch(facts, scratch / "out", None)  # warm-up: imports, compiled templates
            timings, in_worker = interleaved(facts, scratch / "out", args.runs, keys, clock)
            plain = timings.pop("unsigned")
            packet_cpu = plain.cpu / args.packets
            print(f"  unsigned:             {plain.show()} ({packet_cpu * 1000:.0f} ms a packet)")
            one_batch(facts, scratch / "out", None)
            packet = sorted(next((scratch / "out").rglob("notice.pdf")).parent.glob("*.pdf"))
            # The verdict: the CPU time the batch's worker spent signing, a packet's share (the
            # first signature of a batch, which sizes the signature's room, included).
            for label, signing in keys.items():
                if signing is None:
                    continue
                cpu = in_worker[label] / args.packets
                verdict = "ok" if cpu < 0.10 * packet_cpu else "OVER"
                print(
                    f"  {label}: signing adds {cpu * 1000:.1f} ms CPU a packet in the batch's "
                    f"worker = {cpu / packet_cpu:+.1%} of an unsigned packet (aim < 10%: {verdict})"
                )
                best = [one_signature(signing, pdf.read_bytes()) for pdf in packet]
                cpu, wall = sum(c for _, c in best), sum(w for w, _ in best)
                print(
                    f"    the packet's {len(packet)} PDFs signed here, best of 20: "
                    f"{cpu * 1000:.1f} ms CPU ({cpu / packet_cpu:+.1%}), {wall * 1000:.1f} ms wall"
                )
            # The same from whole batches: honest but noisy, since on a shared machine the same
            # batch's CPU time varies from run to run (the spread printed) by about as much.
            spread = (max(plain.cpus) - plain.cpu) / plain.cpu
            print(f"  whole batches (the unsigned batch's CPU varies by {spread:.1%} run to run):")
            for label, timing in timings.items():
                added_wall = (timing.best - plain.best) / args.packets
                added_cpu = (timing.cpu - plain.cpu) / args.packets
                print(
                    f"    {label + ':':21} {timing.show()}: {added_cpu * 1000:+.0f} ms CPU a "
                    f"packet ({added_cpu / packet_cpu:+.1%}), {added_wall * 1000:+.0f} ms wall"
                )
            imported, prepared = once_per_batch(pki.config_no_tsa, args.runs)
            once = imported + prepared
            print(
                f"  once a batch: importing pyHanko {imported * 1000:.0f} ms CPU, opening the key "
                f"and preparing the signer {prepared * 1000:.0f} ms ({once / plain.cpu:.1%} of "
                f"this {args.packets}-packet batch)"
            )
        finally:
            server.shutdown()


if __name__ == "__main__":
    main()
