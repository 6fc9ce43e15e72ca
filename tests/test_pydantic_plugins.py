"""The `docgen` script runs no pydantic plugin unless the environment asks for them
(docgen.__main__): a plugin any installed package registers would otherwise see every fact
validated."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "director-grant-2026.yaml"

PLUGIN = """
from pathlib import Path

class Plugin:
    def new_schema_validator(self, schema, schema_type, schema_type_path, schema_kind, config,
                             plugin_settings):
        with open(MARKER, "a", encoding="utf-8") as marker:
            marker.write(f"{getattr(schema_type, '__name__', schema_type)}\\n")
        return None, None, None

plugin = Plugin()
"""


@pytest.fixture
def installed_plugin(tmp_path):
    """A package installed beside docgen (on PYTHONPATH) that registers a pydantic plugin
    writing each model it is shown to a marker file."""
    site = tmp_path / "site"
    site.mkdir()
    marker = tmp_path / "seen.txt"
    (site / "watching_plugin.py").write_text(
        f"MARKER = {str(marker)!r}\n" + PLUGIN, encoding="utf-8"
    )
    info = site / "watching_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: watching-plugin\nVersion: 1.0\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(
        "[pydantic]\nwatching = watching_plugin:plugin\n", encoding="utf-8"
    )
    return site, marker


def _validate(site: Path, plugins: str | None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(site)}
    env.pop("PYDANTIC_DISABLE_PLUGINS", None)
    if plugins is not None:
        env["PYDANTIC_DISABLE_PLUGINS"] = plugins
    return subprocess.run(
        [sys.executable, "-m", "docgen", "validate", str(SAMPLE)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )


def test_the_script_runs_no_plugin_by_default(installed_plugin):
    site, marker = installed_plugin
    done = _validate(site, None)
    assert done.returncode == 0, done.stderr
    assert not marker.exists()


def test_an_empty_setting_runs_them_as_pydantic_does(installed_plugin):
    site, marker = installed_plugin
    done = _validate(site, "")
    assert done.returncode == 0, done.stderr
    assert "Fact" in marker.read_text(encoding="utf-8")  # shown docgen's models


def test_the_environments_own_setting_stands(installed_plugin):
    site, marker = installed_plugin
    assert _validate(site, "someone-else").returncode == 0  # only a plugin of that name is off
    assert marker.exists()
