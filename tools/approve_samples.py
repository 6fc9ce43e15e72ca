"""Re-approve the drafted clauses in the bundled samples after a clause's wording changes.

The samples stand for a company whose counsel ("A. Counsel") has approved every drafted clause,
so `make demo` issues with no DOC-DRAFTED-CLAUSE. Change a clause (templates/clauses/) and its
SHA-256 changes: tests/test_clauses.py then fails until the samples carry the new SHA-256. Run

    .venv/bin/python tools/approve_samples.py

to rewrite each sample's clause_approvals block with the clauses' present SHA-256 (the same block
`docgen clauses FILE --by "A. Counsel" --on DATE` prints), and review the change with git diff.
For samples only: a real facts file's approvals are counsel's to give.
"""

from __future__ import annotations

import json
import re
import sys
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from docgen import api  # noqa: E402

COMMENT = (
    "# Counsel's approval of each drafted clause's exact wording (DESIGN A9): `docgen clauses "
    "FILE`\n# lists every clause with its text and SHA-256 and prints this block; change a "
    "clause's words\n# and its approval stops counting until counsel approves the new wording.\n"
)
# The problems file about approvals keeps one clause unapproved and one approval stale: counsel
# approved Section B before its item (3) was redrafted as a Code 409A change in control event.
PROBLEM = "director-unapproved-clauses.yaml"
UNAPPROVED = "notice.f1-payment-date"
STALE = (
    "notice.b-accelerated-vesting",
    "27f489ac890dde442de72eb7494001a70b8b769a0cbb482ddbe1ed6cbe101328",
)


def approve(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    text = re.sub(
        r"^# Counsel's approval of each drafted clause.*?\n(?=[a-z])", "", text, flags=re.M | re.S
    )
    text = re.sub(r"^clause_approvals:\n(?:  .*\n)*\n?", "", text, flags=re.M)
    text = re.sub(r"\n\n\n+", "\n\n", text)
    path.write_text(text, encoding="utf-8")
    on = date(2026, 5, 1) if "director-rsu-grant" in text else date(2025, 11, 1)
    block = json.loads(api.clauses(path, "json", by="A. Counsel", on=on))["clause_approvals_block"]
    if path.name == PROBLEM:
        block = "".join(
            line for line in block.splitlines(keepends=True) if f"clause: {UNAPPROVED}," not in line
        )
        block = re.sub(rf"(clause: {STALE[0]}, sha256: )[0-9a-f]{{64}}", rf"\g<1>{STALE[1]}", block)
    anchor = re.search(r"^(directors_csv:|directors:|participants:)", text, re.M)
    before = text[: anchor.start()].rstrip("\n") + "\n\n"
    path.write_text(before + COMMENT + block + "\n" + text[anchor.start() :], encoding="utf-8")


def main() -> None:
    for path in sorted([*ROOT.glob("samples/*.yaml"), *ROOT.glob("samples/problems/*.yaml")]):
        approve(path)
        print(f"approved the clauses of {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
