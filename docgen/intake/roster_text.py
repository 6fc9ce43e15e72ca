"""Editing a roster CSV (or a CSV of filings, A20) as text: the cells of one row set, rows
appended or removed, every other byte as written (the other rows, the quoting of cells not
changed, the line endings, a byte-order mark: docgen.intake.record keeps it). A column the
header lacks is added at the end of the header; rows that do not reach it stay as they are (an
absent trailing cell reads as empty). An appended row ends its lines as the file does, and
quotes every cell when the file's header does (a spreadsheet's "quote all" export)."""

from __future__ import annotations

from dataclasses import dataclass

from docgen.core.safe_text import csv_field, formula_lead
from docgen.intake.yaml_text import YamlEditError


@dataclass
class _Row:
    start: int
    end: int  # the offset of its line ending (or of the end of the text)
    cells: list[tuple[int, int]]  # each cell's raw span


def _rows(text: str) -> list[_Row]:
    """Every record of the CSV with its cells' raw spans (quotes and embedded newlines kept)."""
    rows, index, length = [], 0, len(text)
    while index < length:
        start, cells, cell_start, quoted = index, [], index, False
        while True:
            if index >= length:
                cells.append((cell_start, index))
                break
            char = text[index]
            if quoted:
                if char == '"' and index + 1 < length and text[index + 1] == '"':
                    index += 2
                    continue
                quoted = char != '"'
                index += 1
                continue
            if char == '"' and index == cell_start:
                quoted = True
                index += 1
            elif char == ",":
                cells.append((cell_start, index))
                index += 1
                cell_start = index
            elif char in "\r\n":
                cells.append((cell_start, index))
                break
            else:
                index += 1
        end = index
        if text.startswith("\r\n", index):
            index += 2
        elif index < length:
            index += 1
        if text[start:end].strip():
            rows.append(_Row(start, end, cells))
    return rows


def _unquote(raw: str) -> str:
    raw = raw.strip()
    if len(raw) >= 2 and raw[0] == raw[-1] == '"':
        return raw[1:-1].replace('""', '"')
    return raw


def _quote(value: str) -> str:
    """A new cell as the CSV holds it (docgen.core.safe_text.csv_field). Text a spreadsheet would
    run as a formula is never written (intake refuses it first, docgen.intake.record; this is the
    last guard): the user's CSV keeps every other byte, so the cell is refused, not rewritten."""
    if formula_lead(value) is not None:
        raise YamlEditError(
            f"the cell {value[:40]!r} would be run as a formula by a spreadsheet; not written"
        )
    return csv_field(value)


class RosterText:
    """One roster CSV's text, and the cells to set in it (applied all at once)."""

    def __init__(self, text: str):
        self.text = text
        self.records = _rows(text)
        if not self.records:
            raise YamlEditError("the roster has no header row")
        header = self.records[0]
        self.header = [_unquote(text[a:b]) for a, b in header.cells]
        self.changes: dict[int, dict[str, str]] = {}  # record number -> column -> value
        self.appended: list[dict[str, str]] = []  # new rows, column -> value, in order
        self.removed: set[int] = set()  # record numbers of rows taken out

    def row_of(self, subject_id: str) -> int:
        """The record number of the row whose ``id`` cell is ``subject_id``."""
        if "id" not in self.header:
            raise YamlEditError("the roster has no id column")
        column = self.header.index("id")
        for number, row in enumerate(self.records[1:], start=1):
            if column < len(row.cells) and _unquote(self.text[slice(*row.cells[column])]) == (
                subject_id
            ):
                return number
        raise YamlEditError(f"no roster row has id {subject_id}")

    def cells(self, number: int) -> dict[str, str]:
        row = self.records[number]
        return {
            name: _unquote(self.text[a:b])
            for name, (a, b) in zip(self.header, row.cells, strict=False)
        }

    def set(self, number: int, values: dict[str, str]) -> None:
        self.changes.setdefault(number, {}).update(values)

    def rows_of(self, column: str, value: str) -> list[int]:
        """The record numbers of the rows whose ``column`` cell is ``value``."""
        if column not in self.header:
            return []
        at = self.header.index(column)
        return [
            number
            for number, row in enumerate(self.records[1:], start=1)
            if at < len(row.cells) and _unquote(self.text[slice(*row.cells[at])]) == value
        ]

    def append(self, values: dict[str, str]) -> None:
        self.appended.append(dict(values))

    def remove(self, number: int) -> None:
        if number < 1:
            raise YamlEditError("the header row cannot be removed")
        self.removed.add(number)

    def result(self) -> str:
        header = list(self.header)
        for values in [*self.changes.values(), *self.appended]:
            header += [column for column in values if column not in header]
        added = header[len(self.header) :]
        splices: list[tuple[int, int, str]] = []
        if added:
            end = self.records[0].end
            splices.append((end, end, "".join("," + _quote(c) for c in added)))
        for number in self.removed:
            row = self.records[number]
            end = row.end + (2 if self.text.startswith("\r\n", row.end) else 1)
            splices.append((row.start, min(end, len(self.text)), ""))
        if self.appended:
            splices.append((len(self.text), len(self.text), self._new_rows(header)))
        for number, values in self.changes.items():
            if number in self.removed:
                continue
            row = self.records[number]
            raw = [self.text[a:b] for a, b in row.cells]
            for column, value in values.items():
                position = header.index(column)
                raw += [""] * (position + 1 - len(raw))
                raw[position] = _quote(value)
            splices.append((row.start, row.end, ",".join(raw)))
        text = self.text
        for start, end, new in sorted(splices, key=lambda s: (s[0], s[1]), reverse=True):
            text = text[:start] + new + text[end:]
        return text

    def _new_rows(self, header: list[str]) -> str:
        """The appended rows as text, after the file's last line."""
        ending = (
            "\r\n"
            if "\r\n" in self.text
            else "\r"
            if "\r" in self.text and ("\n" not in self.text)
            else "\n"
        )
        head = self.records[0]
        quote_all = bool(head.cells) and all(self.text[a:b].startswith('"') for a, b in head.cells)
        lines = []
        for values in self.appended:
            cells = [values.get(column, "") for column in header]
            quoted = [
                '"' + cell.replace('"', '""') + '"' if quote_all else _quote(cell) for cell in cells
            ]
            lines.append(",".join(quoted) + ending)
        lead = "" if not self.text or self.text.endswith(("\n", "\r")) else ending
        return lead + "".join(lines)
