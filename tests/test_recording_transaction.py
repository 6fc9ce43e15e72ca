"""One lock and one transaction for every file a filing writes (issue 25): the facts file and its
roster CSV are locked together, before either is read, so two runs recording into one facts file
never lose a filing and never read a file half-way through another's change; a run killed before
its rename leaves temporaries a later run removes; a value holding a template tag or a blank
marker is refused at recording. Through the CLI: exit code, message, nothing changed."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from docgen.core.output import recording_lock
from docgen.load import load_facts

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
DOCGEN = Path(sys.executable).parent / "docgen"
YAML_DIRECTOR = """\
directors:
  - id: tnguyen
    name: Thanh Nguyen
    salutation: Mr. Nguyen
    address: ["901 E. Byrd Street", "Suite 1100", "Richmond, VA 23219"]
    units: 2450
    elections: []
"""
LOCKED = "another docgen run is recording into this file; nothing was written"


def _facts(tmp_path: Path) -> Path:
    """A grant whose directors are kept partly in the file (tnguyen), partly in a roster."""
    roster = (SAMPLES / "roster.csv").read_text(encoding="utf-8")
    roster += "".join(
        f"r{n},Roster Person {n},Mx. Person,{n} Main Street | Richmond VA 23220,false,false,,"
        "1000,,,,,\n"
        for n in range(1, 6)
    )
    (tmp_path / "roster.csv").write_text(roster, encoding="utf-8")
    more = "".join(
        YAML_DIRECTOR.split("\n", 1)[1].replace("tnguyen", f"y{n}").replace("Thanh", f"T{n}")
        for n in range(1, 6)
    )
    text = (SAMPLES / "director-grant-2026-roster.yaml").read_text(encoding="utf-8")
    text = text.replace("directors: []", YAML_DIRECTOR + more.rstrip("\n"))
    facts = tmp_path / "grant.yaml"
    facts.write_text(text, encoding="utf-8")
    return facts


def _elect(director: str, *, pay_on: str = "separation") -> list[str]:
    return [
        "elect",
        "grant.yaml",
        "--for",
        director,
        "--pay-on",
        pay_on,
        "--received-on",
        "2026-06-22",
        "--as-of",
        "2026-06-22",
    ]


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(DOCGEN), *args], cwd=cwd, capture_output=True, text=True, timeout=120, check=False
    )


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def test_a_roster_filing_waits_for_the_lock_on_the_facts_file(cli, tmp_path):
    """A run recording a roster director takes the same lock as one recording into the YAML:
    the lock on the whole set, not on the first file each run writes."""
    facts = _facts(tmp_path)
    before = _files(tmp_path)
    with recording_lock(facts):  # another run, mid-way through its filing
        for director in ("bcole", "tnguyen"):  # in the roster; in the file
            result = cli(*_elect(director)[:1], facts, *_elect(director)[2:])
            assert result.exit_code == 2, result.output
            assert f"{facts}: {LOCKED}" in " ".join(result.stderr.split())
            assert "Traceback" not in result.output
    assert _files(tmp_path) == before
    assert cli(*_elect("bcole")[:1], facts, *_elect("bcole")[2:]).exit_code == 0


@pytest.mark.slow
def test_concurrent_filings_into_one_facts_file_are_each_recorded_or_refused_whole(tmp_path):
    """Runs at the same moment, into the YAML and into the roster: each either records or is
    refused with the lock message (never exit 3), and every recorded filing is in the facts."""
    facts = _facts(tmp_path)
    directors = [name for n in range(1, 6) for name in (f"y{n}", f"r{n}")]
    pending = list(range(len(directors)))
    recorded: dict[str, int] = {}
    for _ in range(40):
        with ThreadPoolExecutor(4) as pool:
            results = list(pool.map(lambda n: _run(_elect(directors[n]), tmp_path), pending))
        still = []
        for number, result in zip(pending, results, strict=True):
            assert result.returncode in (0, 2), result.stderr
            if result.returncode == 2:
                assert LOCKED in " ".join(result.stderr.split()), result.stderr
                still.append(number)
            else:
                recorded[directors[number]] = recorded.get(directors[number], 0) + 1
        pending = still
        if not pending:
            break
    assert not pending
    loaded = load_facts(facts).facts
    on_file = {
        d.id: len([e for e in d.elections if e.filed_on.isoformat() == "2026-06-22"])
        for d in loaded.directors
    }
    assert {d: on_file[d] for d in recorded} == recorded
    assert sorted(p.name for p in tmp_path.iterdir()) == ["grant.yaml", "roster.csv"]


KILL_BEFORE_RENAME = textwrap.dedent(
    """
    import os, signal, sys
    import docgen.core.output as output
    output.os.replace = lambda *a: os.kill(os.getpid(), signal.SIGKILL)
    from docgen.cli import app
    sys.argv = ["docgen", *sys.argv[1:]]
    app()
    """
)


@pytest.mark.parametrize("director", ["tnguyen", "bcole"])
def test_a_run_killed_before_its_rename_leaves_nothing_a_later_run_keeps(tmp_path, director):
    facts = _facts(tmp_path)
    before = _files(tmp_path)
    killed = subprocess.run(
        [sys.executable, "-c", KILL_BEFORE_RENAME, *_elect(director)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert killed.returncode == -signal.SIGKILL
    left = sorted(set(os.listdir(tmp_path)) - set(before))
    assert len(left) == 1 and ".docgen-" in left[0] and left[0].endswith(".tmp"), left
    assert oct(os.stat(tmp_path / left[0]).st_mode & 0o777) in ("0o600", "0o644", "0o640")
    # A legacy temporary of an earlier docgen (tempfile's name) goes too.
    (tmp_path / ".grant.yaml.ab12cd_9.tmp").write_bytes(b"directors: ...")
    assert _files(tmp_path) | {} != before
    later = _run(_elect("tnguyen"), tmp_path)
    assert later.returncode == 0, later.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["grant.yaml", "roster.csv"]
    assert facts.read_bytes() != before["grant.yaml"]


@pytest.mark.parametrize(
    "beneficiary, says",
    [
        ("{{ name }} [NAME;child;100", "holds template tag"),
        ("[NAME];child;100", "holds [NAME"),
        ("Sky [____];child;100", "holds [____"),
        ("{% raw %}x;child;100", "holds template tag"),
    ],
)
def test_a_template_tag_or_blank_marker_is_refused_at_recording(cli, tmp_path, beneficiary, says):
    facts = tmp_path / "rrp.yaml"
    shutil.copy(SAMPLES / "rrp-2026.yaml", facts)
    before = facts.read_bytes()
    result = cli(
        "elect",
        facts,
        "--for",
        "e1017",
        "--salary-percent",
        "3",
        "--allocation",
        "Stable Value Fund=100",
        "--beneficiary",
        beneficiary,
        "--received-on",
        "2025-12-05",
        "--as-of",
        "2025-12-05",
    )
    assert result.exit_code == 2, result.output
    message = " ".join(result.stderr.split())
    assert "beneficiaries.name" in message or "beneficiaries" in message, message
    assert says in message and "template tag ({{ }}, {% %}) or a blank marker" in message, message
    assert facts.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rrp.yaml"]
