"""A roster's header problems said once each, in plain English (issue 44): ten unknown columns
list the known columns once, not ten times, and a missing id column is "an id column"."""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_unknown_columns_list_the_columns_once_and_an_id_column_reads_right(cli, tmp_path):
    shutil.copy(ROOT / "samples" / "director-grant-2026-roster.yaml", tmp_path / "grant.yaml")
    lines = (ROOT / "samples" / "roster.csv").read_text(encoding="utf-8").splitlines()
    extra = [f"extra{n}" for n in range(10)]
    header = lines[0].replace("id,", "ident,", 1) + "," + ",".join(extra)
    rows = [line + "," * len(extra) for line in lines[1:]]
    (tmp_path / "roster.csv").write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    result = cli("check", tmp_path / "grant.yaml", "--as-of", "2026-06-01")
    assert result.exit_code == 2, result.output
    said = result.stderr
    assert said.count("Columns: id, name") == 1, said
    assert "unknown column" in said and said.count("unknown column") == 11
    assert "Add an id column to the header row." in " ".join(said.split())
    assert "a id column" not in said
