"""The README's counsel section, adopting a company form, runs as written: export, edit, check
(refused, with the redline), read the wording, the review DOCX, approve what the saved review
shows (`docgen approve --all-shown --shown`), check, issue: no YAML pasted by hand."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from ruamel.yaml import YAML

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
SECTION = README.split("**Adopt a company form.**", 1)[1]
SEED = "The Committee shall have the authority to interpret"
OWN = "The Compensation Committee shall have the authority to interpret"


def steps() -> list[tuple[list[str], int]]:
    block = SECTION.split("```sh", 1)[1].split("```", 1)[0]
    found = []
    for line in block.strip().splitlines():
        command, _, comment = line.partition("  #")
        found.append((shlex.split(command)[1:], 1 if "refused" in comment else 0))
    return found


def test_adopting_a_company_form_runs_as_the_readme_says(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sample = YAML().load((ROOT / "samples" / "director-grant-2026.yaml").read_text())
    sample["directors"] = sample["directors"][:2]
    facts = tmp_path / "grant.yaml"
    yaml = YAML()
    yaml.width = 4096
    with facts.open("w") as handle:
        yaml.dump(sample, handle)
    seen = {}
    for args, code in steps():
        if args[0] == "check" and "export" in seen and "edited" not in seen:
            # The edit the README asks for between steps 1 and 2.
            notice = tmp_path / "our-forms" / "notice.html.j2"
            notice.write_text(notice.read_text().replace(SEED, OWN))
            data = yaml.load(facts.read_text())
            data["templates_dir"] = "our-forms"
            with facts.open("w") as handle:
                yaml.dump(data, handle)
            seen["edited"] = True
        result = cli(*args)
        assert result.exit_code == code, (args, result.stdout + result.stderr)
        said = " ".join(result.stdout.split())
        if args[0] == "templates":
            seen["export"] = True
        elif args[0] == "check" and code == 1:
            assert "template.notice" in said and "{+Compensation+}" in said
        elif args[0] == "clauses":
            if "-o" in args:  # the review saved, for approve --shown
                said = " ".join(Path(args[args.index("-o") + 1]).read_text().split())
            assert "redline against the built-in text" in said
            assert re.search(r"The \{\+Compensation ?\+\} ?Committee shall have", said)
        elif args[0] == "approve":
            assert "Recorded: template.notice" in said, said
            assert "Every wording the cycle's documents carry is approved." in said
        elif args[0] == "render":
            assert Path("notice-review.docx").is_file()
    manifest = json.loads(Path("out/2026-annual/grant/manifest.json").read_text())
    own = next(c for c in manifest["clause_approvals"] if c["clause"] == "template.notice")
    assert (own["source"], own["approved_by"]) == ("our-forms/notice.html.j2", "B. Counsel")
