"""Shared test fixtures: paths to the samples and a way to run the CLI in-process."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
SEEDS = ROOT.parent / "shared" / "seeds"


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
