"""`docgen verify` of what docgen writes after the cycle (DESIGN.md A27): a drafts folder (the
Form 4 drafts of `docgen section16`) against its drafts-manifest.json, as a stage folder is
checked against its manifest (every file's SHA-256 and size, nothing missing, nothing added, no
link followed), and an Open Cap Format bundle against itself: every file its Manifest.ocf.json
lists is in the zip with the MD5 it records, nothing else is in it but docgen-elections.json,
and every file validates against the vendored OCF 1.2.0 schemas (the elections against docgen's
own). An OCF bundle records MD5s, not SHA-256s, and no hash of itself: its check says the bundle
is whole and valid, not who made it."""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from docgen.core.drafts import DRAFTS_MANIFEST
from docgen.core.errors import VerifyFailed
from docgen.core.safe_open import TooLarge, read_regular
from docgen.issue import ocf_schemas
from docgen.issue.folder import inside, inventory, size_and_sha256
from docgen.issue.layout import is_os_file
from docgen.issue.manifest import NotAnIssuedFolder
from docgen.issue.ocf_bundle import ELECTIONS, LAYOUT, MANIFEST, BundleInvalid, check_archive

BUNDLE_MAX_BYTES = 256 * 1024 * 1024  # a bundle larger than this is refused unread


@dataclass
class DraftsCheck:
    """What `docgen verify` found in a drafts folder or an OCF bundle: each change as (file,
    what is wrong)."""

    target: Path
    what: str  # "drafts folder" or "OCF bundle"
    files_checked: int = 0
    changes: list[tuple[str, str]] = field(default_factory=list)

    @property
    def summary(self) -> str:
        against = DRAFTS_MANIFEST if self.what == "drafts folder" else MANIFEST
        return f"{self.target}: intact ({self.files_checked} files match {against})."


class DraftsChanged(VerifyFailed):
    """A drafts folder or bundle that is not what docgen wrote (exit 1)."""

    def __init__(self, message: str, check: DraftsCheck):
        super().__init__(message)
        self.check = check


def _failed(check: DraftsCheck, advice: str) -> DraftsChanged:
    count = len(check.changes)
    return DraftsChanged(
        "\n".join(f"{name}: {what}" for name, what in check.changes)
        + f"\n{check.target}: {count} change{'s' if count != 1 else ''} since docgen wrote "
        f"this {check.what}; {advice}",
        check,
    )


def is_drafts_folder(path: Path) -> bool:
    return path.is_dir() and (path / DRAFTS_MANIFEST).is_file()


def verify_drafts(folder: Path) -> DraftsCheck:
    """The drafts folder against its drafts-manifest.json. Raises NotAnIssuedFolder (exit 2)
    when the manifest cannot be read, DraftsChanged (exit 1) when anything changed."""
    try:
        manifest = json.loads((folder / DRAFTS_MANIFEST).read_text(encoding="utf-8"))
        listed = manifest["files"]
        assert isinstance(listed, dict)
    except (OSError, ValueError, KeyError, TypeError, AssertionError) as error:
        raise NotAnIssuedFolder(
            f"{folder / DRAFTS_MANIFEST}: not a drafts manifest docgen wrote ({error})."
        ) from error
    check = DraftsCheck(folder, "drafts folder", len(listed))
    found = inventory(folder)
    holding: set[str] = set()
    for name, entry in sorted(listed.items()):
        if not inside(name):
            check.changes.append((name, "refused: the manifest names a path outside the folder"))
            continue
        parts = name.split("/")
        holding.update("/".join(parts[:end]) for end in range(1, len(parts)))
        kind = found.get(name)
        if kind is None:
            check.changes.append((name, "missing: the manifest lists it but it is not there"))
            continue
        if kind != "file":
            check.changes.append((name, f"changed: a {kind}, not the file drafted"))
            continue
        size, digest = size_and_sha256(f"{folder}/{name}")
        if not isinstance(entry, dict) or digest != entry.get("sha256"):
            check.changes.append(
                (name, f"changed: SHA-256 {digest[:12]}… is not the manifest's ({size} bytes)")
            )
    for name, kind in sorted(found.items()):
        if name == DRAFTS_MANIFEST or name in listed or name in holding or is_os_file(name):
            continue
        check.changes.append((name, f"added: a {kind} not listed in {DRAFTS_MANIFEST}"))
    if check.changes:
        raise _failed(check, "draft again with `docgen section16` before anyone files them.")
    return check


def verify_bundle(path: Path) -> DraftsCheck:
    """An OCF bundle against its Manifest.ocf.json and the vendored schemas. Raises
    NotAnIssuedFolder (exit 2) for a file that is not a bundle, DraftsChanged (exit 1) when a
    file is missing, changed, added or invalid."""
    try:
        data = read_regular(path, limit=BUNDLE_MAX_BYTES, follow_links=False)
        archive = zipfile.ZipFile(io.BytesIO(data))
        if sum(info.file_size for info in archive.infolist()) > BUNDLE_MAX_BYTES:
            raise ValueError(f"it unpacks to more than {BUNDLE_MAX_BYTES:,} bytes")
        names = set(archive.namelist())
        manifest = json.loads(archive.read(MANIFEST))
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, TooLarge) as error:
        raise NotAnIssuedFolder(
            f"{path}: not an Open Cap Format bundle docgen wrote ({error})."
        ) from error
    check = DraftsCheck(path, "OCF bundle")
    try:
        check_archive(data)
    except BundleInvalid as error:
        check.changes.extend((MANIFEST, line) for line in str(error).splitlines()[1:])
    expected = {MANIFEST, ELECTIONS}
    manifest_schema = ocf_schemas.validator(ocf_schemas.FILES["OCF_MANIFEST_FILE"])
    check.changes.extend(
        (MANIFEST, f"not valid OCF: {problem}")
        for problem in ocf_schemas.errors(manifest_schema, manifest)
    )
    for key, name, file_type, _ in LAYOUT:
        if not any(e.get("filepath") == f"./{name}" for e in manifest.get(key, [])):
            continue
        expected.add(name)
        if name not in names:
            continue  # check_archive said so
        content = json.loads(archive.read(name))
        schema = ocf_schemas.validator(ocf_schemas.FILES[file_type])
        check.changes.extend(
            (name, f"not valid OCF: {problem}") for problem in ocf_schemas.errors(schema, content)
        )
        for item in content.get("items", []):
            object_schema = ocf_schemas.OBJECTS.get(str(item.get("object_type")))
            if object_schema is None:
                check.changes.append((name, f"{item.get('id')}: no OCF object type docgen writes"))
                continue
            check.changes.extend(
                (name, f"{item.get('id')}: {problem}")
                for problem in ocf_schemas.errors(ocf_schemas.validator(object_schema), item)
            )
    if ELECTIONS in names:
        check.changes.extend(
            (ELECTIONS, problem)
            for problem in ocf_schemas.errors(
                ocf_schemas.elections_validator(), json.loads(archive.read(ELECTIONS))
            )
        )
    else:
        check.changes.append((ELECTIONS, "missing: every bundle docgen writes has it"))
    check.changes.extend(
        (name, "added: not a file the bundle's manifest lists") for name in sorted(names - expected)
    )
    check.files_checked = len(expected & names)
    if check.changes:
        raise _failed(check, "export it again with `docgen export-ocf`.")
    return check
