"""Make sure the system libraries WeasyPrint needs are present; install them with apt-get if we can.

Run by `make` before anything renders. Prints one line saying what is missing and how to get it,
and exits 1, rather than letting WeasyPrint fail later with a traceback.
"""

from __future__ import annotations

import ctypes.util
import os
import shutil
import subprocess
import sys

NEEDED = {  # shared library -> Debian package that ships it
    "pango-1.0": "libpango-1.0-0",
    "pangoft2-1.0": "libpangoft2-1.0-0",
    "harfbuzz": "libharfbuzz0b",
    # Font subsetting: without it WeasyPrint embeds whole fonts and warns, and PDF bytes differ
    # from a machine that has it.
    "harfbuzz-subset": "libharfbuzz-subset0",
    "fontconfig": "libfontconfig1",
}


def missing() -> list[str]:
    return [
        package for library, package in NEEDED.items() if ctypes.util.find_library(library) is None
    ]


def main() -> int:
    packages = missing()
    if not packages:
        return 0
    can_install = shutil.which("apt-get") and hasattr(os, "geteuid") and os.geteuid() == 0
    if can_install:
        print(f"Installing {' '.join(packages)} for WeasyPrint (apt-get)...", flush=True)
        quiet = {"stdout": subprocess.DEVNULL}
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=False, env=env, **quiet)
        subprocess.run(
            ["apt-get", "install", "-y", "-qq", *packages], check=False, env=env, **quiet
        )
        packages = missing()
        if not packages:
            return 0
    print(
        "docgen renders PDFs with WeasyPrint, which needs Pango from the system.\n"
        f"Missing: {' '.join(packages)}. Install it with:\n"
        f"    sudo apt-get install {' '.join(packages)}\n"
        "(on macOS: brew install pango), then run make again.",
        file=sys.stderr,
    )
    return 1


if __name__ == "__main__":
    sys.exit(main())
