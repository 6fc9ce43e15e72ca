"""Recording a filing keeps the facts file as written: only the new entries change (docgen/intake/
yaml_text.py, json_text.py, roster_text.py, record.py).

Each case edits a small file, then asserts two things: the new text reads back as the old data
plus exactly the edit, and the old text survives line for line (every line not replaced is still
there, in order: comments, blank lines, quoting, ``null``, brace spacing).
"""

from __future__ import annotations

import difflib
import io
import json
from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ruamel.yaml import YAML

from docgen.intake.json_text import JsonText
from docgen.intake.roster_text import RosterText
from docgen.intake.yaml_text import YamlText, _scalar

ELECTION = {
    "grant_id": "2026-annual",
    "filed_on": date(2026, 6, 10),
    "percent": 100,
    "pay_on": "separation",
}


def load(text: str):
    return YAML(typ="safe", pure=True).load(io.StringIO(text))


def kept(old: str, new: str, replaced: int = 0) -> list[str]:
    """The lines the edit added; fails if it removed or changed more than ``replaced`` lines."""
    changed, added = 0, []
    matcher = difflib.SequenceMatcher(a=old.splitlines(True), b=new.splitlines(True))
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "delete"):
            changed += i2 - i1
        if tag in ("replace", "insert"):
            added += new.splitlines()[j1:j2]
    assert changed <= replaced, "".join(
        difflib.unified_diff(old.splitlines(True), new.splitlines(True))
    )
    return added


def append(text: str, index: int, key: str, items: list) -> str:
    editor = YamlText(text)
    people = editor.subjects("directors")
    editor.append(people[index], key, items, [p for n, p in enumerate(people) if n != index])
    return editor.result()


def put(text: str, index: int, key: str, value) -> str:
    editor = YamlText(text)
    people = editor.subjects("participants")
    editor.put(people[index], key, value, [p for n, p in enumerate(people) if n != index])
    return editor.result()


DIRECTORS = """\
# a comment at the top
kind: director-rsu-grant          # trailing comment
grant: { id: 2026-annual, note: null }
directors:
  - id: a                          # first
    name: "Ann A."
    elections:
      - grant_id: 2026-annual
        filed_on: 2026-05-01       # keep me
        percent: 100
        pay_on: separation
    # a comment after the list

  - id: b
    name: Bo B.
    elections: []                  # none yet
  - id: c
    name: Cy C.
    elections: []
  - id: d
    name: Di D.
    units: 10
  - {id: e, name: Ed E., elections: []}
"""


def test_a_new_item_follows_the_last_one_in_its_style():
    new = append(DIRECTORS, 0, "elections", [ELECTION])
    assert len(kept(DIRECTORS, new)) == 4
    assert (
        "        pay_on: separation\n"
        "      - grant_id: 2026-annual\n"
        "        filed_on: 2026-06-10\n"
        "        percent: 100\n"
        "        pay_on: separation\n"
        "    # a comment after the list\n"
    ) in new
    assert load(new)["directors"][0]["elections"][1] == ELECTION
    assert "    # a comment after the list\n" in new and "# keep me" in new


def test_an_empty_list_with_a_comment_becomes_a_block_list_and_keeps_the_comment():
    new = append(DIRECTORS, 1, "elections", [ELECTION])
    assert "    elections:                     # none yet\n      - grant_id: 2026-annual\n" in new
    assert load(new)["directors"][1]["elections"] == [ELECTION]
    kept(DIRECTORS, new, replaced=1)


def test_an_empty_list_without_a_comment_leaves_no_trailing_space():
    new = append(DIRECTORS, 2, "elections", [ELECTION])
    assert "    elections:\n      - grant_id: 2026-annual\n" in new
    assert load(new)["directors"][2]["elections"] == [ELECTION]


def test_a_missing_list_is_added_at_the_subjects_indentation():
    new = append(DIRECTORS, 3, "elections", [ELECTION, {**ELECTION, "pay_on": "date"}])
    added = kept(DIRECTORS, new)
    assert added[0] == "    elections:" and added[1] == "      - grant_id: 2026-annual"
    assert load(new)["directors"][3]["elections"][1]["pay_on"] == "date"


def test_a_subject_written_in_flow_style_is_edited_in_flow_style():
    new = append(DIRECTORS, 4, "elections", [ELECTION])
    assert load(new)["directors"][4]["elections"] == [ELECTION]
    assert new.splitlines()[-1].startswith("  - {id: e, name: Ed E., elections: [{grant_id:")


def test_flow_items_and_brace_spacing_are_copied():
    text = """participants:
  - id: p1
    investments: { "Stable Value Fund": 40, "S&P 500 Index Fund": 60 }   # total 100
    beneficiaries: [{ name: Sam, relationship: spouse, percent: 100 }]
    elections:
      - { kind: salary, plan_year: 2026, percent: 10, made_on: 2025-12-10 }
  - id: p2
    investments: {}
    elections: []
"""
    editor = YamlText(text)
    p1, p2 = editor.subjects("participants")
    election = {
        "kind": "bonus",
        "plan_year": 2026,
        "percent": Decimal("7.5"),
        "made_on": date(2025, 12, 11),
    }
    editor.append(p1, "elections", [election], [p2])
    editor.put(p1, "investments", {"Bond Index Fund": Decimal(100)}, [p2])
    editor.append(p2, "elections", [election], [p1])
    new = editor.result()
    assert '    investments: { "Bond Index Fund": 100 }   # total 100\n' in new
    assert "      - { kind: bonus, plan_year: 2026, percent: 7.5, made_on: 2025-12-11 }\n" in new
    data = load(new)
    assert data["participants"][1]["elections"][0]["percent"] == 7.5
    assert data["participants"][0]["investments"] == {"Bond Index Fund": 100}


def test_a_block_value_is_replaced_in_block_style():
    text = """participants:
  - id: p1
    beneficiaries:
      - name: Sam
        percent: 100
    investments:
      Stable Value Fund: 100   # all in one
    hired_on: 2015-04-01
"""
    new = put(
        text,
        0,
        "beneficiaries",
        [
            {"name": "Kim: the elder", "percent": Decimal(50)},
            {"name": "Lee", "relationship": "child", "percent": Decimal(50)},
        ],
    )
    assert load(new)["participants"][0]["beneficiaries"][0]["name"] == "Kim: the elder"
    assert "    investments:\n      Stable Value Fund: 100   # all in one\n" in new
    assert '      - name: "Kim: the elder"\n' in new


def test_a_missing_mapping_is_added():
    text = "participants:\n  - id: p1\n    name: P\n"
    new = put(text, 0, "investments", {"S&P 500 Index Fund": Decimal(60), "Bond": Decimal(40)})
    assert load(new)["participants"][0]["investments"] == {"S&P 500 Index Fund": 60, "Bond": 40}


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_line_endings_are_kept(newline):
    text = DIRECTORS.replace("\n", newline)
    new = append(text, 0, "elections", [ELECTION])
    assert new.count("\r\n") == (new.count("\n") if newline == "\r\n" else 0)


@given(st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=40))
def test_any_text_is_written_so_it_reads_back_as_itself(text):
    block, flow = _scalar(text), _scalar(text, flow=True)
    assert load(f"k: {block}") == {"k": text}
    assert load(f"{block}: 1") == {text: 1}
    assert load(f"k: [{flow}]") == {"k": [text]}
    if text != "k":  # a key named k would repeat the mapping's other key
        assert load(f"{{{flow}: 1, k: {flow}}}") == {text: 1, "k": text}


MISREAD = [
    "yes",
    "No",
    "null",
    "~",
    "2026-01-01",
    "100",
    "1e3",
    "- a",
    "a: b",
    "a #b",
    "#x",
    "&anchor",
    "*alias",
    "!tag",
    "'q",
    '"q',
    " pad",
    "José Núñez",
    "S&P 500",
    "@x",
    "%x",
    "`x",
    "{x}",
]


@pytest.mark.parametrize("text", MISREAD)
def test_text_that_plain_yaml_would_misread_is_quoted(text):
    assert load(f"k: {_scalar(text)}")["k"] == text


# ------------------------------------------------------------------------------------ JSON


@pytest.mark.parametrize("indent", [2, 4, "\t"])
def test_json_keeps_its_indentation(indent):
    data = {
        "kind": "director-rsu-grant",
        "directors": [
            {"id": "a", "elections": []},
            {"id": "b", "elections": [{"grant_id": "x", "percent": 100}]},
            {"id": "c"},
        ],
    }
    text = json.dumps(data, indent=indent, ensure_ascii=False) + "\n"
    editor = JsonText(text)
    a, b, c = editor.subjects("directors")
    item = {"grant_id": "2026-annual", "filed_on": date(2026, 6, 10), "pay_on": "separation"}
    editor.append(a, "elections", [item], [])
    editor.append(b, "elections", [item], [])
    editor.append(c, "elections", [item], [])
    new = editor.result()
    expected = json.loads(text)
    plain = {**item, "filed_on": "2026-06-10"}
    for person in expected["directors"]:
        person.setdefault("elections", []).append(plain)
    assert json.loads(new) == expected
    assert new == json.dumps(expected, indent=indent, ensure_ascii=False) + "\n"


def test_json_on_one_line_stays_on_one_line_and_escapes_as_the_file_does():
    text = (
        '{"participants": [{"id": "p", "name": "Jos\\u00e9", "elections": [{"kind": "salary"}]}]}'
    )
    editor = JsonText(text)
    (person,) = editor.subjects("participants")
    editor.append(person, "elections", [{"kind": "bonus", "percent": Decimal("7.5")}], [])
    editor.put(person, "investments", {"Fondo Ñ": Decimal(100)}, [])
    new = editor.result()
    assert "\n" not in new and "\\u00d1" in new
    assert json.loads(new)["participants"][0]["elections"][1] == {"kind": "bonus", "percent": 7.5}


# ---------------------------------------------------------------------------------- roster


def test_a_roster_row_gets_its_cells_and_nothing_else_changes():
    text = 'id,name,units,election_grant_id\r\na,"Ann, A.",100,\r\nb,"Bo ""B""",200\r\n'
    roster = RosterText(text)
    row = roster.row_of("b")
    assert roster.cells(row) == {"id": "b", "name": 'Bo "B"', "units": "200"}
    roster.set(
        row,
        {
            "election_grant_id": "2026-annual",
            "election_pay_on": "date",
            "election_pay_date": "2030-07-01",
        },
    )
    new = roster.result()
    assert new == (
        "id,name,units,election_grant_id,election_pay_on,election_pay_date\r\n"
        'a,"Ann, A.",100,\r\n'
        'b,"Bo ""B""",200,2026-annual,date,2030-07-01\r\n'
    )


def test_a_list_shared_through_an_alias_is_refused_not_changed_for_everyone():
    from docgen.intake.yaml_text import YamlEditError

    text = "directors:\n  - id: a\n    elections: &none []\n  - id: b\n    elections: *none\n"
    editor = YamlText(text)
    a, b = editor.subjects("directors")
    with pytest.raises(YamlEditError, match="alias"):
        editor.append(b, "elections", [ELECTION], [a])
