"""A re-issue only for what a document prints (issue 44): the facts only the Form 4 drafts read
(CIKs, form4_table, the trading symbol...) are declared not printed (``not_printed``), are
left out of each packet's slice, change no document's text, and adding them re-issues nothing,
the batch saying so."""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from docgen.kinds import get_kind
from docgen.load import load_facts
from docgen.render import html as render
from tests.test_batch import GRANT_AS_OF, write_cycle

ROOT = Path(__file__).resolve().parent.parent
AFTER_GRANT = ROOT / "samples" / "tour" / "4-after-grant.yaml"


def _variant(tmp_path: Path, name: str, values: dict) -> Path:
    """The tour's after-grant facts with every not-printed fact set to ``values``' kind."""
    yaml = YAML()
    data = yaml.load(AFTER_GRANT.read_text(encoding="utf-8"))
    data["company"].update(values["company"])
    for index, director in enumerate(data["directors"]):
        director.update({k: v(index) for k, v in values["director"].items()})
    folder = tmp_path / name
    folder.mkdir()
    for extra in AFTER_GRANT.parent.iterdir():
        if extra.suffix == ".csv":
            (folder / extra.name).write_bytes(extra.read_bytes())
    path = folder / "facts.yaml"
    with path.open("w", encoding="utf-8") as handle:
        yaml.dump(data, handle)
    return path


ONE = {
    "company": {"cik": "0001170010", "trading_symbol": "KMX", "form4_table": "II"},
    "director": {"cik": lambda i: f"00019900{i:02d}", "shares_owned_after": lambda i: 100 + i},
}
OTHER = {
    "company": {"cik": "0000000042", "trading_symbol": "ZZZ", "form4_table": "I"},
    "director": {"cik": lambda i: f"00077700{i:02d}", "shares_owned_after": lambda i: 9 + i},
}


def test_the_facts_declared_not_printed_change_no_document(tmp_path):
    one = load_facts(_variant(tmp_path, "one", ONE))
    other = load_facts(_variant(tmp_path, "other", OTHER))
    kind = get_kind(one.facts.kind)
    assert "company.cik" in kind.model.not_printed
    rendered = 0
    for stage in ("elections", "grant"):
        for subject, spec in kind.issued(one.facts, stage)[:6]:
            a = render.render_document(one, spec.name, subject.id, stage, "html")
            b = render.render_document(other, spec.name, subject.id, stage, "html")
            assert a == b, (spec.name, subject.id, stage)
            rendered += 1
    assert rendered >= 4


def test_the_slice_leaves_out_what_no_document_prints(tmp_path):
    loaded = load_facts(_variant(tmp_path, "one", ONE))
    kind = get_kind(loaded.facts.kind)
    subject = kind.subjects(loaded.facts)[0].id
    slice_ = kind.slice(loaded.facts, subject)
    assert "cik" not in slice_["company"] and "trading_symbol" not in slice_["company"]
    assert "cik" not in slice_["directors"][0]
    assert slice_["company"]["name"]  # what the documents print stays


@pytest.mark.slow
def test_adding_ciks_and_the_symbol_reissues_nothing_and_says_so(samples, tmp_path, cli):
    facts = write_cycle(tmp_path, samples, directors=2)
    out = tmp_path / "out"
    first = cli("batch", facts, "--out", out, "--as-of", GRANT_AS_OF)
    assert first.exit_code == 0, first.output

    def with_form4_facts(data):
        data["company"]["cik"] = "0001170010"
        data["company"]["trading_symbol"] = "KMX"
        data["company"]["form4_table"] = "II"
        data["directors"][0]["cik"] = "0001990001"

    write_cycle(tmp_path, samples, directors=2, edit=with_form4_facts)
    again = cli("batch", facts, "--out", out, "--as-of", GRANT_AS_OF)
    assert again.exit_code == 0, again.output
    said = " ".join((again.stdout + again.stderr).split())
    assert "is already current" in said and "nothing re-issued" in said
    assert "in no fact its documents print" in said and "company.cik" in said
    assert not (out / "2026-annual" / "grant" / "superseded").exists()
