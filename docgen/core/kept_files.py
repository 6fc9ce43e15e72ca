"""Files docgen keeps on this machine so that a fresh process need not rebuild them: where they
are kept, which of them may be trusted, and how one is written.

What is kept is always a function of its inputs, and each file is named by a digest of them
(the caller's key), so a change of input is a new file, never a stale one. Today three things
are kept: WeasyPrint's C declarations as cffi's tables (docgen.render.weasyprint_ffi), the styled
DOCX template (docgen.render.docx_kept), and the code libraries compile from text at import
(docgen.core.kept_code).

* The folder is ``$DOCGEN_CACHE_DIR``, else ``$XDG_CACHE_HOME/docgen``, else
  ``~/.cache/docgen``; ``DOCGEN_CACHE_DIR=off`` keeps nothing, and every process builds anew.
* A kept file is used only when it is the user's own and no one else may write it (as ssh asks
  of its keys). Its contents are then trusted as the user's other files are.
* A file is written whole and renamed into place, so no reader sees half of one; when it cannot
  be written, nothing is left behind and nothing fails: the work is simply done again next time.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

OFF = "off"


def cache_folder() -> Path | None:
    """Where files are kept, or None when ``DOCGEN_CACHE_DIR=off``."""
    chosen = os.environ.get("DOCGEN_CACHE_DIR")
    if chosen:
        return None if chosen == OFF else Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "docgen"


def own_file(path: Path) -> bool:
    """``path`` is the user's own, and no one else may write it; on a system without owners and
    modes (Windows), any file. Raises OSError when there is no such file."""
    status = path.stat()
    if not hasattr(os, "getuid"):
        return True
    return status.st_uid == os.getuid() and not status.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def read_own(path: Path) -> bytes | None:
    """The bytes of ``path`` when it is a file the user may trust (:func:`own_file`), else None
    (none there, another's, or unreadable)."""
    try:
        return path.read_bytes() if own_file(path) else None
    except OSError:
        return None


def write_whole(path: Path, data: bytes) -> bool:
    """Keep ``data`` at ``path``, written whole and renamed into place, readable by all and
    writable by the user alone whatever the umask. False when it cannot be written (nothing is
    then left behind)."""
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial.write_bytes(data)
        os.chmod(partial, 0o644)  # a file others may write is never used (own_file)
        os.replace(partial, path)
    except OSError:
        with contextlib.suppress(OSError):
            partial.unlink()
        return False
    return True
