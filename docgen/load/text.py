"""Reading a facts file's bytes: size, emptiness, binary content and encoding refused plainly."""

from __future__ import annotations

from pathlib import Path

from docgen.core.errors import LoadError, Problem

MAX_BYTES = 20 * 1024 * 1024


def display(path: Path) -> str:
    """A path as the user typed it, or relative to the working folder when that is shorter."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def read_text(path: Path, shown: str, data: bytes | None = None) -> str:
    """The file's text; ``data``: its bytes as they are about to be written (`docgen intake`
    reads an edited facts file back before replacing the file)."""

    def refuse(what: str, fix: str) -> LoadError:
        return LoadError([Problem(shown, None, "", what, fix=fix)])

    if data is None:
        if not path.exists():
            raise refuse(
                "no such file", "Check the path; run `ls` in its folder to see what is there."
            )
        if path.is_dir():
            raise refuse("is a folder, not a facts file", "Name a .yaml, .yml or .json file.")
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise refuse(
                f"file is too large ({size:,} bytes; the limit is {MAX_BYTES:,})",
                "Split the facts into one file per grant cycle or Plan Year.",
            )
        data = path.read_bytes()
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
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise LoadError(
            [Problem(shown, line, "", "is not UTF-8 text", fix="Save the file as UTF-8.")]
        ) from None
    return text
