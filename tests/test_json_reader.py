"""The JSON reader (docgen.load.json_reader): the standard library's parser with its hooks, every
number as its source text, a key written twice refused at its line, and a fact's line found only
when asked: the line the YAML reader records for the same text (JSON is YAML), in any order."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from docgen.core.errors import LoadError
from docgen.core.numbers import SourceNumber
from docgen.load.json_reader import JsonNode, json_source, load_json, scan
from docgen.load.yaml_facts import read_yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import realistic  # noqa: E402


def _text(indent: int | None = 2) -> str:
    facts = realistic._plain(realistic.rrp_facts(30))
    return json.dumps(facts, indent=indent, ensure_ascii=False) + "\n"


def test_every_path_has_the_yaml_readers_line_in_any_order():
    text = _text()
    _, lines = read_yaml(text, "f.json")
    paths = list(lines)
    random.Random(27).shuffle(paths)
    source = json_source(text, "f.json")
    assert {path: source.line_in_file(path) for path in paths} == lines


def test_a_path_not_in_the_file_has_no_line_of_its_own():
    text = _text()
    source = json_source(text, "f.json")
    assert source.line_in_file(("participants", 30)) is None  # past the end of the list
    assert source.line_in_file(("participants", 3, "no_such_field")) is None
    assert source.line_in_file(("kind", 0)) is None  # inside a value that is no container
    # ... and is placed on its nearest ancestor's line
    assert source.locate(("participants", 3, "no_such_field")) == source.locate(("participants", 3))


def test_one_line_json_has_every_fact_on_line_one():
    source = json_source(_text(indent=None), "f.json")
    assert source.line_in_file(("participants", 29, "elections", 0, "made_on")) == 1


def test_a_fact_is_found_without_walking_the_lists_before_it(monkeypatch):
    """Finding a participant's field lists the members of the containers on the way to it; every
    value before it is skipped by the decoder, never walked."""
    walked: list[int] = []
    real_walk = JsonNode._walk

    def counting(node: JsonNode):
        walked.append(node.start)
        return real_walk(node)

    monkeypatch.setattr(JsonNode, "_walk", counting)
    text = _text()
    assert json_source(text, "f.json").line_in_file(("participants", 2, "beneficiaries", 1))
    assert len(walked) == 4  # the file, the list, the participant, its beneficiaries


@pytest.mark.parametrize(
    "text",
    [
        "[1, 2,]",
        '{"a": [1, 2,]}',  # a trailing comma
        '{"a": 1,}',
        '{"a": 1} {"b": 2}',  # more after the object
        '{"a": [1 2]}',  # a missing comma
        '{"a" 1}',
        '{"a": [1, 2}',
        '{"a": tru}',
        '{"a": "no end',
        '{"a": "\x07"}',  # a control character inside a string
        "",
    ],
)
def test_a_text_the_parser_refuses_has_its_words(text):
    with pytest.raises(json.JSONDecodeError) as expected:
        json.loads(text)
    with pytest.raises(LoadError) as refused:
        load_json(text, "f.json")
    (problem,) = refused.value.problems
    assert problem.line == expected.value.lineno
    assert problem.what == f"not valid JSON: {expected.value.msg}"
    assert f"column {expected.value.colno}" in (problem.fix or "")


def test_every_key_written_twice_is_refused_at_its_line():
    text = (
        '{\n  "a": 1,\n  "participants": [\n    {"id": "e1"},\n    {"id": "e2",\n     "id": "e3",'
        '\n     "x": {"y": 1, "y": 2}}\n  ],\n  "a": {"z": 1, "z": 2}\n}\n'
    )
    with pytest.raises(LoadError) as refused:
        load_json(text, "f.json")
    assert [str(problem) for problem in refused.value.problems] == [
        "f.json:6: participants[1].id: this key appears twice. Keep one of the two entries.",
        "f.json:7: participants[1].x.y: this key appears twice. Keep one of the two entries.",
        "f.json:9: a: this key appears twice. Keep one of the two entries.",
    ]


def test_every_number_is_its_source_text():
    text = '{"a": -0, "b": 2450, "c": 45.10, "d": 1e5, "e": NaN, "f": [' + "9" * 5000 + "]}"
    data, _ = load_json(text, "f.json")
    assert data == {
        "a": SourceNumber("-0"),
        "b": SourceNumber("2450"),
        "c": SourceNumber("45.10"),
        "d": SourceNumber("1e5"),
        "e": SourceNumber("NaN"),
        "f": [SourceNumber("9" * 5000)],
    }
    assert json_source(text, "f.json").line_in_file(("f", 0)) == 1  # skipped as text too


def test_nesting_past_the_parsers_limit_is_refused_at_its_line():
    text = '{\n  "a": 1,\n  "deep": ' + "[" * 100_000 + "]" * 100_000 + "\n}\n"
    with pytest.raises(LoadError) as refused:
        load_json(text, "f.json")
    (problem,) = refused.value.problems
    assert (problem.line, problem.what) == (3, "nested more than 20 levels deep")


def test_the_editor_and_the_locator_walk_the_same_nodes():
    text = _text()
    root = scan(text)
    people = root.member("participants")
    assert people is not None
    at, node = people
    assert text[at : at + len('"participants"')] == '"participants"'
    assert [json.loads(text[p.start : p.end])["id"] for p in node.items] == [
        person["id"] for person in json.loads(text)["participants"]
    ]
