"""The YAML reader (docgen.load.yaml_facts): PyYAML's composer under the YAML 1.2 core schema
(docgen.load.yaml_core), one walker, a line for every fact. ruamel's YAML 1.2 resolver is the
reference for what each plain scalar is; PyYAML's pure-Python composer reads every file as libyaml
does, and words what libyaml refuses."""

from __future__ import annotations

import datetime
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML
from ruamel.yaml.nodes import ScalarNode

from docgen.core.errors import LoadError
from docgen.core.numbers import SourceNumber
from docgen.load import yaml_core, yaml_facts
from docgen.load.yaml_facts import MAX_DEPTH, read_yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import realistic  # noqa: E402

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


def our_tag(text: str, loader: type = yaml_core.Loader) -> str:
    """PyYAML's resolution of a plain scalar with docgen's implicit resolvers."""
    resolver = loader("")
    try:
        return str(resolver.resolve(yaml.ScalarNode, text, (True, False)))
    finally:
        resolver.dispose()


_CORE_BOOLEANS = {"true": True, "True": True, "TRUE": True}
_CORE_BOOLEANS |= {"false": False, "False": False, "FALSE": False}


def reference_value(tag: str, text: str) -> object:
    """A scalar as docgen reads it, from ruamel: a number as its source text, a boolean only in
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
    assert our_tag(text) == ruamel_tag(text)
    assert our_tag(text, yaml_core.PurePythonLoader) == ruamel_tag(text)


@pytest.mark.parametrize("tag", sorted(yaml_core.SCALAR_TAGS))
def test_scalar_values_are_as_docgen_read_them(tag):
    for text in SCALARS:
        expected, got = reference_value(tag, text), our_value(tag, text)
        assert same(got, expected), (tag, text, got, expected)


@settings(max_examples=400)
@given(st.text(alphabet="0123456789_.+-eExXoObB:tTfFnNuUlL~aAsSrR <=!&*Z", max_size=12))
def test_any_plain_scalar_resolves_and_constructs_as_ruamels(text):
    tag = our_tag(text)
    assert tag == ruamel_tag(text)
    if tag in yaml_core.SCALAR_TAGS:
        assert same(our_value(tag, text), reference_value(tag, text)), text


def test_yaml_1_1_words_are_text_and_numbers_their_source_text():
    data, _ = read_yaml("a: yes\nb: off\nc: 012\nd: 0o17\ne: 1:30\nf: 2026-06-23\n", "x")
    assert data == {
        "a": "yes",
        "b": "off",
        "c": SourceNumber("012"),  # an int to YAML 1.2; the field's type refuses the leading zero
        "d": SourceNumber("0o17"),
        "e": "1:30",
        "f": datetime.date(2026, 6, 23),
    }


def test_quoted_and_tagged_scalars():
    text = "a: '012'\nb: !!str 2026-06-23\nc: !!int '7'\nd: !!bool 'true'\ne: !!float x\nf:\n"
    data, _ = read_yaml(text, "x")
    assert data == {
        "a": "012",
        "b": "2026-06-23",
        "c": SourceNumber("7"),
        "d": True,
        "e": SourceNumber("x"),  # kept as written: the field's type says what is wrong
        "f": None,
    }


def test_every_fact_has_its_line():
    text = "kind: x\n\nlist:\n  - a\n  -\n    b: 1\n    c: [1,\n      2]\nlast: {d: e}\n"
    _, lines = read_yaml(text, "x")
    assert lines == {
        (): 1,
        ("kind",): 1,
        ("list",): 3,
        ("list", 0): 4,
        ("list", 1): 6,  # a dash alone on its line: the item starts on the next
        ("list", 1, "b"): 6,
        ("list", 1, "c"): 7,
        ("list", 1, "c", 0): 7,
        ("list", 1, "c", 1): 8,
        ("last",): 9,
        ("last", "d"): 9,
    }


# ------------------------------------------------------------------ the two composers


def outcome(text: str) -> tuple[str, object]:
    try:
        return "ok", repr(read_yaml(text, "f.yaml"))
    except LoadError as error:
        return "refused", [str(problem) for problem in error.problems]


@pytest.fixture
def pure_python(monkeypatch):
    """The reader as it reads where PyYAML was built without libyaml."""
    monkeypatch.setattr(yaml_facts, "Loader", yaml_core.PurePythonLoader)


def test_libyaml_is_built_in():
    """The speed of a YAML facts file rests on it: PyYAML's wheels carry libyaml."""
    assert yaml.__with_libyaml__ and issubclass(yaml_core.Loader, yaml.CSafeLoader)


@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_sample_and_fixture_reads_alike_without_libyaml(path, monkeypatch):
    text = path.read_text(encoding="utf-8-sig")
    with_libyaml = outcome(text)
    monkeypatch.setattr(yaml_facts, "Loader", yaml_core.PurePythonLoader)
    assert outcome(text) == with_libyaml


@pytest.mark.parametrize("count", [1, 7])
def test_realistic_facts_read_alike_without_libyaml(tmp_path, monkeypatch, count):
    for facts in (realistic.rrp_facts(count), realistic.director_facts(count)):
        text = realistic.write_yaml(facts, tmp_path / "facts.yaml").read_text(encoding="utf-8")
        with_libyaml = outcome(text)
        assert with_libyaml[0] == "ok"
        monkeypatch.setattr(yaml_facts, "Loader", yaml_core.PurePythonLoader)
        assert outcome(text) == with_libyaml
        monkeypatch.undo()


@pytest.mark.parametrize(
    ("text", "line", "what"),
    [
        ("kind: x\ncompany:\n\tname: X\n", 3, "found character '\\t' that cannot start any token"),
        ("kind: x\ncompany: [unclosed\n", 3, "expected ',' or ']', but got '<stream end>'"),
        ("a: 1\n- b\n", 2, "expected <block end>, but found '-'"),
        ("a: 1\n---\nb: 2\n", 2, "but found another document"),
        ("a: *nowhere\n", 1, "found undefined alias 'nowhere'"),
    ],
)
def test_what_libyaml_refuses_is_worded_by_the_pure_python_composer(text, line, what):
    with pytest.raises(yaml.YAMLError):  # libyaml refuses it, in its own words
        yaml_facts._composed(text, yaml_core.Loader)
    (problem,) = pytest.raises(LoadError, read_yaml, text, "f.yaml").value.problems
    assert (problem.line, problem.what) == (line, f"not valid YAML: {what}")


def test_a_control_character_is_named_with_its_line():
    (problem,) = pytest.raises(LoadError, read_yaml, "a: 1\nb: x\x1by\n", "f.yaml").value.problems
    assert problem.line == 2
    assert problem.what == "contains U+001B (ESC), a control character YAML does not allow"


# ------------------------------------------------------------------ what a facts file may hold


def nested(lists: int, flow: bool) -> str:
    """A top-level key holding ``lists`` nested collections, the innermost holding a value: a
    mapping's value is one level below it, so the value is ``lists + 2`` levels down."""
    if flow:
        return "a: " + "[" * lists + "x" + "]" * lists + "\n"
    keys = "".join(f"{'  ' * level}k{level}:\n" for level in range(lists))
    return keys + "  " * lists + "leaf: x\n"


@pytest.mark.parametrize("flow", [True, False], ids=["flow", "block"])
@pytest.mark.parametrize("libyaml", [True, False], ids=["libyaml", "pure-python"])
def test_nesting_is_bounded_at_the_line_it_passes_the_bound(flow, libyaml, monkeypatch):
    if not libyaml:
        monkeypatch.setattr(yaml_facts, "Loader", yaml_core.PurePythonLoader)
    read_yaml(nested(MAX_DEPTH - 2, flow), "f.yaml")
    # Past 1,000 levels libyaml refuses the text, and the pure-Python composer past Python's
    # recursion limit: the line is the same.
    for lists in (MAX_DEPTH - 1, 5_000):
        refused = pytest.raises(LoadError, read_yaml, nested(lists, flow), "f.yaml")
        (problem,) = refused.value.problems
        assert problem.what == f"nested more than {MAX_DEPTH} levels deep"
        assert problem.line == (1 if flow else MAX_DEPTH)


def test_an_alias_bomb_is_refused():
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{n}: &a{n} [{', '.join([f'*a{n - 1}'] * 9)}]" for n in range(1, 10)]
    with pytest.raises(LoadError, match="aliases repeat more than 20,000 values"):
        read_yaml("\n".join(lines) + "\n", "bomb.yaml")


def test_an_alias_repeats_a_value_and_one_inside_itself_is_refused():
    data, lines = read_yaml("a: &x {b: 1}\nc: *x\n", "f.yaml")
    assert data == {"a": {"b": SourceNumber("1")}, "c": {"b": SourceNumber("1")}}
    assert lines[("c", "b")] == 1  # the line of the value the alias names
    with pytest.raises(LoadError, match="an alias refers to itself"):
        read_yaml("kind: x\ncompany: &c\n  name: X\n  again: *c\n", "f.yaml")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a: 1\na: 2\n", "f.yaml:2: a: this key appears twice. Keep one of the two entries."),
        (
            "b:\n  <<: {c: 1}\n",
            "f.yaml:2: b: merge keys (<<) are not supported. Write the fields out in full.",
        ),
        (
            "a: !!python/object:os.system x\n",
            "f.yaml:1: a: unsupported YAML tag !!python/object:os.system. Remove the tag; write"
            " a plain value.",
        ),
        ("a: !!set {b: null}\n", "f.yaml:1: a: unsupported YAML tag !!set."),
        ("a: =\n", "f.yaml:1: a: unsupported YAML tag !!value."),
        ("a: !!bool yes\n", "f.yaml:1: a: expected true or false (got yes). Write true or false."),
        ("? [a]\n: b\n", "f.yaml:1: a key must be a plain name. Write the key as text."),
        ("%YAML 1.1\n---\na: 1\n", "f.yaml:1: a %YAML 1.1 directive: docgen reads YAML 1.2 only"),
        ("# a comment only\n", "f.yaml: file has no content. Start from a sample in samples/."),
    ],
)
def test_what_a_facts_file_may_not_hold_is_refused_at_its_line(text, message):
    with pytest.raises(LoadError) as refused:
        read_yaml(text, "f.yaml")
    assert str(refused.value.problems[0]).startswith(message)


def test_a_yaml_1_2_directive_is_read():
    assert read_yaml("%YAML 1.2\n---\na: yes\n", "f.yaml")[0] == {"a": "yes"}
