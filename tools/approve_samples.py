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

import hashlib
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
    "FILE`\n# lists every clause as it reads with its SHA-256 and prints this block (each "
    "approval carries\n# the wording approved); change a clause's words and its approval stops "
    "counting until\n# counsel approves the new wording.\n"
)
# The problems file about approvals keeps one clause unapproved and one approval stale: counsel
# approved Section B before its item (3) was redrafted as a Code 409A change in control event
# (the approval records the wording then approved, so the finding shows the redline).
PROBLEM = "director-unapproved-clauses.yaml"
UNAPPROVED = "notice.f1-payment-date"
STALE = (
    "notice.b-accelerated-vesting",
    " that is also a change in control event (Code section 409A(a)(2)(A)(v))",
)


def approve(path: Path) -> None:
    """Rewrite the file's clause_approvals block where it stands (or, in a file with none, before
    its people: the roster itself, or the CSVs a records-shaped sample names)."""
    text = path.read_text(encoding="utf-8")
    old = re.search(
        r"^(?:# Counsel's approval of each drafted clause[^\n]*\n(?:#[^\n]*\n)*)?"
        r"clause_approvals:\n(?:  [^\n]*\n)*\n?",
        text,
        flags=re.M,
    )
    if old is not None:
        text = text[: old.start()] + text[old.end() :]
    text = re.sub(r"\n\n\n+", "\n\n", text)
    path.write_text(text, encoding="utf-8")
    on = date(2026, 5, 1) if "director-rsu-grant" in text else date(2025, 11, 1)
    block = json.loads(api.clauses(path, "json", by="A. Counsel", on=on))["clause_approvals_block"]
    if path.name == PROBLEM:
        block = _problem_block(block)
    block = _letters_as_before(block, old.group(0) if old is not None else "")
    if old is not None:
        at = old.start()
    else:
        anchor = re.search(
            r"^(directors_csv:|directors:|participants:|participants_csv:)", text, re.M
        )
        if anchor is None:
            raise SystemExit(f"{path}: no clause_approvals block and no roster to put one before")
        at = anchor.start()
    before = text[:at].rstrip("\n") + "\n\n"
    path.write_text(before + COMMENT + block + "\n" + text[at:].lstrip("\n"), encoding="utf-8")


def _letters_as_before(block: str, before: str) -> str:
    """The block with `docgen send`'s cover letters only where the sample approved them before:
    the samples without them show `docgen send` refusing an unapproved letter."""
    head, *entries = re.split(r"(?m)^(?=  - clause: )", block)
    had = set(re.findall(r"(?m)^  - clause: (letter\.\S+)$", before))
    return head + "".join(
        e for e in entries if not e.startswith("  - clause: letter.") or e.split()[2] in had
    )


def _problem_block(block: str) -> str:
    """The problems file's block: one clause left out, one approved in its earlier words."""
    head, *entries = re.split(r"(?m)^(?=  - clause: )", block)
    kept = []
    for entry in entries:
        if entry.startswith(f"  - clause: {UNAPPROVED}\n"):
            continue
        if entry.startswith(f"  - clause: {STALE[0]}\n"):
            earlier = entry.replace(STALE[1], "")
            wording = "".join(
                line[6:] + "\n" for line in earlier.splitlines() if line.startswith("      ")
            )
            digest = hashlib.sha256(wording.encode("utf-8")).hexdigest()
            entry = re.sub(r"sha256: [0-9a-f]{64}", f"sha256: {digest}", earlier)
            entry = entry.replace("on: 2026-05-01", "on: 2026-03-02")
        kept.append(entry)
    return head + "".join(kept)


def main() -> None:
    for path in sorted(
        [*ROOT.glob("samples/*.yaml"), *ROOT.glob("samples/problems/*.yaml")]
        + [*ROOT.glob("samples/tour/*.yaml")]
    ):
        approve(path)
        print(f"approved the clauses of {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
