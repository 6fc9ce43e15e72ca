"""DOC-SEED-UNDEFINED: inherited seed text that refers to something no document of the cycle
defines (the seed Notice's Section I: "the arbitrator", "the arbitration"), reported as info for
counsel with the seed's words quoted; gone once a document provides for arbitration."""

from __future__ import annotations

import json
from pathlib import Path

from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "director-grant-2026.yaml"
SEED_WORDS = (
    "then insofar as such action is not deemed to be frivolous by the arbitrator, the Company "
    "shall bear all expenses related to the arbitration, including all legal fees incurred by you."
)


def seed_findings(cli, facts: Path, stage: str = "grant") -> list[dict]:
    result = cli("check", facts, "--as-of", "2026-06-23", "--stage", stage, "--format", "json")
    return [f for f in json.loads(result.stdout)["findings"] if f["rule"] == "DOC-SEED-UNDEFINED"]


def test_the_seed_notices_arbitration_words_are_quoted_for_counsel(cli):
    (finding,) = seed_findings(cli, SAMPLE)
    assert finding["severity"] == "info"
    assert finding["message"].startswith(
        "Notice of Restricted Stock Unit Grant, Section I (the seed's words) reads “"
    )
    assert SEED_WORDS in finding["message"]
    assert (
        "“the arbitrator” and “the arbitration” refer to a provision for arbitration"
        in (finding["message"])
    )
    assert "Notice I" in finding["citations"]
    explained = cli("explain", "DOC-SEED-UNDEFINED")
    assert explained.exit_code == 0 and "frivolous by the arbitrator" in explained.stdout


def test_a_blank_form_stage_without_the_notice_has_nothing_to_say(cli):
    assert seed_findings(cli, SAMPLE, stage="elections") == []


def test_a_company_template_that_provides_for_arbitration_clears_it(cli, tmp_path):
    forms = tmp_path / "our-forms"
    assert cli("templates", "--export", forms).exit_code == 0
    notice = forms / "notice.html.j2"
    text = notice.read_text()
    seed = '<p class="clause">If there is any litigation involving'
    assert seed in text
    notice.write_text(
        text.replace(
            seed,
            '<p class="clause">Any dispute under this Notice of Grant shall be settled by binding '
            "arbitration.</p>\n" + seed,
        )
    )
    yaml = YAML()
    data = yaml.load(SAMPLE.read_text())
    data["directors"] = data["directors"][:1]
    data["templates_dir"] = "our-forms"
    facts = tmp_path / "cycle.yaml"
    with facts.open("w") as handle:
        yaml.dump(data, handle)
    assert seed_findings(cli, facts) == []
