"""`docgen approve`: counsel's approval of a wording (a drafted clause, or a company's own
template) recorded in the facts file's ``clause_approvals``, as the block `docgen clauses` prints
holds it: the wording's id, its SHA-256, who approved it and when, and the words approved
(DESIGN.md, "Drafted clauses and counsel's approval").

What counsel approves is what counsel was shown. ``shown`` is that review: the output of `docgen
clauses` saved to a file (text or ``--format json``), or, from the workspace, each wording's id
with the SHA-256 its page showed. A wording whose words changed since (its SHA-256 is not the
one shown), or that the review did not show, is refused by name, and nothing is written. Without
``shown``, the wording is approved as it reads when the command runs, and the record carries
those words.

Written as `docgen intake` writes (docgen.intake.record): under the facts file's recording lock,
spliced into the text by intake's editor (every other byte as it was: comments, order, quoting),
read back and proved to be the facts plus the approvals, then replaced atomically. An approval
is added after the ones on file: an earlier approval of other words stays, the record of what
was approved before.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from docgen.checker.clauses import review_clauses
from docgen.core.clauses import ClauseApproval, ClauseReview
from docgen.core.errors import DocgenError, LoadError, Problem, unknown_id_hint
from docgen.core.output import recording_lock, remove_stale_temporaries
from docgen.core.safe_open import read_regular
from docgen.intake.proof import NotAsIntended
from docgen.intake.record import Prepared, encoded, facts_editor, write
from docgen.intake.yaml_text import YamlEditError
from docgen.load import LoadedFacts, load_facts
from docgen.load.text import display

FIELD = "clause_approvals"
MAX_REVIEW_BYTES = 20 * 1024 * 1024  # a review of every wording of a cycle is a few hundred kB


@dataclass(frozen=True)
class ApprovalRecorded:
    """One approval written: the wording's id and title, its SHA-256 and words, who and when."""

    wording: str
    title: str
    sha256: str
    by: str
    on: date
    text: str


@dataclass(frozen=True)
class Approved:
    """What `docgen approve` did: the approvals written (in order), the wordings named that were
    approved already in their present words (nothing written for them), and the wordings the
    cycle's documents carry that still await counsel's approval."""

    facts: Path
    recorded: tuple[ApprovalRecorded, ...]
    already: tuple[ClauseReview, ...]
    unapproved: tuple[str, ...]
    written: tuple[Path, ...]

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "facts": str(self.facts),
            "recorded": [
                {
                    "wording": a.wording,
                    "title": a.title,
                    "sha256": a.sha256,
                    "by": a.by,
                    "on": a.on.isoformat(),
                }
                for a in self.recorded
            ],
            "already": [review.id for review in self.already],
            "unapproved": list(self.unapproved),
            "written": [str(path) for path in self.written],
        }


class ApprovalRefused(LoadError):
    """Wordings that cannot be approved as asked (unknown, changed since shown, not shown): one
    problem each, naming the wording. Exit code 2; nothing is written."""


class BadReview(DocgenError, ValueError):
    """A ``--shown`` file that is not a review `docgen clauses` printed. Exit code 2."""


Shown = Mapping[str, str]  # wording id -> the SHA-256 of its words as counsel was shown them


def approve(
    facts_path: str | Path,
    wordings: Sequence[str] = (),
    *,
    by: str,
    on: date,
    all_shown: bool = False,
    shown: Shown | str | Path | None = None,
    more_wordings: Callable[[LoadedFacts], Sequence[ClauseReview]] | None = None,
) -> Approved:
    """Record counsel's approval (``by``, ``on``) of each wording named in ``wordings`` (ids as
    `docgen clauses` lists them: ``notice.b-accelerated-vesting``, ``template.notice``), or, with
    ``all_shown``, of every wording ``shown`` names. ``shown``: the review counsel read (a file
    `docgen clauses` wrote, or {id: SHA-256} from a screen); a wording whose SHA-256 is not the
    one shown is refused. ``more_wordings``: wordings no document carries that counsel approves
    too (`docgen send`'s cover letters, which a layer above this one reads). Raises
    ApprovalRefused (nothing written) naming each wording refused."""
    facts_path = Path(facts_path)
    if not by.strip():
        raise BadReview("--by: write counsel's name, e.g. --by 'A. Counsel'.")
    review = _shown(shown) if isinstance(shown, str | Path) else shown
    if all_shown and review is None:
        raise BadReview(
            "--all-shown approves every wording counsel was shown: give that review with "
            f"--shown FILE (saved by `docgen clauses {display(facts_path)} -o FILE`)."
        )
    if not all_shown and not wordings:
        raise BadReview(
            "name the wording to approve with --wording ID (`docgen clauses` lists the ids), or "
            "approve every wording of a review with --all-shown --shown FILE."
        )
    with recording_lock(facts_path):  # before any file is read, as intake (docgen.core.output)
        loaded = load_facts(facts_path)
        more = list(more_wordings(loaded)) if more_wordings is not None else []
        reviews = {review.id: review for review in [*review_clauses(loaded), *more]}
        asked = list(dict.fromkeys([*wordings, *(review or {} if all_shown else {})]))
        chosen, already = _chosen(loaded, reviews, asked, review)
        recorded = tuple(
            ApprovalRecorded(r.id, r.title, r.sha256, by.strip(), on, r.text) for r in chosen
        )
        _valid(loaded, recorded)
        written: list[Path] = []
        if recorded:
            written = write(_prepared(loaded, recorded))
    left = tuple(
        r.id
        for r in reviews.values()
        if not r.approved and r.id not in {a.wording for a in recorded}
    )
    return Approved(facts_path, recorded, tuple(already), left, tuple(written))


def _chosen(
    loaded: LoadedFacts,
    reviews: Mapping[str, ClauseReview],
    asked: list[str],
    shown: Shown | None,
) -> tuple[list[ClauseReview], list[ClauseReview]]:
    """The wordings to approve and those approved already; every refusal at once."""
    shown_file = loaded.source.file
    problems: list[Problem] = []
    chosen: list[ClauseReview] = []
    already: list[ClauseReview] = []
    for wording in asked:
        review = reviews.get(wording)
        if review is None:
            problems.append(
                Problem(
                    shown_file,
                    None,
                    wording,
                    "no document of this cycle carries a wording with this id",
                    fix=unknown_id_hint(wording, list(reviews))
                    + f" `docgen clauses {shown_file}` lists each.",
                )
            )
            continue
        if shown is not None and wording not in shown:
            problems.append(
                Problem(
                    shown_file,
                    None,
                    wording,
                    "was not in the review counsel was shown (--shown)",
                    fix=f"Show counsel this wording (`docgen clauses {shown_file}`), then approve "
                    "that review.",
                )
            )
            continue
        if shown is not None and shown[wording] != review.sha256:
            problems.append(
                Problem(
                    shown_file,
                    None,
                    wording,
                    f"its wording changed since it was shown: counsel was shown SHA-256 "
                    f"{shown[wording][:12]}…, and it now reads SHA-256 {review.sha256[:12]}…",
                    fix=f"Have counsel read it as it now reads (`docgen clauses {shown_file}`), "
                    "then approve that review.",
                )
            )
            continue
        if review.approved:
            already.append(review)
            continue
        chosen.append(review)
    if problems:
        raise ApprovalRefused(problems)
    return chosen, already


def _valid(loaded: LoadedFacts, recorded: Sequence[ApprovalRecorded]) -> None:
    """Each approval as the facts model takes it (a name that is text, not `docgen clauses`'
    placeholder), refused before anything is written."""
    for approval in recorded:
        try:
            ClauseApproval.model_validate(_item(approval))
        except ValidationError as error:
            raise ApprovalRefused(
                [
                    Problem(
                        loaded.source.file,
                        None,
                        "--by" if detail["loc"][:1] == ("by",) else approval.wording,
                        detail["msg"],
                        fix="Give counsel's name as plain text, e.g. --by 'A. Counsel'.",
                    )
                    for detail in error.errors(include_url=False)
                ]
            ) from None


def _item(approval: ApprovalRecorded) -> dict[str, Any]:
    """One approval as clause_approvals holds it."""
    return {
        "clause": approval.wording,
        "sha256": approval.sha256,
        "by": approval.by,
        "on": approval.on,
        "wording": approval.text,
    }


def _prepared(loaded: LoadedFacts, recorded: Sequence[ApprovalRecorded]) -> Prepared:
    """The approvals spliced after those on file by intake's editor, proved by reading back."""
    path = loaded.path
    remove_stale_temporaries([path])
    read = {path: path.read_bytes()}
    editor = facts_editor(loaded, read[path])
    items = [_item(a) for a in recorded]
    try:
        editor.append(editor.root, FIELD, items, [])
        contents = {path: encoded(editor.result(), read[path])}
    except YamlEditError as error:
        raise ApprovalRefused(
            [
                Problem(
                    loaded.source.file,
                    loaded.source.locate((FIELD,))[1],
                    FIELD,
                    str(error),
                    fix="Write clause_approvals as a list (`docgen clauses` prints one).",
                )
            ]
        ) from None
    expected = loaded.facts.model_dump()
    expected[FIELD] = [*expected.get(FIELD, []), *items]
    try:
        after = load_facts(path, contents=contents)
    except LoadError as error:
        raise NotAsIntended(f"the edited facts file does not load: {error}") from None
    if _plain(after.facts.model_dump()) != _plain(expected):
        raise NotAsIntended("the edited facts file does not read back as the facts plus approvals")
    return Prepared(contents, read, after)


def _plain(data: Any) -> Any:
    return json.loads(json.dumps(data, default=str))


# A review as `docgen clauses` prints it: each wording's heading "ID: title" (at the line's
# start), then its "  sha256:   HEX" line.
_HEADING = re.compile(r"^([a-z0-9-]+(?:\.[a-z0-9-]+)*): \S", re.M)
_SHA = re.compile(r"^  sha256:\s+([0-9a-f]{64})\s*$", re.M)


def _shown(path: str | Path) -> dict[str, str]:
    """The wordings a saved review showed, id -> SHA-256: `docgen clauses`' JSON (its
    ``clauses``) or its text (each heading and the sha256 line under it)."""
    shown_path = Path(path)
    name = display(shown_path)
    try:
        text = read_regular(shown_path, limit=MAX_REVIEW_BYTES).decode("utf-8-sig")
    except FileNotFoundError:
        raise BadReview(
            f"--shown {name}: no such file. Save the review counsel reads first: docgen clauses "
            f"FACTS -o {name}."
        ) from None
    except (OSError, ValueError) as error:  # a folder, too large, not UTF-8
        raise BadReview(f"--shown {name}: cannot read it as a review ({error}).") from None
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
            found = {c["id"]: c["sha256"] for c in data["clauses"]}
        except (ValueError, KeyError, TypeError):
            raise BadReview(
                f"--shown {name}: not the JSON `docgen clauses --format json` prints (its "
                "clauses, each with its id and sha256)."
            ) from None
        return found
    found = {}
    headings = list(_HEADING.finditer(text))
    for number, heading in enumerate(headings):
        end = headings[number + 1].start() if number + 1 < len(headings) else len(text)
        digest = _SHA.search(text, heading.end(), end)
        if digest is not None:
            found[heading.group(1)] = digest.group(1)
    if not found:
        raise BadReview(
            f"--shown {name}: no wording in it: give the review `docgen clauses FACTS -o FILE` "
            "wrote (text or --format json)."
        )
    return found
