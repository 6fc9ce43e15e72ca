"""The signing key refused when anyone but its owner may write it (DESIGN.md, "Signed documents").

Whoever can write the key file (or the folder it is in, or the signing config that names it) can
put their own key and certificate there, and every document `batch --sign` certifies would then
carry their signature under the company's name; the passphrase does not help, as theirs would
be asked for. docgen refuses (exit 2, nothing rendered), rather than warn: a warning printed among
a batch's output is easily missed, and the fix (`chmod go-w`) takes a second.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from docgen.issue.signing import SigningConfig, SigningRefused

_OTHERS_WRITE = stat.S_IWGRP | stat.S_IWOTH


def _who_may_write(path: Path) -> str | None:
    """Who besides its owner may write ``path`` ("its group", "everyone"), or None."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return None  # a missing file: loading it says so
    if stat.S_ISDIR(mode) and mode & stat.S_ISVTX:
        return None  # a sticky folder (/tmp): only a file's owner may replace it
    if mode & stat.S_IWOTH:
        return "everyone"
    if mode & stat.S_IWGRP:
        return "its group"
    return None


def check_key_file(config: SigningConfig) -> None:
    """Refuse (SigningRefused, exit 2) a signing config, key file or their folders that others
    may write, or a key file another user owns."""
    for path, what in (
        (config.source, "signing config"),
        (config.key, "signing key file"),
        (config.source.parent, "folder of the signing config"),
        (config.key.parent, "folder of the signing key file"),
    ):
        who = _who_may_write(path)
        if who is not None:
            raise SigningRefused(
                f"{path}: the {what} may be written by {who} (mode "
                f"{stat.S_IMODE(path.stat().st_mode):04o}), so anyone who can write it could put "
                "their own key there and certify documents in the company's name. Refused: make "
                f"it writable by its owner alone (chmod go-w {path})."
            )
    try:
        owner = config.key.stat().st_uid
    except OSError:
        return
    if owner not in (os.getuid(), 0):
        raise SigningRefused(
            f"{config.key}: the signing key file belongs to another user (uid {owner}), who could "
            "replace it with their own key. Refused: keep the company's key in a file you own."
        )
