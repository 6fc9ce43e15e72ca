"""A Form 4 redrafted after it was filed is a 4/A (DESIGN.md A27). Worked by hand from the EDGAR
Ownership XML Technical Specification (X0508): an amendment's ``documentType`` is "4/A" and it
gives the ``dateOfOriginalSubmission`` of the Form 4 it amends, right after ``periodOfReport``.
The tour's Jane Q. Smith filed on 2026-06-25; her units corrected from 2,450 to 2,400 (and her
holding after from 7,350 to 7,300), a redraft on 2026-06-26 is her 4/A reporting the new figures
and saying what changed; a redraft that changes nothing is refused as a duplicate."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from xml.etree import ElementTree as ET

from tests.readers import pdf_words
from tests.test_section16 import _in_order, edgar_form4, facts_with, run

CORRECTED = (
    ('    units: 2450\n    cik: "0001990001"', '    units: 2400\n    cik: "0001990001"'),
    ("shares_owned_after: 7350", "shares_owned_after: 7300"),
)


def draft(facts: Path, out: Path, on: str):
    return run("section16", facts, "--out", out, "--as-of", on)


def test_a_redraft_after_the_filing_is_a_4a_saying_what_changed(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    first = draft(facts_with(tmp_path), out, "2026-06-24")  # before the filing of 2026-06-25
    assert first.returncode == 0, first.stderr
    folder = out / "2026-annual" / "section16"
    assert (
        ET.fromstring((folder / "jsmith" / "form4.xml").read_bytes()).findtext("documentType")
        == "4"
    )

    corrected = facts_with(tmp_path, *CORRECTED)
    second = draft(corrected, out, "2026-06-26")
    assert second.returncode == 0, second.stderr
    xml = (folder / "jsmith" / "form4.xml").read_bytes()
    root = ET.fromstring(xml)
    assert root.findtext("documentType") == "4/A"
    assert root.findtext("dateOfOriginalSubmission") == "2026-06-25"
    tags = [child.tag for child in root]
    assert tags.index("dateOfOriginalSubmission") == tags.index("periodOfReport") + 1
    _in_order(root)
    # edgartools reads it back as the amendment, with the corrected figures.
    form = edgar_form4(xml)
    assert form.form == "4/A"
    (row,) = form.derivative_table.transactions.data.to_dict("records")
    assert Decimal(str(row["Shares"])) == 2400
    assert (
        "changes: amount: 2450 -> 2400; amount owned following the transaction: 7350 -> "
        "7300." in form.remarks
    )
    # Directors whose Form 4 is not filed are drafted as originals.
    for who in ("rgarcia", "ebrooks"):
        assert (
            ET.fromstring((folder / who / "form4.xml").read_bytes()).findtext("documentType") == "4"
        )
    # The readable copy says "Amendment" and lists each change.
    words = pdf_words((folder / "jsmith" / "form4.pdf").read_bytes())
    for expected in (
        "FORM 4/A",
        "Amendment of the Form 4 filed June 25, 2026",
        "What this amendment changes",
        "amount: 2450 -> 2400",
    ):
        assert expected in words, expected


def test_a_redraft_that_changes_nothing_is_refused_as_a_duplicate(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    assert draft(facts_with(tmp_path), out, "2026-06-24").returncode == 0
    corrected = facts_with(tmp_path, *CORRECTED)  # the same file, rewritten
    assert draft(corrected, out, "2026-06-26").returncode == 0
    manifest = out / "2026-annual" / "section16" / "drafts-manifest.json"
    before = manifest.read_bytes()
    again = draft(corrected, out, "2026-06-27")
    assert again.returncode == 2
    message = " ".join(again.stderr.split())
    assert "directors[0].form4_filed_on" in message
    assert (
        "Jane Q. Smith's Form 4 was filed 2026-06-25 and this redraft reports nothing "
        "different" in message
    )
    assert manifest.read_bytes() == before  # nothing written
    assert json.loads(before)["drafted_on"] == "2026-06-26"


def test_a_4a_with_no_earlier_draft_to_compare_says_so(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    result = draft(facts_with(tmp_path), out, "2026-06-26")
    assert result.returncode == 0, result.stderr
    root = ET.fromstring((out / "2026-annual" / "section16" / "jsmith" / "form4.xml").read_bytes())
    assert root.findtext("documentType") == "4/A"
    assert "no earlier draft is in the section16 folder to compare with" in root.findtext("remarks")


def test_a_changed_earlier_draft_is_refused_not_compared(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    assert draft(facts_with(tmp_path), out, "2026-06-24").returncode == 0
    xml = out / "2026-annual" / "section16" / "jsmith" / "form4.xml"
    xml.write_bytes(xml.read_bytes().replace(b"2450", b"2451"))
    result = draft(facts_with(tmp_path, *CORRECTED), out, "2026-06-26")
    assert result.returncode == 2
    assert "changed since it was drafted" in " ".join(result.stderr.split())
