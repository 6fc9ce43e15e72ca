"""A company's own templates: `docgen templates --export DIR` copies the built-in document
templates, their drafted-clause fragments and the stylesheet into a folder to edit; the facts'
``templates_dir`` then overrides the built-ins by name (docgen.render.templating)."""

from __future__ import annotations

import os
from pathlib import Path

from docgen.core.errors import DocgenError
from docgen.core.permissions import UnsafeLink, private_files, refuse_unsafe_link
from docgen.core.resources import overridable_templates, templates_dir
from docgen.render.templating import environment, template_error

README = """\
A company's own docgen templates
================================

This folder holds copies of docgen's built-in document templates, their drafted clauses
(clauses/<id>.html.j2) and the shared stylesheet (print.css). To use it, name it in the facts
file, which must sit beside it:

    templates_dir: {folder}

Each file here replaces the built-in of the same name; delete any file you do not change and
the built-in is used. Templates render in the same sandbox as the built-ins (Jinja, autoescaped,
with no access to Python internals) and every issued document passes the same checks: no blank
left, every key fact present, the same text in PDF and DOCX.

Drafted clauses. Where a source form is silent, docgen drafts the words; each such clause is
one file in clauses/, whose outer element carries data-provenance="drafted" and data-clause
(its id). Keep both attributes. Counsel approves each clause's wording, as it reads (blanks
named, conditions as If lines), by its SHA-256 (`docgen clauses FACTS` lists them and prints
the block to paste): edit a clause's words and its approval stops counting until counsel
approves the new wording; a change of markup or spacing alone leaves it. Words you change
elsewhere in a document template are the company's own: that template's whole wording is then
counsel's to approve too (template.notice, template.exhibit-i, ...), shown redlined against the
built-in text.

The manifest of every issued folder records the SHA-256 of each file here.
"""


class ExportRefused(DocgenError):
    """`docgen templates --export DIR` would overwrite files. Exit code 2."""


def export_templates(folder: str | Path) -> list[Path]:
    """Copy the built-in templates a company may edit into ``folder``; refuse to overwrite.

    Never through a link: the folder may be one only if it is the user's own and outside any
    sticky folder (docgen.core.permissions); a link inside it, dangling or not, is a clash, and
    each file is created new (O_EXCL, O_NOFOLLOW), without world access."""
    folder = Path(folder)
    names = overridable_templates()
    try:
        refuse_unsafe_link(folder, "--export")
    except UnsafeLink as error:
        raise ExportRefused(str(error)) from None
    if folder.exists() and not folder.is_dir():
        raise ExportRefused(f"--export {folder}: is a file. Name a new folder.")
    inside = {part for name in names for part in _parents(name)}
    links = [name for name in sorted(inside) if (folder / name).is_symlink()]
    if links:
        raise ExportRefused(
            f"--export {folder}: {folder / links[0]} is a link, and docgen does not export "
            "through one. Export into a new folder."
        )
    clashes = [name for name in [*names, "README.txt"] if os.path.lexists(folder / name)]
    if clashes:
        what = "is a link" if (folder / clashes[0]).is_symlink() else "already exists"
        raise ExportRefused(
            f"--export {folder}: {folder / clashes[0]} {what}, and docgen will not "
            "overwrite a company's edits or write through a link. Export into a new folder."
        )
    source = templates_dir()
    written = []
    with private_files():
        for name in names:
            target = folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            _create(target, (source / name).read_bytes())
            written.append(target)
        readme = folder / "README.txt"
        _create(readme, README.format(folder=folder.name).encode("utf-8"))
    return [*written, readme]


def _parents(name: str) -> list[str]:
    parts = name.split("/")[:-1]
    return ["/".join(parts[: n + 1]) for n in range(len(parts))]


def _create(path: Path, data: bytes) -> None:
    """A new file, never an existing one nor a link's target."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
    with os.fdopen(os.open(path, flags, 0o666), "wb") as stream:
        stream.write(data)


def compile_templates(override: Path | None) -> None:
    """Parse every template a company's folder overrides, so a syntax error is reported (with
    its file and line) before anything renders."""
    if override is None:
        return
    from jinja2 import TemplateError

    env = environment(override)
    for name in overridable_templates():
        if (override / name).is_file() and name.endswith(".j2"):
            try:
                env.get_template(name)
            except TemplateError as error:
                raise template_error(error, name, override) from None
