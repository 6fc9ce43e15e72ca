"""The check report as counsel opens it: headless Chromium (Debian's `chromium`, which .ci/run
installs) loads the HTML page, and the page's text, as the browser laid it out, shows every
drafted clause of the cycle in full with its status. Text is compared, never pixels."""

from __future__ import annotations

import shutil
import subprocess
from datetime import date
from html.parser import HTMLParser
from pathlib import Path

import pytest

from docgen.checker.clause_wording import clause_wording
from docgen.checker.runner import run_checks
from docgen.load import load_facts
from docgen.render.readback import html_text
from tests.readers import normalise

ROOT = Path(__file__).resolve().parent.parent
PROBLEM = ROOT / "samples" / "problems" / "director-unapproved-clauses.yaml"
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.fail("chromium is not installed: apt-get install chromium (.ci/run does)")
    return found


class _VisibleText(HTMLParser):
    """The text of a DOM as Chromium dumped it, without <style> and <head>."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("style", "head", "script"):
            self.skip += 1

    def handle_endtag(self, tag):
        if tag in ("style", "head", "script"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def browse(page: Path, profile: Path, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *options, page.as_uri()],
        capture_output=True,
        timeout=120,
    )


@pytest.mark.slow
def test_the_html_review_report_shows_every_drafted_clause_in_a_browser(cli, tmp_path):
    page = tmp_path / "review.html"
    result = cli("check", PROBLEM, "--as-of", "2026-06-23", "--format", "html", "-o", page)
    assert result.exit_code == 1  # one clause unapproved, one approval stale
    dumped = browse(page, tmp_path / "profile", "--dump-dom")
    assert dumped.returncode == 0, dumped.stderr.decode(errors="replace")[-2000:]
    reader = _VisibleText()
    reader.feed(dumped.stdout.decode("utf-8"))
    text = normalise(" ".join(reader.parts))
    loaded = load_facts(PROBLEM)
    report = run_checks(loaded, date(2026, 6, 23), "grant")
    wording = clause_wording(loaded, report)
    assert len(report.clauses) == len(wording) == 14
    for review in report.clauses:
        # Each clause in full, as it reads in the documents, with its status and approval.
        words = normalise(html_text(wording[review.id].html))
        assert words and words in text, review.id
        assert review.id in text and review.sha256 in text and review.title in text
    assert "Drafted clauses for counsel's review" in text
    assert text.count("Approved by A. Counsel on May 1, 2026.") == 12
    assert "The approval on file is of other wording: A. Counsel approved it on March 2, 2026" in (
        text
    )
    assert "Redline against the wording A. Counsel approved on 2026-03-02" in text
    assert "Not approved by counsel." in text
    assert (
        "(3) the occurrence of a Change of Control that is also a change in control event" in text
    )
    # And it paints: a screenshot of the page is made (its pixels are not compared).
    shot = tmp_path / "review.png"
    painted = browse(page, tmp_path / "profile", "--window-size=1100,1600", f"--screenshot={shot}")
    assert painted.returncode == 0, painted.stderr.decode(errors="replace")[-2000:]
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_report_highlights_drafted_words_and_states_each_approval(cli):
    html = cli("check", PROBLEM, "--as-of", "2026-06-23", "--format", "html").stdout
    assert html.count('<article class="drafted-clause"') == 14
    assert html.count('<div class="wording">') == 14
    assert html.count('class="status approved"') == 12
    assert html.count('class="status approval-stale"') == 1
    assert html.count('class="status not-approved"') == 1
    # The wording the SHA-256 is of, as counsel reads it: no template syntax, no markup.
    assert "If [Accelerate On]:" in html and "{% if" not in html and "{{" not in html
    # The stale approval's redline: the words inserted since A. Counsel approved Section B.
    assert html.count('<div class="redline-text">') == 1
    assert (
        '<ins class="redline"> that is also a change in control event (Code section '
        "409A(a)(2)(A)(v))</ins>"
    ) in html
    assert "src=" not in html and "href=" not in html


@pytest.mark.slow
def test_the_html_report_shows_a_company_wording_with_its_redline_in_a_browser(cli, tmp_path):
    from ruamel.yaml import YAML

    forms = tmp_path / "our-forms"
    assert cli("templates", "--export", forms).exit_code == 0
    notice = forms / "notice.html.j2"
    seed = "The Committee shall have the authority to interpret"
    notice.write_text(
        notice.read_text().replace(seed, "The Compensation Committee may interpret"), "utf-8"
    )
    yaml = YAML()
    data = yaml.load((ROOT / "samples" / "director-grant-2026.yaml").read_text())
    data["directors"] = data["directors"][:1]
    data["templates_dir"] = "our-forms"
    facts = tmp_path / "cycle.yaml"
    with facts.open("w") as handle:
        yaml.dump(data, handle)
    page = tmp_path / "review.html"
    result = cli("check", facts, "--as-of", "2026-06-23", "--format", "html", "-o", page)
    assert result.exit_code == 1
    dumped = browse(page, tmp_path / "profile", "--dump-dom")
    assert dumped.returncode == 0, dumped.stderr.decode(errors="replace")[-2000:]
    dom = dumped.stdout.decode("utf-8")
    assert '<article class="drafted-clause" id="clause-template.notice">' in dom
    reader = _VisibleText()
    reader.feed(dom)
    text = normalise(" ".join(reader.parts))
    assert "The company's own template for the Notice of Restricted Stock Unit Grant" in text
    assert "the company's own text, from our-forms/notice.html.j2" in text
    assert "Redline against the built-in text" in text
    # The deleted and inserted words, as the browser laid them out.
    assert (
        '<del class="redline">shall have the authority to</del><ins class="redline">may</ins>'
        in (dom)
    )
    assert "The Compensation Committee may interpret" in text
