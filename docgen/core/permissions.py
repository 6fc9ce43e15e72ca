"""Who may read what docgen writes, and whose links it writes through.

Issued documents carry home addresses and grant figures: every folder and file docgen creates
(an issued stage, a report or copy written with ``-o``, an export of the templates) is made
without world access, 0750 for a folder and 0640 for a file, under the usual umask (022). The
umask docgen uses is the user's with world access taken away (never looser than the user's
own); ``DOCGEN_UMASK`` (octal: 027, 077, or 022 for the old world-readable files) sets it
exactly. A file docgen replaces keeps its own mode.

A link is written through only when it is the user's own (or the system's, root's: /dev/stdout)
and does not lead into a sticky folder (a shared folder such as /tmp, where another user may plant
a file or a link): the classic attack on a program that writes a name it was given.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from docgen.core.errors import DocgenError

UMASK_ENV = "DOCGEN_UMASK"
NO_WORLD_ACCESS = 0o027  # the bits docgen takes away at least: group write, all of world's


class BadUmask(DocgenError, ValueError):
    """``DOCGEN_UMASK`` is not an octal umask. Exit code 2."""


class UnsafeLink(DocgenError, OSError):
    """A path to write leads through a link docgen will not follow. Exit code 2."""


def umask_for_output(current: int) -> int:
    """The umask files are created under: ``DOCGEN_UMASK`` when set, else ``current`` with
    world access (and group write) taken away."""
    named = os.environ.get(UMASK_ENV)
    if named is None or named.strip() == "":
        return current | NO_WORLD_ACCESS
    if not re.fullmatch(r"0?[0-7]{3}", named.strip()):
        raise BadUmask(
            f"{UMASK_ENV}={named!r}: expected an octal umask such as 027 (folders 0750, files "
            "0640) or 077 (the owner alone). Set it so, or unset it for docgen's default."
        )
    return int(named.strip(), 8)


@contextmanager
def private_files() -> Iterator[None]:
    """Create every folder and file in the block without world access (see the module)."""
    current = os.umask(0)
    os.umask(current)
    os.umask(umask_for_output(current))
    try:
        yield
    finally:
        os.umask(current)


def refuse_unsafe_link(path: Path, what: str) -> None:
    """Raise UnsafeLink when ``path`` is a link owned by another user (root's own links, such as
    /dev/stdout, aside), or another's link in a sticky folder, or a link into a sticky folder.
    ``what`` names the option, for the message."""
    if not path.is_symlink():
        return
    info = os.lstat(path)
    folder = path.parent if str(path.parent) else Path(".")
    target_folder = Path(os.path.realpath(path)).parent
    why = None
    mine = info.st_uid == os.geteuid()
    if not mine and info.st_uid != 0:  # the system's own links (/dev/stdout) are root's
        why = f"is a link owned by another user (uid {info.st_uid})"
    elif not mine and _sticky(folder):
        why = "is a link in a shared folder (sticky, like /tmp), where anyone may plant one"
    elif _sticky(target_folder):
        why = f"is a link into a shared folder (sticky, like /tmp): {target_folder}"
    if why is not None:
        raise UnsafeLink(
            f"{what} {path}: {why}; docgen does not write through it. Name the file itself, "
            "or a path in a folder of your own."
        )


def _sticky(folder: Path) -> bool:
    try:
        return bool(os.stat(folder).st_mode & stat.S_ISVTX)
    except OSError:
        return False
