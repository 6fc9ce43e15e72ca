"""The JSON fast path finds each fact's line on demand (docgen.load.json_reader): the line of
every path, asked in any order, is the line the YAML reader records for the same text (JSON is
YAML), and locating a finding deep in a long list skips only what comes before it."""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from docgen.core.errors import LoadError
from docgen.core.numbers import SourceNumber
from docgen.load.json_reader import (
    _JsonLocator,
    _negative_zero,
    _pairs_without_duplicates,
    _parse,
    load_json,
)
from docgen.load.yaml_reader import compose

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import realistic  # noqa: E402


def _text(indent: int | None = 2) -> str:
    facts = realistic._plain(realistic.rrp_facts(30))
    return json.dumps(facts, indent=indent, ensure_ascii=False) + "\n"


def _counting(locator: _JsonLocator) -> tuple[_JsonLocator, list[int]]:
    """The locator, and the offsets of every value it skips over from now on."""
    skipped: list[int] = []
    value_end = locator._value_end

    def counting(at: int) -> int:
        skipped.append(at)
        return value_end(at)

    locator._value_end = counting  # type: ignore[method-assign]
    return locator, skipped


def test_every_path_has_the_yaml_readers_line_in_any_order():
    text = _text()
    _, lines = compose(text, "f.json")
    paths = [path for path in lines if path]
    random.Random(27).shuffle(paths)
    locator = _JsonLocator(text)
    assert {path: locator.line(path) for path in paths} == {path: lines[path] for path in paths}


def test_asked_again_and_backwards_the_lines_hold():
    text = _text()
    _, lines = compose(text, "f.json")
    locator = _JsonLocator(text)
    deep = ("participants", 29, "beneficiaries", 1)
    first = ("participants", 0, "name")
    assert locator.line(deep) == lines[deep]
    assert locator.line(first) == lines[first]  # behind the last line counted
    assert locator.line(deep) == lines[deep]  # asked again
    assert locator.line(("participants", 30)) is None  # past the end of the list
    assert locator.line(("participants", 3, "no_such_field")) is None
    assert locator.line(("kind",)) == lines[("kind",)]


def test_a_member_is_found_without_skipping_the_list_it_is_in():
    # The root's members after ``participants`` are not listed until asked for: finding a
    # participant skips the members before it, never the whole list as one value.
    text = _text()
    locator, skipped = _counting(_JsonLocator(text))
    assert locator.line(("participants", 2, "id")) is not None
    list_at = text.index("[", text.index('"participants"'))
    assert list_at not in skipped
    assert len([at for at in skipped if at > list_at]) < 10  # two participants and a few fields


def test_one_line_json_has_every_fact_on_line_one():
    text = _text(indent=None)
    locator = _JsonLocator(text)
    assert locator.line(("participants", 29, "elections", 0, "made_on")) == 1


# ------------------------------------------------- one reading: the value, and where items start

_WALKED_TEXTS = [
    '{"kind": "rrp-plan-year", "participants": [{"id": "e1"}, {"id": "e2", "n": [1, 2.50]}]}',
    "{}",
    " \n{ } \n",
    '{"participants": []}',
    '{"participants": [ ], "directors": [\n  {"id": "a"}\n ,{"id": "b"}  ]}',
    '{"a": 1, "b": [[1], [2, [3]], {}], "c": {"d": [true, false, null]}, "e": "x"}',
    '{"a" : -0.0 , "b":\t[ 1e400 , NaN ] }\r\n',
    '{"esc\\"aped": "\\u00e9\\n", "list": ["]", "[", "}", ","]}',
]


@pytest.mark.parametrize("text", _WALKED_TEXTS)
def test_the_walk_reads_what_json_loads_reads(text):
    value, members = _parse(text)
    expected = json.loads(
        text,
        object_pairs_hook=_pairs_without_duplicates,
        parse_float=SourceNumber,
        parse_constant=SourceNumber,
    )
    assert value == expected
    assert () in members  # read member by member: the locator starts from what it found
    for key, listed in members.items():
        if key:
            assert listed.done and len(listed.entries) == len(value[key[0]])


@pytest.mark.parametrize(
    "text",
    [
        "[1, 2,]",  # not an object at the top
        '{"a": [1, 2,]}',  # a trailing comma
        '{"a": 1,}',
        '{"a": 1} {"b": 2}',  # more after the object
        '{"a": [1 2]}',  # a missing comma
        '{"a" 1}',
        '{"a": [1, 2}',
        '{"a": tru}',
        '{"a": "no end',
        "",
    ],
)
def test_a_text_the_walk_does_not_take_has_json_loads_words(text):
    with pytest.raises(json.JSONDecodeError) as expected:
        json.loads(text)
    with pytest.raises(LoadError) as refused:
        load_json(text, "f.json")
    (problem,) = refused.value.problems
    assert problem.line == expected.value.lineno
    assert expected.value.msg in problem.what
    assert f"column {expected.value.colno}" in (problem.fix or "")


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1, "a": 2}',
        '{"participants": [{"id": "e1"}, {"id": "e2", "id": "e3"}]}',
        '{"participants": [{"id": "e1"}], "participants": []}',
    ],
)
def test_a_duplicate_key_anywhere_is_left_to_the_yaml_reader(text):
    assert load_json(text, "f.json") is None


def test_a_list_at_the_top_is_read_whole():
    assert _parse('[1, {"a": 2}]') == ([1, {"a": 2}], {})


def test_a_long_integer_is_still_read_as_its_text():
    text = '{"participants": [{"compensation": ' + "9" * 5000 + "}]}"
    value, members = _parse(text)
    assert type(value["participants"][0]["compensation"]) is SourceNumber
    assert members == {}  # read by json.loads, the locator lists members when asked


def test_lines_from_the_walk_are_the_yaml_readers_and_read_no_item_again():
    text = _text()
    _, lines = compose(text, "f.json")
    _, members = _parse(text)
    locator, skipped = _counting(_JsonLocator(text, members))
    paths = [path for path in lines if path]
    random.Random(28).shuffle(paths)
    assert {path: locator.line(path) for path in paths} == {path: lines[path] for path in paths}
    starts = {entry[0] for entry in members[("participants",)].entries.values()}
    assert len(starts) == 30
    assert not starts & set(skipped)  # no participant was read again as a whole


def test_load_json_hands_the_walk_to_the_source_map():
    text = _text()
    data, source = load_json(text, "f.json")
    _, lines = compose(text, "f.json")
    path = ("participants", 29, "beneficiaries", 1, "name")
    assert source.where(path) == ("f.json", lines[path], None)
    assert data == json.loads(text, parse_float=SourceNumber)


# ------------------------------------------------------------------ an integer written -0

_OLD_NEGATIVE_ZERO = re.compile(r"[:\[,][ \t\n\r]*-0[ \t\n\r]*[,\]}]")


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ('{"a": -0}', True),
        ('{"a": [1, -0 ]}', True),
        ('{"a": [\n  -0\n]}', True),
        ('{"a":-0,"b":1}', True),
        ('{"made_on": "2026-01-05"}', False),
        ('{"a": -0.0}', False),  # a decimal keeps its text anyway
        ('{"a": "x-0,"}', False),
        ('{"a": "-0,"}', False),
        ('{"a": "y,-0]"}', True),  # inside a string: every integer is then read as its text
    ],
)
def test_negative_zero_is_found_where_the_whole_pattern_found_it(text, found):
    assert _negative_zero(text) is found
    assert bool(_OLD_NEGATIVE_ZERO.search(text)) is found


@given(st.text(alphabet=' \t\n\r:[],}{-0"1a.', max_size=40))
def test_negative_zero_agrees_with_the_whole_pattern(text):
    assert _negative_zero(text) is bool(_OLD_NEGATIVE_ZERO.search(text))
