"""The wheel carries docgen/, checks/ and templates/; installed non-editable, it works anywhere."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

# Every test here builds a wheel and installs it: slow (`make test-fast` leaves them out).
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(ROOT),
        ],
        check=True,
    )
    (built,) = out.glob("docgen-*.whl")
    return built


def test_wheel_carries_engine_rules_parameters_and_templates(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert "docgen/cli.py" in names
    assert "checks/__init__.py" in names
    assert "checks/parameters/irs_401a17_compensation_limit.yaml" in names
    assert any(n.startswith("docgen/templates/") for n in names)
    assert "docgen/cases/RRP-PBC-LATE.yaml" in names
    # The drafted clauses counsel approves, and the design the DOC-* rules cite.
    assert "docgen/templates/clauses/notice.b-accelerated-vesting.html.j2" in names
    assert "docgen/docs/DESIGN.md" in names
    # The vendored OCF 1.2.0 schemas `docgen export-ocf` validates against, with their licence
    assert "docgen/resources/ocf/1.2.0/schema/files/OCFManifestFile.schema.json" in names
    assert "docgen/resources/ocf/1.2.0/LICENSE.md" in names
    assert "docgen/resources/ocf/docgen-elections.schema.json" in names
    assert not any(n.startswith(("tests/", "samples/")) for n in names)


@pytest.mark.slow
def test_installed_wheel_validates_a_sample_from_another_folder(wheel, tmp_path):
    target = tmp_path / "venv"
    venv.create(target, with_pip=True)
    site = Path(sysconfig.get_path("purelib", vars={"base": str(target), "platbase": str(target)}))
    # A real, non-editable install of the wheel. Its dependencies come from the running
    # environment's site-packages, added as a plain path entry: unlike a site dir, that does not
    # run the environment's editable-install hook, so only the wheel can provide docgen.
    subprocess.run(
        [target / "bin" / "python", "-m", "pip", "install", "-q", "--no-deps", "--no-index", wheel],
        check=True,
    )
    (site / "zz-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    python = target / "bin" / "python"
    work = tmp_path / "elsewhere"
    work.mkdir()
    sample = work / "cycle.yaml"
    sample.write_text((ROOT / "samples" / "director-grant-2026.yaml").read_text())
    where = subprocess.run(
        [
            python,
            "-c",
            "import docgen, checks, docgen.core.resources as r; "
            "print(docgen.__file__); print(checks.__file__); print(r.templates_dir())",
        ],
        cwd=work,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert all(str(target) in line for line in where), where
    result = subprocess.run(
        [target / "bin" / "docgen", "validate", "cycle.yaml"],
        cwd=work,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert "ok (director-rsu-grant, 10 directors)" in result.stdout
    version = subprocess.run(
        [python, "-m", "docgen", "--version"], cwd=work, capture_output=True, text=True, check=True
    )
    from docgen import __version__

    assert version.stdout.strip() == f"docgen {__version__}"
    # The wheel's own metadata carries the version docgen/__init__.py writes (hatch reads it).
    recorded = subprocess.run(
        [python, "-c", "import importlib.metadata as m; print(m.version('docgen'))"],
        cwd=work,
        capture_output=True,
        text=True,
        check=True,
    )
    assert recorded.stdout.strip() == __version__
    # Templates, stylesheet and bundled fonts come from the wheel: a document renders.
    rendered = subprocess.run(
        [
            target / "bin" / "docgen",
            "render",
            "cycle.yaml",
            "--doc",
            "notice",
            "--for",
            "jsmith",
            "--to",
            "pdf",
            "--out",
            "out",
            "-o",
            "jsmith.pdf",
            "--as-of",
            "2026-06-23",
        ],
        cwd=work,
        capture_output=True,
        text=True,
    )
    assert rendered.returncode == 0, rendered.stderr
    assert (work / "jsmith.pdf").read_bytes().startswith(b"%PDF-")
    assert (work / "jsmith.pdf").read_bytes() == (
        work / "out" / "2026-annual" / "grant" / "jsmith" / "notice.pdf"
    ).read_bytes()
    # `docgen explain` prints worked examples from the rule cases the wheel carries.
    explained = subprocess.run(
        [target / "bin" / "docgen", "explain", "RRP-PBC-LATE"],
        cwd=work,
        capture_output=True,
        text=True,
    )
    assert explained.returncode == 0, explained.stderr
    assert "A failing example:" in explained.stdout and "no test case found" not in explained.stdout
    # DOC-DRAFTED-CLAUSE shows the drafted wording, and the DESIGN.md it cites is in the wheel.
    drafted = subprocess.run(
        [target / "bin" / "docgen", "explain", "DOC-DRAFTED-CLAUSE"],
        cwd=work,
        capture_output=True,
        text=True,
    )
    assert drafted.returncode == 0, drafted.stderr
    assert "Notwithstanding Section A, if you continue to provide services" in drafted.stdout
    shipped = drafted.stdout.split("DESIGN.md ships with docgen: ", 1)[1].split()[0]
    assert str(target) in shipped and Path(shipped).is_file()
