"""What a process builds once is built with the cycle collector asleep and frozen after
(docgen.core.heap): the command line's imports (the docgen script) and a renderer's."""

from __future__ import annotations

import gc
import json
import subprocess
import sys

import pytest

from docgen.core.heap import built_once


@pytest.fixture
def collections():
    """The collections that start while the test runs, by generation."""
    started: list[int] = []

    def count(phase: str, info: dict) -> None:
        if phase == "start":
            started.append(info["generation"])

    gc.callbacks.append(count)
    yield started
    gc.callbacks.remove(count)


def _cycles(count: int) -> list:
    made = []
    for _ in range(count):
        pair: list = []
        pair.append(pair)  # a cycle: tracked, and only the cycle collector can free it
        made.append(pair)
    return made


def test_no_collection_runs_inside_and_what_was_built_is_frozen(collections):
    frozen_before = gc.get_freeze_count()
    with built_once():
        kept = _cycles(20_000)  # thirty collections' worth of new objects, awake
    assert collections == []
    assert gc.isenabled()
    assert gc.get_freeze_count() >= frozen_before + len(kept)
    gc.unfreeze()  # leave the test process as it was


def test_the_collector_is_left_as_the_caller_had_it():
    gc.disable()
    try:
        with built_once():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()
        gc.unfreeze()
    with built_once(), built_once():  # nested: the inner end does not wake it
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.unfreeze()


def test_the_collector_wakes_after_an_error_inside():
    with pytest.raises(ZeroDivisionError), built_once():
        1 / 0  # noqa: B018
    assert gc.isenabled()
    gc.unfreeze()


# A fresh process: how many collections start while it does ``code`` (printed as JSON).
PROBE = """
import gc, json, sys
started = []
gc.callbacks.append(lambda phase, info: phase == "start" and started.append(info["generation"]))
{code}
print(json.dumps({{"collections": len(started), "frozen": gc.get_freeze_count()}}))
"""


def _probe(code: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(code=code)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_docgen_script_imports_the_command_line_unscanned():
    # What the script's entry does before it runs the command (docgen.__main__.entry).
    unscanned = _probe(
        "from docgen.core.heap import built_once\n"
        "started.clear()\n"
        "with built_once():\n"
        "    import docgen.cli"
    )
    awake = _probe("import docgen.cli")
    assert awake["collections"] > 10  # what the entry point saves: the import alone sets off many
    assert unscanned["collections"] == 0 and unscanned["frozen"] > 10_000


def test_the_docgen_script_is_that_entry_point():
    import tomllib
    from pathlib import Path

    project = tomllib.loads(Path(__file__).parent.parent.joinpath("pyproject.toml").read_text())
    assert project["project"]["scripts"]["docgen"] == "docgen.__main__:entry"
    # It runs a command (its quick exit runs atexit handlers first) with the imports frozen.
    script = (
        "import atexit, gc, sys\n"
        "atexit.register(lambda: print('frozen', gc.get_freeze_count()))\n"
        "sys.argv = ['docgen', '--version']\n"
        "from docgen.__main__ import entry\n"
        "entry()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.split("frozen")[-1]) > 10_000


def test_a_renderer_is_imported_and_set_up_unscanned():
    found = _probe(
        "from docgen.render.pdf import prepare\n"
        "from docgen.render.docx import prepare as prepare_docx\n"
        "from docgen.render.readback import prepare as prepare_readback\n"
        "started.clear()\n"
        "prepare(); prepare_docx(); prepare_readback()"
    )
    assert found["collections"] == 0 and found["frozen"] > 10_000
