"""A cycle's stage folders (docgen.issue.layout): finding the one a batch issues into, telling
docgen's files from anyone else's, and publishing the next stage folder whole.

A stage folder is replaced in one step (docgen.issue.files.swap_in), so an interrupted batch
leaves the previous stage folder or the new one, never a mixture. The folder it replaces is then
cleared file by file: only what docgen wrote (listed in its manifest) and the operating system's
own files, both of which are also in the new folder, are removed. docgen never deletes a file it
did not write; a file that appeared while the batch ran stays where it is, and the batch says so.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path

from docgen.core.output import fsync_dir
from docgen.issue.changes import FolderChanges
from docgen.issue.files import BadRequest, remove_stale, replaced_folders, swap_in, sync_tree
from docgen.issue.folder import inventory
from docgen.issue.layout import (
    MANIFEST_NAME,
    RETURNED,
    SENT_LOG,
    STAGING,
    beside,
    is_os_file,
)
from docgen.issue.manifest import Manifest, NotAnIssuedFolder, first_release, listed_names, read
from docgen.issue.pool import PAUSE_AFTER_ENV, PAUSE_SECONDS_ENV


class ForeignFiles(BadRequest):
    """A stage folder holds files docgen did not write, which a re-issue would move. Exit 2."""


def refuse_first_release(cycle_dir: Path) -> None:
    """A cycle folder that is itself an issued folder was written by the first release."""
    if not (cycle_dir / MANIFEST_NAME).is_file():
        return
    error = first_release(cycle_dir)
    if error is not None:
        raise error
    raise BadRequest(
        f"{cycle_dir}: holds a {MANIFEST_NAME} of its own, but a cycle folder holds stage "
        "folders (like grant/ and elections/), each with its manifest. Move it aside, or choose "
        "another --out."
    )


def previous_issue(stage_dir: Path, stage: str) -> Manifest | None:
    """The manifest of the stage folder a batch is about to replace, or None when there is none."""
    if not stage_dir.exists():
        return None
    try:
        manifest = read(stage_dir)
    except NotAnIssuedFolder:
        raise BadRequest(
            f"{stage_dir}: exists and is not a folder docgen issued (no readable "
            f"{MANIFEST_NAME}), so docgen will not write into it. Move it aside, or choose "
            "another --out."
        ) from None
    if manifest.stage != stage:
        raise BadRequest(
            f"{stage_dir}: its manifest says it holds stage {manifest.stage}, not "
            f"{stage}. Move it to {stage_dir.parent / str(manifest.stage)}."
        )
    return manifest


def _walk(root: Path) -> list[tuple[str, bool]]:
    """Every path under ``root`` as (relative posix path, is a real folder), never following a
    symbolic link."""
    found = []
    top = os.fspath(root)
    for folder, dirs, files in os.walk(top, followlinks=False):
        # paths as strings (a stage folder holds four files a packet: issue 27)
        base = "" if folder == top else os.path.relpath(folder, top).replace(os.sep, "/") + "/"
        for name in dirs:
            found.append((base + name, not os.path.islink(os.path.join(folder, name))))
        found.extend((base + name, False) for name in files)
    return sorted(found)


def refuse_foreign(stage_dir: Path, changes: FolderChanges) -> None:
    """A re-issue never moves or deletes what docgen did not write: it stops, naming it all."""
    foreign = changes.foreign
    if not foreign:
        return
    shown = "\n".join(f"  {stage_dir}/{name}" for name in foreign)
    returned = stage_dir.parent / RETURNED
    what = "file" if all(not name.endswith("/") for name in foreign) else "file or folder"
    raise ForeignFiles(
        f"{stage_dir}: holds {len(foreign)} {what}{'s' if len(foreign) != 1 else ''} docgen did "
        f"not write:\n{shown}\nA re-issue never deletes or moves a file docgen did not write, "
        f"so nothing was issued. Put signed and returned forms in {returned}/ (docgen never "
        "touches that folder, and verify ignores it), then run the batch again."
    )


def carry(source: str | Path, target: str | Path, made: set[str] | None = None) -> None:
    """``target`` becomes the same file as ``source`` (a second link, or where the filesystem has
    none, a copy with its times): the bytes are not rewritten. ``made``: the folders a caller
    carrying many files has made already (each is made once, not looked for again a file).
    Paths may be strings: a re-issue carries every file of its folder (issue 27)."""
    folder = os.path.dirname(target)
    if made is None or folder not in made:
        os.makedirs(folder, exist_ok=True)
        if made is not None:
            made.add(folder)
    try:
        os.link(source, target, follow_symlinks=False)
    except OSError:
        shutil.copy2(source, target, follow_symlinks=False)


def new_staging(cycle_dir: Path, stage: str) -> Path:
    staging = beside(cycle_dir, stage, STAGING)
    staging.mkdir()
    return staging


def _same(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b) or a.read_bytes() == b.read_bytes()
    except OSError:
        return False


def clear_replaced(replaced: Path, current: Path) -> list[str]:
    """Clear a replaced stage folder: remove the files its manifest lists (docgen wrote them, and
    the new folder keeps each of them, current or superseded) and the operating system's files
    the new folder also holds (and the send log it carried). Anything else stays, and is
    returned; so does the folder then."""
    listed = listed_names(replaced)
    left: list[str] = []
    for name, is_folder in reversed(_walk(replaced)):
        path = f"{replaced}/{name}"  # a string: every file of the folder passes here (issue 27)
        if is_folder:
            try:
                os.rmdir(path)  # empty once what docgen wrote is gone
            except OSError:
                pass
        elif name in listed or (
            (is_os_file(name) or name == SENT_LOG) and _same(Path(path), current / name)
        ):  # the send log, like an operating system's file, went along into the new folder
            os.unlink(path)
        else:
            left.append(name)
    if not left:
        replaced.rmdir()
    return sorted(left)


def recover(cycle_dir: Path, stage: str) -> list[str]:
    """What an interrupted batch of this stage left in the cycle folder, dealt with: a staging
    folder removed; a replaced folder put back where the stage folder is missing (a batch killed
    between two renames), or cleared where the new one is in place. Returns what was done."""
    notes = [
        f"Removed {path}, left by an interrupted batch." for path in remove_stale(cycle_dir, stage)
    ]
    target = cycle_dir / stage
    for replaced in replaced_folders(cycle_dir, stage):  # docgen's own only, never a link
        if not target.exists():
            os.rename(replaced, target)
            fsync_dir(cycle_dir)
            notes.append(
                f"Put back {target}: an interrupted batch had set it aside as {replaced.name}."
            )
            continue
        left = clear_replaced(replaced, target)
        if left:
            notes.append(_kept_note(replaced, left))
        else:
            notes.append(f"Removed {replaced}, left by an interrupted batch.")
    return notes


def _kept_note(replaced: Path, left: list[str]) -> str:
    return (
        f"Kept {replaced}: it holds {', '.join(left)}, which docgen did not write (put there "
        f"while a batch ran). Move {'it' if len(left) == 1 else 'them'} to "
        f"{replaced.parent / RETURNED}/, then delete the folder."
    )


def _pause_after_swap() -> None:
    """Test-only: stop between the swap and the clearing of the replaced folder (issue/pool.py)."""
    if os.environ.get(PAUSE_AFTER_ENV) == "swap":
        print("test hook: paused after swap", file=sys.stderr, flush=True)
        time.sleep(float(os.environ.get(PAUSE_SECONDS_ENV, "60")))


def refuse_others_folder(stage_dir: Path) -> None:
    """An issued stage folder this user cannot replace (another user issued it, and its folders
    do not let this one remove their files) is refused before anything is staged: swapped in,
    the new folder would be issued with the old one left beside it, undeletable."""
    if not stage_dir.is_dir():
        return
    found = inventory(stage_dir)
    folders = [stage_dir, *(stage_dir / name for name in sorted(found) if found[name] == "folder")]
    for folder in folders:
        effective = os.access in os.supports_effective_ids
        if not os.access(folder, os.W_OK | os.X_OK, effective_ids=effective):
            owner = _owner(folder)
            raise BadRequest(
                f"{stage_dir}: issued by {owner}, and this user may not remove the files in "
                f"{folder}, as replacing the stage folder must; nothing was issued. Run docgen "
                f"as {owner}, or have them issue it."
            )


def _owner(path: Path) -> str:
    uid = os.stat(path).st_uid
    try:
        import pwd

        return f"another user ({pwd.getpwuid(uid).pw_name}, uid {uid})"
    except (KeyError, ImportError):
        return f"another user (uid {uid})"


def publish_stage(staging: Path, stage_dir: Path) -> str | None:
    """Make the complete staging folder the stage folder (creating ``returned/`` beside it), then
    clear the folder it replaced. Returns a note when that folder has to stay."""
    (stage_dir.parent / RETURNED).mkdir(exist_ok=True)
    sync_tree(staging)
    replaced = swap_in(staging, stage_dir)
    if replaced is None:
        return None
    _pause_after_swap()
    try:
        left = clear_replaced(replaced, stage_dir)
    except OSError as error:  # the new folder is issued: say so, and what is left to clear
        return (
            f"Kept {replaced}: the stage was issued, but the folder it replaced could not be "
            f"cleared ({error.strerror}: {error.filename}). Delete it as the user who owns it."
        )
    return _kept_note(replaced, left) if left else None
