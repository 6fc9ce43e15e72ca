"""Reading a facts file's bytes: size, emptiness, binary content and encoding refused plainly; only
regular files are opened (a FIFO would hang, /dev/zero would read until memory runs out), and a
file a facts file names (its roster) must lie inside the facts file's own folder."""

from __future__ import annotations

from pathlib import Path

from docgen.core.errors import LoadError, Problem
from docgen.core.safe_open import NotARegularFile, OpenFailed, TooLarge, read_regular

# A realistic 50,000-participant roster is about 24 MB even as compact JSON (DESIGN.md, "Fact
# files"): 100 MB, with the nesting, text and date bounds unchanged.
MAX_BYTES = 100 * 1024 * 1024


def display(path: Path) -> str:
    """A path as the user typed it, or relative to the working folder when that is shorter."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


class OutsideFolder(ValueError):
    """A path a facts file names that is not a file inside the facts file's folder."""

    def __init__(self, what: str, fix: str):
        super().__init__(what)
        self.what = what
        self.fix = fix


def contained_file(folder: Path, named: str) -> Path:
    """The file ``named`` (as a facts file wrote it) inside ``folder``, the facts file's own folder.

    Refused: an absolute path, a way out through ``..``, or a symbolic link that leads outside;
    the facts file and everything it names travel together, and docgen reads nothing else.
    """
    fix = "Put the file in the same folder as the facts file (or below it) and name it by its "
    fix += "relative path, such as roster.csv."
    if Path(named).is_absolute() or named.startswith("~"):
        raise OutsideFolder(
            "names a file by an absolute path, outside the facts file's folder", fix
        )
    if ".." in Path(named).parts:
        raise OutsideFolder("leads out of the facts file's folder (..)", fix)
    candidate = folder / named
    try:
        resolved = candidate.resolve()
        inside = resolved.is_relative_to(folder.resolve())
    except (OSError, RuntimeError):  # a symbolic-link loop
        raise OutsideFolder("names a file docgen cannot resolve (a link loop?)", fix) from None
    if not inside:
        raise OutsideFolder("is a link to a file outside the facts file's folder", fix)
    return candidate


def read_bytes(path: Path, shown: str, *, facts_file: bool = False) -> bytes:
    """The bytes of a regular file, refused plainly when it is missing, a folder, a device, a
    FIFO or a socket, or larger than MAX_BYTES. A FIFO is never opened (opening one blocks):
    `docgen.core.safe_open` says how. ``facts_file``: the facts file itself (not a CSV it names),
    which is read whole, with a line for every fact: a large population belongs in a roster."""

    def refuse(what: str, fix: str) -> LoadError:
        return LoadError([Problem(shown, None, "", what, fix=fix)])

    split = "Split the facts into one file per grant cycle or Plan Year"
    if facts_file:
        split += ", and read a large population from a roster CSV the facts name (directors_csv,"
        split += " participants_csv)"

    try:
        return read_regular(path, limit=MAX_BYTES)
    except FileNotFoundError:
        raise refuse(
            "no such file", "Check the path; run `ls` in its folder to see what is there."
        ) from None
    except NotARegularFile as error:
        if error.folder:
            raise refuse(
                "is a folder, not a facts file", "Name a .yaml, .yml or .json file."
            ) from None
        raise refuse(
            "is not a regular file (a device, pipe or socket)",
            "Name a file saved on disk, such as a .yaml, .json or .csv file.",
        ) from None
    except TooLarge as error:
        if error.size is None:  # it grew past the limit as it was read
            raise refuse(f"file is too large (over {MAX_BYTES:,} bytes)", split + ".") from None
        raise refuse(
            f"file is too large ({error.size:,} bytes; the limit is {MAX_BYTES:,})", split + "."
        ) from None
    except OpenFailed as error:
        raise refuse(
            f"cannot be read ({error.strerror})", "Check the file's permissions."
        ) from None
    except OSError as error:
        raise refuse(
            f"cannot be read ({error.strerror})", "Check the path and its permissions."
        ) from None


def decode(data: bytes, shown: str) -> str:
    """The text of a facts file's bytes: not empty, not binary, UTF-8."""

    def refuse(what: str, fix: str) -> LoadError:
        return LoadError([Problem(shown, None, "", what, fix=fix)])

    if not data.strip():
        raise refuse(
            "file is empty",
            "Start from a sample: samples/director-grant-2026.yaml or samples/rrp-2026.yaml.",
        )
    if b"\x00" in data[:8192]:
        raise refuse(
            "is a binary file, not YAML or JSON text",
            "Name the facts file, not a PDF, DOCX or spreadsheet.",
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise LoadError(
            [Problem(shown, line, "", "is not UTF-8 text", fix="Save the file as UTF-8.")]
        ) from None


def read_text(path: Path, shown: str) -> str:
    return decode(read_bytes(path, shown), shown)
