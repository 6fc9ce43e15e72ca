"""`docgen clauses`: every drafted clause a cycle's documents carry, for counsel to read and
approve, as text or JSON, with the ``clause_approvals`` block `docgen approve` records."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Sequence
from typing import Any

from docgen.checker.clauses import approval_block
from docgen.core.clauses import ClauseReview
from docgen.core.redline import as_text as redline_text
from docgen.core.redline import redline


def _status(review: ClauseReview) -> str:
    if review.approval is not None:
        return f"approved by {review.approval.by} on {review.approval.on.isoformat()}"
    if review.stale:
        last = review.stale[-1]
        return (
            f"NOT APPROVED: the approval by {last.by} on {last.on.isoformat()} is of other "
            f"wording (SHA-256 {last.sha256})"
        )
    return "NOT APPROVED"


def _redline_lines(review: ClauseReview) -> list[str]:
    """A stale or never-approved company wording's redline: [-deleted-] {+inserted+}."""
    if review.approval is not None:
        return []
    baseline = review.baseline
    if baseline is None:
        if review.stale:
            return [
                "  redline: none can be shown: the approval on file does not record its wording"
            ]
        return []
    marked = redline_text(redline(baseline[0], review.text))
    return [f"  redline against {baseline[1]} ([-deleted-] {{+inserted+}}):"] + [
        f"    | {line}" for line in marked.rstrip("\n").splitlines()
    ]


def _retired_note(loaded: Any) -> list[str]:
    lines = []
    for name, value in loaded.retired.items():
        file, line = loaded.source.locate((name,))
        where = f"{file}:{line}" if line else file
        lines += [
            f"Note: {where}: {name} ({value!r}) approved every drafted clause at once, bound to "
            "no wording, and no longer counts. Once counsel has approved each clause below,",
            "replace that line with the clause_approvals block at the end.",
            "",
        ]
    return lines


def as_text(loaded: Any, reviews: Sequence[ClauseReview], block: str, scope: str) -> str:
    def wrap(label: str, text: str) -> list[str]:
        return textwrap.wrap(
            text, 96, initial_indent=f"  {label:<9}", subsequent_indent=" " * 11
        ) or [f"  {label}"]

    approved = sum(1 for review in reviews if review.approved)
    lines = _retired_note(loaded) + [
        f"Drafted clauses in the documents of {loaded.source.file} ({scope}): "
        f"{len(reviews)}, {approved} approved by counsel.",
        "Each wording is shown as it reads: blanks in [brackets], conditions as If lines, no "
        "template syntax. An approval is bound to the SHA-256 of that wording (UTF-8, each line "
        "ended by a newline): change one word and it no longer counts; a change of markup or "
        "spacing alone leaves it.",
    ]
    for review in reviews:
        copies = f"{review.copies} cop{'y' if review.copies == 1 else 'ies'}"
        lines += ["", f"{review.id}: {review.title}"]
        lines += wrap(
            "where:",
            f"{review.section}; in {', '.join(review.documents)} ({copies}; stage "
            f"{', '.join(review.stages)})",
        )
        lines += wrap("status:", _status(review))
        lines += wrap("sha256:", review.sha256)
        lines += wrap("why:", review.rationale)
        lines += wrap("cites:", "; ".join(str(c) for c in review.citations))
        source = "built-in" if review.source == "built-in" else f"from {review.source}"
        lines.append(f"  wording ({source}):")
        lines += [f"    | {line}" for line in review.text.rstrip("\n").splitlines()]
        lines += _redline_lines(review)
    file = loaded.source.file
    lines += [
        "",
        f"To record counsel's approvals: save this review (`docgen clauses {file} -o REVIEW`), "
        f"then `docgen approve {file} --all-shown --shown REVIEW --by NAME` records every "
        "wording it shows (`--wording ID` one of them), refusing any whose words changed since. "
        "What it records in clause_approvals is this block (`--by NAME --on DATE` fills in "
        "<counsel> and <YYYY-MM-DD>):",
        "",
        block.rstrip("\n"),
    ]
    return "\n".join(lines) + "\n"


def as_json(loaded: Any, reviews: Sequence[ClauseReview], block: str) -> str:
    data = {
        "facts": {"file": loaded.source.file, "kind": loaded.kind, "sha256": loaded.sha256},
        "clauses": [review.to_json_dict() for review in reviews],
        "clause_approvals_block": block,
        "retired_fields": sorted(loaded.retired),
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def clauses_view(
    loaded: Any,
    reviews: Sequence[ClauseReview],
    output_format: str,
    *,
    stage: str | None = None,
    by: str | None = None,
    on: str | None = None,
) -> str:
    block = approval_block(loaded, reviews, by, on)
    if output_format == "json":
        return as_json(loaded, reviews, block)
    return as_text(loaded, reviews, block, f"stage {stage}" if stage else "every stage")
