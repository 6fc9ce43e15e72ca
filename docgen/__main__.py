"""`docgen` and `python -m docgen`: the command line, imported and run (docgen.cli.entry).

pydantic calls its plugins (code any installed package may register under pydantic's entry
point) on every validation, with the data validated: for docgen, the facts of directors and
participants. A `docgen` command runs none of them: it sets ``PYDANTIC_DISABLE_PLUGINS=__all__``
unless the environment already sets it. Setting it to nothing (``PYDANTIC_DISABLE_PLUGINS=``)
runs them all, as pydantic does alone. A program that imports docgen as a library decides for
itself.

pyHanko 0.38 imports cryptography's DSA key type when it is first imported (to sign, verify a
signature, or read a returned form), and cryptography 51 answers that import with a
``CryptographyDeprecationWarning`` that Python prints bare on the terminal, whatever key a
company signs with. A `docgen` command does not print it: that one message, from pyHanko's
modules, is ignored. Every other warning is shown as Python shows it.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from typing import NoReturn

PLUGINS = "PYDANTIC_DISABLE_PLUGINS"
# (message, module) of library warnings a `docgen` command does not print (module docstring).
QUIET = (("DSA is deprecated", r"pyhanko\."),)


def command_line() -> Callable[[], NoReturn]:
    """The command line, imported as the `docgen` script imports it, not yet run."""
    os.environ.setdefault(PLUGINS, "__all__")
    for message, module in QUIET:
        warnings.filterwarnings("ignore", message=message, module=module)
    from docgen.cli import entry

    return entry


def entry() -> NoReturn:
    """The console script's entry point."""
    command_line()()


if __name__ == "__main__":
    entry()
