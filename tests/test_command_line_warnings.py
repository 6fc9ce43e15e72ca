"""A `docgen` command does not print the deprecation warning cryptography 51 gives when pyHanko
is imported (docgen.__main__), and prints every other warning as Python does."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

WARN = """
import warnings
from docgen.__main__ import command_line
command_line()
warnings.warn_explicit(
    {message!r}, UserWarning, "pdf_cms.py", 20, module={module!r}
)
"""


def _stderr_of(script: str) -> str:
    """What a fresh Python running ``script`` printed on standard error (it must succeed)."""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stderr


DSA = (
    "DSA is deprecated and support will be removed in a future release. "
    "Use a more modern signature algorithm."
)


@pytest.mark.parametrize(
    ("message", "module", "printed"),
    [
        (DSA, "pyhanko.sign.signers.pdf_cms", False),
        (DSA, "somebody_else", True),  # only pyHanko's import of it
        ("Something else is deprecated", "pyhanko.sign.signers.pdf_cms", True),
    ],
)
def test_only_pyhankos_dsa_warning_is_quiet(message, module, printed):
    stderr = _stderr_of(WARN.format(message=message, module=module))
    assert (message in stderr) is printed, stderr


def test_pyhanko_imports_without_a_line_on_the_terminal():
    """Whatever cryptography is installed, importing pyHanko in a docgen command prints
    nothing (with cryptography 51, pyHanko 0.38's import warns of DSA)."""
    script = "from docgen.__main__ import command_line; command_line(); import pyhanko.sign"
    assert _stderr_of(script + ".signers.pdf_cms") == ""
