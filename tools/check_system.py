"""Make sure the system libraries WeasyPrint needs are present; install them with apt-get if we can.

Run by `make` before anything renders. Prints one line saying what is missing and how to get it,
and exits 1, rather than letting WeasyPrint fail later with a traceback.

With --for-tests (`make test`, `make test-fast`, `make test-lowest`), also the programs the suite
reads documents and drives the workspace with: poppler's pdftotext/pdftoppm/pdfsig, qpdf,
LibreOffice Writer, Debian's chromium (Playwright drives it through executable_path; nothing is
downloaded) and Node for pdf.js. Installed with apt-get when run as root; otherwise named, with
the command to install them and the tests that skip without them, and the run goes on.
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


# program on PATH -> (Debian package, the tests that skip without it)
TEST_PROGRAMS = {
    "pdftotext": ("poppler-utils", "documents read back as poppler (Evince, Okular) reads them"),
    "qpdf": ("qpdf", "PDF structure checks"),
    "soffice": ("libreoffice-writer-nogui", "every DOCX opened in LibreOffice"),
    "chromium": ("chromium", "the workspace and the check report in a real browser"),
    "node": ("nodejs", "forms filled and read by pdf.js (Firefox)"),
    "npm": ("npm", "installing pdf.js for the form tests"),
}
TEST_PACKAGES_ALSO = ["fonts-liberation"]  # LibreOffice's metric twins of the bundled fonts


def missing_for_tests() -> dict[str, tuple[str, str]]:
    return {name: use for name, use in TEST_PROGRAMS.items() if shutil.which(name) is None}


def install_for_tests() -> int:
    absent = missing_for_tests()
    if not absent:
        return 0
    packages = sorted({package for package, _ in absent.values()} | set(TEST_PACKAGES_ALSO))
    if _can_install():
        print(f"Installing {' '.join(packages)} for the tests (apt-get)...", flush=True)
        _apt_install(packages)
        absent = missing_for_tests()
        if not absent:
            return 0
    print("Some tests will be skipped: these programs are not installed.", file=sys.stderr)
    for name, (package, use) in absent.items():
        print(f"    {name} ({package}): {use}", file=sys.stderr)
    wanted = " ".join(sorted({package for package, _ in absent.values()}))
    print(f"Install them with:\n    sudo apt-get install {wanted}", file=sys.stderr)
    return 0


def _can_install() -> bool:
    return bool(shutil.which("apt-get")) and hasattr(os, "geteuid") and os.geteuid() == 0


def _apt_install(packages: list[str]) -> None:
    quiet = {"stdout": subprocess.DEVNULL}
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=False, env=env, **quiet)
    subprocess.run(
        ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *packages],
        check=False,
        env=env,
        **quiet,
    )


def missing() -> list[str]:
    return [
        package for library, package in NEEDED.items() if ctypes.util.find_library(library) is None
    ]


def main() -> int:
    packages = missing()
    if not packages:
        return 0
    if _can_install():
        print(f"Installing {' '.join(packages)} for WeasyPrint (apt-get)...", flush=True)
        _apt_install(packages)
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
    status = main()
    if status == 0 and "--for-tests" in sys.argv[1:]:
        status = install_for_tests()
    sys.exit(status)
