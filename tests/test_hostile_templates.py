"""A company's templates folder as hostile input (issue 25): a link anywhere under it (hidden
names included) is refused before Jinja sees the folder; its templates render under a time and
an output-size limit; and they may link only to ``https:`` and ``mailto:``. Each case runs
through the CLI: exit 2, the message, and nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_load_hardening import GRANT, _facts, _refused
from tests.test_overrides import approve_listed, company


def _with_templates(cli, tmp_path: Path) -> tuple[Path, Path]:
    facts = _facts(tmp_path, GRANT.replace("directors:\n", "templates_dir: tpl\ndirectors:\n"))
    assert cli("templates", "--export", tmp_path / "tpl").exit_code == 0
    assert cli("validate", facts).exit_code == 0
    return facts, tmp_path / "tpl"


def _insert(template: Path, text: str) -> None:
    lines = template.read_text().splitlines(keepends=True)
    where = next(i for i, line in enumerate(lines) if line.startswith('<p class="letter-date">'))
    lines.insert(where, text + "\n")
    template.write_text("".join(lines))


@pytest.mark.parametrize(
    "link, target",
    [
        (".notes", "/etc/hostname"),  # the red team's hidden link
        (".git", "/etc"),  # a hidden folder link
        ("notes.txt", "/etc/hostname"),
        ("inside.html.j2", "notice.html.j2"),  # a link inside the folder is refused too
        ("clauses/.x", "../../grant.yaml"),
    ],
)
def test_a_link_anywhere_in_the_templates_folder_is_refused_before_rendering(
    cli, tmp_path, link, target
):
    facts, tpl = _with_templates(cli, tmp_path)
    (tpl / link).symlink_to(target)
    _insert(tpl / "notice.html.j2", '{% include "' + link + '" %}')
    message = _refused(
        cli, facts, "grant.yaml:14", "templates_dir", tmp_path, f"tpl/{link} is a link"
    )
    assert "Copy the file into the templates folder" in message
    for command in ("validate", "check"):
        result = cli(command, facts)
        assert result.exit_code == 2 and f"tpl/{link} is a link" in result.stderr


def test_a_templates_folder_that_is_itself_a_link_is_refused(cli, tmp_path):
    facts, tpl = _with_templates(cli, tmp_path)
    tpl.rename(tmp_path / "real")
    tpl.symlink_to(tmp_path / "real", target_is_directory=True)
    _refused(cli, facts, "grant.yaml:14", "templates_dir", tmp_path, "is a link")


def test_a_hidden_regular_file_is_still_no_template(cli, tmp_path):
    facts, tpl = _with_templates(cli, tmp_path)
    (tpl / ".notice.html.j2.swp").write_bytes(b"\xff\xfe not text")
    assert cli("validate", facts).exit_code == 0


def _render(cli, facts: Path, to: str, out: Path, *more: str):
    return cli(
        "render",
        facts,
        "--doc",
        "notice",
        "--for",
        "jsmith",
        "--to",
        to,
        "-o",
        out,
        "--as-of",
        "2026-06-23",
        *more,
    )


@pytest.mark.slow  # renders documents or runs many cases: make test, not test-fast
@pytest.mark.parametrize(
    "inserted, says",
    [
        (
            "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
            "ran longer than 0.5 seconds and was stopped",
        ),
        (
            '{% for i in range(100000) %}{{ "x" * 2500 }}{% endfor %}',
            "printed more than 10,000,000 characters and was stopped",
        ),
        ('{{ "x" * 1000000000 }}', "repeating past 10,000,000 characters is refused"),
    ],
    ids=["loops-for-ever", "prints-250-MB", "one-huge-repeat"],
)
def test_a_runaway_company_template_is_stopped_with_its_file_and_line(
    cli, tmp_path, monkeypatch, inserted, says
):
    from docgen.render import template_limits

    monkeypatch.setattr(template_limits, "SECONDS", 0.5)
    facts, tpl = company(tmp_path, cli)
    _insert(tpl / "notice.html.j2", inserted)
    approve_listed(cli, facts)  # counsel approves the edited wording (A19)
    out = tmp_path / "out"
    for result in (
        cli("batch", facts, "--out", out, "--as-of", "2026-06-23", "--workers", "1"),
        _render(cli, facts, "pdf", tmp_path / "one.pdf", "--out", out),
        _render(cli, facts, "html", tmp_path / "preview.html"),
    ):
        assert result.exit_code == 2, result.output
        message = " ".join(result.stderr.split())
        assert "template our-forms/notice.html.j2:" in message and says in message, message
        assert "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cycle.yaml", "our-forms"]


@pytest.mark.slow  # renders documents or runs many cases: make test, not test-fast
@pytest.mark.parametrize(
    "href", ["javascript:app.alert(1)", "file:///etc/passwd", "http://example.com/", "notes.txt"]
)
def test_a_company_template_may_not_link_to_a_script_or_a_local_file(cli, tmp_path, href):
    facts, tpl = company(tmp_path, cli)
    _insert(tpl / "notice.html.j2", f'<p><a href="{href}">Read the Plan</a></p>')
    approve_listed(cli, facts)  # counsel approves the edited wording (A19)
    out = tmp_path / "out"
    for result in (
        cli("batch", facts, "--out", out, "--as-of", "2026-06-23", "--workers", "1"),
        _render(cli, facts, "pdf", tmp_path / "one.pdf", "--out", out),
    ):
        assert result.exit_code == 2, result.output
        message = " ".join(result.stderr.split())
        assert "may link only to https: and mailto: addresses" in message, message
        assert "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cycle.yaml", "our-forms"]


@pytest.mark.slow  # renders documents or runs many cases: make test, not test-fast
def test_https_and_mailto_links_are_issued(cli, tmp_path):
    from pypdf import PdfReader

    facts, tpl = company(tmp_path, cli)
    _insert(
        tpl / "notice.html.j2",
        '<p><a href="https://example.com/plan">Plan</a> <a href="mailto:hr@example.com">HR</a></p>',
    )
    approve_listed(cli, facts)  # counsel approves the edited wording (A19)
    out = tmp_path / "out"
    result = cli("batch", facts, "--out", out, "--as-of", "2026-06-23", "--workers", "1")
    assert result.exit_code == 0, result.output
    notice = next(out.rglob("notice.pdf"))
    uris = [
        annot.get_object()["/A"]["/URI"]
        for page in PdfReader(notice).pages
        for annot in page.get("/Annots", [])
        if "/A" in annot.get_object()
    ]
    assert uris == ["https://example.com/plan", "mailto:hr@example.com"]
