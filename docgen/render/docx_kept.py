"""The styled DOCX template kept on this machine, not built anew by every process that writes a
DOCX.

Building the template (python-docx's blank document, docgen's page set-up and sixteen styles,
saved) cost a fresh process 0.03 s of its floor, the same every time for the same inputs
(issue 27). So the first process to build it for a type size keeps the bytes in docgen's folder
of kept files (docgen.core.kept_files), and later processes read them:

* The file is ``<cache>/docx-template-<key>.docx``. ``<key>`` is the SHA-256 of everything the
  bytes follow from: the type size; the source of the modules that build the template
  (docgen.render.docx_styles and its style sheet, docgen.render.docx_style_sheet); python-docx's
  version and its blank document's bytes; lxml's version, which writes the XML. A change to any
  of them is another file, built when first needed.
* The zip's comment records the key whole, and a file whose comment is not its name's key is
  not used. Nor is one another user owns or may write (kept_files.own_file). A file that is not
  a template python-docx can open is not used either: the template is built and kept again.
* ``DOCGEN_CACHE_DIR=off`` keeps nothing: every process builds the template.

The bytes are what the build made, so a DOCX made from a kept template has the same parts as
one made from a fresh build (tests/test_docx_kept.py).
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from docgen.core.kept_files import cache_folder, read_own, write_whole

_COMMENT = b"docgen styled template sha256 "


def template_key(type_size: float, sources: Sequence[Path]) -> str:
    """The SHA-256 of the inputs a template for ``type_size`` follows from (module docstring),
    ``sources`` being the files of docgen's modules that build it."""
    import docx
    from lxml import etree

    digest = hashlib.sha256()
    for part in (
        repr(float(type_size)).encode(),
        getattr(docx, "__version__", "").encode(),
        ".".join(map(str, etree.LXML_VERSION)).encode(),
        _blank_document_bytes(),
        *(source.read_bytes() for source in sources),
    ):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


def _blank_document_bytes() -> bytes:
    """python-docx's own blank document, the template's starting point."""
    import docx

    return (Path(docx.__file__).parent / "templates" / "default.docx").read_bytes()


def template_file(folder: Path, key: str) -> Path:
    return folder / f"docx-template-{key[:32]}.docx"


def kept_template(
    type_size: float, sources: Sequence[Path], build: Callable[[float], bytes]
) -> tuple[bytes, Any]:
    """The styled template for ``type_size`` and its parts as python-docx reads them (a
    PackageReader): the kept bytes when this machine has them for exactly these inputs, else
    ``build(type_size)``, kept for the next process."""
    folder = cache_folder()
    if folder is None:
        return _read(build(type_size))
    try:
        key = template_key(type_size, sources)
    except OSError:  # a source or python-docx's blank document unreadable: build, keep nothing
        return _read(build(type_size))
    path = template_file(folder, key)
    kept = read_own(path)
    if kept is not None and kept.endswith(_COMMENT + key.encode("ascii")):
        try:
            return _read(kept)
        except Exception:  # not a package python-docx reads, whatever it raised: build again
            pass
    built = _with_comment(build(type_size), key)
    write_whole(path, built)
    return _read(built)


def _read(data: bytes) -> tuple[bytes, Any]:
    from docx.opc.pkgreader import PackageReader

    return data, PackageReader.from_file(io.BytesIO(data))


def _with_comment(data: bytes, key: str) -> bytes:
    """``data`` (a zip) with the key recorded as its comment."""
    buffer = io.BytesIO(data)
    with zipfile.ZipFile(buffer, "a") as archive:
        archive.comment = _COMMENT + key.encode("ascii")
    return buffer.getvalue()
