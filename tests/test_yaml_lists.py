"""The reading of large YAML files by their top-level lists (docgen.load.yaml_lists) against the
usual reading of the whole file (docgen.load.yaml_reader.compose): the same facts, the same line
for every path (recorded or found when asked), the same refusal word for word, whatever the
text's shape; and it takes the lists' way where it can, the usual way where it cannot."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from docgen.core.errors import LoadError
from docgen.load import load_facts, yaml_libyaml, yaml_lists, yaml_reader
from docgen.load.source import SourceMap
from docgen.load.yaml_layout import top_level_lists

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import realistic  # noqa: E402

YAML_FILES = sorted(
    path
    for folder in ("samples", "tests/fixtures", "tests/cases", "tests/toykind")
    for path in (ROOT / folder).rglob("*.y*ml")
)

pytestmark = pytest.mark.skipif(not yaml_libyaml.available(), reason="PyYAML without libyaml")


def outcome(read, text: str):
    try:
        return "ok", read(text, "f.yaml")
    except LoadError as error:
        return "refused", repr(error.problems)


def agree(text: str, *, by_lists: bool | None = None) -> None:
    """The two readings agree on ``text``; ``by_lists``: whether the lists' way must be taken."""
    usual = outcome(yaml_reader.compose, text)
    new = outcome(yaml_lists.read_yaml, text)
    assert usual[0] == new[0], (text, usual, new)
    if usual[0] == "refused":
        assert usual[1] == new[1], text
        return
    (data, lines), (new_data, new_lines, find) = usual[1], new[1]
    assert repr(new_data) == repr(data), text
    if by_lists is not None:
        assert (find is not None) == by_lists, text
    if find is None:
        assert new_lines == lines, text
        return
    # Every line recorded is right, and every other one is found when asked ...
    assert all(lines[path] == line for path, line in new_lines.items()), text
    for path, line in lines.items():
        assert new_lines.get(path) or find(path) == line, (text, path)
    # ... and a path that is not in the file is placed on its nearest ancestor's line, as before.
    usual_map, new_map = SourceMap("f.yaml", lines), SourceMap("f.yaml", new_lines, find)
    for path in lines:
        for asked in (path, (*path, "not_a_field"), (*path, 99)):
            assert new_map.where(asked) == usual_map.where(asked), (text, asked)
            assert new_map.line_in_file(asked) == usual_map.line_in_file(asked), (text, asked)


@pytest.fixture(autouse=True)
def small_runs(monkeypatch):
    """Runs of two items, so that every file's lists are composed in several runs."""
    monkeypatch.setattr(yaml_lists, "CHUNK", 2)


@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_sample_and_fixture_reads_alike(path):
    agree(path.read_text(encoding="utf-8-sig"))


def test_the_samples_are_read_by_their_lists():
    for name in ("rrp-2026.yaml", "director-grant-2026.yaml", "rrp-2026-year.yaml"):
        text = (ROOT / "samples" / name).read_text(encoding="utf-8")
        assert yaml_lists.read_yaml(text, name)[2] is not None, name


@pytest.mark.parametrize("count", [1, 2, 3, 7])
def test_realistic_rosters_read_alike(tmp_path, count):
    for facts in (realistic.rrp_facts(count), realistic.director_facts(count)):
        path = realistic.write_yaml(facts, tmp_path / "facts.yaml")
        text = path.read_text(encoding="utf-8")
        agree(text, by_lists=True)
        agree(text.replace("\n", "\r\n"), by_lists=True)


HEAD = "kind: rrp-plan-year\nplan_year: 2026\n"
ITEM = "- id: e1\n  name: Pat One\n  percent: 5\n"

# Shapes the lists' way reads as they are (True), or leaves to the usual reading (False).
SHAPES = {
    "plain": (HEAD + "participants:\n" + ITEM + "- id: e2\n  name: Sam\n", True),
    "indented under its key": (
        HEAD + "participants:\n  - id: e1\n    name: A\n  - id: e2\n    name: B\nafter: 1\n",
        True,
    ),
    "comments and blank lines between items": (
        HEAD + "participants:  # the roster\n\n# first\n" + ITEM + "\n  # e2 next\n# col 0\n"
        "- id: e2\n  name: B\n\n# trailing\nafter: x\n",
        True,
    ),
    "block scalars": (
        HEAD + "participants:\n- id: e1\n  note: |\n    - id: not an item\n    text\n"
        "  folded: >-\n\n    a\n    b\n\n- id: e2\n  note: |2\n   two\n",
        True,
    ),
    "quoted multi-line strings": (
        HEAD + "participants:\n- id: e1\n  name: \"Pat\n    One\"\n  other: 'a\n\n    b'\n"
        "- id: e2\n",
        True,
    ),
    "flow-style items": (
        HEAD + "participants:\n- {id: e1, name: A, elections: [{kind: salary}]}\n"
        "- id: e2\n  beneficiaries: [{name: X, percent: 100}]\n  investments: {A: 1}\n",
        True,
    ),
    "lists beside the subjects": (
        "kind: rrp-plan-year\ndates:\n- 2026-01-01\n- 2026-02-01\nparticipants:\n"
        + ITEM
        + "plan:\n  options:\n  - A\n  - B\nnotes:\n- [a, b]\n- - nested\n  - list\n",
        True,
    ),
    "a list at the end with no newline": (HEAD + "participants:\n" + ITEM + "- id: e2", True),
    "a leading document marker": ("---\n" + HEAD + "participants:\n" + ITEM, True),
    "tagged values": (
        HEAD + "participants:\n- id: !!str 12\n  n: !!int '7'\n  f: !!float 1.5\n  d: !!str x\n",
        True,
    ),
    "ids that are not text": (
        HEAD + "participants:\n- id: 12\n  n: 1\n- id: 2026-01-01\n  n: 2\n- id: {a: 1}\n  n: 3\n"
        "- id: .nan\n  n: 4\n- id:\n  n: 5\n- n: 6\n",
        True,
    ),
    "an empty item and a scalar item": (HEAD + "items:\n- a\n- ''\n- ~\n", True),
    "anchors but no alias": (HEAD + "participants:\n- &p id: e1\n- id: e2\n", True),
    "a dash alone on its line": (HEAD + "participants:\n-\n  id: e1\n- id: e2\n", False),
    "a comment after the dash": (HEAD + "participants:\n- # first\n  id: e1\n", False),
    "an item that is itself a list": (HEAD + "participants:\n- - id: e1\n  - id: e2\n", True),
    "a flow list": (HEAD + "participants: [{id: e1}, {id: e2}]\n", False),
    "an alias anywhere": (HEAD + "x: &a 1\nparticipants:\n- id: e1\n  n: *a\n", False),
    "a quoted string holding item lines": (
        HEAD + 'participants:\n- id: e1\n  name: "A\n- id: e2\n  x"\n- id: e3\n',
        False,
    ),
    "a top-level string holding a list": (
        'kind: rrp-plan-year\nnotes: "a\nparticipants:\n- id: e1\n"\nplan_year: 2026\n',
        False,
    ),
    "a flow list holding item lines": (
        HEAD + "participants:\n- id: e1\n  list: [a,\n- b]\n- id: e2\n",
        False,
    ),
    "a line indented less than the items": (
        HEAD + "participants:\n  - id: e1\n    name: A\n x: 1\n",
        False,
    ),
    "a lone carriage return": (HEAD + "participants:\n- id: e1\r  name: A\n", False),
    # A JSON-like key end ('"x":y') in the text: a flow collection with something in it, in an
    # item or outside the lists, sends the file the usual way; block style alone does not.
    "a JSON-like key end, block style only": (
        HEAD + 'participants:\n- id: e1\n  note: "If [On]:x"\n- id: e2\n',
        True,
    ),
    "a JSON-like key end and a flow list in an item": (
        HEAD + 'participants:\n- id: e1\n  note: "If [On]:x"\n  list: [a, b]\n- id: e2\n',
        False,
    ),
    "a JSON-like key end and a flow list outside the lists": (
        HEAD + 'extra: [a, b]\nparticipants:\n- id: e1\n  note: "If [On]:x"\n- id: e2\n',
        False,
    ),
    "a JSON-like key end and an empty flow list": (
        HEAD + 'participants:\n- id: e1\n  note: "If [On]:x"\n  list: []\n- id: e2\n',
        True,
    ),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_awkward_shapes_read_alike(shape):
    text, by_lists = SHAPES[shape]
    if outcome(yaml_reader.compose, text)[0] == "refused":
        by_lists = None  # a refusal: whichever way, the words are the usual reading's
    agree(text, by_lists=by_lists)
    crlf = text.replace("\r", "").replace("\n", "\r\n")
    if "\r" not in text:
        agree(crlf, by_lists=by_lists if outcome(yaml_reader.compose, crlf)[0] == "ok" else None)


# Problems the walkers meet inside an item: the file is read the usual way, which words them.
REFUSED = {
    "a duplicate key": "- id: e1\n  name: A\n  name: B\n",
    "a merge key": "- id: e1\n  <<: {name: A}\n",
    "a foreign tag": "- id: e1\n  x: !!python/object:os.system ls\n",
    "a value that is no boolean": "- id: e1\n  eligible_employee: !!bool yes\n",
    "a key that is a list": "- id: e1\n  ? [a]\n  : b\n",
    "nested too deep": "- id: e1\n  x: " + "[" * 30 + "]" * 30 + "\n",
    "a plain =": "- id: e1\n  x: =\n",
    "an item that does not parse": "- id: e1\n  name: 'A\n",
    "a duplicate list key": "- id: e1\nparticipants:\n- id: e2\n",
}


@pytest.mark.parametrize("problem", sorted(REFUSED))
def test_problems_inside_items_are_worded_as_before(problem):
    text = HEAD + "participants:\n- id: e0\n" + REFUSED[problem] + "- id: e9\n"
    assert outcome(yaml_reader.compose, text)[0] == "refused", problem
    agree(text)


def test_a_line_asked_for_is_found_in_its_item_alone(monkeypatch):
    """Only the item asked about is composed again, once, however often it is asked."""
    text = (
        HEAD
        + "participants:\n"
        + "".join(
            f"- id: e{i}\n  name: P{i}\n  elections:\n  - kind: salary\n    percent: {i}\n"
            for i in range(10)
        )
    )
    data, lines, find = yaml_lists.read_yaml(text, "f.yaml")
    assert find is not None
    assert lines[("participants", 7)] == 4 + 7 * 5
    assert ("participants", 7, "name") not in lines
    composed = []
    real = yaml_lists.compose_part
    monkeypatch.setattr(yaml_lists, "compose_part", lambda t: composed.append(t) or real(t))
    assert find(("participants", 7, "elections", 0, "percent")) == 4 + 7 * 5 + 4
    assert find(("participants", 7, "name")) == 4 + 7 * 5 + 1
    assert find(("participants", 7, "nothing")) is None
    assert find(("participants", 10, "name")) is None
    assert find(("plan_year", 0, "x")) is None
    assert composed == ["- id: e7\n  name: P7\n  elections:\n  - kind: salary\n    percent: 7\n"]


def test_the_layout_guess():
    text = "kind: x\nlist:  # c\n\n  - a\n  - b\n    - c\nafter:\n- d\n"
    first, second = top_level_lists(text)
    assert (first.field, first.key_line, first.lines) == ("list", 2, [4, 5])
    assert text[first.starts[1] : first.end] == "  - b\n    - c\n"
    assert (second.field, second.key_line, second.lines, second.end) == ("after", 7, [8], len(text))
    assert top_level_lists("list:\n  - a\n - b\n") is None
    assert top_level_lists("list:\n- a\r- b\n") is None
    assert top_level_lists("list: [a]\nother: 1\n") == []


def test_a_large_roster_loads_alike_both_ways(tmp_path, monkeypatch):
    """Through load_facts: the same facts and the same line for each finding's path."""
    monkeypatch.setattr(yaml_lists, "CHUNK", 16)
    path = realistic.write_yaml(realistic.rrp_facts(100), tmp_path / "rrp.yaml")
    new = load_facts(path)
    monkeypatch.setattr(yaml_lists, "_by_lists", lambda text, shown: None)
    usual = load_facts(path)
    assert new.facts == usual.facts and new.sha256 == usual.sha256
    assert len(new.source.lines) < len(usual.source.lines) / 10
    for key in usual.source.lines:
        assert new.source.where(key) == usual.source.where(key), key


# Pieces of an item's text (after its "- id: ..." line), each indented by the item's content
# column: the shapes a hand-kept or exported roster takes.
PIECES = [
    "name: Pat {n}\n",
    "percent: {n}\n",
    "made_on: 2026-01-{d:02d}\n",
    "note: |\n  line one {n}\n    - id: inside\n  end\n",
    "note: >-\n  folded\n\n  text {n}\n",
    "note: |+\n  kept\n\n",
    'quoted: "a {n}\n  b"\n',
    "single: 'it''s\n\n  {n}'\n",
    "flow: {{a: {n}, b: [1, 2]}}\n",
    "list:\n- x\n- y: {n}\n  z: 1\n",
    "inset:\n  - kind: salary\n    percent: {n}\n",
    "# a comment {n}\n",
    "\n",
    "empty:\n",
    "plain: a\n  continued {n}\n",
    "yes_word: yes\n",
    "date_time: 2026-01-{d:02d} 10:00:00\n",
]


# Pieces that make the lists' way give up (or the file be refused): the two readings must still
# agree on every value, line and message.
HAZARDS = [
    'quoted: "spans\n- id: fake\n  end"\n',
    "flow: [a,\n- b]\n",
    "alias: *nowhere\n",
    "twice: 1\ntwice: 2\n",
    "<<: {a: 1}\n",
    "tag: !!python/name:os.system\n",
    "bool: !!bool yes\n",
    "deep: " + "[" * 25 + "]" * 25 + "\n",
]


def _roster(rng, items: int, indent: int, hazards: bool = False) -> str:
    pad = " " * indent
    out = ["kind: rrp-plan-year\nplan:\n  name: P\n  options: [A, B]\nparticipants:\n"]
    for n in range(items):
        lines = [f"id: e{n}\n"]
        for piece in rng.sample(PIECES, rng.randint(0, 5)):
            lines.append(piece.format(n=n, d=n % 28 + 1))
        body = "".join(lines)
        text = "".join(
            (pad + "  " + line if line.strip() else line) for line in body.splitlines(True)
        )
        out.append(pad + "- " + text[len(pad) + 2 :])
        if hazards and rng.random() < 0.3:
            # its first line in the item, the others where they are written: at the first column
            first, _, rest = rng.choice(HAZARDS).partition("\n")
            out.append(pad + "  " + first + "\n" + rest)
        if rng.random() < 0.2:
            out.append(rng.choice(["# between\n", "\n", pad + "  # indented comment\n"]))
    if rng.random() < 0.5:
        out.append("after:\n- 1\n- [2]\nlast: x\n")
    return "".join(out)


@pytest.mark.parametrize("seed", range(40))
def test_generated_rosters_read_alike(seed):
    import random

    rng = random.Random(seed)
    text = _roster(rng, rng.randint(1, 9), rng.choice([0, 2, 4]))
    if rng.random() < 0.3:
        text = text.replace("\n", "\r\n")
    agree(text, by_lists=True)


@pytest.mark.parametrize("seed", range(40))
def test_generated_rosters_with_hazards_read_alike(seed):
    import random

    rng = random.Random(1000 + seed)
    text = _roster(rng, rng.randint(1, 9), rng.choice([0, 2]), hazards=True)
    if rng.random() < 0.3:
        text = text.replace("\n", "\r\n")
    agree(text)


def test_an_item_read_again_that_is_not_the_one_read_gives_no_line():
    """Should an item's text read again not be the item first read (its id differs), no line
    inside it is given: the item's own line is, never a wrong one."""
    text = HEAD + "participants:\n- id: e1\n  name: A\n- id: e2\n  name: B\n"
    _, lines, find = yaml_lists.read_yaml(text, "f.yaml")
    assert find is not None
    find.__self__.text = text.replace("id: e2", "id: e3")  # type: ignore[attr-defined]
    assert find(("participants", 1, "name")) is None
    assert SourceMap("f.yaml", lines, find).line_of(("participants", 1, "name")) == 6
    assert find(("participants", 0, "name")) == 5
