"""The directors' roster and ``elections_csv`` are the record (A20, issue 24), through the CLI: a
second Exhibit I for a roster director lands in ``elections_csv`` (the first moved there beside
it, the form's SHA-256 kept); several forms per director, superseded and not in effect, load
from it; two intakes racing into the same facts, roster and elections CSV never lose a filing."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from hashlib import sha256
from pathlib import Path

import pytest

from docgen.load import load_facts
from docgen.render import html as render
from tests.fillers import pypdf_fill

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
DOCGEN = Path(sys.executable).parent / "docgen"
HEADER = "director_id,grant_id,filed_on,percent,pay_on,pay_date,form_sha256\n"
LOCKED = "another docgen run is recording into this file; nothing was written"


def _grant(tmp_path: Path, roster: str | None = None, elections: str = HEADER) -> Path:
    text = (SAMPLES / "director-grant-2026-roster.yaml").read_text(encoding="utf-8")
    text = text.replace(
        "directors_csv: roster.csv", "directors_csv: roster.csv\nelections_csv: elections.csv"
    )
    facts = tmp_path / "grant.yaml"
    facts.write_text(text, encoding="utf-8")
    (tmp_path / "roster.csv").write_text(
        roster or (SAMPLES / "roster.csv").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (tmp_path / "elections.csv").write_text(elections, encoding="utf-8")
    return facts


def _form(facts: Path, director: str, values: dict[str, str], loaded=None) -> Path:
    blank = render.render_document(
        loaded or load_facts(facts), "exhibit-i", director, "elections", "pdf"
    )
    path = facts.parent / f"{director}.pdf"
    path.write_bytes(pypdf_fill(blank, {"date_signed": "2026-06-19", **values}))
    return path


def test_a_second_exhibit_i_for_a_roster_director_lands_in_elections_csv(cli, tmp_path):
    facts = _grant(tmp_path)
    roster_before = (tmp_path / "roster.csv").read_text(encoding="utf-8")
    yaml_before = facts.read_bytes()
    form = _form(
        facts,
        "kpatel",
        {"pay_on": "date", "pay_date_date": "2031-06-30", "printed_name": "Kiran Patel"},
    )
    result = cli("intake", facts, form, "--received-on", "2026-06-22", "--as-of", "2026-06-22")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert facts.read_bytes() == yaml_before
    digest = sha256(form.read_bytes()).hexdigest()
    # The row's election moved beside the new form; the columns the file lacked are added.
    assert (tmp_path / "elections.csv").read_text(encoding="utf-8") == (
        "director_id,grant_id,filed_on,percent,pay_on,pay_date,form_sha256,received_as,"
        "printed_name,signed_on\n"
        "kpatel,2026-annual,2026-05-11,100,separation,,,,,\n"
        f"kpatel,2026-annual,2026-06-22,100,date,2031-06-30,{digest},pdf,Kiran Patel,2026-06-19\n"
    )
    roster_after = (tmp_path / "roster.csv").read_text(encoding="utf-8")
    changed = [
        (a, b)
        for a, b in zip(roster_before.splitlines(), roster_after.splitlines(), strict=True)
        if a != b
    ]
    assert changed == [
        (
            "kpatel,Kiran Patel,Mr. Patel,12 Grove Avenue | Richmond VA 23220,false,false,,2450,"
            "2026-annual,2026-05-11,100,separation,",
            "kpatel,Kiran Patel,Mr. Patel,12 Grove Avenue | Richmond VA 23220,false,false,,2450,"
            ",,,,",
        )
    ]
    elections = load_facts(facts).facts.director("kpatel").elections
    assert [(e.filed_on.isoformat(), e.pay_on, e.form_sha256) for e in elections] == [
        ("2026-05-11", "separation", None),
        ("2026-06-22", "date", digest),
    ]
    # The director's first form for the grant in the CSV: a row, nothing moved.
    bcole = _form(facts, "bcole", {"pay_on": "separation", "printed_name": "Benjamin Cole"})
    again = cli("intake", facts, bcole, "--received-on", "2026-06-22", "--as-of", "2026-06-22")
    assert again.exit_code == 0, again.stdout + again.stderr
    assert (tmp_path / "roster.csv").read_text(encoding="utf-8") == roster_after
    assert (
        (tmp_path / "elections.csv")
        .read_text(encoding="utf-8")
        .splitlines()[-1]
        .startswith("bcole,2026-annual,2026-06-22,100,separation,,")
    )


def test_elections_csv_holds_several_forms_per_director_not_in_effect_ones_too(cli, tmp_path):
    roster = (SAMPLES / "roster.csv").read_text(encoding="utf-8")
    roster = roster.replace("2026-annual,2026-05-11,100,separation,", ",,,,")
    facts = _grant(
        tmp_path,
        roster,
        "director_id,grant_id,filed_on,percent,pay_on,pay_date,status,reason,decided_by\n"
        "kpatel,2026-annual,2026-05-11,100,separation,,ineffective,unsigned,A. Counsel\n"
        "kpatel,2026-annual,2026-06-01,100,date,2030-07-01,,,\n"
        "bcole,2026-annual,2026-06-12,100,separation,,,,\n"
        "bcole,2026-annual,2026-06-15,100,date,2031-06-30,,,\n",
    )
    kpatel = load_facts(facts).facts.director("kpatel")
    assert [(e.status, e.reason, e.decided_by) for e in kpatel.elections] == [
        ("ineffective", "unsigned", "A. Counsel"),
        (None, None, None),
    ]
    status = cli("status", facts, "--as-of", "2026-06-22", "--format", "json")
    assert status.exit_code == 0, status.stdout + status.stderr
    subjects = {row["subject"]: row for row in json.loads(status.stdout)["subjects"]}
    assert (subjects["kpatel"]["returned"], subjects["kpatel"]["election"]) == (2, "(b) 2030-07-01")
    assert "recorded as not in effect by A. Counsel: unsigned" in subjects["kpatel"]["why_not"]
    assert (subjects["bcole"]["returned"], subjects["bcole"]["election"]) == (2, "(b) 2031-06-30")
    check = cli("check", facts, "--as-of", "2026-06-22", "--stage", "elections")
    assert check.exit_code in (0, 1), check.stdout


def _racing_facts(tmp_path: Path) -> tuple[Path, list[Path]]:
    roster = (SAMPLES / "roster.csv").read_text(encoding="utf-8") + "".join(
        f"r{n},Roster Person {n},Mx. Person,{n} Main Street | Richmond VA 23220,false,false,,"
        "1000,,,,,\n"
        for n in range(1, 7)
    )
    facts = _grant(tmp_path, roster)
    loaded = load_facts(facts)
    forms = []
    for n in range(1, 7):
        form = _form(
            facts,
            f"r{n}",
            {"pay_on": "separation", "printed_name": f"Roster Person {n}"},
            loaded,
        )
        moved = tmp_path / "forms" / form.name
        moved.parent.mkdir(exist_ok=True)
        form.rename(moved)
        forms.append(moved)
    return facts, forms


def _intake(form: Path, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(DOCGEN), "intake", "grant.yaml", str(form), "--received-on", "2026-06-22"]
        + ["--as-of", "2026-06-22"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.slow
def test_two_intakes_racing_into_one_set_of_files_never_lose_a_filing(tmp_path):
    """Two processes at a time take forms into the same facts file, roster and elections CSV:
    each records its form (exit 0) or is refused whole with the lock message (exit 2), is run
    again until it records, and in the end every form is in elections_csv once."""
    facts, forms = _racing_facts(tmp_path)
    pending = list(forms)
    rounds = 0
    while pending and rounds < 30:
        rounds += 1
        pairs = [pending[i : i + 2] for i in range(0, len(pending), 2)]
        still = []
        for pair in pairs:
            with ThreadPoolExecutor(2) as pool:
                results = list(pool.map(lambda form: _intake(form, tmp_path), pair))
            for form, result in zip(pair, results, strict=True):
                assert result.returncode in (0, 2), result.stderr
                if result.returncode == 2:
                    assert LOCKED in " ".join(result.stderr.split()), result.stderr
                    still.append(form)
        pending = still
    assert not pending
    rows = (tmp_path / "elections.csv").read_text(encoding="utf-8").splitlines()[1:]
    assert sorted(row.split(",")[0] for row in rows) == [f"r{n}" for n in range(1, 7)]
    loaded = load_facts(facts).facts
    assert all(len(loaded.director(f"r{n}").elections) == 1 for n in range(1, 7))
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "elections.csv",
        "forms",
        "grant.yaml",
        "roster.csv",
    ]


def test_elect_writes_a_roster_director_s_first_form_into_elections_csv(cli, tmp_path):
    facts = _grant(tmp_path)
    shutil.copy(tmp_path / "roster.csv", tmp_path / "roster.before")
    result = cli(
        "elect",
        facts,
        "--for",
        "bcole",
        "--pay-on",
        "separation",
        "--received-on",
        "2026-06-22",
        "--as-of",
        "2026-06-22",
    )
    assert result.exit_code == 0, result.stdout + result.stderr
    assert (tmp_path / "roster.csv").read_bytes() == (tmp_path / "roster.before").read_bytes()
    assert "bcole,2026-annual,2026-06-22,100,separation" in (tmp_path / "elections.csv").read_text()
