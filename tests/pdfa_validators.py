"""The two Java-free PDF/A-3b validators every issued PDF/A is checked with: page-validation
(PyPI page-validation, module ``page``: PDF/A rules tested against veraPDF's corpus) and
pdf-oxide (``validate_pdf_a("3b")``). tests/test_pdf_conformance.py runs them over what batch
issues, signed and unsigned; .ci/run over the samples' issued PDFs:

    .venv/bin/python -m tests.pdfa_validators FILE.pdf ...

A file that does not claim PDF/A (a fillable form: PDF/A forbids the NeedAppearances flag its
fields rely on, DESIGN.md "Fillable forms") is not held to it.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from pypdf import PdfReader


def claims_pdfa(data: bytes) -> bool:
    """Whether the PDF's XMP packet identifies it as PDF/A."""
    root = PdfReader(io.BytesIO(data)).trailer["/Root"]
    if "/Metadata" not in root:
        return False
    return b"pdfaid:part" in root["/Metadata"].get_object().get_data()


def failures(data: bytes) -> list[str]:
    """Every PDF/A-3b rule either validator finds broken, as ``validator RULE: message``."""
    import page
    import pdf_oxide

    found = [
        f"page-validation {failure.rule_id}: {failure.message}"
        for failure in page.validate_pdf_bytes(data, profile="3b").failures
    ]
    report = pdf_oxide.PdfDocument.from_bytes(data).validate_pdf_a("3b")
    found += [f"pdf-oxide {error}" for error in report["errors"]]
    if not report["valid"] and not report["errors"]:
        found.append("pdf-oxide: not valid (no reason given)")
    return found


def main(paths: list[str]) -> int:
    checked = failed = 0
    for path in paths:
        data = Path(path).read_bytes()
        if not claims_pdfa(data):
            continue
        checked += 1
        for failure in failures(data):
            failed += 1
            print(f"{path}: {failure}")
    print(f"PDF/A-3b: {checked} files checked by page-validation and pdf-oxide, {failed} failures")
    return 1 if failed or not checked else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
