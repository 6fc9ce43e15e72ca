"""Recording proved on the subjects edited (docgen/intake/proof.py): the facts a
recording hands on are, fact for fact and line for line, the facts a fresh load of the written
file gives; the proof steps aside where a subject's text alone could mean something else; and an
edit that strays outside the subjects, or reads back otherwise, is refused as NotAsIntended."""

from __future__ import annotations

import dataclasses
import sys
from datetime import date
from pathlib import Path

import pytest

import docgen.intake.record as record
from docgen.intake.forms import elect
from docgen.intake.proof import EditedText, NotAsIntended, proven
from docgen.kinds import kind_of
from docgen.load import load_facts

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import realistic  # noqa: E402

DAY = date(2025, 12, 31)  # within the prior-year route for the 2026 Plan Year (Plan 2.03(b))
OPTIONS = {
    "salary-percent": "7",
    "allocation": ["Stable Value Fund=40", "S&P 500 Index Fund=60"],
    "beneficiary": ["Pat Doe;spouse;100"],
}


@pytest.fixture(params=[".yaml", ".json"])
def roster(request, tmp_path) -> Path:
    facts = realistic.rrp_facts(40)
    writer = realistic.write_yaml if request.param == ".yaml" else realistic.write_json
    return writer(facts, tmp_path / f"rrp{request.param}")


@pytest.fixture
def proofs(monkeypatch) -> list[str]:
    """Each recording's proof: "subjects" (proved on the subjects) or "whole" (read back whole)."""
    taken: list[str] = []
    real_proven, real_read_back = record.proven, record._read_back

    def spy_proven(*args, **kwargs):
        found = real_proven(*args, **kwargs)
        if found is not None:
            taken.append("subjects")
        return found

    def spy_read_back(*args, **kwargs):
        taken.append("whole")
        return real_read_back(*args, **kwargs)

    monkeypatch.setattr(record, "proven", spy_proven)
    monkeypatch.setattr(record, "_read_back", spy_read_back)
    return taken


def _eligible(path: Path) -> list[str]:
    return [p.id for p in load_facts(path).facts.participants if p.eligible_employee]


def _prepared(path: Path, subjects: list[str], options=OPTIONS) -> record.Prepared:
    """The recording of ``options`` for each subject, as `docgen elect` prepares it (not
    written)."""
    from docgen.intake.forms import _hooks

    loaded = load_facts(path)
    hooks, kind = _hooks(loaded), kind_of(loaded.facts)
    filings = []
    for subject_id in subjects:
        subject = kind.subject(loaded.facts, subject_id)
        answers = hooks.answers_from_options(loaded.facts, subject, options)
        filings.append((subject_id, hooks.record(loaded.facts, subject, answers, DAY, None, "o")))
    return record.prepare(loaded, filings)


def _same_as_a_fresh_load(prepared: record.Prepared, path: Path) -> None:
    path.write_bytes(prepared.contents[path])
    fresh = load_facts(path)
    assert prepared.loaded.facts.model_dump() == fresh.facts.model_dump()
    assert prepared.loaded.sha256 == fresh.sha256
    people = fresh.facts.participants
    paths = [("plan_year",), ("participants",), ("participants", len(people) - 1)]
    for index, person in enumerate(people):
        paths += [("participants", index), ("participants", index, "id")]
        paths += [("participants", index, key) for key in person.model_fields_set]
        paths += [("participants", index, "elections", n) for n in range(len(person.elections))]
        paths += [("participants", index, "beneficiaries", n, "name") for n in range(2)]
    for fact in paths:
        assert prepared.loaded.source.locate(fact) == fresh.source.locate(fact), fact


@pytest.mark.parametrize("which", [[0], [-1], [5], [0, 3, -2, -1]])
def test_the_facts_handed_on_are_a_fresh_load_of_the_written_file(roster, proofs, which):
    eligible = _eligible(roster)
    prepared = _prepared(roster, [eligible[n] for n in which])
    assert proofs == ["subjects"]
    _same_as_a_fresh_load(prepared, roster)


def test_every_byte_outside_the_edited_subjects_is_kept(roster, proofs):
    subject = _eligible(roster)[2]
    before = roster.read_text(encoding="utf-8")
    after = _prepared(roster, [subject]).contents[roster].decode("utf-8")
    start = before.rfind("\n", 0, before.index(subject))  # the end of the line before it
    assert after[:start] == before[:start]
    tail = before[before.rfind("\n", 0, before.index(_eligible(roster)[3])) :]
    assert after.endswith(tail) and len(after) > len(before)


def test_elect_through_the_command_records_and_checks_on_the_proved_facts(roster, proofs):
    subject = _eligible(roster)[-1]
    result = elect(roster, subject, {"salary-percent": "9"}, received_on=DAY, as_of=DAY)
    assert proofs == ["subjects"] and result.written == [roster]
    fresh = load_facts(roster)
    person = fresh.facts.participant(subject)
    assert person.elections[-1].percent == 9 and person.elections[-1].made_on == DAY
    assert result.report.facts.sha256 == fresh.sha256


ANCHORED = """\
kind: rrp-plan-year
company: {name: "CarMax, Inc.", publicly_traded: true}
plan:
  name: CarMax, Inc. Retirement Restoration Plan
  investment_options: [Stable Value Fund, S&P 500 Index Fund]
plan_year: 2026
participants:
  - id: e1
    name: Pat One
    eligible_employee: true
    compensation: "400000"
    hired_on: 2015-04-01
    beneficiaries: &family [{name: Sam One, percent: 100}]
  - id: e2
    name: Pat Two
    eligible_employee: true
    compensation: "400000"
    hired_on: 2015-04-01
    beneficiaries: *family
"""


def test_an_anchor_in_the_edited_subject_is_proved_by_reading_the_file_whole(tmp_path, proofs):
    path = tmp_path / "anchored.yaml"
    path.write_text(ANCHORED, encoding="utf-8")
    prepared = _prepared(path, ["e1"], {"salary-percent": "7"})
    assert proofs == ["whole"]
    _same_as_a_fresh_load(prepared, path)


def test_a_flow_style_list_of_subjects_is_composed_whole(tmp_path, proofs):
    text = ANCHORED.split("participants:")[0] + (
        "participants: [{id: e1, name: Pat One, eligible_employee: true, "
        'compensation: "400000", hired_on: 2015-04-01},\n'
        '  {id: e2, name: Pat Two, eligible_employee: true, compensation: "400000", '
        "hired_on: 2015-04-01}]\n"
    )
    path = tmp_path / "flow.yaml"
    path.write_text(text, encoding="utf-8")
    prepared = _prepared(path, ["e2"])
    assert proofs == ["whole"]
    _same_as_a_fresh_load(prepared, path)


def _edited(path: Path, subject: str) -> tuple[object, EditedText, dict, bytes]:
    """What prepare hands the proof for one recording."""
    loaded = load_facts(path)
    captured = {}

    def keep(loaded, kind, edited, intended, identity):
        captured.update(kind=kind, edited=edited, intended=intended, identity=identity)
        return proven(loaded, kind, edited, intended, identity)

    record_proven = record.proven
    record.proven = keep
    try:
        _prepared(path, [subject])
    finally:
        record.proven = record_proven
    return loaded, captured["edited"], captured["intended"], captured["identity"]


def test_a_change_outside_the_edited_subjects_is_not_as_intended(roster):
    loaded, edited, intended, identity = _edited(roster, _eligible(roster)[1])
    strayed = dataclasses.replace(edited, new=edited.new.replace("plan_year", "plan_yeer", 1))
    with pytest.raises(NotAsIntended, match="outside the subjects edited"):
        proven(loaded, kind_of(loaded.facts), strayed, intended, identity)


def test_a_subject_that_reads_back_otherwise_is_not_as_intended(roster):
    loaded, edited, intended, identity = _edited(roster, _eligible(roster)[1])
    (index,) = intended
    other = {index: {**intended[index], "name": "Somebody Else"}}
    with pytest.raises(NotAsIntended, match="does not read back"):
        proven(loaded, kind_of(loaded.facts), edited, other, identity)


@pytest.mark.parametrize("newline", ["\r\n", "\r", "\u2028", "%YAML"])
def test_a_file_with_crlf_is_proved_on_its_subjects_and_one_with_other_breaks_whole(
    tmp_path, proofs, newline
):
    path = realistic.write_yaml(realistic.rrp_facts(12), tmp_path / "rrp.yaml")
    text = path.read_text(encoding="utf-8")
    if newline == "\r\n":
        text = text.replace("\n", "\r\n")
    elif newline == "%YAML":  # a directive could change what a tag in a subject means
        text = "%YAML 1.2\n---\n" + text
    else:  # one lone CR or LS, a blank line: a line break to PyYAML, not to "\n"
        text = text.replace("participants:\n", f"participants:\n{newline}", 1)
    path.write_bytes(("\ufeff" + text).encode("utf-8"))
    subject = _eligible(path)[4]
    prepared = _prepared(path, [subject])
    assert proofs == (["subjects"] if newline == "\r\n" else ["whole"])
    assert prepared.contents[path].startswith(b"\xef\xbb\xbf")
    _same_as_a_fresh_load(prepared, path)


def test_a_director_listed_beside_a_roster_is_proved_and_the_facts_identity_covers_the_roster(
    samples, tmp_path, proofs
):
    grant = (samples / "director-grant-2026.yaml").read_text(encoding="utf-8")
    jsmith = grant[grant.index("  - id: jsmith") : grant.index("  - id: rgarcia")]
    text = (samples / "director-grant-2026-roster.yaml").read_text(encoding="utf-8")
    text = text.replace("directors: []", "directors:", 1).replace(
        "# directors may also be listed here, beside the roster\n", "\n" + jsmith, 1
    )
    path = tmp_path / "grant.yaml"
    path.write_text(text, encoding="utf-8")
    (tmp_path / "roster.csv").write_bytes((samples / "roster.csv").read_bytes())
    options = {"pay-on": "separation", "printed-name": "Jane Q. Smith", "signed-on": "2026-06-01"}
    result = elect(path, "jsmith", options, received_on=date(2026, 6, 2), as_of=date(2026, 6, 2))
    assert proofs == ["subjects"] and result.written == [path]
    fresh = load_facts(path)
    assert result.report.facts.sha256 == fresh.sha256
    assert fresh.facts.directors[0].elections[-1].filed_on == date(2026, 6, 2)


def test_the_facts_models_own_checks_run_again_on_the_proved_facts(roster):
    """A proof on the subjects puts the facts together without validating the whole model, so
    the model's own "after" checks (a bonus paid outside the Plan Year, Plan 1.21) run again."""
    from docgen.intake.proof import _whole_model_checks

    loaded = load_facts(roster)
    _whole_model_checks(loaded.facts)  # the facts as loaded pass
    people = list(loaded.facts.participants)
    people[0] = people[0].model_copy(update={"bonus_paid_on": date(2031, 3, 13)})
    edited = loaded.facts.model_copy(update={"participants": people})
    with pytest.raises(NotAsIntended, match="bonus_paid_on 2031-03-13 is not in the"):
        _whole_model_checks(edited)
