"""Code that libraries write as text and compile while they are imported, compiled once per
machine and kept, as Python keeps a module's bytecode.

Some of what a `docgen` process imports is not in any ``.pyc``: the standard library's
``dataclasses`` writes each class's ``__init__``, ``__repr__``, ``__eq__`` and the rest as text
and ``exec``s it; ``collections.namedtuple`` ``eval``s each tuple's ``__new__``; ``typing``
compiles the text of every forward reference; cssselect2 ``eval``s each CSS selector (WeasyPrint's
own stylesheet has 340). Parsing that text again in every process was a sixth of a fresh
rendering process's floor (issue 27; README, "Speed": 2.26 against 1.87 billion instructions
under callgrind, `bench/floor_against.py 638ee9f af38ccc`). The text is the same each time, and
so is what Python compiles it to.

So in the `docgen` command (docgen.__main__; a program that imports docgen as a library decides
for itself) those modules' ``exec``, ``eval`` and ``compile`` are, for their own calls only,
functions that answer a call with text from a store of code kept on this machine:

* The answer is what the builtin would have compiled: the same text, file name ("<string>"
  unless given) and mode, with the ``from __future__`` flags of the calling module, which the
  builtin would have inherited. Any call it cannot answer that way (code rather than text,
  flags or options of its own) goes to the builtin untouched. A call with no namespace runs in
  the caller's, as the builtin's does.
* The store is ``<cache>/code-<key>.marshal`` in docgen's folder of kept files
  (docgen.core.kept_files), ``<key>`` the SHA-256 of the interpreter's version, bytecode magic
  number and optimisation level (``-O``), which the file's first line records whole; marshal is
  the format of Python's own ``.pyc`` files. Text not yet in the store is compiled as usual, and
  the store is written again, whole and renamed into place, when the process ends. Every
  process reads the whole store (about 3.3 microseconds an entry), so it is kept small: one that
  would grow past :data:`MOST` entries (docgen's own classes changed many times, or many
  companies' own stylesheets) is written with only what this process asked for.
* The file holds code that is run, so it is trusted as ``__pycache__`` is: only a file of the
  user's own that no one else may write is read (kept_files.own_file), and one that is damaged
  or another Python's is not used (and is written again).
* ``DOCGEN_CACHE_DIR=off`` keeps nothing: every process compiles the text, as Python does alone.
"""

from __future__ import annotations
import __future__

import atexit
import builtins
import hashlib
import importlib
import importlib.util
import marshal
import sys
from collections.abc import Callable
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any

from docgen.core.kept_files import cache_folder, read_own, write_whole

# The modules known to compile text while imported, and the builtins each does it with.
GENERATED: dict[str, tuple[str, ...]] = {
    "dataclasses": ("exec",),
    "collections": ("eval",),
    "typing": ("compile",),
    "cssselect2.compiler": ("eval",),  # imported with WeasyPrint (docgen.render.weasyprint_import)
}
# Entries: `check`, `batch`, `verify` and the help of both kinds make about 1,500 (1.1 MB, read
# in 5 ms); the whole test suite's fixtures about 2,500. A store of 3,000 is read in about 10 ms,
# against the 0.04 s it saves a rendering process.
MOST = 3_000
_HEADER = b"docgen kept code sha256 "

# The compiler flags a calling module's `from __future__` imports set, which exec, eval and
# compile inherit from their caller (CPython's PyCF_MASK).
_FUTURE = 0
for _feature in __future__.all_feature_names:
    _FUTURE |= getattr(__future__, _feature).compiler_flag

Key = tuple[str, str, int, str]  # file name, mode, inherited flags, text


def store_key() -> str:
    """The SHA-256 of what compiled code follows from besides its text: this interpreter."""
    digest = hashlib.sha256()
    for part in (
        sys.version,
        sys.implementation.cache_tag or "",
        importlib.util.MAGIC_NUMBER.hex(),
        str(sys.flags.optimize),
    ):
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()


class CodeStore:
    """Compiled code by the text it was compiled from: what the file held, and what this process
    added."""

    def __init__(self, path: Path, key: str):
        self.path, self.key = path, key
        self.kept = self._read()
        self.added: dict[Key, CodeType] = {}
        self.used: set[Key] = set()  # the kept entries this process asked for

    def _read(self) -> dict[Key, CodeType]:
        data = read_own(self.path)
        header = _HEADER + self.key.encode("ascii") + b"\n"
        if data is None or not data.startswith(header):
            return {}
        try:
            entries = marshal.loads(data[len(header) :])
        except (EOFError, ValueError, TypeError):
            return {}
        return entries if isinstance(entries, dict) else {}

    def code(self, text: str, filename: str, mode: str, flags: int) -> CodeType:
        """What ``compile(text, filename, mode, flags, dont_inherit=True)`` gives."""
        key = (filename, mode, flags, text)
        found = self.kept.get(key)
        if found is not None:
            self.used.add(key)
            return found
        found = self.added.get(key)
        if found is None:
            found = self.added[key] = compile(text, filename, mode, flags, True)
        return found

    def save(self) -> bool:
        """Keep what this process compiled beside what the file holds now (another process may
        have added to it since). False when there was nothing new or it could not be written."""
        if not self.added:
            return False
        entries = {**self._read(), **self.added}
        if len(entries) > MOST:  # what this process asked for, then
            entries = {key: self.kept[key] for key in self.used} | self.added
        header = _HEADER + self.key.encode("ascii") + b"\n"
        written = write_whole(self.path, header + marshal.dumps(entries))
        if written:
            self.kept.update(self.added)
            self.added.clear()
        return written


def _caller_flags() -> int:
    """The `from __future__` flags of the code that called the shadow calling this, which the
    builtin, called there, would have inherited."""
    return sys._getframe(2).f_code.co_flags & _FUTURE


def _namespaces(globals_: Any, locals_: Any) -> tuple[Any, Any]:
    """The namespaces the builtin would run in: the caller's (of the shadow calling this) when
    none are given."""
    if globals_ is not None:
        return globals_, locals_
    caller = sys._getframe(2)
    return caller.f_globals, caller.f_locals if locals_ is None else locals_


def _shadows(store: CodeStore) -> dict[str, Callable[..., Any]]:
    """``exec``, ``eval`` and ``compile`` answering text from ``store``: each compiles text as
    the builtin called from the same place would (the caller's future flags; ``eval`` strips
    leading spaces and tabs), then calls the builtin with the code."""

    def kept_exec(source: Any, globals_: Any = None, locals_: Any = None, /, **options: Any):
        if type(source) is str:
            source = store.code(source, "<string>", "exec", _caller_flags())
        elif isinstance(source, (bytes, bytearray)):  # compiled as the builtin would, not kept
            source = builtins.compile(source, "<string>", "exec", _caller_flags(), True)
        return builtins.exec(source, *_namespaces(globals_, locals_), **options)

    def kept_eval(source: Any, globals_: Any = None, locals_: Any = None, /):
        if type(source) is str:
            text = source.lstrip(" \t")
            source = store.code(text, "<string>", "eval", _caller_flags())
        elif isinstance(source, (bytes, bytearray)):  # compiled as the builtin would, not kept
            stripped = bytes(source).lstrip(b" \t")
            source = builtins.compile(stripped, "<string>", "eval", _caller_flags(), True)
        return builtins.eval(source, *_namespaces(globals_, locals_))

    def kept_compile(
        source: Any,
        filename: Any,
        mode: str,
        flags: int = 0,
        dont_inherit: bool = False,
        optimize: int = -1,
        **options: Any,
    ) -> Any:
        inherited = 0 if dont_inherit else _caller_flags()
        plain = not (flags or options) and optimize == -1 and mode in ("exec", "eval", "single")
        if plain and type(source) is str and type(filename) is str:
            return store.code(source, filename, mode, inherited)
        flags |= inherited
        return builtins.compile(source, filename, mode, flags, True, optimize, **options)

    return {"exec": kept_exec, "eval": kept_eval, "compile": kept_compile}


_store: CodeStore | None = None
_covered: list[ModuleType] = []


def start() -> None:
    """Answer the known modules' compiling from the kept store from now on, and keep what this
    process compiles when it ends; nothing when ``DOCGEN_CACHE_DIR=off`` or already started."""
    global _store
    folder = cache_folder()
    if _store is not None or folder is None:
        return
    key = store_key()
    _store = CodeStore(folder / f"code-{key[:32]}.marshal", key)
    atexit.register(_store.save)
    for name in GENERATED:
        if name in sys.modules or "." not in name:  # the standard library's: cheap, and needed
            cover(name)


def cover(name: str) -> None:
    """Answer module ``name``'s compiling (one of :data:`GENERATED`) from the store, importing it
    first; nothing unless :func:`start` has been called."""
    if _store is None or any(module.__name__ == name for module in _covered):
        return
    module = importlib.import_module(name)
    shadows = _shadows(_store)
    for builtin in GENERATED[name]:
        setattr(module, builtin, shadows[builtin])
    _covered.append(module)


def stop() -> None:
    """The modules' own builtins again, and the store kept (for a program, or a test, that
    started it and goes on)."""
    global _store
    for module in _covered:
        for builtin in GENERATED[module.__name__]:
            module.__dict__.pop(builtin, None)
    _covered.clear()
    if _store is not None:
        _store.save()
        atexit.unregister(_store.save)
        _store = None
