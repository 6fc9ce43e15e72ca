"""The findings table of a large report, drawn at the cost of its text.

rich's Table renders every cell through its general machinery (a Text, a Padding, a measure, a
wrap, segments split and cropped), which for 10,000 findings costs fifty times the JSON report.
This table draws the same thing from the same parts, cell by cell, with plain string work: the
column widths, the title and the header come from rich itself (a header-only Table with the
widths rich chose), each cell is wrapped with rich's own line breaker (rich._wrap.divide_line)
and cut and padded as rich does, and the borders are the box's own. tests/test_findings_table.py
holds its output to rich's, character for character, at several widths. Where the columns do not
fit (a terminal too narrow for the fixed columns), or a cell holds a tab, rich draws the table.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderResult


@dataclass(frozen=True)
class Cell:
    """A cell's text, the style of all of it, and styled runs within it (start, end, style)."""

    text: str
    style: str = ""
    runs: tuple[tuple[int, int, str], ...] = ()


@dataclass(frozen=True)
class Column:
    header: str
    ratio: int | None = None
    min_width: int | None = None
    fold: bool = False  # wrap, folding words longer than the column; else one line
    right: bool = False


class FindingsTable:
    """A rich renderable: rows of cells under a title, sections ended where asked."""

    def __init__(self, title: Any, columns: list[Column]):
        self.title = title
        self.columns = columns
        self.rows: list[tuple[list[Cell], bool]] = []

    def add_row(self, cells: list[Cell], end_section: bool = False) -> None:
        self.rows.append((cells, end_section))

    def _rich_table(self, widths: list[int] | None = None) -> Any:
        """rich's own table: with ``widths``, header only and those widths; else everything."""
        from rich.table import Table
        from rich.text import Text

        table = Table(show_lines=False, expand=widths is None, title=self.title)
        for index, column in enumerate(self.columns):
            options: dict[str, Any] = {"justify": "right" if column.right else "left"}
            if widths is not None:
                options["width"] = widths[index] - 2
            else:
                options["ratio"] = column.ratio
                options["min_width"] = column.min_width
            if column.fold:
                options["overflow"] = "fold"
            else:
                options["no_wrap"] = True
            table.add_column(column.header, **options)
        if widths is None:
            for cells, end_section in self.rows:
                texts = []
                for cell in cells:
                    text = Text(cell.text, style=cell.style)
                    for start, end, style in cell.runs:
                        text.stylize(style, start, end)
                    texts.append(text)
                table.add_row(*texts, end_section=end_section)
        return table

    def _widths(self, console: Console, options: ConsoleOptions) -> list[int] | None:
        """rich's column widths for this table, or None where they would depend on the cells
        of the wrapping columns (fixed columns too wide for the terminal)."""
        from rich.table import Table
        from rich.text import Text

        proxy = Table(show_lines=False, expand=True, title=self.title)
        widest = []
        for index, column in enumerate(self.columns):
            if column.ratio is None:
                proxy.add_column(column.header, no_wrap=True)
                cells = [row[0][index].text for row in self.rows]
                widest.append(max(cells, key=len) if cells else "")
            else:
                proxy.add_column(column.header, ratio=column.ratio, min_width=column.min_width)
                widest.append("")
        proxy.add_row(*(Text(text) for text in widest))
        available = options.max_width - proxy._extra_width
        fixed = sum(
            proxy._measure_column(console, options.update_width(available), column).maximum
            for column in proxy.columns
            if not column.flexible
        )
        flexible = sum(3 for column in proxy.columns if column.flexible)
        if fixed + flexible > available:
            return None
        widths: list[int] = proxy._calculate_column_widths(console, options.update_width(available))
        return widths

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich import box
        from rich.segment import Segment

        widths = self._widths(console, options)
        if widths is None or any("\t" in c.text for row in self.rows for c in row[0]):
            yield self._rich_table()
            return
        header = list(console.render(self._rich_table(widths), options))
        yield from header[:-2]  # all but the bottom border (and its line end)
        drawn = box.HEAVY_HEAD.substitute(options, safe=console.safe_box)
        border = console.get_style("table.border", default="") or None
        line_end = Segment.line()
        middle = (Segment(drawn.mid_left, border), Segment(drawn.mid_vertical, border))
        foot = (Segment(drawn.foot_left, border), Segment(drawn.foot_vertical, border))
        right = {True: Segment(drawn.foot_right, border), False: Segment(drawn.mid_right, border)}
        separator = Segment(drawn.get_row(widths, "row", edge=True), border)
        styles: dict[str, Any] = {}

        def style_of(name: str) -> Any:
            if name not in styles:
                styles[name] = console.get_style(name) if name else None
            return styles[name]

        # Without colour (a file, a pipe, NO_COLOR) styles print as nothing: each row is then one
        # segment of text, which the console writes at the cost of a string.
        plain = console.color_system is None
        for number, (cells, end_section) in enumerate(self.rows):
            last = number == len(self.rows) - 1
            left, divider = foot if last else middle
            drawn_cells = [
                _cell_lines(cell, width - 2, column, style_of, plain)
                for cell, width, column in zip(cells, widths, self.columns, strict=True)
            ]
            height = max(len(lines) for lines in drawn_cells)
            if plain:
                text = []
                for line in range(height):
                    text.append(left.text)
                    for index, (lines, width) in enumerate(zip(drawn_cells, widths, strict=True)):
                        if index:
                            text.append(divider.text)
                        text.append(f" {lines[line]} " if line < len(lines) else " " * width)
                    text.append(f"{right[last].text}\n")
                if end_section and not last:
                    text.append(f"{separator.text}\n")
                yield Segment("".join(text))
                continue
            row: list[Any] = []
            for line in range(height):
                row.append(left)
                for index, (lines, width) in enumerate(zip(drawn_cells, widths, strict=True)):
                    if index:
                        row.append(divider)
                    row.append(Segment(" "))
                    if line < len(lines):
                        row.extend(lines[line])
                    else:
                        row.append(Segment(" " * (width - 2)))
                    row.append(Segment(" "))
                row.append(right[last])
                row.append(line_end)
            if end_section and not last:
                row.append(separator)
                row.append(line_end)
            yield from Segment.simplify(row)
        yield Segment(drawn.get_bottom(widths), border)
        yield line_end


def _cell_lines(cell: Cell, width: int, column: Column, style_of: Any, plain: bool) -> list[Any]:
    """The cell's lines, each ``width`` cells wide, wrapped as rich wraps a Text: text alone
    when ``plain``, else segments in the cell's styles."""
    from rich.segment import Segment

    pieces = _pieces(cell.text, width, column.fold, column.right)
    if plain:
        return [f"{pad}{piece}" if column.right else f"{piece}{pad}" for _, piece, pad in pieces]
    base = style_of(cell.style)
    lines = []
    for at, piece, pad in pieces:
        segments = list(_styled(piece, at, cell.runs, base, style_of))
        line = [Segment(pad, base), *segments] if column.right else [*segments, Segment(pad, base)]
        lines.append(list(Segment.simplify(line)))
    return lines


@functools.lru_cache(maxsize=4096)
def _pieces(text: str, width: int, fold: bool, right: bool) -> tuple[tuple[int, str, str], ...]:
    """(offset in the text, the line's text, its padding) for each line of a cell's text."""
    from rich.cells import cell_len, set_cell_size

    pieces = []
    offset = 0
    for paragraph in text.split("\n"):
        breaks = _breaks(paragraph, width) if fold else []
        for start, end in zip([0, *breaks], [*breaks, len(paragraph)], strict=True):
            piece = paragraph[start:end]
            if len(piece) > width:  # Text.rstrip_end: trailing spaces beyond the width go
                spaces = len(piece) - len(piece.rstrip())
                piece = piece[: len(piece) - min(spaces, len(piece) - width)]
            if right:
                piece = piece.rstrip()
            size = cell_len(piece)
            if size > width:  # a no-wrap column cut short, as rich's ellipsis does
                pieces.append((offset + start, set_cell_size(piece, width - 1) + "…", ""))
                continue
            pieces.append((offset + start, piece, " " * (width - size)))
        offset += len(paragraph) + 1
    return tuple(pieces)


_WORD = re.compile(r"\s*\S+\s*")  # rich._wrap's word: the word and the spaces after it


def _breaks(paragraph: str, width: int) -> list[int]:
    """rich._wrap.divide_line(paragraph, width, fold=True), computed by length for ASCII text
    whose every word fits the width (one cell per character); otherwise by rich itself."""
    from rich._wrap import divide_line

    if not paragraph.isascii():
        return divide_line(paragraph, width, fold=True)
    breaks: list[int] = []
    offset = 0
    for match in _WORD.finditer(paragraph):
        word = match.group()
        length = len(word.rstrip())
        if width - offset >= length:
            offset += len(word)
        elif length > width:
            return divide_line(paragraph, width, fold=True)
        elif offset and match.start():
            breaks.append(match.start())
            offset = len(word)
    return breaks


def _styled(piece: str, at: int, runs: Any, base: Any, style_of: Any) -> Iterator[Any]:
    """``piece`` (which starts at ``at`` in its cell) in segments, styled by the runs it crosses."""
    from rich.segment import Segment

    position = 0
    for start, end, name in runs:
        start, end = max(start - at, position), min(end - at, len(piece))
        if start >= end:
            continue
        if start > position:
            yield Segment(piece[position:start], base)
        style = style_of(name)
        yield Segment(piece[start:end], base + style if base else style)
        position = end
    if position < len(piece) or not piece:
        yield Segment(piece[position:], base)
