"""Where each fact came from (a SourceMap: fact path -> file and line) and a loaded facts file."""

from __future__ import annotations

import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docgen.core.model import Location, PathKey


def format_path(path: PathKey) -> str:
    """``("directors", 2, "filed_on")`` -> ``directors[2].filed_on``."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text


class SourceMap:
    """Where each fact came from: fact path -> (file, line).

    YAML records every fact's line as it is read (``lines``); a JSON file's line is found when
    asked (``find``), so a clean file that nobody asks a line of never pays for an index. Likewise
    the cells of a CSV of filings: its reader hands over a filler (``defer``) that writes their
    places into ``extra`` the first time anything reads ``extra``, so a run that places no
    message never works out 100,000 cells' places. The fillers run in the order they came, and
    before anything else reads or writes ``extra``, so what it holds is exactly what writing the
    places at once would have left.
    """

    def __init__(
        self,
        file: str,
        lines: dict[PathKey, int] | None = None,
        find: typing.Callable[[PathKey], int | None] | None = None,
    ):
        self.file = file
        self.lines = lines if lines is not None else {}
        self._find = find
        self._extra: dict[PathKey, Location] = {}  # facts read from a roster beside the file
        self._pending: list[typing.Callable[[dict[PathKey, Location]], None]] = []
        # a file read through a columns: block (A24): docgen's column -> the company's header,
        # so a message about one of its cells names the column as the file does
        self.headers: dict[str, dict[str, str]] = {}

    @property
    def extra(self) -> dict[PathKey, Location]:
        """The place of each fact read from a CSV beside the facts file: (file, line) or (file,
        line, column); the deferred fillers run first."""
        while self._pending:
            self._pending.pop(0)(self._extra)
        return self._extra

    def defer(self, fill: typing.Callable[[dict[PathKey, Location]], None]) -> None:
        """``fill`` writes places into ``extra`` when it is first read (see the class)."""
        self._pending.append(fill)

    def locate(self, path: PathKey | str) -> tuple[str, int | None]:
        """The file and line of ``path``, or of its nearest ancestor that has one."""
        file, line, _ = self.where(path)
        return file, line

    def where(self, path: PathKey | str) -> tuple[str, int | None, int | None]:
        """The file, line and column (a CSV cell's; None in the facts file) of ``path``, or of
        its nearest ancestor that has a line. A fact read from any CSV beside the facts file
        is located by what its reader put in ``extra``: (file, line) or (file, line, column)."""
        key = parse_path(path) if isinstance(path, str) else tuple(path)
        extra = self.extra
        while True:
            if key in extra:
                found = extra[key]
                return found[0], found[1], found[2] if len(found) > 2 else None
            line = self.lines.get(key)
            if line is not None:
                return self.file, line, None
            if self._find is not None:
                line = self._find(key)
                if line is not None:
                    return self.file, line, None
            if not key:
                return self.file, None, None
            key = key[:-1]

    def line_of(self, path: PathKey | str) -> int | None:
        return self.locate(path)[1]

    def line_in_file(self, path: PathKey) -> int | None:
        """The line of exactly ``path`` in ``file`` (not of an ancestor, nor in a roster)."""
        line = self.lines.get(path)
        if line is None and self._find is not None:
            line = self._find(path)
        return line


@dataclass(frozen=True)
class LoadedFacts:
    """A validated facts file: the model, where each fact is, and the bytes' SHA-256."""

    facts: Any
    source: SourceMap
    path: Path
    sha256: str
    templates_override: Path | None = None  # the company's templates folder (templates_dir)
    retired: dict[str, Any] = field(default_factory=dict)  # fields of an earlier release, refused
    roster: Path | None = None  # the roster file the facts name, when they name one
    # the CSVs of filings the facts name (A20), by the facts field naming each: elections_csv
    records: dict[str, Path] = field(default_factory=dict)
    # the facts fields whose files docgen reads but never writes: a workbook, or a file read
    # through a columns: mapping (A24); intake sends filings for their people to a CSV of filings
    read_only: frozenset[str] = frozenset()

    @property
    def kind(self) -> str:
        return self.facts.kind

    @property
    def never_written(self) -> tuple[Path, ...]:
        """The files of ``read_only``: the company's own exports, which docgen reads and never
        writes (a filing for a person listed in one goes to a CSV of filings, A24)."""
        paths = [self.records[name] for name in sorted(self.read_only) if name in self.records]
        if self.roster is not None and self.read_only - set(self.records):
            paths.insert(0, self.roster)
        return tuple(paths)

    @property
    def inputs(self) -> dict[Path, str]:
        """Every file and folder these facts were read from, each with what it is (for a
        message): no output may be written over one (docgen.core.output.refuse_overwriting)."""
        read = {self.path: "the facts file"}
        if self.roster is not None:
            read[self.roster] = "the roster the facts read"
        for name, path in self.records.items():
            read[path] = f"the {name} file the facts read"
        if self.templates_override is not None:
            read[self.templates_override] = "the templates folder the facts read"
        return read


def parse_path(text: str) -> PathKey:
    parts: list[str | int] = []
    for chunk in text.replace("]", "").split("."):
        name, *indexes = chunk.split("[")
        if name:
            parts.append(name)
        parts.extend(int(i) for i in indexes)
    return tuple(parts)
