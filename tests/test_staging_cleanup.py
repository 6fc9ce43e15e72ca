"""Only docgen's own staging and set-aside folders are dealt with as left by an interrupted batch
(issue 13): the exact name with its random suffix, a real folder, never a link (never followed),
and nothing is reported removed that is still there. They sit beside the stage folders, in
OUT/<cycle>/ (docgen.issue.stages)."""

from __future__ import annotations

import os

import pytest

from tests.test_batch import CYCLE, GRANT_AS_OF, write_cycle

# Every test here issues stage folders end to end: slow (`make test-fast` leaves them out).
pytestmark = pytest.mark.slow

STAGE = "grant"


def _batch(cli, facts, out):
    result = cli("batch", facts, "--out", out, "--as-of", GRANT_AS_OF)
    assert result.exit_code == 0, result.output
    return result


def test_a_left_staging_folder_is_removed_and_reported(cli, samples, tmp_path):
    facts = write_cycle(tmp_path, samples, directors=1)
    out = tmp_path / "out"
    left = out / CYCLE / f".{STAGE}.staging-0123abcd"
    (left / "jsmith").mkdir(parents=True)
    (left / "jsmith" / "notice.pdf").write_bytes(b"half")
    result = _batch(cli, facts, out)
    assert f"Removed {left}, left by an interrupted batch." in result.stderr
    assert not os.path.lexists(left)


def test_folders_that_only_look_like_docgens_are_left_alone(cli, samples, tmp_path):
    facts = write_cycle(tmp_path, samples, directors=1)
    cycle = tmp_path / "out" / CYCLE
    keep = [
        f".{STAGE}.staging-notes",  # a user's folder: no random suffix
        f".{STAGE}.replaced-notes",  # would have been "put back" as the stage folder
        f".{STAGE}.staging-0123ABCD",  # upper case: token_hex never writes it
        f".{STAGE}.staging-0123abcd-old",
        f".{STAGE}.replaced-0123abc",
        f".{STAGE}x.staging-0123abcd",  # another stage's name
    ]
    for name in keep:
        (cycle / name).mkdir(parents=True)
        (cycle / name / "keep.txt").write_text("mine")
    (cycle / f".{STAGE}.staging-feedface").write_text("a file, not a folder")
    result = _batch(cli, facts, tmp_path / "out")
    assert "left by an interrupted batch" not in result.stderr
    assert "Put back" not in result.stderr
    for name in keep:
        assert (cycle / name / "keep.txt").read_text() == "mine"
    assert (cycle / f".{STAGE}.staging-feedface").read_text() == "a file, not a folder"
    assert (cycle / STAGE / "manifest.json").is_file()


def test_links_named_like_docgens_folders_are_not_followed_nor_claimed(cli, samples, tmp_path):
    facts = write_cycle(tmp_path, samples, directors=1)
    cycle = tmp_path / "out" / CYCLE
    cycle.mkdir(parents=True)
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "contract.pdf").write_text("do not delete")
    links = [cycle / f".{STAGE}.staging-deadbeef", cycle / f".{STAGE}.replaced-deadbeef"]
    for link in links:
        link.symlink_to(precious, target_is_directory=True)
    result = _batch(cli, facts, tmp_path / "out")
    assert "left by an interrupted batch" not in result.stderr
    assert "Put back" not in result.stderr
    assert all(os.path.islink(link) for link in links)
    assert (precious / "contract.pdf").read_text() == "do not delete"
    assert not (cycle / STAGE).is_symlink() and (cycle / STAGE / "manifest.json").is_file()
