"""Test helper: counsel's approval of every drafted clause a facts file's documents carry, as
`docgen clauses` would print it, appended to the file (tests that are not about approvals)."""

from __future__ import annotations

from pathlib import Path

from docgen.checker.clauses import approval_block, review_clauses
from docgen.load import load_facts


def approve_all(path: Path, by: str = "A. Counsel", on: str = "2026-05-01") -> Path:
    """Add a clause_approvals block approving every clause ``path``'s documents carry."""
    text = path.read_text(encoding="utf-8")
    reviews = review_clauses(load_facts(path, migrating=True))
    block = approval_block(load_facts(path, migrating=True), reviews, by, on)
    path.write_text(text.rstrip("\n") + "\n" + block, encoding="utf-8")
    return path
