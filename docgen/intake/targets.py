"""Where each edit of a filing is written (A20): into the CSV of filings the facts name for it
(``elections_csv``, ``beneficiaries_csv``, ``allocations_csv``), into the roster row of a person
kept in a roster, or into the facts file itself.

A person's list stays in one place (the loader refuses it in two): an edit goes to the CSV the
facts name for it when the person has nothing there yet, or has it in that CSV; a person whose
list the facts file holds keeps it there. A roster person whose single election is in the
roster's election columns, and whose next form goes to ``elections_csv``, has both recorded
there, in order, and the row's election cells emptied: the row no longer holds an election,
so nothing is in two places. Without the CSV, a roster row takes what its columns hold (one
election of each kind) and refuses the rest, saying which CSV to name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from docgen.core.cells import is_sheet
from docgen.core.filings import Amend, Append, Edit, Filing, FormRefused, Put
from docgen.core.record_rows import NoColumn, RecordRows, cell_text, cells_of
from docgen.intake.roster_text import RosterText
from docgen.load import LoadedFacts
from docgen.load.text import display


class Targets:
    """The CSV texts a set of filings edits (the roster's and each CSV of filings'), and where
    each person's lists are: which edits go to the facts file is the caller's to apply."""

    def __init__(self, loaded: LoadedFacts, kind: Any, read: dict[Path, bytes], decode: Any):
        self.loaded = loaded
        self.kind = kind
        self.field = kind.subjects_field
        self.texts: dict[Path, RosterText] = {}  # each parsed when first written
        self._decode = decode
        self._read = read
        self.specs: dict[str, tuple[RecordRows, Path]] = {}
        for spec in kind.records:
            path = loaded.records.get(spec.field)
            if path is not None:
                self.specs[spec.into] = (spec, path)
        paths = [path for _, path in self.specs.values()]
        if loaded.roster is not None:
            paths.append(loaded.roster)
        for path in paths:
            read[path] = path.read_bytes()  # under the lock, as every file a filing may write
        self.where: dict[tuple[int, str], str] = {}  # (person, list) -> "csv", "roster", "file"
        self.touched: set[Path] = set()

    def text(self, path: Path) -> RosterText:
        if path not in self.texts:
            self.texts[path] = RosterText(self._decode(self._read[path]))
        return self.texts[path]

    def _place(self, index: int, into: str, subject: dict[str, Any]) -> str:
        known = self.where.get((index, into))
        if known is not None:
            return known
        at = self.loaded.source.extra.get((self.field, index, into))
        held_in = _file_of(at[0]) if at is not None else None  # a workbook's, without its sheet
        in_roster = (self.field, index) in self.loaded.source.extra
        roster_shown = display(self.loaded.roster) if self.loaded.roster else None
        place = "roster" if in_roster else "file"
        if into in self.specs:
            spec, path = self.specs[into]
            if not subject.get(into) or held_in == display(path):
                place = "csv"
            elif in_roster and held_in is not None and held_in == roster_shown:
                self._move_from_roster(index, into, subject)
                place = "csv"
        self.where[(index, into)] = place
        return place

    def _never_written(
        self, field: str, path: Path, subject_id: str, into: str, moving: bool = False
    ) -> None:
        """A workbook, or a file read through a columns: mapping (A24), is the company's own
        export (a layout docgen does not own): docgen reads it and never writes it. A filing
        for a person listed in one goes to the CSV of filings the facts name for its list;
        where the facts name none of docgen's own, the filing is refused, naming the field."""
        if field not in self.loaded.read_only:
            return
        spec = next((s for s in self.kind.records if s.into == into), None)
        shown = display(path)
        export = (
            "the company's own export, which docgen reads (a workbook, or through its columns: "
            "mapping) and never writes"
        )
        if spec is None:
            raise FormRefused(
                [f"{subject_id}'s form would be written into {shown}, {export}"],
                "This kind keeps such forms only in the roster: record them in the system "
                "that exports it and export it again.",
            )
        first_line = ",".join(spec.column_names)
        if field == spec.field:  # the CSV of filings the facts name is itself an export
            raise FormRefused(
                [
                    f"{subject_id}'s {spec.into} would be written into {shown}, which the "
                    f"facts' {spec.field} names: {export}"
                ],
                f"Record it in the system that exports {shown} and export it again; or make "
                f"{spec.field} a CSV of docgen's own columns (its first line: {first_line}; "
                "docs/fact-files.md) holding the export's rows, and docgen records forms there.",
            )
        named = self.specs.get(into) if moving else None
        raise FormRefused(
            [
                f"{subject_id} is listed in {shown}, {export}"
                + (
                    f"; their {spec.into} on record are in its row, and would be moved out of it"
                    if named is not None
                    else f", and the facts name no {spec.field} for the {spec.into} docgen records"
                )
            ],
            (
                f"Map no {spec.into} columns in {shown}'s columns: block and give them in "
                f"{named[1].name} instead; "
                if named is not None
                else f"Name a CSV of docgen's own columns in the facts' {spec.field} (create it "
                f"with the first line {first_line}; docs/fact-files.md); "
            )
            + "the form is then recorded there.",
        )

    def _move_from_roster(self, index: int, into: str, subject: dict[str, Any]) -> None:
        """The roster row's election cells emptied, its elections written as rows instead."""
        assert self.loaded.roster is not None and self.kind.roster.record is not None
        self._never_written(
            self.kind.roster.field, self.loaded.roster, subject["id"], into, moving=True
        )
        roster = self.text(self.loaded.roster)
        number = roster.row_of(subject["id"])
        empty = {name: "" for name in roster.header}
        for item in subject[into]:
            cells, _ = self.kind.roster.record(empty, Append((into,), _plain(item)))
            roster.set(number, {column: "" for column in cells})
            self._append(into, subject["id"], _plain(item))
        self.touched.add(self.loaded.roster)

    def _append(self, into: str, subject_id: str, item: dict[str, Any]) -> None:
        spec, path = self.specs[into]
        self._never_written(spec.field, path, subject_id, into)
        try:
            self.text(path).append(cells_of(spec, subject_id, item))
        except NoColumn as missing:
            raise FormRefused([f"{spec.field} has no column for {missing}"]) from None
        self.touched.add(path)

    def route(
        self, filing: Filing, index: int, subject: dict[str, Any]
    ) -> tuple[list[Edit], list[Edit]]:
        """Write the filing's edits that go to a CSV; returns (the edits as the CSVs hold them,
        the edits for the facts file)."""
        held: list[Edit] = []
        for_file: list[Edit] = []
        refused: list[FormRefused] = []  # every edit a roster row cannot take, all said at once
        for edit in filing.edits:
            into = edit.path[0]
            place = self._place(index, into, subject)
            if place == "file":
                for_file.append(edit)
            elif place == "roster":
                try:
                    held.append(self._into_roster(filing.subject, edit))
                except FormRefused as refusal:
                    refused.append(refusal)
            else:
                self._into_csv(filing.subject, edit)
                held.append(edit)
        if refused:
            raise FormRefused.together(refused)
        return held, for_file

    def _into_csv(self, subject_id: str, edit: Edit) -> None:
        into = edit.path[0]
        spec, path = self.specs[into]
        if isinstance(edit, Append):
            self._append(into, subject_id, edit.value)
            return
        self._never_written(spec.field, path, subject_id, into)
        if isinstance(edit, Amend):
            self._amend_row(spec, path, subject_id, edit)
            return
        text = self.text(path)
        for number in text.rows_of(spec.subject_column, subject_id):
            text.remove(number)
        if spec.key is not None:
            for key, value in dict(edit.value).items():
                self._append(into, subject_id, {spec.key: key, "percent": value})
        else:
            for item in edit.value:
                self._append(into, subject_id, item)
        self.touched.add(path)

    def _into_roster(self, subject_id: str, edit: Edit) -> Edit:
        """The edit written into the person's roster row; returns it as the row holds it."""
        assert self.loaded.roster is not None
        if self.kind.roster is None or self.kind.roster.record is None:
            raise FormRefused([f"{subject_id} is in a roster that docgen cannot write"])
        self._never_written(self.kind.roster.field, self.loaded.roster, subject_id, edit.path[0])
        roster = self.text(self.loaded.roster)
        number = roster.row_of(subject_id)
        current = {**roster.cells(number), **roster.changes.get(number, {})}
        cells, value = self.kind.roster.record(current, edit)
        roster.set(number, cells)
        self.touched.add(self.loaded.roster)
        if isinstance(edit, Amend):
            return Amend(edit.path, value)
        return Append(edit.path, value) if isinstance(edit, Append) else Put(edit.path, value)

    def _amend_row(self, spec: RecordRows, path: Path, subject_id: str, edit: Amend) -> None:
        """The cells of the person's row that holds the item (their rows are their list, in
        order) set to the amended fields; a field taken out leaves its cell empty."""
        text = self.text(path)
        rows = text.rows_of(spec.subject_column, subject_id)
        # A roster row's election moved here by this call is a row appended, not yet read.
        added = [row for row in text.appended if row.get(spec.subject_column) == subject_id]
        index = edit.path[1]
        if index >= len(rows) + len(added):
            raise FormRefused([f"{spec.field} has no row {index + 1} for {subject_id}"])
        columns = {field.path: field.column for field in spec.fields}
        cells: dict[str, str] = {}
        for key, value in edit.value.items():
            column = columns.get((key,))
            if column is None:
                raise FormRefused([f"{spec.field} has no column for {key}"])
            cells[column] = "" if value is None else cell_text(value)
        if index < len(rows):
            text.set(rows[index], cells)
        else:
            added[index - len(rows)].update(cells)
        self.touched.add(path)


def _file_of(shown: str) -> str:
    """The file a place names: a workbook sheet's (``Workers.xlsx:Sheet1``) is its workbook."""
    return shown.rpartition(":")[0] if is_sheet(shown) else shown


def _plain(item: dict[str, Any]) -> dict[str, Any]:
    """An item of the model's dump without its empty fields (as a filing gives it)."""
    return {
        key: _plain(value) if isinstance(value, dict) else value
        for key, value in item.items()
        if value is not None and value != {} and not (key == "contingent" and value is False)
    }
