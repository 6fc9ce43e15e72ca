"""Only docgen's own staging folders are removed as left by an interrupted batch (issue 13): the
exact name with its random suffix, a real folder, never a link (never followed), and nothing is
reported removed that is still there."""

from __future__ import annotations

import os

from tests.test_batch import CYCLE, GRANT_AS_OF, write_cycle


def _batch(cli, facts, out):
    result = cli("batch", facts, "--out", out, "--as-of", GRANT_AS_OF)
    assert result.exit_code == 0, result.output
    return result


def test_a_left_staging_folder_is_removed_and_reported(cli, samples, tmp_path):
    facts = write_cycle(tmp_path, samples, directors=1)
    out = tmp_path / "out"
    for name in (f".{CYCLE}.staging-0123abcd", f".{CYCLE}.replaced-89abcdef"):
        (out / name / "jsmith").mkdir(parents=True)
        (out / name / "jsmith" / "notice.pdf").write_bytes(b"half")
    result = _batch(cli, facts, out)
    assert f"Removed {out / f'.{CYCLE}.replaced-89abcdef'}, left by an interrupted batch." in (
        result.stderr
    )
    assert f"Removed {out / f'.{CYCLE}.staging-0123abcd'}" in result.stderr
    assert sorted(p.name for p in out.iterdir()) == [CYCLE]


def test_folders_that_only_look_like_staging_are_left_alone(cli, samples, tmp_path):
    facts = write_cycle(tmp_path, samples, directors=1)
    out = tmp_path / "out"
    keep = [
        f".{CYCLE}.staging-notes",  # a user's folder: no random suffix
        f".{CYCLE}.staging-0123ABCD",  # upper case: token_hex never writes it
        f".{CYCLE}.staging-0123abcd-old",
        f".{CYCLE}.staging-0123abc",
        f".{CYCLE}x.staging-0123abcd",  # another cycle's name
    ]
    for name in keep:
        (out / name).mkdir(parents=True)
        (out / name / "keep.txt").write_text("mine")
    (out / f".{CYCLE}.staging-feedface").write_text("a file, not a folder")
    result = _batch(cli, facts, out)
    assert "left by an interrupted batch" not in result.stderr
    for name in keep:
        assert (out / name / "keep.txt").read_text() == "mine"
    assert (out / f".{CYCLE}.staging-feedface").read_text() == "a file, not a folder"


def test_a_link_named_like_staging_is_not_followed_nor_claimed_removed(cli, samples, tmp_path):
    facts = write_cycle(tmp_path, samples, directors=1)
    out = tmp_path / "out"
    out.mkdir()
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "contract.pdf").write_text("do not delete")
    link = out / f".{CYCLE}.staging-deadbeef"
    link.symlink_to(precious, target_is_directory=True)
    result = _batch(cli, facts, out)
    assert "left by an interrupted batch" not in result.stderr
    assert os.path.islink(link) and (precious / "contract.pdf").read_text() == "do not delete"
