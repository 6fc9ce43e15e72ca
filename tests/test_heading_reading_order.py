"""A layout reader reads each numbered heading of the Notice and Exhibit I in place: poppler's
`pdftotext` (plain and -layout) gives "C. Payment for Restricted Stock Units" after Notice B's
list and before Section C's first paragraph (issue 44: it read "C." above that list and the
heading's words after it, in every sample Notice), and the page is drawn as before."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

# The grant stage issued end to end, as tests/test_batch.py does: slow.
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler's pdftotext"),
]

ROOT = Path(__file__).resolve().parent.parent
DOCGEN = Path(sys.executable).parent / "docgen"
LETTERS = "ABCDEFGHIJK"


@pytest.fixture(scope="module")
def grant(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("out")
    issued = subprocess.run(
        [str(DOCGEN), "batch", str(ROOT / "samples" / "director-grant-2026.yaml"),
         "--stage", "grant", "--as-of", "2026-06-23", "--out", str(out)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert issued.returncode == 0, issued.stderr
    return out / "2026-annual" / "grant"


def _text(path: Path, *options: str) -> list[str]:
    result = subprocess.run(
        ["pdftotext", *options, str(path), "-"], capture_output=True, text=True, check=True
    )
    return [" ".join(line.split()) for line in result.stdout.splitlines() if line.strip()]


def _headings(path: Path) -> list[str]:
    """The numbered headings, as the bookmarks (made from the tags' H2 elements) name them."""

    def titles(items: list) -> list[str]:
        found = []
        for item in items:
            found.extend(titles(item) if isinstance(item, list) else [item.title])
        return found

    return [t for t in titles(PdfReader(path).outline) if re.match(r"^(?:[A-K]|[IV]+)\. ", t)]


@pytest.mark.parametrize("layout", [(), ("-layout",)], ids=["plain", "layout"])
def test_each_heading_letter_reads_with_its_heading_in_every_notice(grant, layout):
    notices = sorted(grant.glob("*/notice.pdf"))
    assert len(notices) == 10
    for notice in notices:
        headings = _headings(notice)
        assert [h[0] for h in headings] == list(LETTERS), notice
        lines = _text(notice, *layout)
        # Each heading on a line of its own, its letter first, in the order of the Notice.
        where = [lines.index(heading) for heading in headings]
        assert where == sorted(where), (notice, headings)
        for letter in LETTERS:
            assert f"{letter}." not in lines, (notice, letter)  # never a letter on its own line


def test_c_reads_after_notice_b_s_list_and_before_its_first_paragraph(grant):
    lines = _text(grant / "akhan" / "notice.pdf")
    heading = lines.index("C. Payment for Restricted Stock Units")
    assert lines[heading - 1].startswith("section 409A(a)(2)(A)(v))")  # B's item (3) ends
    following = " ".join(lines[heading + 1 : heading + 3])
    assert following.startswith("1. Payment Date. Unless you made an effective deferral")


def test_exhibit_i_s_section_numbers_read_with_their_headings(grant):
    exhibit = grant / "akhan" / "exhibit-i.pdf"
    lines = _text(exhibit)
    headings = _headings(exhibit)
    assert [h.split(".")[0] for h in headings] == ["I", "II", "III", "IV"]
    where = [lines.index(heading) for heading in headings]
    assert where == sorted(where)
