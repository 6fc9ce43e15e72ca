"""The election loop as a secretary runs it: blank forms issued (`batch --stage elections`),
filled by the directors, taken in (`docgen intake`, or `docgen elect` for paper), checked, and
the grant packets issued with on-file copies that show the returned choices; a late form
recorded and set aside without erasing it; the facts kept in JSON or a roster CSV."""

from __future__ import annotations

import hashlib
import json
import shutil
from datetime import date
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from docgen.load import load_facts
from docgen.render import html as render
from tests.fillers import pdfjs_fill, pypdf_fill
from tests.readers import docx_words, pdf_words

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"


def issued(out: Path, subject: str, name: str) -> Path:
    """An issued file, wherever the stage's folder puts it (OUT/<cycle>[/<stage>]/...)."""
    (found,) = sorted(out.rglob(f"{subject}/{name}"))
    return found


@pytest.mark.slow
def test_issue_fill_take_in_check_and_issue_the_grant(cli, tmp_path):
    facts = tmp_path / "grant.yaml"
    shutil.copy(SAMPLES / "director-grant-2026.yaml", facts)
    forms = tmp_path / "forms"
    result = cli("batch", facts, "--out", forms, "--stage", "elections", "--as-of", "2026-06-22")
    assert result.exit_code == 0, result.stdout + result.stderr

    blank = {
        s: issued(forms, s, "exhibit-i.pdf").read_bytes()
        for s in ("tnguyen", "ebrooks", "sjohnson-ames")
    }
    returned = {
        "tnguyen": pdfjs_fill(
            blank["tnguyen"],
            {
                "pay_on": "date",
                "pay_date_date": "July 1, 2030",
                "printed_name": "Thanh Nguyen",
                "date_signed": "June 15, 2026",
            },
            tmp_path,
        ),
        "ebrooks": pdfjs_fill(
            blank["ebrooks"],
            {"pay_on": "separation", "printed_name": "Evelyn Brooks", "date_signed": "2026-06-16"},
            tmp_path,
        ),
        "sjohnson-ames": pypdf_fill(
            blank["sjohnson-ames"],
            {
                "pay_on": "earlier_of_separation_or_date",
                "pay_date_earlier_of_separation_or_date": "January 15, 2031",
                "printed_name": "Sarah Johnson-Ames",
                "date_signed": "June 17, 2026",
                "received_on": "June 22, 2026",
            },
        ),
    }
    paths = []
    for subject, data in returned.items():
        path = tmp_path / f"{subject}-returned.pdf"
        path.write_bytes(data)
        paths.append(path)

    waiting = cli("status", facts, "--as-of", "2026-06-22", "--out", forms, "--format", "json")
    summary = json.loads(waiting.stdout)["summary"]
    # The forms went out on June 22: the six elections the sample records from before then are
    # in effect but are not returns of these forms (issue 44); the one filed that day is.
    assert summary == {"forms_expected": 10, "returned": 1, "in_effect": 7, "awaited": 3}

    taken = cli("intake", facts, *paths, "--received-on", "2026-06-22", "--as-of", "2026-06-22")
    assert taken.exit_code == 0, taken.stdout + taken.stderr
    assert taken.stdout.count("Recorded ") == 3

    answered = json.loads(
        cli("status", facts, "--as-of", "2026-06-22", "--out", forms, "--format", "json").stdout
    )
    assert answered["summary"] == {
        "forms_expected": 10,
        "returned": 4,  # the one filed on June 22 and the three taken in
        "in_effect": 10,
        "awaited": 0,
    }
    row = next(r for r in answered["subjects"] if r["subject"] == "tnguyen")
    assert (row["sent_on"], row["returned_on"], row["election"], row["days_left"]) == (
        "2026-06-22",
        "2026-06-22",
        "(b) 2030-07-01",
        0,
    )

    checked = cli("check", facts, "--stage", "grant", "--as-of", "2026-06-23")
    assert checked.exit_code == 0, checked.stdout
    packets = tmp_path / "packets"
    granted = cli("batch", facts, "--out", packets, "--stage", "grant", "--as-of", "2026-06-23")
    assert granted.exit_code == 0, granted.stdout + granted.stderr
    on_file = {
        "tnguyen": "Election on file: (b) July 1, 2030; filed with the Company on June 22, 2026.",
        "ebrooks": "Election on file: (a) Separation from Service; filed with the Company on "
        "June 22, 2026.",
        "sjohnson-ames": "Election on file: (c) the earlier of Separation from Service or "
        "January 15, 2031; filed with the Company on June 22, 2026.",
    }
    for subject, sentence in on_file.items():
        assert sentence in pdf_words(issued(packets, subject, "exhibit-i.pdf").read_bytes())
        assert sentence in docx_words(issued(packets, subject, "exhibit-i.docx").read_bytes())
    verify = cli("verify", issued(packets, "tnguyen", "exhibit-i.pdf").parent.parent)
    assert verify.exit_code == 0, verify.stdout + verify.stderr


@pytest.mark.slow
def test_a_late_form_is_recorded_then_set_aside_and_the_default_payment_applies(cli, tmp_path):
    facts = tmp_path / "grant.yaml"
    shutil.copy(SAMPLES / "director-grant-2026.yaml", facts)
    blank = render.render_document(load_facts(facts), "exhibit-i", "tnguyen", "elections", "pdf")
    form = tmp_path / "late.pdf"
    form.write_bytes(
        pypdf_fill(
            blank,
            {
                "pay_on": "date",
                "pay_date_date": "2030-07-01",
                "printed_name": "Thanh Nguyen",
                "date_signed": "2026-06-22",
            },
        )
    )
    late = cli("intake", facts, form, "--received-on", "2026-06-23", "--as-of", "2026-06-23")
    assert late.exit_code == 1, late.stdout  # recorded, and the checker says it is late
    assert "RSU-ELECTION-LATE" in late.stdout
    report = json.loads(cli("check", facts, "--as-of", "2026-06-23", "--format", "json").stdout)
    (finding,) = [f for f in report["findings"] if f["rule"] == "RSU-ELECTION-LATE"]
    assert finding["remedy"].startswith(
        "Record the form as not in effect: `docgen decide FILE --for ID --form N --ineffective "
        "--reason WHY --by NAME` (status: ineffective, reason, decided_by)"
    )
    assert "Change filed_on only if mis-keyed" in finding["remedy"]
    assert load_facts(facts).facts.director("tnguyen").elections[0].filed_on == date(2026, 6, 23)

    # The secretary records counsel's decision beside the form, without erasing it (A25).
    text = facts.read_text(encoding="utf-8")
    sha_line = next(line for line in text.splitlines() if "form_sha256:" in line)
    decided = cli(
        "decide", facts, "--for", "tnguyen", "--ineffective", "--reason",
        "received on the filing deadline", "--by", "A. Counsel, 2026-06-24", "--as-of",
        "2026-06-24",
    )  # fmt: skip
    assert decided.exit_code == 0, decided.stdout + decided.stderr
    new = facts.read_text(encoding="utf-8").splitlines()
    at = new.index("        status: ineffective")
    assert new[at : at + 3] == [
        "        status: ineffective",
        "        reason: received on the filing deadline",
        "        decided_by: A. Counsel, 2026-06-24",
    ]
    assert new[:at] + new[at + 3 :] == text.splitlines()  # every other line as it was
    assert sha_line in new[:at]  # the decision sits with the form it is about

    checked = cli("check", facts, "--stage", "grant", "--as-of", "2026-06-24", "--format", "json")
    assert checked.exit_code == 0, checked.stdout
    findings = {f["rule"]: f for f in json.loads(checked.stdout)["findings"]}
    assert findings["RSU-ELECTION-LATE"]["severity"] == "info"
    assert "the default Payment Date applies" in findings["RSU-ELECTION-INEFFECTIVE"]["message"]

    status = json.loads(cli("status", facts, "--as-of", "2026-06-24", "--format", "json").stdout)
    row = next(r for r in status["subjects"] if r["subject"] == "tnguyen")
    assert row["in_effect"] is False and "received on the filing deadline" in row["why_not"]

    packets = tmp_path / "packets"
    granted = cli("batch", facts, "--out", packets, "--stage", "grant", "--as-of", "2026-06-24")
    assert granted.exit_code == 0, granted.stdout + granted.stderr
    text = pdf_words(issued(packets, "tnguyen", "exhibit-i.pdf").read_bytes())
    assert "No effective deferral election for the 2026 Units is on file" in text
    assert (
        "The Election Form filed with the Company on June 23, 2026, electing (b) July 1, 2030, "
        "is not effective: received on the filing deadline (determined by A. Counsel, 2026-06-24)."
    ) in text
    assert "Election on file" not in text


def test_a_director_in_the_roster_gets_the_election_in_their_row(cli, tmp_path):
    for name in ("director-grant-2026-roster.yaml", "roster.csv"):
        shutil.copy(SAMPLES / name, tmp_path / name)
    facts = tmp_path / "director-grant-2026-roster.yaml"
    yaml_before = facts.read_bytes()
    roster_before = (tmp_path / "roster.csv").read_text(encoding="utf-8")
    blank = render.render_document(load_facts(facts), "exhibit-i", "bcole", "elections", "pdf")
    form = tmp_path / "bcole.pdf"
    form.write_bytes(
        pypdf_fill(
            blank,
            {"pay_on": "separation", "printed_name": "Benjamin Cole", "date_signed": "2026-06-19"},
        )
    )
    result = cli("intake", facts, form, "--received-on", "2026-06-22", "--as-of", "2026-06-22")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert facts.read_bytes() == yaml_before  # the director lives in the roster
    after = (tmp_path / "roster.csv").read_text(encoding="utf-8")
    changed = [
        (a, b)
        for a, b in zip(roster_before.splitlines(), after.splitlines(), strict=True)
        if a != b
    ]
    # Nothing the director wrote is dropped (issue 44): how the form came, its SHA-256, the
    # printed name and the date signed get their columns, added at the end of the header.
    header = roster_before.splitlines()[0]
    sha = hashlib.sha256(form.read_bytes()).hexdigest()
    assert changed == [
        (
            header,
            header + ",election_form_sha256,election_received_as,election_printed_name,"
            "election_signed_on",
        ),
        (
            "bcole,Benjamin Cole,Mr. Cole,55 Lakeview Drive | Midlothian VA 23113,false,false,"
            "2026-06-10,1225,,,,,",
            "bcole,Benjamin Cole,Mr. Cole,55 Lakeview Drive | Midlothian VA 23113,false,false,"
            f"2026-06-10,1225,2026-annual,2026-06-22,100,separation,,{sha},pdf,Benjamin Cole,"
            "2026-06-19",
        ),
    ]
    assert load_facts(facts).facts.director("bcole").elections[0].pay_on == "separation"

    # A roster row holds one election: a second form for a roster director is refused.
    second = tmp_path / "kpatel.pdf"
    blank = render.render_document(load_facts(facts), "exhibit-i", "kpatel", "elections", "pdf")
    second.write_bytes(
        pypdf_fill(
            blank,
            {"pay_on": "separation", "printed_name": "Kiran Patel", "date_signed": "2026-06-19"},
        )
    )
    refused = cli("intake", facts, second, "--received-on", "2026-06-22", "--as-of", "2026-06-22")
    assert refused.exit_code == 2
    assert "kpatel's roster row already holds an Exhibit I election" in refused.stderr
    assert (tmp_path / "roster.csv").read_text(encoding="utf-8") == after


def test_a_json_facts_file_keeps_its_layout(cli, tmp_path):
    data = YAML(typ="safe", pure=True).load((SAMPLES / "director-grant-2026.yaml").read_text())
    facts = tmp_path / "grant.json"
    facts.write_text(json.dumps(data, indent=2, default=str, ensure_ascii=False) + "\n")
    blank = render.render_document(load_facts(facts), "exhibit-i", "ebrooks", "elections", "pdf")
    form = tmp_path / "ebrooks.pdf"
    form.write_bytes(
        pypdf_fill(
            blank,
            {
                "pay_on": "date",
                "pay_date_date": "2031-06-30",
                "printed_name": "Evelyn Brooks",
                "date_signed": "2026-06-19",
            },
        )
    )
    result = cli("intake", facts, form, "--received-on", "2026-06-22", "--as-of", "2026-06-22")
    assert result.exit_code == 0, result.stdout + result.stderr
    text = facts.read_text(encoding="utf-8")
    assert json.dumps(json.loads(text), indent=2, ensure_ascii=False) + "\n" == text
    election = json.loads(text)["directors"][-1]["elections"][0]
    assert election["filed_on"] == "2026-06-22" and election["pay_date"] == "2031-06-30"


# ----------------------------------------------------------------------------- docgen elect


def test_elect_records_a_paper_exhibit_i(cli, tmp_path):
    facts = tmp_path / "grant.yaml"
    shutil.copy(SAMPLES / "director-grant-2026.yaml", facts)
    result = cli(
        "elect",
        facts,
        "--for",
        "ebrooks",
        "--pay-on",
        "earlier_of_separation_or_date",
        "--pay-date",
        "June 30, 2031",
        "--signed-on",
        "2026-06-18",
        "--filed-on",
        "2026-06-22",
        "--as-of",
        "2026-06-22",
    )
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "Recorded docgen elect --for ebrooks: ebrooks, Exhibit I option (c) June 30, 2031" in (
        result.stdout
    )
    (election,) = load_facts(facts).facts.director("ebrooks").elections
    assert (election.filed_on, election.pay_date, election.form_sha256) == (
        date(2026, 6, 22),
        date(2031, 6, 30),
        None,
    )


@pytest.mark.parametrize(
    ("written", "recorded", "exit_code"),
    [
        ("06/30/2031", date(2031, 6, 30), 0),  # 30 cannot be a month: one reading
        ("30 June 2031", date(2031, 6, 30), 0),
        ("Jun. 30, 2031", date(2031, 6, 30), 0),
        ("06/07/2031", None, 2),  # June 7 or July 6: refused, nothing written
    ],
)
def test_elect_takes_a_date_written_any_way_that_reads_one_way_only(
    cli, tmp_path, written, recorded, exit_code
):
    facts = tmp_path / "grant.yaml"
    shutil.copy(SAMPLES / "director-grant-2026.yaml", facts)
    before = facts.read_bytes()
    result = cli(
        "elect",
        facts,
        "--for",
        "ebrooks",
        "--pay-on",
        "date",
        "--pay-date",
        written,
        "--signed-on",
        "2026-06-18",
        "--filed-on",
        "2026-06-22",
        "--as-of",
        "2026-06-22",
    )
    assert result.exit_code == exit_code, result.stdout + result.stderr
    if recorded is None:
        assert "can be read as two different dates" in " ".join(result.stderr.split())
        assert facts.read_bytes() == before
    else:
        (election,) = load_facts(facts).facts.director("ebrooks").elections
        assert election.pay_date == recorded


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--pay-on", "date"], "--pay-date: option (b) is marked but its date is blank"),
        (["--pay-on", "separation", "--pay-date", "2030-07-01"], "option (a), Separation"),
        (["--pay-on", "later"], "'later' is not a Section III option"),
        (["--pay-on", "separation", "--printed-name", "E. Brookes"], "reads 'E. Brookes'"),
        (
            ["--pay-on", "separation", "--salary-percent", "10"],
            "--salary-percent: is not on the exhibit-i form",
        ),
        (["--pay-on", "separation", "--signed-on", "2026-06-30"], "is after the day the Company"),
    ],
)
def test_elect_validates_as_intake_does(cli, tmp_path, args, message):
    facts = tmp_path / "grant.yaml"
    shutil.copy(SAMPLES / "director-grant-2026.yaml", facts)
    before = facts.read_bytes()
    result = cli(
        "elect",
        facts,
        "--for",
        "ebrooks",
        *args,
        "--received-on",
        "2026-06-22",
        "--as-of",
        "2026-06-22",
    )
    assert result.exit_code == 2, result.stdout
    assert message in " ".join(result.stderr.split())
    assert facts.read_bytes() == before


def test_elect_refuses_an_unknown_id_and_a_repeat(cli, tmp_path):
    facts = tmp_path / "grant.yaml"
    shutil.copy(SAMPLES / "director-grant-2026.yaml", facts)
    before = facts.read_bytes()
    unknown = cli(
        "elect",
        facts,
        "--for",
        "nobody",
        "--pay-on",
        "separation",
        "--received-on",
        "2026-06-22",
        "--as-of",
        "2026-06-22",
    )
    assert unknown.exit_code == 2 and "--for: no director nobody in" in unknown.stderr
    assert facts.read_bytes() == before
    args = (
        "elect",
        facts,
        "--for",
        "ebrooks",
        "--pay-on",
        "separation",
        "--received-on",
        "2026-06-22",
        "--as-of",
        "2026-06-22",
    )
    assert cli(*args).exit_code == 0
    recorded = facts.read_bytes()
    again = cli(*args)
    assert again.exit_code == 2 and "already recorded (the same choice, filed the same day" in (
        again.stderr
    )
    assert facts.read_bytes() == recorded


def test_elect_records_a_paper_rrp_form(cli, tmp_path):
    facts = tmp_path / "rrp.yaml"
    shutil.copy(SAMPLES / "rrp-2026.yaml", facts)
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
        "Marley Castellano;spouse;60",
        "--beneficiary",
        "Sky Castellano;;40",
        "--received-on",
        "2025-12-05",
        "--as-of",
        "2025-12-05",
    )
    assert result.exit_code == 0, result.stdout + result.stderr  # a warning: under the limit
    participant = load_facts(facts).facts.participant("e1017")
    assert [(e.kind, e.percent, e.made_on) for e in participant.elections] == [
        ("salary", 3, date(2025, 12, 5))
    ]
    assert participant.investments == {"Stable Value Fund": 100}
    assert [(b.name, b.relationship, b.percent) for b in participant.beneficiaries] == [
        ("Marley Castellano", "spouse", 60),
        ("Sky Castellano", None, 40),
    ]
    bad = cli(
        "elect",
        facts,
        "--for",
        "e1017",
        "--allocation",
        "Gold=100",
        "--received-on",
        "2025-12-06",
        "--as-of",
        "2025-12-06",
    )
    assert bad.exit_code == 2 and "'Gold' is not an investment option" in bad.stderr


def test_a_form_set_aside_governs_nothing(cli, tmp_path):
    """A later timely form set aside leaves the earlier one governing (Exhibit I); an RRP
    election set aside defers nothing (`docgen compute`)."""
    from docgen.kinds.director_rsu.terms import effective_election

    grant = tmp_path / "grant.yaml"
    text = (SAMPLES / "director-grant-2026.yaml").read_text(encoding="utf-8")
    grant.write_text(
        text.replace(
            "        filed_on: 2026-05-20\n        percent: 100\n        pay_on: date\n",
            "        filed_on: 2026-05-20\n        percent: 100\n        pay_on: date\n"
            "        status: ineffective\n        reason: signed by an attorney-in-fact\n"
            "        decided_by: Corporate Secretary\n",
            1,
        ),
        encoding="utf-8",
    )
    facts = load_facts(grant).facts
    governing = effective_election(facts, facts.director("rgarcia"))
    assert (governing.filed_on, governing.pay_on) == (date(2026, 5, 4), "separation")
    checked = json.loads(cli("check", grant, "--as-of", "2026-06-23", "--format", "json").stdout)
    (finding,) = [f for f in checked["findings"] if f["rule"] == "RSU-ELECTION-INEFFECTIVE"]
    assert finding["message"].endswith("; the election filed 2026-05-04 governs.")

    rrp = tmp_path / "rrp.yaml"
    text = (SAMPLES / "rrp-2026.yaml").read_text(encoding="utf-8")
    rrp.write_text(
        text.replace(
            "{ kind: salary, plan_year: 2025, percent: 10, made_on: 2024-12-10 }",
            "{ kind: salary, plan_year: 2025, percent: 10, made_on: 2024-12-10, status: "
            "ineffective, reason: signed by someone else, decided_by: Benefits Committee }",
            1,
        ),
        encoding="utf-8",
    )
    computed = json.loads(cli("compute", rrp, "--format", "json").stdout)
    pat = next(p for p in computed["participants"] if p["id"] == "e1001")
    assert pat["elective_deferral"] in (None, "0.00")
    assert any(
        "not used: recorded as not in effect by Benefits Committee" in n for n in pat["notes"]
    )
