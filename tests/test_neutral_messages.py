"""Messages name no other company's values (issue 44): a new company's user is never shown the
sample company's address, ticker or people as if they were examples of their own. Field
descriptions (the reference docs) and comments may cite the samples; messages may not."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_VALUES = ("Richmond, VA", "23220", "EXCO", "jsmith", "CarMax", "747-0422")
DESCRIPTION = re.compile(r"^\s*(#|description=|\"\"\"|[A-Za-z_]+\s*=\s*Field)")


def test_no_message_quotes_the_sample_company():
    found = []
    for path in sorted((ROOT / "docgen").rglob("*.py")):
        in_docstring = False
        in_description = False
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            stripped = line.strip()
            if stripped.count('"""') == 1:
                in_docstring = not in_docstring
                continue
            if in_docstring or stripped.startswith("#"):
                continue
            if stripped.startswith("description="):
                in_description = True
            elif in_description and not stripped.startswith('"'):
                in_description = False
            if in_description:
                continue
            code = line.split("  #")[0]
            for value in SAMPLE_VALUES:
                if value in code:
                    found.append(f"{path.relative_to(ROOT)}:{number}: {value}")
    assert not found, "\n".join(found)
