"""WeasyPrint's C declarations parsed once per machine, not once per process.

``weasyprint.text.ffi`` declares the Pango, HarfBuzz, fontconfig and GObject functions it calls
in cffi's in-line ABI mode: ``cffi.FFI().cdef(<450 lines of C>)``, which pycparser parses in
every process that imports WeasyPrint: a seventh of a fresh `docgen` process that renders (issue
27; README, "Speed": 3.68 billion instructions under callgrind against 3.15 billion with the
kept tables). cffi's out-of-line ABI mode keeps the same declarations as type tables that
``_cffi_backend.FFI`` takes directly, with no parser: the same library calls, the same C types,
the same results.

So, while WeasyPrint is imported (docgen.render.weasyprint_import), ``cffi.FFI()`` called from
``weasyprint.text.ffi`` answers with an FFI built from those tables when this machine has them
for exactly the declarations the installed WeasyPrint makes:

* The tables are kept in ``<cache>/weasyprint-ffi-<key>.py``, where ``<cache>`` is docgen's
  folder of kept files (docgen.core.kept_files: ``$DOCGEN_CACHE_DIR``, else
  ``$XDG_CACHE_HOME/docgen``, else ``~/.cache/docgen``), and ``<key>``
  is the SHA-256 of the declarations' text, cffi's version, Python's and the machine, which the
  file's first line records whole and which is checked before it is used. A new WeasyPrint,
  cffi or Python needs a new file, which the first import that finds none writes (cffi's own
  ``Recompiler`` writing a Python module from the declarations that import has just parsed; it
  costs 0.01 s), written whole and renamed into place, so no reader sees half a file.
* The file is never executed: its one call's arguments (bytes, tuples and numbers) are read with
  ``ast.literal_eval``, so it cannot run code. Its tables are trusted as the user's other files
  are (tables that lied about a C function would make wrong calls): a file another user owns or
  may write, or whose first line does not record the digest it is named by, is not used.
* The FFI's ``cdef`` refuses any text but the one its tables were made from; WeasyPrint's import
  is then done again the ordinary way. So is it when the file cannot be read or built on, or the
  cache cannot be written (the tables are then simply not kept): never a wrong declaration.
* ``DOCGEN_CACHE_DIR=off`` turns it off: every import parses the declarations, as WeasyPrint does
  alone.
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import io
import platform
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from docgen.core.kept_files import cache_folder, read_own, write_whole

MODULE = "weasyprint.text.ffi"


class StaleDeclarations(Exception):
    """WeasyPrint declared something other than what the kept tables were made from."""


def declarations(module_file: str) -> str | None:
    """The C text ``module_file`` (WeasyPrint's ffi.py) passes to ``ffi.cdef``, read from its
    source without running it; None unless there is exactly one such call, with one literal."""
    try:
        tree = ast.parse(Path(module_file).read_bytes())
    except (OSError, SyntaxError, ValueError):
        return None
    found = [
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "cdef"
        and len(node.args) == 1
        and not node.keywords
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ]
    return found[0] if len(found) == 1 else None


def digest(text: str) -> str:
    """The SHA-256 of ``text`` with the cffi, Python and machine its tables are good for."""
    import _cffi_backend

    material = "\0".join(
        [text, _cffi_backend.__version__, sys.version, platform.machine(), sys.platform]
    )
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


def tables_file(folder: Path, text: str) -> Path:
    return folder / f"weasyprint-ffi-{digest(text)[:32]}.py"


def _header(text: str) -> str:
    return f"# docgen: the tables of WeasyPrint's C declarations, sha256 {digest(text)}\n"


def _tables(source: bytes) -> tuple[list[Any], dict[str, Any]] | None:
    """The positional and keyword arguments of the one ``_cffi_backend.FFI(...)`` call in a
    module cffi's Recompiler wrote, as literals; None for anything else."""
    try:
        tree = ast.parse(source)
        calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
        if len(calls) != 1:
            return None
        (call,) = calls
        args = [ast.literal_eval(argument) for argument in call.args]
        kwargs = {word.arg: ast.literal_eval(word.value) for word in call.keywords if word.arg}
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
        return None
    return args, kwargs


def prebuilt(folder: Path, text: str) -> Any | None:
    """An FFI with ``text``'s declarations from the kept tables, or None."""
    import _cffi_backend

    source = read_own(tables_file(folder, text))
    if source is None:
        return None
    header = _header(text).encode("utf-8")
    tables = _tables(source[len(header) :]) if source.startswith(header) else None
    if tables is None:
        return None

    class PrebuiltFFI(_cffi_backend.FFI):
        """The out-of-line FFI, with the ``cdef`` WeasyPrint calls: a check, not a parse."""

        def cdef(self, csource: str, override: bool = False, packed: bool = False, pack=None):
            if csource != text or override or packed or pack is not None:
                raise StaleDeclarations("WeasyPrint declared other C than the kept tables")

    try:
        return PrebuiltFFI(*tables[0], **tables[1])
    except Exception:  # tables cffi's backend does not take: the ordinary way
        return None


def write_tables(folder: Path, text: str, parsed_ffi: Any) -> Path | None:
    """Keep the tables of ``parsed_ffi`` (an in-line FFI that has parsed ``text``); the file's
    path, or None when it cannot be written (nothing is then left behind)."""
    from cffi import recompiler

    try:
        builder = recompiler.Recompiler(parsed_ffi, "_docgen_weasyprint_ffi", target_is_python=True)
        builder.collect_type_table()
        builder.collect_step_tables()
        out = io.StringIO()
        builder.write_py_source_to_f(out)
    except Exception:  # cffi's internals changed shape: nothing is kept
        return None
    path = tables_file(folder, text)
    written = write_whole(path, (_header(text) + out.getvalue()).encode("utf-8"))
    return path if written else None


@contextlib.contextmanager
def kept_declarations() -> Iterator[None]:
    """While WeasyPrint is imported: its ``cffi.FFI()`` from the kept tables when this machine
    has them, else the ordinary FFI, whose tables are kept once the import has succeeded."""
    folder = cache_folder()
    if folder is None:
        yield
        return
    import cffi

    real = cffi.FFI
    parsed: list[tuple[Any, str]] = []

    def ffi_factory(*args: Any, **kwargs: Any) -> Any:
        caller = sys._getframe(1).f_globals
        if args or kwargs or caller.get("__name__") != MODULE or parsed:
            return real(*args, **kwargs)
        text = declarations(caller.get("__file__") or "")
        if text is None:
            return real()
        kept = prebuilt(folder, text)
        if kept is not None:
            return kept
        fresh = real()
        parsed.append((fresh, text))
        return fresh

    cffi.FFI = ffi_factory
    try:
        yield
    finally:
        cffi.FFI = real
    for fresh, text in parsed:
        if getattr(fresh, "_parser", None) is not None:
            write_tables(folder, text, fresh)
