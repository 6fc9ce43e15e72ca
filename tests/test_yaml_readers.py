"""The fast YAML reader (libyaml) reads every file exactly as ruamel's YAML 1.2 reader does: the
same types and values for every scalar, the same facts and lines for every document, the same
message for every refusal. ruamel, as it read facts before libyaml, is the reference."""

from __future__ import annotations

import datetime
import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML
from ruamel.yaml.nodes import ScalarNode

from docgen.core.errors import LoadError
from docgen.core.numbers import SourceNumber
from docgen.load import yaml_core, yaml_libyaml, yaml_reader

ROOT = Path(__file__).resolve().parent.parent
YAML_FILES = sorted(
    path
    for folder in ("samples", "tests/fixtures", "tests/cases", "tests/toykind")
    for path in (ROOT / folder).rglob("*.y*ml")
)

# Scalars whose type YAML 1.1 and 1.2 disagree on, or that sit on a pattern's edge.
SCALARS = [
    *"yes Yes YES no No NO on On ON off Off OFF y Y n N".split(),
    *"true True TRUE false False FALSE tRUE fAlse".split(),
    *"null Null NULL ~ nULL none None".split(),
    *"0 00 012 017 019 08 0o17 0o8 0o 0b101 0b2 0b 0x1F 0xg 0x -0x1F +0o7 0b_1".split(),
    *"1 -1 +1 1_000 1__ _1 1_ 0_ -_ +_ _ - + 123456789012345678901234567890".split(),
    *"1.5 1. .5 -.5 +.5 1e3 1E3 1e+3 1e-3 .5e3 .5e+3 1.5e3 1_0.5 1._ 1.e5 45.10".split(),
    *".inf .Inf .INF -.inf +.inf .nan .NaN .NAN -.nan .infinity inf nan".split(),
    *"1:30 1:30:00 190:20:30 -1:30".split(),
    *"2026-06-23 2026-6-23 2026-06-3 2026-02-30 2026-13-01 0000-01-01 20260623".split(),
    "2026-06-23T10:00:00",
    "2026-06-23 10:00:00",
    "2026-06-23t10:00:00.5",
    "2026-06-23 10:00:00.1234567",
    "2026-06-23 10:00:00.9999999",
    "2026-06-23T10:00:00Z",
    "2026-06-23T10:00:00+05:30",
    "2026-06-23T10:00:00 -5",
    "2026-06-23T10:00:00+99",
    "2026-06-23T1:00:00",
    "2026-06-23T10:0:00",
    *"<< = ! & * <<< == @ `".split(),
    *"45,10 1,225 $45.10 12% 0.0.1 1-2 v1 e1 E x1 12abc".split(),
    "",
]


RUAMEL = YAML(typ="safe", pure=True)  # the reference: ruamel's safe loader, YAML 1.2


def ruamel_tag(text: str) -> str:
    """ruamel's own YAML 1.2 resolution of a plain scalar."""
    return str(RUAMEL.resolver.resolve(ScalarNode, text, (True, False)))


_CORE_BOOLEANS = {
    "true": True,
    "True": True,
    "TRUE": True,
    "false": False,
    "False": False,
    "FALSE": False,
}


def reference_value(tag: str, text: str) -> object:
    """A scalar as docgen read it through ruamel: a number as its source text, a boolean only in
    a core spelling, a date by ruamel's constructor; "refused" where the text is kept instead (or
    a boolean is refused)."""
    if tag == yaml_core.STR:
        return text
    if tag in (yaml_core.INT, yaml_core.FLOAT):
        return SourceNumber(text)
    if tag == yaml_core.BOOL:
        return _CORE_BOOLEANS.get(text, "refused")
    if tag == yaml_core.NULL:
        return None
    try:
        return RUAMEL.constructor.construct_object(ScalarNode(tag, text), deep=True)
    except Exception:
        return "refused"


def same(a: object, b: object) -> bool:
    return (
        type(a) is type(b) and a == b and getattr(a, "tzinfo", None) == getattr(b, "tzinfo", None)
    )


def our_value(tag: str, text: str) -> object:
    try:
        return yaml_core.construct(tag, text)
    except yaml_core.NotAValue:
        return "refused"


@pytest.mark.parametrize("text", SCALARS)
def test_plain_scalar_resolves_as_ruamel_resolves_it(text):
    assert yaml_core.resolve_plain(text) == ruamel_tag(text)


@pytest.mark.parametrize("tag", sorted(yaml_core.SCALAR_TAGS))
def test_scalar_values_are_as_docgen_read_them(tag):
    for text in SCALARS:
        expected, got = reference_value(tag, text), our_value(tag, text)
        assert same(got, expected), (tag, text, got, expected)


def test_yaml_1_1_words_are_text_and_numbers_their_source_text():
    data, _ = yaml_reader.compose("a: yes\nb: off\nc: 012\nd: 0o17\ne: 1:30\nf: 2026-06-23\n", "x")
    assert data == {
        "a": "yes",
        "b": "off",
        "c": SourceNumber("012"),  # an int to YAML 1.2; the field's type refuses the leading zero
        "d": SourceNumber("0o17"),
        "e": "1:30",
        "f": datetime.date(2026, 6, 23),
    }


@settings(max_examples=400)
@given(st.text(alphabet="0123456789_.+-eExXoObB:tTfFnNuUlL~aAsSrR <=!&*Z", max_size=12))
def test_any_plain_scalar_resolves_and_constructs_as_ruamels(text):
    tag = yaml_core.resolve_plain(text)
    assert tag == ruamel_tag(text)
    if tag in yaml_core.SCALAR_TAGS:
        assert same(our_value(tag, text), reference_value(tag, text)), text


# ------------------------------------------------------------------ whole documents


def via(composer: str, text: str) -> tuple[str, object]:
    """('ok', (data, lines)) or ('refused', messages) when read through one composer only."""
    try:
        if composer == "libyaml":
            try:
                root = yaml_libyaml.compose_with_libyaml(text)
                return "ok", yaml_reader._walk(root, "f.yaml", "*" in text, libyaml=True)
            except (yaml_libyaml.Declined, yaml_reader._ReadAgain):
                return "declined", None
        root = yaml_reader._compose_with_ruamel(text, "f.yaml")
        return "ok", yaml_reader._walk(root, "f.yaml", aliases="*" in text)
    except LoadError as error:
        return "refused", [str(p) for p in error.problems]


def agree(text: str) -> None:
    fast, reference = via("libyaml", text), via("ruamel", text)
    if fast[0] == "declined":
        return  # ruamel reads it: the same outcome by construction
    assert fast[0] == reference[0], (text, fast, reference)
    if fast[0] == "ok":
        (fast_data, fast_lines), (ref_data, ref_lines) = fast[1], reference[1]
        assert repr(fast_data) == repr(ref_data), text
        assert fast_lines == ref_lines, text
    else:
        assert fast[1] == reference[1], text


@pytest.mark.skipif(not yaml_libyaml.available(), reason="PyYAML built without libyaml")
@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_sample_and_fixture_reads_alike(path):
    agree(path.read_text(encoding="utf-8-sig"))


def test_libyaml_is_built_in():
    """The speed of a YAML roster rests on it: PyYAML's wheels carry libyaml."""
    import yaml

    assert yaml.__with_libyaml__ and yaml_libyaml.available()


def test_libyaml_reads_every_file_but_the_broken_ones():
    declined = []
    for path in YAML_FILES:
        try:
            yaml_libyaml.compose_with_libyaml(path.read_text(encoding="utf-8-sig"))
        except yaml_libyaml.Declined:
            declined.append(path.name)
    # the broken ones (ruamel words their messages) and the one with a %YAML directive
    assert sorted(declined) == [
        "not-yaml.yaml",
        "tab-indent.yaml",
        "text-raw-escape.yaml",
        "yaml-1-1-directive.yaml",
    ]


def test_without_libyaml_ruamel_reads_the_same(monkeypatch):
    text = (ROOT / "samples" / "rrp-2026.yaml").read_text(encoding="utf-8")
    fast = yaml_reader.compose(text, "rrp-2026.yaml")
    monkeypatch.setattr(yaml_libyaml, "_loader_class", lambda: None)
    assert not yaml_libyaml.available()
    assert repr(yaml_reader.compose(text, "rrp-2026.yaml")) == repr(fast)


@pytest.mark.parametrize(
    "text",
    ["kind: x\nn: 1\n", "kind: [unclosed\n", "a: &a [*a]\n", "a: !!python/object x\n", ""],
)
def test_the_cycle_collector_is_left_as_it_was(text):
    import gc

    for was_enabled in (True, False):
        (gc.enable if was_enabled else gc.disable)()
        try:
            yaml_reader.compose(text, "f.yaml")
        except LoadError:
            pass
        finally:
            assert gc.isenabled() == was_enabled
            gc.enable()


def test_an_alias_bomb_is_refused_on_the_fast_path_too():
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{n}: &a{n} [{', '.join([f'*a{n - 1}'] * 9)}]" for n in range(1, 10)]
    text = "\n".join(lines) + "\n"
    assert yaml_libyaml.compose_with_libyaml(text) is not None  # libyaml composes it (shared nodes)
    with pytest.raises(LoadError, match="aliases repeat more than 20,000 values"):
        yaml_reader.compose(text, "bomb.yaml")


PARTINGS = {
    "a tab in a plain scalar": "a: x\ty\n",
    "a tab before a colon": "a\t: 1\n",
    "NEL in a quoted scalar": "a: 'x\x85y'\nb: 2\n",
    "LS in a comment": "# c\u2028\nb: 2\n",
    "PS in a quoted scalar": 'a: "x\u2029y"\nb: 2\n',
    "a byte-order mark inside": "a: 1\n\ufeffb: 2\n",
    "a YAML 1.1 directive": "%YAML 1.1\n---\na: yes\n",
    "a JSON-like key in a flow sequence": 'x: ["a":1]\n',
    "a flow mapping as a JSON-like key": "x: [{a: 1}:]\n",
}


def libyaml_regardless(text: str) -> tuple[str, object]:
    """What libyaml alone would make of a text the fast reader declines."""
    loader = yaml_libyaml._loader_class()(text)
    try:
        root = loader.get_single_node()
    except Exception as error:
        return "refused", type(error).__name__
    finally:
        loader.dispose()
    try:
        return "ok", yaml_reader._walk(root, "f.yaml", "*" in text, libyaml=True)
    except LoadError as error:
        return "refused", [str(p) for p in error.problems]


@pytest.mark.skipif(not yaml_libyaml.available(), reason="PyYAML built without libyaml")
@pytest.mark.parametrize("text", PARTINGS.values(), ids=PARTINGS.keys())
def test_where_the_composers_part_ruamel_reads(text):
    """Each text libyaml would read otherwise than ruamel is declined, and read as ruamel does."""
    assert yaml_libyaml.ruamel_must_read(text) or yaml_libyaml.json_like_key_possible(text)
    with pytest.raises(yaml_libyaml.Declined):
        yaml_libyaml.compose_with_libyaml(text)
    assert repr(libyaml_regardless(text)) != repr(via("ruamel", text))  # why it is declined
    try:
        got = ("ok", yaml_reader.compose(text, "f.yaml"))
    except LoadError as error:
        got = ("refused", [str(p) for p in error.problems])
    assert repr(got) == repr(via("ruamel", text))


@pytest.mark.skipif(not yaml_libyaml.available(), reason="PyYAML built without libyaml")
@pytest.mark.parametrize(
    "text",
    [
        'wording: "If [Accelerate On]:\\n  the Award vests"\nb: 2\n',  # a key end in a value
        "a: 'x]:y'\nb: '\"a\":1'\n",
        'a: "[x]:"\nb: [1, 2]\n',  # ... beside a flow sequence: declined, read by ruamel
        "a: '{x}:'\nb: {c: 1}\n",
        "a: '[x]:'\nb: []\nc: {}\n",  # empty flow collections hold no key: composed
    ],
)
def test_a_key_end_in_a_quoted_value_reads_alike(text):
    """A quote or bracket before a colon inside a quoted value is no JSON-like key: libyaml
    composes the text unless it holds a flow collection, and either way it reads as ruamel's."""
    assert yaml_libyaml.json_like_key_possible(text)
    assert not yaml_libyaml.ruamel_must_read(text)
    flow = "[1" in text or "{c" in text
    if flow:
        with pytest.raises(yaml_libyaml.Declined):
            yaml_libyaml.compose_with_libyaml(text)
    else:
        assert yaml_libyaml.compose_with_libyaml(text) is not None
    agree(text)
    assert repr(yaml_reader.compose(text, "f.yaml")) == repr(via("ruamel", text)[1])


@pytest.mark.skipif(not yaml_libyaml.available(), reason="PyYAML built without libyaml")
def test_a_board_with_drafted_wording_is_composed_by_libyaml(tmp_path):
    # The wording of a drafted clause ("If [Accelerate On]:") kept 2,400 directors on ruamel's
    # pure-Python composer: 1.9 s to load instead of a tenth of that.
    sys.path.insert(0, str(ROOT / "bench"))
    import realistic

    path = realistic.write_yaml(realistic.director_facts(3), tmp_path / "board.yaml")
    text = path.read_text(encoding="utf-8")
    assert "]:" in text
    assert yaml_libyaml.compose_with_libyaml(text) is not None
    agree(text)


def test_an_ordinary_roster_is_not_declined():
    text = (ROOT / "samples" / "rrp-2026.yaml").read_text(encoding="utf-8")
    assert '": ' in text  # quoted keys, with the colon then a space
    assert not yaml_libyaml.ruamel_must_read(text)


MUTATIONS = [
    "\x00",
    "\x7f",
    "\x1b",
    "\U0001f600",
    "!!int ",
    "!!binary ",
    "!!map ",
    "!<tag:yaml.org,2002:str> ",
    "&b ",
    "*b",
    " *a",
    "? x\n: y\n",
    "- &a x\n",
    "{a: 1, a: 2}",
    "[1, 2",
    '"\\u00e9"',
    '"\\/"',
    '"\\x41"',
    "'it''s'",
    "null",
    "yes",
    "0o17",
    "2026-02-30",
    "\r\n",
    ":",
    ": ",
    "- ",
    "-",
    "#",
    " #x",
    '"',
    "'",
    "\t",
    "\n",
    "  ",
    "[",
    "]",
    "{",
    "}",
    ",",
    "&a ",
    "*a",
    "!!str ",
    "!x ",
    "? ",
    "|",
    ">",
    "|-\n  ",
    "<<: ",
    "\\",
    "%",
    "---\n",
    "...\n",
    "@",
    "`",
    "\u00e9",
    "\u2028",
    "\x85",
    "\r",
    "\ufeff",
    "~",
    "0x1",
    "1e3",
]


@pytest.mark.skipif(not yaml_libyaml.available(), reason="PyYAML built without libyaml")
@pytest.mark.parametrize(
    "path", [p for p in YAML_FILES if p.parent.name in ("samples", "bad")], ids=lambda p: p.name
)
@pytest.mark.slow
def test_mutated_files_read_alike(path):
    """Random edits of real files (a colon, a quote, a tab, a stray alias...): whatever libyaml
    accepts, ruamel reads the same way; whatever it refuses, ruamel words."""
    original = path.read_text(encoding="utf-8-sig")
    chooser = random.Random(path.name)
    for _ in range(60 if len(original) < 3000 else 15):  # ruamel reads a large file slowly
        text = original
        for _ in range(chooser.randint(1, 3)):
            at = chooser.randrange(len(text) + 1)
            if chooser.random() < 0.3 and at < len(text):
                text = text[:at] + text[at + 1 :]
            else:
                text = text[:at] + chooser.choice(MUTATIONS) + text[at:]
        agree(text)
