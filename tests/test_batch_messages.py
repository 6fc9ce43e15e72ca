"""What `docgen batch` says beside what it issued (issue 24): a grant stage issued into an --out
that holds no elections stage for the cycle is a second complete record, and a held packet's
message gives the findings that hold it now, never those of a form resolved since."""

from __future__ import annotations

from tests.test_batch import GRANT_AS_OF, write_cycle

APART = "holds no elections stage"


def late_mobrien(data):
    data["directors"][2]["elections"][0]["filed_on"] = "2026-06-23"  # on the deadline: late


def test_a_grant_stage_without_its_elections_stage_is_warned_of(samples, tmp_path, cli):
    facts = write_cycle(tmp_path, samples, directors=1)
    result = cli("batch", facts, "--out", tmp_path / "out", "--as-of", GRANT_AS_OF)
    assert result.exit_code == 0, result.output
    message = " ".join(result.stdout.split())
    assert f"warning: {tmp_path / 'out' / '2026-annual'} {APART}" in message
    assert "second complete record of the cycle" in message
    assert f"docgen batch {facts} --out THAT_FOLDER --stage grant" in message


def test_a_grant_stage_beside_its_elections_stage_is_not(samples, tmp_path, cli):
    facts = write_cycle(tmp_path, samples, directors=1)
    out = tmp_path / "out"
    forms = cli("batch", facts, "--out", out, "--as-of", "2026-06-01", "--stage", "elections")
    assert forms.exit_code == 0, forms.output
    assert APART not in forms.stdout  # the elections stage is the one that sends the forms
    grant = cli("batch", facts, "--out", out, "--as-of", GRANT_AS_OF, "--stage", "grant")
    assert grant.exit_code == 0, grant.output
    assert APART not in " ".join(grant.stdout.split())


def test_a_resolved_hold_no_longer_gives_its_old_finding(samples, tmp_path, cli):
    facts = write_cycle(tmp_path, samples, directors=3, edit=late_mobrien)
    out = tmp_path / "out"
    held = cli("batch", facts, "--out", out, "--as-of", GRANT_AS_OF, "--hold", "mobrien")
    assert held.exit_code == 0, held.output
    assert "held, not issued: mobrien (Mary O'Brien): RSU-ELECTION-LATE" in held.stdout

    def resolved(data):
        late_mobrien(data)
        form = data["directors"][2]["elections"][0]
        form.update(status="ineffective", reason="filed late", decided_by="A. Secretary")
        data["directors"][1]["address"] = ["1 New Street", "Richmond VA 23220"]

    write_cycle(tmp_path, samples, directors=3, edit=resolved)
    again = cli("batch", facts, "--out", out, "--as-of", GRANT_AS_OF, "--only", "rgarcia")
    assert again.exit_code == 0, again.output
    said = " ".join(again.stdout.split())
    assert "RSU-ELECTION-LATE" not in said
    assert "not issued yet: mobrien (Mary O'Brien), held by an earlier batch; no error" in said
    assert "--only mobrien" in said


def test_a_hold_still_in_force_gives_the_finding_that_holds_it(samples, tmp_path, cli):
    facts = write_cycle(tmp_path, samples, directors=3, edit=late_mobrien)
    out = tmp_path / "out"
    assert (
        cli("batch", facts, "--out", out, "--as-of", GRANT_AS_OF, "--hold", "mobrien").exit_code
        == 0
    )

    def moved(data):
        late_mobrien(data)
        data["directors"][1]["address"] = ["1 New Street", "Richmond VA 23220"]

    write_cycle(tmp_path, samples, directors=3, edit=moved)
    again = cli("batch", facts, "--out", out, "--as-of", GRANT_AS_OF, "--only", "rgarcia")
    assert again.exit_code == 0, again.output
    assert "held, not issued: mobrien (Mary O'Brien): RSU-ELECTION-LATE" in again.stdout


def _roster_of(samples, tmp_path, copies: int):
    """The roster sample with its participants.csv, each row repeated ``copies`` times under new
    ids (none designates a Beneficiary: RRP-BENEFICIARY-MISSING for each)."""
    import csv
    import io
    import shutil

    shutil.copy(samples / "rrp-2026-roster.yaml", tmp_path)
    with (samples / "participants.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    text = io.StringIO()
    writer = csv.DictWriter(text, list(rows[0]), lineterminator="\n")
    writer.writeheader()
    for copy in range(copies):
        for row in rows:
            writer.writerow({**row, "id": f"{row['id']}-{copy}" if copy else row["id"]})
    (tmp_path / "participants.csv").write_text(text.getvalue(), encoding="utf-8")
    return tmp_path / "rrp-2026-roster.yaml"


def test_the_same_warning_for_many_people_is_one_line(samples, tmp_path, cli):
    facts = _roster_of(samples, tmp_path, 1)
    result = cli("batch", facts, "--out", tmp_path / "out", "--as-of", "2025-12-01")
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stdout.splitlines() if "RRP-BENEFICIARY-MISSING" in line]
    assert lines == [
        "  warning RRP-BENEFICIARY-MISSING (4: BW1000, BW1001, BW1002, bw2040): no Beneficiary "
        "designated; the default order of Plan Section 1.02 applies."
    ]


def test_a_long_list_of_people_is_counted_after_the_first_five(samples, tmp_path, cli):
    facts = _roster_of(samples, tmp_path, 3)
    result = cli("batch", facts, "--out", tmp_path / "out", "--as-of", "2025-12-01")
    assert result.exit_code == 0, result.output
    said = " ".join(result.stdout.split())
    assert said.count("warning RRP-BENEFICIARY-MISSING") == 1
    assert (
        "(12: BW1000, BW1001, BW1002, bw2040, BW1000-1 and 7 more (the check report names all))"
        in said
    )
