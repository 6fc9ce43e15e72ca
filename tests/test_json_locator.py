"""The JSON fast path finds each fact's line on demand (docgen.load.json_reader): the line of
every path, asked in any order, is the line the YAML reader records for the same text (JSON is
YAML), and locating a finding deep in a long list skips only what comes before it."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from docgen.load.json_reader import _JsonLocator
from docgen.load.yaml_reader import compose

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import realistic  # noqa: E402


def _text(indent: int | None = 2) -> str:
    facts = realistic._plain(realistic.rrp_facts(30))
    return json.dumps(facts, indent=indent, ensure_ascii=False) + "\n"


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
    locator = _JsonLocator(text)
    skipped: list[int] = []
    value_end = locator._value_end

    def counting(at: int) -> int:
        skipped.append(at)
        return value_end(at)

    locator._value_end = counting  # type: ignore[method-assign]
    assert locator.line(("participants", 2, "id")) is not None
    list_at = text.index("[", text.index('"participants"'))
    assert list_at not in skipped
    assert len([at for at in skipped if at > list_at]) < 10  # two participants and a few fields


def test_one_line_json_has_every_fact_on_line_one():
    text = _text(indent=None)
    locator = _JsonLocator(text)
    assert locator.line(("participants", 29, "elections", 0, "made_on")) == 1
