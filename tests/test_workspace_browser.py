"""`docgen serve` in a real browser: Debian's Chromium driven by Playwright (nothing downloaded),
against the workspace served by uvicorn on 127.0.0.1. Counsel approves a wording and sees the
check turn clean; the secretary drops a filled form and records it, marks a form not in effect,
issues a stage with a hold; a request without the token, from another origin or for ``../`` is
refused (issue 41). DOCGEN_SCREENSHOTS=DIR keeps a screenshot of each screen there."""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import shutil
import socket
import sys
import threading
import time
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

from docgen.load import load_facts  # noqa: E402
from docgen.render import html as render  # noqa: E402
from docgen.web.app import create_app  # noqa: E402
from docgen.web.security import LOCAL_HOSTS  # noqa: E402
from tests.fillers import pypdf_fill  # noqa: E402

pytestmark = pytest.mark.slow

CHROMIUM = Path("/usr/bin/chromium")
SAMPLES = Path(__file__).resolve().parent.parent / "samples"
BENCH = Path(__file__).resolve().parent.parent / "bench"  # realistic.py: large populations
GRANT = SAMPLES / "director-grant-2026.yaml"
UNAPPROVED = SAMPLES / "problems" / "director-unapproved-clauses.yaml"
TOKEN = "browser-test-token"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def folder(tmp_path) -> Path:
    shutil.copy(GRANT, tmp_path / "grant.yaml")
    shutil.copy(UNAPPROVED, tmp_path / "unapproved.yaml")
    partial = GRANT.read_text(encoding="utf-8").replace(
        "        filed_on: 2026-05-15\n        percent: 100",
        "        filed_on: 2026-05-15\n        percent: 50",
        1,
    )
    (tmp_path / "partial.yaml").write_text(partial, encoding="utf-8")
    return tmp_path


@contextlib.contextmanager
def serving(folder: Path) -> Iterator[str]:
    """The workspace over ``folder``, served by uvicorn on 127.0.0.1: its address."""
    port = _free_port()
    app = create_app(folder, folder / "out", TOKEN, LOCAL_HOSTS, port)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    for _ in range(200):
        if running.started:
            break
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        running.should_exit = True
        thread.join(timeout=10)


@pytest.fixture
def server(folder) -> Iterator[str]:
    with serving(folder) as address:
        yield address


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    with playwright_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(java_script_enabled=False)  # every screen reads without it
    opened = context.new_page()
    opened.goto(f"{server}/?token={TOKEN}")
    yield opened
    context.close()


def shot(page, name: str) -> None:
    keep = os.environ.get("DOCGEN_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(keep) / f"{name}.png"), full_page=True)


def test_counsel_approves_each_wording_and_the_check_turns_clean(page, server, folder):
    page.goto(f"{server}/review?f=unapproved.yaml&as_of=2026-07-01")
    assert "2 awaiting counsel's approval" in page.inner_text("main")
    shot(page, "review")
    for _ in range(2):
        form = page.locator("form[action='/approve']").first
        form.locator("input[name=by]").fill("A. Counsel")
        form.locator("button").click()
        assert "Approved" in page.inner_text("[role=status]")
    assert page.locator("form[action='/approve']").count() == 0
    assert "each approved" in page.inner_text("main")
    page.goto(f"{server}/findings?f=unapproved.yaml&as_of=2026-07-01")
    assert page.locator("#clean").count() == 1, page.inner_text("main")
    approvals = load_facts(folder / "unapproved.yaml").facts.clause_approvals
    assert [a.by for a in approvals[-2:]] == ["A. Counsel", "A. Counsel"]


def _returned_form(folder: Path, tmp_path: Path, printed_name: str) -> Path:
    """tnguyen's Exhibit I as docgen issues it, filled in and signed June 18, 2026."""
    blank = render.render_document(
        load_facts(folder / "grant.yaml"), "exhibit-i", "tnguyen", "elections", "pdf"
    )
    filled = tmp_path / f"tnguyen-{len(printed_name)}.pdf"
    filled.write_bytes(
        pypdf_fill(
            blank,
            {"pay_on": "separation", "printed_name": printed_name, "date_signed": "2026-06-18"},
        )
    )
    return filled


def _recorded_and_in_effect(page, folder: Path) -> None:
    page.click("text=Record 1 form")
    assert "Recorded 1 form" in page.inner_text("[role=status]")
    directors = load_facts(folder / "grant.yaml").facts.directors
    tnguyen = next(d for d in directors if d.id == "tnguyen")
    election = tnguyen.elections[-1]
    assert (election.filed_on.isoformat(), election.printed_name) == ("2026-06-22", "Thanh Nguyen")
    assert "(a) separation" in page.inner_text("#person-tnguyen")


def test_a_dropped_form_is_shown_then_recorded(page, server, folder, tmp_path):
    filled = _returned_form(folder, tmp_path, "Thanh Nguyen")
    page.goto(f"{server}/returned?f=grant.yaml&as_of=2026-06-22")
    before = (folder / "grant.yaml").read_bytes()
    page.set_input_files("input[name=forms]", str(filled))  # JavaScript off: the file input
    page.fill("input[name=received_on]", "2026-06-22")
    page.click("button:text('Read them')")
    reading = page.inner_text("section.reading")
    for shown in (
        "Thanh Nguyen (tnguyen)",  # the person
        "Exhibit I option (a), filed June 22, 2026",  # the choice
        "Payment on\t(a) Separation from Service",
        "Printed name\tThanh Nguyen",
        "Date signed\tJune 18, 2026",
        "How received\ta filled PDF",
    ):
        assert shown in reading, reading
    shot(page, "returned")
    assert (folder / "grant.yaml").read_bytes() == before  # shown, not yet recorded
    _recorded_and_in_effect(page, folder)


def test_a_form_dropped_on_the_page_is_read_then_recorded(browser, server, folder, tmp_path):
    import base64

    filled = _returned_form(folder, tmp_path, "Thanh Nguyen")
    context = browser.new_context()  # JavaScript on: the page takes a drop
    page = context.new_page()
    page.goto(f"{server}/?token={TOKEN}")
    page.goto(f"{server}/returned?f=grant.yaml&as_of=2026-06-22")
    assert page.locator("#drop").is_visible()
    dropped = page.evaluate_handle(
        """([name, data]) => {
            const bytes = Uint8Array.from(atob(data), c => c.charCodeAt(0));
            const files = new DataTransfer();
            files.items.add(new File([bytes], name, {type: "application/pdf"}));
            return files;
        }""",
        ["tnguyen-returned.pdf", base64.b64encode(filled.read_bytes()).decode()],
    )
    with page.expect_navigation():
        page.dispatch_event("main", "drop", {"dataTransfer": dropped})
    reading = page.inner_text("section.reading")
    assert "Printed name\tThanh Nguyen" in reading and "Date signed\tJune 18, 2026" in reading
    _recorded_and_in_effect(page, folder)
    context.close()


def test_a_refused_form_shows_why_and_records_nothing(page, server, folder, tmp_path):
    filled = _returned_form(folder, tmp_path, "Bob Nguyen")
    page.goto(f"{server}/returned?f=grant.yaml&as_of=2026-06-22")
    before = (folder / "grant.yaml").read_bytes()
    page.set_input_files("input[name=forms]", str(filled))
    page.click("button:text('Read them')")
    reading = page.inner_text("section.reading")
    assert "Refused: nothing will be recorded from this form" in reading, reading
    assert "printed_name: reads 'Bob Nguyen', but the form was issued to Thanh Nguyen" in reading
    assert "Ask the director to complete the form again" in reading  # the fix
    assert str(folder) not in reading  # the reason, not where the upload is kept
    assert page.locator("form[action='/returned/record']").count() == 0
    assert (folder / "grant.yaml").read_bytes() == before


def test_a_form_is_marked_not_in_effect(page, server, folder):
    page.goto(f"{server}/returned?f=grant.yaml&as_of=2026-07-01")
    form = page.locator("form[action='/decide']")
    form.locator("input[name=person]").fill("rgarcia")
    form.locator("input[name=form]").fill("2")
    form.locator("input[name=reason]").fill("signed by an attorney-in-fact; no power on file")
    form.locator("input[name=by]").fill("C. Secretary")
    form.locator("button").click()
    assert "Decision recorded for rgarcia" in page.inner_text("[role=status]")
    row = page.inner_text("#person-rgarcia")
    assert "C. Secretary" in row, row
    election = load_facts(folder / "grant.yaml").facts.directors[1].elections[1]
    assert (election.status, election.decided_by) == ("ineffective", "C. Secretary")


def test_a_stage_is_issued_with_a_hold(page, server, folder):
    page.goto(f"{server}/issue?f=partial.yaml&as_of=2026-06-23&stage=grant")
    refusal = page.inner_text("[role=alert]")
    assert "docgen batch refuses this stage" in refusal and "jsmith" in refusal
    shot(page, "issue")
    page.click("text=Issue stage grant")
    text = ""
    for _ in range(600):  # the page reloads itself every second while it renders (no JavaScript)
        time.sleep(0.5)
        try:
            text = page.inner_text("main", timeout=2000)
        except playwright_api.Error:  # caught between two reloads
            continue
        if "Issued" in text or "Refused" in text:
            break
    assert "Refused" not in text, text
    assert "held: jsmith" in text and "Held: jsmith" in text, text
    shot(page, "issued")
    manifest = folder / "out" / "2026-annual" / "grant" / "manifest.json"
    assert manifest.is_file()
    assert not (folder / "out" / "2026-annual" / "grant" / "jsmith").exists()
    assert (folder / "out" / "2026-annual" / "grant" / "rgarcia" / "notice.pdf").is_file()
    # the glance then links each issued document, and counsel sees a Notice as its pages
    page.goto(f"{server}/cycle?f=partial.yaml&as_of=2026-06-23")
    assert page.locator("#person-rgarcia a[href$='notice.pdf']").count() == 1
    assert page.locator("svg[role=img]").count() == 1
    shot(page, "cycle")
    page.goto(f"{server}/review?f=partial.yaml&as_of=2026-06-23")
    page.click("text=Show its pages")
    page.wait_for_load_state("load")  # the page's images loaded
    images = page.locator("img.page")
    assert images.count() >= 1
    assert images.first.evaluate("i => i.naturalWidth") > 100  # the PNG was drawn


def test_requests_without_the_token_from_another_origin_or_outside_are_refused(
    browser, server, page
):
    stranger = browser.new_context()
    response = stranger.new_page().goto(f"{server}/cycle?f=grant.yaml")
    assert response.status == 403 and "token" in response.text()
    stranger.close()
    forged = page.request.post(
        f"{server}/approve",
        form={"f": "grant.yaml", "by": "Mallory"},
        headers={"Origin": "http://evil.example"},
    )
    assert forged.status == 403
    for url in ("/files/..%2fgrant.yaml", "/cycle?f=../grant.yaml", "/files/../../etc/passwd"):
        response = page.goto(f"{server}{url}")
        assert response.status in (403, 404), url
        assert re.search("root:", page.content()) is None


def _computed(facts: Path) -> dict:
    """`docgen compute FACTS --format json`, as the command line prints it."""
    import json
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-m", "docgen", "compute", str(facts), "--format", "json"],
        capture_output=True,
        text=True,
        check=True,
        cwd=facts.parent,
    )
    return {p["id"]: p for p in json.loads(run.stdout)["participants"]}


def _money(text: str | None) -> str:
    return "-" if text is None else f"{float(text):,.2f}"


@pytest.mark.parametrize(
    "facts, as_of, person, enrolled, columns",
    [
        # the year's records, no pay schedule: the chart is the year per participant
        ("rrp-2026-year.yaml", "2026-12-31", "e1008", "bonus 20%", 21),
        # the Workday export, paid biweekly: the chart is every pay date of 2026
        ("rrp-2026-workday.yaml", "2025-12-01", "e1003", "salary 15%, bonus 25%", 26),
    ],
)
def test_the_rrp_screen_shows_computes_figures_enrollment_and_the_chart(
    page, server, folder, facts, as_of, person, enrolled, columns
):
    shutil.copy(SAMPLES / facts, folder / facts)
    shutil.copytree(SAMPLES / "workday", folder / "workday")
    computed = _computed(folder / facts)[person]
    figures = [
        _money(computed[key])
        for key in (
            "plan_compensation",
            "elective_deferral",
            "matching_restoration",
            "retirement_restoration",
        )
    ]
    page.goto(f"{server}/rrp?f={facts}&as_of={as_of}")
    row = page.inner_text(f"#participant-{person}")
    assert computed["name"] in row and enrolled in row, row
    for figure in figures:
        assert figure in row, (figure, row)
    chart = page.locator("#deferral-chart")
    assert chart.count() == 1
    shot(page, f"rrp-{person}-all")
    page.click(f"#participant-{person} a")
    for cell, figure in zip(
        (
            "#plan-compensation",
            "#elective-deferral",
            "#matching-restoration",
            "#retirement-restoration",
        ),
        figures,
        strict=True,
    ):
        assert page.inner_text(cell) == figure, cell
    if columns == 26:  # the participant's own paychecks, one column each
        assert page.locator("#deferral-chart g").count() == columns
        months = page.text_content("#deferral-chart") or ""
        assert "Jan" in months and "Dec" in months, months
    else:
        page.goto(f"{server}/rrp?f={facts}&as_of={as_of}")
        assert page.locator("#deferral-chart g").count() == columns
    shot(page, f"rrp-{person}")


def test_the_rrp_screen_of_a_director_grant_says_what_it_is_for(page, server):
    response = page.goto(f"{server}/rrp?f=grant.yaml&as_of=2026-06-22")
    assert response.status == 200
    assert "not a Retirement Restoration Plan year" in page.inner_text("main")


def test_the_findings_are_filtered_by_person_rule_and_severity_without_javascript(
    page, server, folder
):
    shutil.copy(SAMPLES / "problems" / "director-late-and-partial.yaml", folder / "late.yaml")
    page.goto(f"{server}/findings?f=late.yaml&as_of=2026-07-01")
    assert page.inner_text("#shown").startswith("8 of 8")
    for field, choice, shown in (
        ("person", "second-thoughts", "2 of 8"),
        ("rule", "RSU-ELECTION-LATE", "1 of 8"),  # and the person still chosen
        ("severity", "error", "1 of 8"),
    ):
        page.select_option(f"select[name={field}]", choice)
        page.click("button:text('Filter')")
        assert page.inner_text("#shown").startswith(shown), (field, page.inner_text("#shown"))
    assert page.locator(".finding").count() == 1
    assert "RSU-ELECTION-LATE" in page.inner_text(".finding")
    shot(page, "findings")
    page.select_option("select[name=severity]", "info")
    page.click("button:text('Filter')")
    assert "No finding matches the filter" in page.inner_text("main")


def test_a_table_of_more_than_5000_people_is_read_page_by_page_without_javascript(
    browser, tmp_path
):
    sys.path.insert(0, str(BENCH))
    import realistic

    from docgen import api

    facts = realistic.write_hris(realistic.rrp_facts(5_200), tmp_path, "rrp")
    as_of = "2025-12-31"
    people = [row.subject for row in api.status(facts, as_of=date(2025, 12, 31)).rows]
    assert len(people) > 5_000
    pages = -(-len(people) // 100)
    with serving(tmp_path) as address:
        context = browser.new_context(java_script_enabled=False)
        page = context.new_page()
        page.goto(f"{address}/?token={TOKEN}")
        page.goto(f"{address}/cycle?f={facts.name}&as_of={as_of}")

        def shown() -> list[str]:
            return re.findall(r'<tr id="person-([^"]+)"', page.content())

        assert f"Page 1 of {pages}:" in page.inner_text("p.pager >> nth=0")
        assert page.locator("p.pager >> nth=0").get_by_text("previous").count() == 0
        assert shown() == people[:100]
        page.locator("p.pager >> nth=0").get_by_text("next").click()
        assert f"Page 2 of {pages}:" in page.inner_text("p.pager >> nth=0")
        assert shown() == people[100:200]
        shot(page, "cycle-page-2")
        page.locator("p.pager >> nth=-1").get_by_text("previous").click()  # the one below
        assert shown() == people[:100]
        page.goto(f"{address}/cycle?f={facts.name}&as_of={as_of}&page=37")
        assert shown() == people[3600:3700]
        page.goto(f"{address}/cycle?f={facts.name}&as_of={as_of}&page={pages}")
        assert shown() == people[(pages - 1) * 100 :]
        assert page.locator("p.pager >> nth=0").get_by_text("next").count() == 0
        context.close()


def test_the_charts_labels_are_not_drawn_over(page, server, folder):
    """The glance's window labels end left of their bars (a route naming its period's end, with
    its count, is wider than the column first given to labels), and the RRP chart's participant
    labels under the axis do not run into each other."""
    shutil.copy(SAMPLES / "rrp-2026.yaml", folder / "rrp.yaml")
    page.goto(f"{server}/cycle?f=rrp.yaml&as_of=2026-07-01")
    timeline = page.locator("svg[aria-labelledby=timeline-title]")
    labels, bars = timeline.locator("text[x='8']"), timeline.locator("rect")
    assert labels.count() == bars.count() > 0
    for index in range(labels.count()):
        label, bar = labels.nth(index).bounding_box(), bars.nth(index).bounding_box()
        assert label and bar and label["x"] + label["width"] < bar["x"], (index, label, bar)
    page.goto(f"{server}/rrp?f=rrp.yaml&as_of=2026-07-01")
    axis = page.locator("#deferral-chart > text[text-anchor=middle]")
    boxes = [axis.nth(index).bounding_box() for index in range(axis.count())]
    assert len(boxes) > 1
    for left, right in itertools.pairwise(boxes):
        assert left and right and left["x"] + left["width"] < right["x"], (left, right)
