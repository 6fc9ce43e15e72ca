"""Every PDF/A docgen issues passes two validators' PDF/A-3b checks, page-validation and
pdf-oxide (tests/pdfa_validators.py), unsigned and signed with `batch --sign` (DESIGN.md,
"Trusted documents" and "Signed documents"). What they found and what was fixed:
checks/NOT_ENCODED.md, "PDF/A validation"."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from docgen.issue.batch import issue_batch
from tests.pdfa_validators import claims_pdfa, failures
from tests.signing_pki import module_fixtures

pytestmark = pytest.mark.slow
pki_fixture, signing_fixture = module_fixtures()

ROOT = Path(__file__).resolve().parent.parent
GRANT = ROOT / "samples" / "director-grant-2026.yaml"


def issued_pdfs(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.pdf"))}


@pytest.fixture(scope="module")
def unsigned(tmp_path_factory) -> dict[str, bytes]:
    out = tmp_path_factory.mktemp("plain")
    return issued_pdfs(issue_batch(GRANT, out, stage="grant", as_of=date(2026, 6, 23)).folder)


@pytest.fixture(scope="module")
def signed(tmp_path_factory, signing) -> dict[str, bytes]:
    out = tmp_path_factory.mktemp("signed")
    batch = issue_batch(GRANT, out, stage="grant", as_of=date(2026, 6, 23), signing=signing)
    return issued_pdfs(batch.folder)


@pytest.mark.parametrize("which", ["unsigned", "signed"])
def test_every_issued_pdfa_passes_both_validators(request, which):
    pdfs = request.getfixturevalue(which)
    archival = {name: data for name, data in pdfs.items() if claims_pdfa(data)}
    # The grant stage's Notices and on-file Exhibit I copies are all documents to keep.
    assert len(archival) == len(pdfs) == 20
    found = {name: failures(data) for name, data in archival.items()}
    assert {name: f for name, f in found.items() if f} == {}


def test_a_blank_form_claims_no_pdfa(tmp_path):
    folder = issue_batch(GRANT, tmp_path, stage="elections", as_of=date(2026, 6, 22)).folder
    forms = issued_pdfs(folder)
    assert forms and not any(claims_pdfa(data) for data in forms.values())
