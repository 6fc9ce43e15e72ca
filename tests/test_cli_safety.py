"""A secretary never sees a traceback: operating-system refusals and bugs end in one clear line."""

from __future__ import annotations

import re

import pytest
import typer

from docgen import cli


def _run_main(monkeypatch, capsys, failure: BaseException) -> tuple[int, str]:
    def broken_app():
        raise failure

    monkeypatch.setattr(cli, "app", broken_app)
    with pytest.raises(SystemExit) as stopped:
        cli.main()
    return stopped.value.code, capsys.readouterr().err


def test_a_disk_refusal_is_one_line_and_exit_2(monkeypatch, capsys):
    code, message = _run_main(
        monkeypatch, capsys, PermissionError(13, "Permission denied", "out/2026-annual")
    )
    assert code == 2
    assert message == "docgen: Permission denied: out/2026-annual. Nothing was issued.\n"


def test_an_internal_error_is_reported_without_a_traceback(monkeypatch, capsys):
    monkeypatch.delenv("DOCGEN_DEBUG", raising=False)
    code, message = _run_main(monkeypatch, capsys, ZeroDivisionError("boom"))
    assert code == 3
    assert "internal error (a bug" in message and "Traceback" not in message


def test_debug_shows_the_bug(monkeypatch):
    monkeypatch.setenv("DOCGEN_DEBUG", "1")

    def broken_app():
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(cli, "app", broken_app)
    with pytest.raises(ZeroDivisionError):
        cli.main()


def test_interrupt_exits_130(monkeypatch, capsys):
    code, message = _run_main(monkeypatch, capsys, KeyboardInterrupt())
    assert code == 130 and "Interrupted" in message


def test_an_out_folder_that_cannot_be_created_is_exit_2(cli, samples, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = cli(
        "batch",
        samples / "director-grant-2026.yaml",
        "--out",
        blocker / "sub",
        "--as-of",
        "2026-06-23",
    )
    assert result.exit_code == 2
    assert "cannot create the folder" in result.stderr


def test_every_command_turns_a_docgen_error_into_its_exit_code():
    """One decorator on every command (docgen.console.process.exits_on_error), so no command is
    left to catch DocgenError by hand, or to forget to."""
    from docgen.console.process import exits_on_error

    wrapper = exits_on_error(lambda: None).__code__
    commands = {info.callback.__name__: info.callback for info in cli.app.registered_commands}
    # payroll (issue 24), section16, proxy, export-ocf (issue 28); approve, decide, serve
    # (issue 41); columns (issue 40); send (issue 42)
    assert len(commands) == 24
    for name, callback in commands.items():
        assert getattr(callback, "__code__", None) is wrapper, f"{name} lacks @exits_on_error"


def test_a_docgen_error_ends_a_command_with_its_message_and_code(capsys):
    from docgen.api import DocgenError
    from docgen.console.process import exits_on_error

    class Refused(DocgenError):
        exit_code = 1

    @exits_on_error
    def command() -> None:
        raise Refused("Refused: the checker found 1 error; nothing was written.")

    with pytest.raises(typer.Exit) as stopped:
        command()
    assert stopped.value.exit_code == 1
    assert capsys.readouterr().err == "Refused: the checker found 1 error; nothing was written.\n"


def test_the_shared_options_are_spelled_once():
    """`--as-of`, `-o`/`--output` and `--format` are declared in docgen/console/options.py only;
    a command gives their help, not their flags."""
    from pathlib import Path

    root = Path(cli.__file__).parent
    spelled = re.compile(r"""typer\.Option\(\s*("--as-of"|"-o"|"--output"|"--format")""")
    where = [
        str(path.relative_to(root))
        for path in sorted(root.rglob("*.py"))
        if spelled.search(path.read_text(encoding="utf-8"))
    ]
    assert where == ["console/options.py"]
