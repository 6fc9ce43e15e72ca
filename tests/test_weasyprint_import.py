"""WeasyPrint imported the quick way (docgen.render.weasyprint_import) opens the same libraries
as the ordinary import, and falls back to it when the quick search leaves one unopened."""

from __future__ import annotations

import ctypes.util
import json
import os
import subprocess
import sys

import pytest

from docgen.render.weasyprint_import import cached_find_library

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's search")

LIBRARIES = "('pango', 'harfbuzz', 'fontconfig', 'gobject', 'pangoft2')"
MAPS = (
    "import json, os\n"
    "paths = set()\n"
    "for line in open('/proc/self/maps'):\n"
    "    path = line.split()[-1]\n"
    f"    if any('/lib' + name in path for name in {LIBRARIES}):\n"
    "        paths.add(os.path.realpath(path))\n"
    "print(json.dumps(sorted(paths)))\n"
)


def _libraries_opened(importing: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", importing + MAPS], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("name", ["c", "m", "gobject-2.0", "pango-1.0", "fontconfig", "harfbuzz"])
def test_the_cached_search_finds_what_ctypes_finds_in_the_loaders_cache(name):
    assert cached_find_library(name) == ctypes.util.find_library(name)


def test_a_name_the_loader_does_not_know_is_not_found():
    assert cached_find_library("libgobject-2.0-0") is None
    assert cached_find_library("no-such-library-anywhere") is None


def test_the_quick_import_opens_the_same_library_files():
    quick = _libraries_opened(
        "from docgen.render.weasyprint_import import weasyprint\nweasyprint()\n"
    )
    ordinary = _libraries_opened("import weasyprint\n")
    assert quick == ordinary
    assert any("libpango-1.0" in path for path in quick)


def test_when_the_quick_search_fails_the_ordinary_import_decides():
    script = (
        "import cffi.api, sys\n"
        "from docgen.render import weasyprint_import as w\n"
        "real = cffi.api._load_backend_lib\n"
        "from contextlib import contextmanager\n"
        "@contextmanager\n"
        "def failing():\n"
        "    def refuse(*args):\n"
        "        raise OSError('no library here')\n"
        "    cffi.api._load_backend_lib = refuse\n"
        "    try:\n"
        "        yield\n"
        "    finally:\n"
        "        cffi.api._load_backend_lib = real\n"
        "w._quick_library_search = failing\n"
        "module = w.weasyprint()\n"
        "from weasyprint.text.ffi import pango\n"
        "print(module.__version__, pango.pango_version() > 0, 'weasyprint' in sys.modules)\n"
    )
    # The kept C declarations open libraries through their own FFI, not cffi.api: off here.
    env = {**os.environ, "DOCGEN_CACHE_DIR": "off"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    words = done.stdout.split()
    assert words[-2:] == ["True", "True"]
    assert "could not import some external libraries" not in done.stdout
