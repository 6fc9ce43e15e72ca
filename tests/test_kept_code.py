"""Code that libraries compile from text, kept on this machine (docgen.core.kept_code): the kept
code is what the builtin would compile, the shadows behave as the builtins do wherever they are
called from, a second process compiles nothing, what is issued is byte for byte the same, and a
file that is damaged, another Python's or not the user's own is never used."""

from __future__ import annotations

import ast
import builtins
import collections
import dataclasses
import marshal
import os
import shutil
import subprocess
import sys
import typing
from pathlib import Path

import pytest

from docgen.core import kept_code, kept_files

ROOT = Path(__file__).resolve().parent.parent
ANNOTATIONS = __import__("__future__").annotations.compiler_flag


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A folder of kept files of the test's own; whatever the test started is stopped."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("DOCGEN_CACHE_DIR", str(folder))
    yield folder
    kept_code.stop()


def _store(folder: Path) -> kept_code.CodeStore:
    key = kept_code.store_key()
    return kept_code.CodeStore(folder / f"code-{key[:32]}.marshal", key)


def _same(one, other) -> bool:
    return marshal.dumps(one) == marshal.dumps(other)


def _class_code(cls) -> dict[str, bytes]:
    """The marshalled code of every function a class defines itself."""
    return {
        name: marshal.dumps(value.__code__)
        for name, value in vars(cls).items()
        if callable(value) and hasattr(value, "__code__")
    }


def _define_record():
    @dataclasses.dataclass(frozen=True, order=True)
    class Election:
        participant: str
        percent: int = 0
        funds: tuple[str, ...] = ()
        notes: list[str] = dataclasses.field(default_factory=list, compare=False)

    return Election


TEXTS = [
    ("<string>", "exec", 0, "def __create_fn__():\n def f(self):\n  return self.x\n return f"),
    ("<string>", "exec", ANNOTATIONS, "def f(x: int) -> str:\n    return str(x)\n"),
    ("<string>", "eval", 0, "lambda el: el.local_name == 'p' and el.id == 'a'"),
    ("<string>", "eval", 0, "list[tuple[str, int]]"),
]


@pytest.mark.parametrize(("filename", "mode", "flags", "text"), TEXTS)
def test_kept_code_is_what_compile_gives_before_and_after_it_is_kept(
    cache, filename, mode, flags, text
):
    fresh = compile(text, filename, mode, flags, True)
    store = _store(cache)
    assert _same(store.code(text, filename, mode, flags), fresh)
    assert store.save()
    read = _store(cache)
    assert read.kept and not read.added
    assert _same(read.code(text, filename, mode, flags), fresh)
    assert not read.added  # answered from the file


def test_a_dataclass_made_through_the_store_is_the_one_python_makes(cache):
    plain = _define_record()
    kept_code.start()
    assert "exec" in vars(dataclasses)
    compiled = _define_record()
    kept_code.stop()
    kept_code.start()  # a second process's start: read from the file
    read = _define_record()
    assert kept_code._store is not None and not kept_code._store.added
    kept_code.stop()
    assert "exec" not in vars(dataclasses)
    assert _class_code(plain) == _class_code(compiled) == _class_code(read)
    assert set(_class_code(plain)) >= {"__init__", "__repr__", "__eq__", "__lt__", "__hash__"}
    one, other = read("p1", 5), read("p1", 5, ("fund",), ["note"])
    assert one == read("p1", 5, (), ["other note"]) and one < other
    assert repr(one).endswith("Election(participant='p1', percent=5, funds=(), notes=[])")
    with pytest.raises(dataclasses.FrozenInstanceError):
        one.percent = 6  # type: ignore[misc]


def test_the_covered_modules_answer_and_are_restored(cache):
    kept_code.start()
    assert vars(dataclasses)["exec"] is not builtins.exec
    assert vars(collections)["eval"] is not builtins.eval
    assert vars(typing)["compile"] is not builtins.compile
    Point = collections.namedtuple("Point", "x y")
    assert Point(1, 2) == (1, 2) and Point._make([3, 4]).y == 4
    reference = typing.ForwardRef("list[int]")
    assert typing._eval_type(reference, {}, {}) == list[int]
    kept_code.stop()
    for module, name in ((dataclasses, "exec"), (collections, "eval"), (typing, "compile")):
        assert name not in vars(module)


def _shadow(name: str, folder: Path):
    return kept_code._shadows(_store(folder))[name]


@pytest.mark.parametrize("flags", [0, ANNOTATIONS])
def test_exec_keeps_the_callers_future_flags_as_the_builtin_does(cache, flags):
    """Text run by `exec` from a module with `from __future__ import annotations` has string
    annotations; from one without, evaluated ones: the shadow matches the builtin both ways."""
    caller = compile("run('def f(x: int): pass', namespace)", "<caller>", "exec", flags, True)
    results = []
    for run in (builtins.exec, _shadow("exec", cache)):
        namespace: dict = {}
        builtins.exec(caller, {"run": run, "namespace": namespace})
        results.append(namespace["f"].__annotations__)
    assert results[0] == results[1] == ({"x": "int"} if flags else {"x": int})


def test_exec_and_eval_without_namespaces_run_in_the_callers(cache):
    for run, name in ((builtins.exec, "builtin"), (_shadow("exec", cache), "shadow")):
        namespace = {"run": run, "x": 1}
        builtins.exec("run('y = x + 1')", namespace)
        assert namespace["y"] == 2, name

    def inside():
        x = 20  # noqa: F841 (read by the text the shadow evaluates, as the builtin would)
        return _shadow("eval", cache)("x + 1")

    assert inside() == 21


def test_eval_strips_leading_blanks_as_the_builtin_does(cache):
    assert _shadow("eval", cache)(" \t 1 + 1") == builtins.eval(" \t 1 + 1") == 2
    assert _shadow("eval", cache)(b"  2 * 3") == 6


def test_compile_with_flags_or_options_of_its_own_is_the_builtins_and_not_kept(cache):
    store = _store(cache)
    kept_compile = kept_code._shadows(store)["compile"]
    tree = kept_compile("x = 1", "<t>", "exec", ast.PyCF_ONLY_AST)
    assert isinstance(tree, ast.Module)
    assert (
        kept_compile("assert x", "<t>", "exec", optimize=2).co_code
        == compile("assert x", "<t>", "exec", optimize=2).co_code
    )
    assert kept_compile(b"x = 1", "<t>", "exec").co_names == ("x",)
    assert not store.added
    kept_compile("x = 2", "<t>", "exec")
    assert list(store.added) == [("<t>", "exec", ANNOTATIONS, "x = 2")]  # this module's flags


def test_a_file_others_may_write_is_not_used(cache):
    store = _store(cache)
    store.code("x = 1", "<string>", "exec", 0)
    assert store.save()
    os.chmod(store.path, 0o666)
    assert not _store(cache).kept


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 2],  # cut short
        lambda data: data.split(b"\n", 1)[0] + b"\nnot marshal at all",
        lambda data: b"docgen kept code sha256 " + b"0" * 64 + b"\n" + data.split(b"\n", 1)[1],
        lambda data: data.split(b"\n", 1)[0] + b"\n" + marshal.dumps([1, 2, 3]),
        lambda data: b"",
    ],
    ids=["cut-short", "not-marshal", "another-pythons", "not-a-table", "empty"],
)
def test_a_damaged_or_mislabelled_file_is_not_used_and_is_written_again(cache, damage):
    store = _store(cache)
    store.code("x = 1", "<string>", "exec", 0)
    assert store.save()
    store.path.write_bytes(damage(store.path.read_bytes()))
    again = _store(cache)
    assert not again.kept
    again.code("x = 1", "<string>", "exec", 0)
    assert again.save()
    assert _store(cache).kept


def test_a_folder_that_cannot_be_written_compiles_and_fails_nothing(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("DOCGEN_CACHE_DIR", str(blocker / "cache"))
    try:
        kept_code.start()
        assert _class_code(_define_record()) == _class_code(_define_record())
    finally:
        kept_code.stop()  # saves: cannot, and says nothing
    assert blocker.read_text() == "not a folder"


def test_a_store_that_would_grow_past_its_bound_keeps_what_this_process_asked_for(
    cache, monkeypatch
):
    old = _store(cache)
    for number in range(5):
        old.code(f"x = {number}", "<string>", "exec", 0)
    assert old.save()
    monkeypatch.setattr(kept_code, "MOST", 6)
    new = _store(cache)
    new.code("x = 0", "<string>", "exec", 0)  # asked for, and kept
    new.code("y = 1", "<string>", "exec", 0)
    assert new.save()
    assert len(_store(cache).kept) == 6  # within the bound: all of it
    newer = _store(cache)
    newer.code("x = 4", "<string>", "exec", 0)
    newer.code("z = 1", "<string>", "exec", 0)
    assert newer.save()
    assert sorted(key[3] for key in _store(cache).kept) == ["x = 4", "z = 1"]


def test_off_keeps_nothing_and_covers_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("DOCGEN_CACHE_DIR", kept_files.OFF)
    kept_code.start()
    assert kept_code._store is None and "exec" not in vars(dataclasses)
    kept_code.cover("collections")
    assert "eval" not in vars(collections)


PROCESS = """
import dataclasses, json, sys
from docgen.__main__ import command_line
command_line()
from docgen.render.pdf import prepare
prepare()
from docgen.core import kept_code
store = kept_code._store
print(json.dumps({
    "added": len(store.added) if store else None,
    "kept": len(store.kept) if store else None,
    "covered": sorted(module.__name__ for module in kept_code._covered),
}))
"""


def _stdout_of(script: str, env: dict | None = None) -> str:
    """What a fresh Python running ``script`` printed (it must succeed)."""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _process(env: dict) -> dict:
    import json

    return json.loads(_stdout_of(PROCESS, env).splitlines()[-1])


def test_a_second_command_line_process_compiles_nothing(tmp_path):
    env = {**os.environ, "DOCGEN_CACHE_DIR": str(tmp_path / "cache")}
    first, second = _process(env), _process(env)
    assert first["added"] > 500 and first["kept"] == 0
    assert second["added"] == 0 and second["kept"] == first["added"]
    assert first["covered"] == ["collections", "cssselect2.compiler", "dataclasses", "typing"]
    assert len(list((tmp_path / "cache").glob("code-*.marshal"))) == 1


def test_a_library_import_covers_nothing():
    script = "import dataclasses, docgen.api; from docgen.render.pdf import prepare; prepare(); "
    assert _stdout_of(script + "print('exec' in vars(dataclasses))").split() == ["False"]


def _issued(folder: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@pytest.mark.slow
def test_what_is_issued_is_byte_for_byte_the_same_with_kept_code(tmp_path):
    """A grant cycle issued with nothing kept, then twice with the code kept (the first keeps
    it, the second reads it): the same files, byte for byte."""
    facts = ROOT / "samples" / "director-grant-2026.yaml"
    out = tmp_path / "out"
    issued = {}
    for label, cache in (
        ("compiled", kept_files.OFF),
        ("keeping", str(tmp_path / "cache")),
        ("read", str(tmp_path / "cache")),
    ):
        shutil.rmtree(out, ignore_errors=True)
        done = subprocess.run(
            [sys.executable, "-m", "docgen", "batch", str(facts), "--out", str(out)]
            + ["--as-of", "2026-06-23"],
            capture_output=True,
            text=True,
            env={**os.environ, "DOCGEN_CACHE_DIR": cache},
            cwd=ROOT,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        issued[label] = _issued(out)
    assert len(issued["compiled"]) > 20
    assert issued["compiled"] == issued["keeping"] == issued["read"]
