"""`docgen intake`: blank forms filled as their signers fill them (pdf.js as Firefox does, and
pypdf) are read back into the facts file exactly as chosen, on the day received; every refusal
leaves the facts file byte for byte as it was (DESIGN.md, "Fillable forms" and "Command line"; issue
11)."""

from __future__ import annotations

import difflib
import hashlib
import io
import os
import shutil
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter
from pypdf.generic import NameObject

from docgen.load import load_facts
from docgen.render import html as render
from tests.fillers import pdfjs_fill, pypdf_fill

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
GRANT = SAMPLES / "director-grant-2026.yaml"
RRP = SAMPLES / "rrp-2026.yaml"
RECEIVED = "2026-06-22"  # the sample's last filing day, the day before the deadline (June 23)


@pytest.fixture(scope="module")
def blanks() -> dict[str, bytes]:
    """Blank Exhibit I forms issued from the sample facts (the facts each test copies)."""
    loaded = load_facts(GRANT)
    return {
        subject: render.render_document(loaded, "exhibit-i", subject, "elections", "pdf")
        for subject in ("tnguyen", "ebrooks", "jsmith")
    }


@pytest.fixture
def facts(tmp_path) -> Path:
    path = tmp_path / "grant.yaml"
    shutil.copy(GRANT, path)
    return path


def take_in(cli, facts: Path, *forms: Path, received: str = RECEIVED, as_of: str = RECEIVED):
    return cli("intake", facts, *forms, "--received-on", received, "--as-of", as_of)


def form_file(tmp_path: Path, data: bytes, name: str = "returned.pdf") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def added_lines(before: str, after: str) -> list[str]:
    """The lines an intake added; fails if any line of the file was changed or removed (beyond
    an empty ``[]`` turned into a block list on its own line)."""
    added, changed = [], []
    matcher = difflib.SequenceMatcher(a=before.splitlines(), b=after.splitlines())
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "delete"):
            changed += before.splitlines()[i1:i2]
        if tag in ("replace", "insert"):
            added += after.splitlines()[j1:j2]
    assert all(line.rstrip().endswith("[]") or "[]  " in line for line in changed), changed
    return added


EXHIBIT = {
    "separation": ({}, None),
    "date": ({"pay_date_date": "July 1, 2030"}, date(2030, 7, 1)),
    "earlier_of_separation_or_date": (
        {"pay_date_earlier_of_separation_or_date": "2031-01-15"},
        date(2031, 1, 15),
    ),
}


@pytest.mark.parametrize("filler", ["pdfjs", "pypdf"])
@pytest.mark.parametrize("option", list(EXHIBIT))
def test_intake_records_exactly_the_option_chosen(cli, facts, blanks, tmp_path, filler, option):
    extra, pay_date = EXHIBIT[option]
    values = {
        "pay_on": option,
        "printed_name": "thanh nguyen",
        "date_signed": "June 18, 2026",
        **extra,
    }
    blank = blanks["tnguyen"]
    filled = pdfjs_fill(blank, values, tmp_path) if filler == "pdfjs" else pypdf_fill(blank, values)
    form = form_file(tmp_path, filled)
    before = facts.read_text(encoding="utf-8")
    result = take_in(cli, facts, form)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert f"Recorded {form}: tnguyen, Exhibit I option" in result.stdout
    director = load_facts(facts).facts.director("tnguyen")
    (election,) = director.elections
    assert (election.grant_id, election.filed_on, election.percent, election.pay_on) == (
        "2026-annual",
        date(2026, 6, 22),
        100,
        option,
    )
    assert election.pay_date == pay_date
    assert election.form_sha256 == hashlib.sha256(filled).hexdigest()
    added = added_lines(before, facts.read_text(encoding="utf-8"))
    # `elections: []  # comment` became a block list: the comment stays where it was.
    assert added[:3] == [
        "    elections:                            # no election: paid on the first anniversary",
        "      - grant_id: 2026-annual",
        "        filed_on: 2026-06-22",
    ]
    assert "No findings." in result.stdout


@pytest.mark.parametrize("filler", ["pdfjs", "pypdf"])
def test_the_rrp_form_is_recorded_as_elections_allocation_and_beneficiaries(cli, tmp_path, filler):
    facts = tmp_path / "rrp.yaml"
    shutil.copy(RRP, facts)
    loaded = load_facts(facts)
    blank = render.render_document(loaded, "rrp-election", "e1016", "enrollment", "pdf")
    fields = PdfReader(io.BytesIO(blank)).get_fields()
    fund_field = {
        str(f["/TU"]).split("percent in ", 1)[1]: n
        for n, f in fields.items()
        if n.startswith("allocation_")
    }
    values = {
        "salary_percent": "10",
        "bonus_percent": "25%",
        fund_field["Stable Value Fund"]: "40",
        fund_field["Bond Index Fund"]: "60",
        "beneficiary_1": "Kendall Moreau",
        "relationship_1": "child",
        "share_1": "50",
        "beneficiary_2": "Estate of Finley Moreau",
        "share_2": "50",
        "date_signed": "December 1, 2025",
    }
    filled = pdfjs_fill(blank, values, tmp_path) if filler == "pdfjs" else pypdf_fill(blank, values)
    result = take_in(
        cli, facts, form_file(tmp_path, filled), received="2025-12-02", as_of="2025-12-02"
    )
    assert result.exit_code == 0, result.stdout + result.stderr
    participant = load_facts(facts).facts.participant("e1016")
    assert [(e.kind, e.plan_year, e.percent, e.made_on) for e in participant.elections] == [
        ("salary", 2026, 10, date(2025, 12, 2)),
        ("bonus", 2026, 25, date(2025, 12, 2)),
    ]
    assert participant.investments == {"Stable Value Fund": 40, "Bond Index Fund": 60}
    assert [(b.name, b.relationship, b.percent) for b in participant.beneficiaries] == [
        ("Kendall Moreau", "child", 50),
        ("Estate of Finley Moreau", None, 50),
    ]


def test_a_performance_period_is_read_from_the_field_that_names_it(cli, tmp_path):
    facts = tmp_path / "rrp.yaml"
    shutil.copy(RRP, facts)
    blank = render.render_document(load_facts(facts), "rrp-election", "e1010", "enrollment", "pdf")
    filled = pypdf_fill(blank, {"performance_percent_1": "35", "date_signed": "2026-08-19"})
    result = take_in(
        cli, facts, form_file(tmp_path, filled), received="2026-08-20", as_of="2026-08-20"
    )
    elections = load_facts(facts).facts.participant("e1010").elections
    new = elections[-1]
    assert (new.kind, new.percent, new.made_on) == ("performance_based", 35, date(2026, 8, 20))
    assert new.performance_period == elections[0].performance_period
    # August 20 is after the period's six-month deadline (August 28 ... is not: it is timely).
    assert result.exit_code == 0, result.stdout


def test_forms_issued_from_an_earlier_version_of_the_facts_are_taken_in(
    cli, facts, blanks, tmp_path
):
    first = pypdf_fill(
        blanks["tnguyen"],
        {"pay_on": "separation", "printed_name": "Thanh Nguyen", "date_signed": "2026-06-18"},
    )
    second = pypdf_fill(
        blanks["ebrooks"],
        {"pay_on": "separation", "printed_name": "Evelyn Brooks", "date_signed": "2026-06-19"},
    )
    assert take_in(cli, facts, form_file(tmp_path, first, "a.pdf")).exit_code == 0
    # The facts have changed since the forms were issued; the second form still belongs here.
    assert load_facts(facts).sha256 != load_facts(GRANT).sha256
    assert take_in(cli, facts, form_file(tmp_path, second, "b.pdf")).exit_code == 0
    assert load_facts(facts).facts.director("ebrooks").elections[0].pay_on == "separation"


# ------------------------------------------------------------------------------ refusals


def _variant(tmp_path: Path, old: str, new: str) -> Path:
    path = tmp_path / "variant" / "grant.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(GRANT.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    return path


def _form_of(facts_path: Path, subject: str, values: dict[str, str]) -> bytes:
    blank = render.render_document(load_facts(facts_path), "exhibit-i", subject, "elections", "pdf")
    return pypdf_fill(blank, values)


GOOD = {"pay_on": "separation", "printed_name": "Thanh Nguyen", "date_signed": "2026-06-18"}


def _radio(pdf: bytes, value: str, shown: list[str]) -> bytes:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    group = next(
        r.get_object()
        for r in writer.root_object["/AcroForm"]["/Fields"]
        if r.get_object()["/T"] == "pay_on"
    )
    group[NameObject("/V")] = NameObject(f"/{value}")
    for kid in group["/Kids"]:
        kid = kid.get_object()
        state = next(str(k)[1:] for k in kid["/AP"]["/N"] if k != "/Off")
        kid[NameObject("/AS")] = NameObject(f"/{state}" if state in shown else "/Off")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


REFUSALS = {
    "a file that is not a PDF": (
        lambda tmp, blanks: b"# Returned form\nkind: director-rsu-grant\n",
        "not a PDF file (a PDF begins with %PDF-, and this file does not)",
    ),
    "a PDF cut short (a partial download)": (
        lambda tmp, blanks: pypdf_fill(blanks["tnguyen"], GOOD)[:1500],
        "not a readable PDF",  # with what pypdf noticed, never printed on its own
    ),
    "a form of another cycle": (
        lambda tmp, blanks: _form_of(
            _variant(tmp, "id: 2026-annual ", "id: 2027-annual "), "tnguyen", GOOD
        ),
        "belongs to the cycle 2027-annual, not 2026-annual",
    ),
    "a form for someone not in the facts": (
        lambda tmp, blanks: _form_of(
            _variant(tmp, "id: tnguyen", "id: tnguyen2"), "tnguyen2", GOOD
        ),
        "was issued to tnguyen2, who is not in",
    ),
    "another kind of form": (
        lambda tmp, blanks: render.render_document(
            load_facts(RRP), "rrp-election", "e1016", "enrollment", "pdf"
        ),
        "is a rrp-election form, not the exhibit-i this file takes in",
    ),
    "a scan (no form fields)": (
        lambda tmp, blanks: render.render_document(
            load_facts(GRANT), "notice", "tnguyen", "grant", "pdf"
        ),
        "record what it says with `docgen elect",
    ),
    "a photo of the form": (lambda tmp, blanks: b"\xff\xd8\xff\xe0JFIF a photo", "docgen elect"),
    "a blank form": (lambda tmp, blanks: blanks["tnguyen"], "the form is blank"),
    "no option marked": (
        lambda tmp, blanks: pypdf_fill(
            blanks["tnguyen"], {"printed_name": "Thanh Nguyen", "date_signed": "2026-06-18"}
        ),
        "no Section III option is marked",
    ),
    "a date beside the option not marked": (
        lambda tmp, blanks: pypdf_fill(
            blanks["tnguyen"],
            {
                **GOOD,
                "pay_on": "date",
                "pay_date_date": "2030-07-01",
                "pay_date_earlier_of_separation_or_date": "2031-01-01",
            },
        ),
        "a date (2031-01-01) is written beside option (c), but option (b) is marked",
    ),
    "the marked option and the drawn one disagree": (
        lambda tmp, blanks: _radio(pypdf_fill(blanks["tnguyen"], GOOD), "date", ["separation"]),
        "its value is 'date' but separation is shown marked",
    ),
    "the option's date missing": (
        lambda tmp, blanks: pypdf_fill(blanks["tnguyen"], {**GOOD, "pay_on": "date"}),
        "option (b) is marked but its date is blank",
    ),
    "a date that reads two ways": (
        lambda tmp, blanks: pypdf_fill(
            blanks["tnguyen"], {**GOOD, "pay_on": "date", "pay_date_date": "07/01/2030"}
        ),
        "can be read as two different dates",
    ),
    "not a real date": (
        lambda tmp, blanks: pypdf_fill(
            blanks["tnguyen"], {**GOOD, "pay_on": "date", "pay_date_date": "February 30, 2030"}
        ),
        "is not a real calendar date",
    ),
    "another person's printed name": (
        lambda tmp, blanks: pypdf_fill(
            blanks["tnguyen"], {**GOOD, "printed_name": "Evelyn Brooks"}
        ),
        "reads 'Evelyn Brooks', but the form was issued to Thanh Nguyen",
    ),
    "no printed name": (
        lambda tmp, blanks: pypdf_fill(
            blanks["tnguyen"], {"pay_on": "separation", "date_signed": "2026-06-18"}
        ),
        "Section IV is not completed (no printed name)",
    ),
    "signed after it was received": (
        lambda tmp, blanks: pypdf_fill(blanks["tnguyen"], {**GOOD, "date_signed": "June 23, 2026"}),
        "June 23, 2026 is after the day the Company received the form (June 22, 2026)",
    ),
    "a received date on the form that is not --received-on": (
        lambda tmp, blanks: pypdf_fill(blanks["tnguyen"], {**GOOD, "received_on": "2026-06-21"}),
        "the form says it was received June 21, 2026, not June 22, 2026",
    ),
}


@pytest.mark.parametrize("case", list(REFUSALS))
def test_a_refused_form_leaves_the_facts_file_byte_for_byte(cli, facts, blanks, tmp_path, case):
    make, message = REFUSALS[case]
    form = form_file(tmp_path, make(tmp_path, blanks))
    before = facts.read_bytes()
    result = take_in(cli, facts, form)
    assert result.exit_code == 2, result.stdout + result.stderr
    assert message in " ".join(result.stderr.split()), result.stderr
    assert "nothing was written" in result.stderr
    assert facts.read_bytes() == before


def test_the_same_form_twice_is_refused_the_second_time(cli, facts, blanks, tmp_path):
    form = form_file(tmp_path, pypdf_fill(blanks["tnguyen"], GOOD))
    assert take_in(cli, facts, form).exit_code == 0
    recorded = facts.read_bytes()
    again = take_in(cli, facts, form)
    assert again.exit_code == 2
    assert "this form is already recorded (this very file" in again.stderr
    assert facts.read_bytes() == recorded
    # Re-saved (other bytes), the same choice received the same day is the same form too.
    resaved = form_file(tmp_path, pypdf_fill(form.read_bytes(), {"received_on": ""}), "r.pdf")
    assert resaved.read_bytes() != form.read_bytes()
    third = take_in(cli, facts, resaved)
    assert third.exit_code == 2 and "the same choice, filed the same day" in third.stderr
    assert facts.read_bytes() == recorded


def test_two_forms_for_one_director_in_one_call_are_refused(cli, facts, blanks, tmp_path):
    first = form_file(tmp_path, pypdf_fill(blanks["tnguyen"], GOOD), "a.pdf")
    second = form_file(
        tmp_path,
        pypdf_fill(blanks["tnguyen"], {**GOOD, "pay_on": "date", "pay_date_date": "2030-07-01"}),
        "b.pdf",
    )
    before = facts.read_bytes()
    result = take_in(cli, facts, first, second)
    assert result.exit_code == 2
    assert "a second form for tnguyen in this intake (the first: " in result.stderr
    assert facts.read_bytes() == before


def test_one_bad_form_among_good_ones_records_the_good_one(cli, facts, blanks, tmp_path):
    # Issue 24: a multi-form intake records every valid form and refuses the others (it
    # recorded none of them before).
    good = form_file(tmp_path, pypdf_fill(blanks["tnguyen"], GOOD), "good.pdf")
    bad = form_file(tmp_path, blanks["ebrooks"], "blank.pdf")
    result = take_in(cli, facts, good, bad)
    assert result.exit_code == 2 and "blank.pdf: the form is blank" in result.stderr
    assert "1 form refused and not recorded; the others were recorded." in result.stderr
    after = load_facts(facts).facts
    assert [e.pay_on for e in after.director("tnguyen").elections][-1:] == ["separation"]
    assert not after.director("ebrooks").elections


def test_a_form_received_in_the_future_is_refused(cli, facts, blanks, tmp_path):
    form = form_file(tmp_path, pypdf_fill(blanks["tnguyen"], GOOD))
    before = facts.read_bytes()
    result = take_in(cli, facts, form, received="2026-06-23", as_of="2026-06-22")
    assert result.exit_code == 2 and "is after 2026-06-22" in result.stderr
    assert facts.read_bytes() == before


def test_a_missing_form_file_is_named(cli, facts, tmp_path):
    before = facts.read_bytes()
    result = take_in(cli, facts, tmp_path / "nope.pdf")
    assert result.exit_code == 2 and "nope.pdf: no such file" in result.stderr
    assert facts.read_bytes() == before


def test_a_folder_or_a_device_named_as_a_form_is_said_to_be_one(cli, facts, tmp_path):
    before = facts.read_bytes()
    (tmp_path / "returned").mkdir()
    folder = take_in(cli, facts, tmp_path / "returned")
    assert folder.exit_code == 2
    assert "returned: is a folder, not a returned form. Name the filled PDFs, e.g. docgen " in (
        " ".join(folder.stderr.split())
    )
    device = take_in(cli, facts, Path("/dev/null"))
    assert device.exit_code == 2
    assert "/dev/null: is not a regular file (a device, pipe or socket)" in device.stderr
    assert facts.read_bytes() == before


def test_pypdf_never_prints_on_its_own_while_a_form_is_read(facts, blanks, tmp_path, capfd):
    """What pypdf notices in a damaged file is part of docgen's message, not a line of its own
    on the terminal (logging's last-resort handler prints a library's warnings bare)."""
    import subprocess
    import sys

    form = form_file(tmp_path, pypdf_fill(blanks["tnguyen"], GOOD)[:1500])
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "docgen",
            "intake",
            str(facts),
            str(form),
            "--received-on",
            RECEIVED,
            "--as-of",
            RECEIVED,
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert lines[0].startswith(f"{form}: not a form docgen can read back: not a readable PDF")
    assert lines[1:] == ["1 problem found; nothing was written."], done.stderr


def test_the_rrp_form_refuses_what_it_cannot_read(cli, tmp_path):
    facts = tmp_path / "rrp.yaml"
    shutil.copy(RRP, facts)
    blank = render.render_document(load_facts(facts), "rrp-election", "e1016", "enrollment", "pdf")
    before = facts.read_bytes()
    cases = {
        "salary_percent: 'ten' is not a percentage": {"salary_percent": "ten"},
        "a relationship or share without a name": {"relationship_1": "child", "share_1": "100"},
        "no share is written for Kim (write 100 for a sole Beneficiary)": {"beneficiary_1": "Kim"},
        "the signature block is not completed": {"salary_percent": "5"},
    }
    for message, values in cases.items():
        filled = {"date_signed": "2025-12-01", **values}
        if message.startswith("the signature"):
            filled = values
        result = take_in(
            cli,
            facts,
            form_file(tmp_path, pypdf_fill(blank, filled)),
            received="2025-12-02",
            as_of="2025-12-02",
        )
        assert result.exit_code == 2, message
        assert message in " ".join(result.stderr.split()), result.stderr
        assert facts.read_bytes() == before


def test_a_fund_no_longer_on_the_menu_is_refused_not_misfiled(cli, tmp_path):
    """The form was issued when the Bond Index Fund was on the Plan Asset Committee's menu; it
    is not now (Plan 3.05(a))."""
    blank = render.render_document(load_facts(RRP), "rrp-election", "e1016", "enrollment", "pdf")
    fields = PdfReader(io.BytesIO(blank)).get_fields()
    bond = next(n for n, f in fields.items() if str(f.get("/TU", "")).endswith("Bond Index Fund"))
    facts = tmp_path / "rrp.yaml"
    text = RRP.read_text(encoding="utf-8").replace("    - Bond Index Fund\n", "", 1)
    assert "    - Bond Index Fund\n" not in text
    facts.write_text(text, encoding="utf-8")
    before = facts.read_bytes()
    filled = pypdf_fill(blank, {bond: "100", "date_signed": "2025-12-01"})
    result = take_in(
        cli, facts, form_file(tmp_path, filled), received="2025-12-02", as_of="2025-12-02"
    )
    assert result.exit_code == 2
    assert "'Bond Index Fund' is not an investment option on the form" in result.stderr
    assert facts.read_bytes() == before


def test_percentages_the_plan_forbids_are_recorded_and_flagged(cli, tmp_path):
    """7.5% and 80% are what the participant wrote: recorded, then the checker's errors."""
    facts = tmp_path / "rrp.yaml"
    shutil.copy(RRP, facts)
    blank = render.render_document(load_facts(facts), "rrp-election", "e1016", "enrollment", "pdf")
    filled = pypdf_fill(
        blank, {"salary_percent": "7.5", "bonus_percent": "80", "date_signed": "2025-12-01"}
    )
    result = take_in(
        cli, facts, form_file(tmp_path, filled), received="2025-12-02", as_of="2025-12-02"
    )
    assert result.exit_code == 1
    assert "RRP-DEFERRAL-INCREMENT" in result.stdout and "RRP-DEFERRAL-OVER-MAX" in result.stdout
    percents = [e.percent for e in load_facts(facts).facts.participant("e1016").elections]
    assert percents == [Decimal("7.5"), 80]


def test_a_facts_file_reached_through_a_link_is_updated_where_it_is(cli, facts, blanks, tmp_path):
    link = tmp_path / "current.yaml"
    link.symlink_to(facts)
    before = facts.read_text()
    form = form_file(tmp_path, pypdf_fill(blanks["tnguyen"], GOOD))
    result = take_in(cli, link, form)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert link.is_symlink() and os.readlink(link) == str(facts)
    assert "separation" in "".join(added_lines(before, facts.read_text()))
