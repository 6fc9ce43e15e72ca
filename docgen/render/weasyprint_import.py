"""Importing WeasyPrint without the subprocesses of its library search.

WeasyPrint opens Pango, HarfBuzz, fontconfig and GObject by trying several names for each, most
of which are Windows or macOS names (``libgobject-2.0-0``, ``gobject-2.0``). cffi hands each name
it cannot open directly to ``ctypes.util.find_library``, which on Linux runs ``ldconfig -p`` and
then ``gcc`` and ``ld`` for every one of them (Kozea/WeasyPrint#1125): 24 look-ups, measured here
at 0.15 s of the 0.36 s that ``import weasyprint`` takes, paid again by every `docgen` command
that renders. While WeasyPrint is imported, the look-up answers from one reading of the loader's
cache (``ldconfig -p``, as the first step of CPython's own look-up does); a name the cache does
not know is not found, so WeasyPrint goes on to its next name, the library's soname, which the
dynamic loader opens itself (LD_LIBRARY_PATH included). Should that leave a library unopened,
the import is done again the ordinary way, whose messages and failure are WeasyPrint's own.

WeasyPrint's C declarations, which pycparser would otherwise parse in every process, come from
tables kept on this machine (docgen.render.weasyprint_ffi) when they are kept for exactly the
declarations the installed WeasyPrint makes; when they are not, or are stale, the import is the
ordinary one, and the tables are kept for the next process. The fontTools subsetter and
variable-font instancer, which WeasyPrint imports and a docgen run does not call, are imported
when first used (docgen.render.weasyprint_fonttools), and its presentational-hints stylesheet,
which docgen never asks for, is parsed when first used (docgen.render.weasyprint_hints).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import io
import os
import re
import subprocess
import sys
from contextlib import contextmanager, nullcontext, redirect_stdout
from typing import Any

from docgen.core import kept_code
from docgen.core.heap import built_once
from docgen.render.weasyprint_ffi import StaleDeclarations, kept_declarations
from docgen.render.weasyprint_fonttools import deferred_fonttools
from docgen.render.weasyprint_hints import deferred_hints

# CPython's ctypes.util._findSoname_ldconfig: the ABI each 64-bit machine's entries are tagged
# with in ldconfig's output.
_ABI = {
    "x86_64-64": "libc6,x86-64",
    "ppc64-64": "libc6,64bit",
    "sparc64-64": "libc6,64bit",
    "s390x-64": "libc6,64bit",
    "ia64-64": "libc6,IA-64",
}


@functools.cache
def _loader_cache() -> str | None:
    """``ldconfig -p``'s listing of the libraries the dynamic loader knows, or None."""
    try:
        done = subprocess.run(
            ["/sbin/ldconfig", "-p"],
            capture_output=True,
            text=True,
            env={"LC_ALL": "C", "LANG": "C"},
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def cached_find_library(name: str) -> str | None:
    """``ctypes.util.find_library`` answered from the loader's cache alone."""
    listing = _loader_cache()
    if listing is None:
        return None
    bits = "-64" if ctypes.sizeof(ctypes.c_long) == 8 else "-32"
    abi = _ABI.get(os.uname().machine + bits, "libc6")
    match = re.search(rf"\s+(lib{re.escape(name)}\.[^\s]+)\s+\({re.escape(abi)}", listing)
    return match.group(1) if match else None


@contextmanager
def _quick_library_search():
    real = ctypes.util.find_library
    ctypes.util.find_library = cached_find_library
    try:
        yield
    finally:
        ctypes.util.find_library = real


@functools.cache
def weasyprint() -> Any:
    """The ``weasyprint`` module, imported (once) with the quick library search on Linux and
    the kept C declarations."""
    if "weasyprint" in sys.modules:
        import weasyprint as module

        return module
    search = _quick_library_search() if sys.platform.startswith("linux") else nullcontext()
    try:
        # WeasyPrint prints its installation advice before it fails: only the ordinary
        # import below may print it.
        with (
            built_once(),
            search,
            kept_declarations(),
            deferred_fonttools(),
            deferred_hints(),
            redirect_stdout(io.StringIO()),
        ):
            kept_code.cover("cssselect2.compiler")  # its selectors, compiled once per machine
            import weasyprint as module
    except (OSError, StaleDeclarations):  # the ordinary import decides
        for loaded in [name for name in sys.modules if name.split(".")[0] == "weasyprint"]:
            del sys.modules[loaded]
        import weasyprint as module
    return module
