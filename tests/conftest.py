"""Shared test fixtures (paths to the samples, the CLI in-process) and the rule-case collector.

tests/cases/<RULE-ID>.yaml are collected here, one test per case, printing expected vs got on
failure. (The collector lives here, not in tests/cases/, because the wheel carries that folder
as the worked examples of `docgen explain`.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import settings
from typer.testing import CliRunner

from docgen.checker.cases import Case, load_case_file

# Property tests judge results, never speed: a loaded CI machine must not fail them on time.
settings.register_profile("docgen", deadline=None)
settings.load_profile("docgen")

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
SEEDS = ROOT / "docs" / "source-forms"


@pytest.fixture
def samples() -> Path:
    return SAMPLES


@pytest.fixture
def cli():
    """Run `docgen ARGS...` in-process; returns the click Result (exit_code, stdout, stderr)."""
    from docgen.cli import app

    runner = CliRunner()

    def run(*args: str, **kwargs):
        return runner.invoke(app, [str(a) for a in args], catch_exceptions=False, **kwargs)

    return run


# ------------------------------------------------------------------ rule cases as data

RULE_FILE = re.compile(r"^[A-Z]+-[A-Z0-9-]+\.yaml$")


def pytest_collect_file(parent, file_path):
    if file_path.parent.name == "cases" and RULE_FILE.match(file_path.name):
        return RuleCaseFile.from_parent(parent, path=file_path)
    return None


class RuleCaseFile(pytest.File):
    def collect(self):
        for case in load_case_file(self.path):
            yield RuleCaseItem.from_parent(self, name=case.name, case=case)


class CaseMismatch(AssertionError):
    pass


class RuleCaseItem(pytest.Item):
    def __init__(self, *, case: Case, **kwargs):
        super().__init__(**kwargs)
        self.case = case

    def runtest(self) -> None:
        self.report = self.case.run()
        problems = self.case.mismatches(self.report)
        if problems:
            raise CaseMismatch(problems)

    def repr_failure(self, excinfo, style=None):
        if not isinstance(excinfo.value, CaseMismatch):
            return super().repr_failure(excinfo, style)
        case = self.case
        expected = [
            f"{rule} ({severity or 'any severity'})" for rule, severity in case.expect.items()
        ]
        got = [
            f"{f.rule} ({f.severity}) {f.subject} {f.path}: {f.message}"
            for f in self.report.findings
        ]
        return "\n".join(
            [
                f"{case.file.name}: {case.name} (as of {case.as_of}, stage {case.stage})",
                *(f"  {problem}" for problem in excinfo.value.args[0]),
                f"  expected present: {', '.join(expected) or '-'}",
                f"  expected absent:  {', '.join(case.absent) or '-'}",
                "  got:",
                *(f"    {line}" for line in got or ["(no findings)"]),
            ]
        )

    def reportinfo(self):
        return self.path, None, f"{self.case.rule}: {self.case.name}"
