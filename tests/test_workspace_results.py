"""`docgen serve`'s results (issue 41): every screen a view of one version of the facts, loaded and
checked once per edit of the facts or of any file they read (a roster CSV, a CSV of filings, the
company's templates), in memory only; `status` answered from the check's own findings; a table of
more than 5,000 participants read page by page through its links."""

from __future__ import annotations

import re
import shutil
import sys
from datetime import date
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")

from starlette.testclient import TestClient  # noqa: E402

from docgen import api  # noqa: E402
from docgen.checker import runner  # noqa: E402
from docgen.load import load_facts  # noqa: E402
from docgen.web.app import PAGE_ROWS, create_app  # noqa: E402
from docgen.web.cache import Results  # noqa: E402
from docgen.web.security import LOCAL_HOSTS  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
TOKEN = "a-test-token"
PORT = 8765
HOST = f"127.0.0.1:{PORT}"
sys.path.insert(0, str(ROOT / "bench"))  # realistic.py: the benchmarks' populations
HRIS_AS_OF = "2025-12-12"  # samples/rrp-2026-hris.yaml: forms out, some returned
SCREENS = (
    "/cycle",
    "/findings",
    "/findings?severity=error",
    "/findings?person=e1002",
    "/review",
    "/returned",
    "/issue",
    "/rrp",
    "/rrp?person=e1001",
)


def client(folder: Path) -> TestClient:
    browser = TestClient(
        create_app(folder, folder / "out", TOKEN, LOCAL_HOSTS, PORT), base_url=f"http://{HOST}"
    )
    assert browser.get(f"/?token={TOKEN}").status_code == 200
    return browser


@pytest.fixture
def counted(monkeypatch) -> dict[str, int]:
    """How many times anything in docgen loaded a facts file and ran the checks: every load goes
    through docgen.load's reader and every check through the runner's one loop, whoever calls
    (the workspace's cache, `status`, `compute`, `calendar`)."""
    import docgen.load as loading

    counts = {"loads": 0, "checks": 0}
    read, check = loading._load, runner._run_checks

    def counting_read(*args, **kwargs):
        counts["loads"] += 1
        return read(*args, **kwargs)

    def counting_check(*args, **kwargs):
        counts["checks"] += 1
        return check(*args, **kwargs)

    monkeypatch.setattr(loading, "_load", counting_read)
    monkeypatch.setattr(runner, "_run_checks", counting_check)
    return counts


@pytest.fixture
def hris(tmp_path) -> Path:
    """The RRP kept in an HRIS (its participants and forms in four CSVs beside the YAML)."""
    shutil.copy(SAMPLES / "rrp-2026-hris.yaml", tmp_path / "rrp.yaml")
    shutil.copytree(SAMPLES / "hris", tmp_path / "hris")
    return tmp_path


def visit_every_screen(browser: TestClient, name: str, as_of: str) -> dict[str, str]:
    pages = {}
    for screen in SCREENS:
        joined = "&" if "?" in screen else "?"
        response = browser.get(f"{screen}{joined}f={name}&as_of={as_of}")
        assert response.status_code == 200, (screen, response.text[-2000:])
        pages[screen] = response.text
    return pages


def test_every_screen_shares_one_load_and_one_check_per_edit(hris, counted):
    browser = client(hris)
    visit_every_screen(browser, "rrp.yaml", HRIS_AS_OF)
    visit_every_screen(browser, "rrp.yaml", HRIS_AS_OF)
    # glance, findings, review, returned forms, issue, RRP (status, calendar, compute, payroll):
    # one load and one check for them all, and none again while nothing changed
    assert counted == {"loads": 1, "checks": 1}


def test_an_edit_to_a_roster_csv_is_checked_again_once_and_shown(hris, counted):
    browser = client(hris)
    visit_every_screen(browser, "rrp.yaml", HRIS_AS_OF)
    roster = hris / "hris" / "participants.csv"
    text = roster.read_text(encoding="utf-8-sig")
    assert "Pat Lee" in text
    roster.write_text(text.replace("Pat Lee", "Pat Leigh", 1), encoding="utf-8")  # not the YAML
    pages = visit_every_screen(browser, "rrp.yaml", HRIS_AS_OF)
    assert counted == {"loads": 2, "checks": 2}
    assert "Pat Leigh" in pages["/cycle"] and "Pat Lee<" not in pages["/cycle"]
    assert "Pat Leigh" in pages["/rrp?person=e1001"]


def test_an_edit_to_a_csv_of_filings_is_checked_again(hris, counted):
    browser = client(hris)
    visit_every_screen(browser, "rrp.yaml", HRIS_AS_OF)
    elections = hris / "hris" / "elections.csv"
    elections.write_bytes(elections.read_bytes() + b"\r\n")  # the same filings, other bytes
    visit_every_screen(browser, "rrp.yaml", HRIS_AS_OF)
    assert counted == {"loads": 2, "checks": 2}


def test_an_edit_to_the_companys_templates_is_checked_again_and_shown(tmp_path, counted):
    from ruamel.yaml import YAML

    api.export_templates(tmp_path / "our-forms")
    yaml = YAML()
    data = yaml.load((SAMPLES / "director-grant-2026.yaml").read_text(encoding="utf-8"))
    data["templates_dir"] = "our-forms"
    with (tmp_path / "grant.yaml").open("w", encoding="utf-8") as handle:
        yaml.dump(data, handle)
    browser = client(tmp_path)
    url = "/findings?f=grant.yaml&as_of=2026-06-23&severity=error"
    assert "notice.b-accelerated-vesting" not in browser.get(url).text
    browser.get("/review?f=grant.yaml&as_of=2026-06-23")
    assert counted == {"loads": 1, "checks": 1}
    clause = tmp_path / "our-forms" / "clauses" / "notice.b-accelerated-vesting.html.j2"
    words = clause.read_text(encoding="utf-8")
    assert "Notwithstanding Section A," in words
    clause.write_text(
        words.replace("Notwithstanding Section A,", "Notwithstanding Section A and the Plan,"),
        encoding="utf-8",
    )
    assert "notice.b-accelerated-vesting" in browser.get(url).text  # awaiting counsel again
    browser.get("/review?f=grant.yaml&as_of=2026-06-23")
    assert counted == {"loads": 2, "checks": 2}


def test_a_decision_made_in_the_workspace_is_checked_again_once(tmp_path, counted):
    shutil.copy(SAMPLES / "director-grant-2026.yaml", tmp_path / "grant.yaml")
    browser = client(tmp_path)
    page = browser.get("/returned?f=grant.yaml&as_of=2026-07-01").text
    facts_sha = re.search(r'name="facts_sha" value="([^"]+)"', page).group(1)
    from docgen.web.security import csrf_token

    posted = browser.post(
        "/decide",
        data={
            "csrf": csrf_token(TOKEN),
            "f": "grant.yaml",
            "as_of": "2026-07-01",
            "facts_sha": facts_sha,
            "person": "rgarcia",
            "form": "2",
            "reason": "signed by an attorney-in-fact; no power on file",
            "by": "C. Secretary",
        },
        headers={"origin": f"http://{HOST}"},
        follow_redirects=False,
    )
    assert posted.status_code == 303, posted.text[-2000:]
    before = dict(counted)
    assert "C. Secretary" in browser.get(posted.headers["location"]).text
    for screen in ("/cycle", "/findings", "/review", "/issue"):
        assert browser.get(f"{screen}?f=grant.yaml&as_of=2026-07-01").status_code == 200
    # `decide` checks the person's record as it writes (as the command does); the pages after
    # it load the new facts once and check them once between them
    assert counted["loads"] == before["loads"] + 1
    assert counted["checks"] == before["checks"] + 1


# ------------------------------------------------------------------ status from the check


STATUS_CASES = [
    ("director-grant-2026.yaml", "2026-06-22"),
    ("director-grant-2026.yaml", "2026-07-01"),
    ("problems/director-late-and-partial.yaml", "2026-06-23"),
    ("tour/2-forms-back.yaml", "2026-06-23"),
    ("rrp-2026.yaml", "2025-12-01"),
    ("rrp-2026-year.yaml", "2026-03-20"),
    ("rrp-2026-hris.yaml", HRIS_AS_OF),
    ("problems/rrp-elections.yaml", "2025-12-31"),
    ("problems/rrp-enrollment.yaml", "2025-12-31"),
]


@pytest.mark.parametrize(("sample", "as_of"), STATUS_CASES)
def test_status_from_the_checks_findings_is_the_status_of_its_own_check(sample, as_of):
    path = SAMPLES / sample
    day = date.fromisoformat(as_of)
    own = api.status(path, as_of=day)
    loaded = load_facts(path)
    for stage in (None, *api.cycle_of(loaded)[1]):  # whatever stage the screen checked at
        report = api.run_checks(loaded, day, stage)
        assert api.status(path, as_of=day, checked=(loaded, report)) == own, stage


def test_status_cases_include_forms_with_errors_that_keep_them_out_of_effect():
    found = []
    for sample, as_of in STATUS_CASES:
        rows = api.status(SAMPLES / sample, as_of=date.fromisoformat(as_of)).rows
        found += [row.why_not for row in rows if re.search(r"\d: [A-Z]+-", row.why_not)]
    assert found  # the comparison above covers a form an error finding keeps out of effect


# ------------------------------------------------------------------ the cache itself


def test_a_file_written_while_it_was_loaded_is_loaded_again(tmp_path):
    facts = tmp_path / "facts.yaml"
    facts.write_text("one\n", encoding="utf-8")
    seen = []

    def load(path: Path) -> str:
        seen.append(path.read_text(encoding="utf-8"))
        if len(seen) == 1:  # another program writes it while it is read
            path.write_text("two\n", encoding="utf-8")
        return seen[-1]

    results = Results(load, lambda loaded: [facts])
    assert results.version(facts).loaded == "one\n"
    assert results.version(facts).loaded == "two\n"  # not trusted: loaded again
    assert results.version(facts).loaded == "two\n"
    assert results.loads == 2


def test_an_edit_that_keeps_the_size_and_time_is_seen(tmp_path):
    import os

    facts = tmp_path / "facts.yaml"
    facts.write_text("percent: 5\n", encoding="utf-8")
    results = Results(lambda path: path.read_text(encoding="utf-8"), lambda loaded: [facts])
    assert results.version(facts).loaded == "percent: 5\n"
    stat = facts.stat()
    facts.write_text("percent: 6\n", encoding="utf-8")
    os.utime(facts, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same size, same time
    assert results.version(facts).loaded == "percent: 6\n"


def test_a_page_is_made_from_one_version_and_the_next_sees_the_edit(tmp_path):
    facts = tmp_path / "facts.yaml"
    facts.write_text("percent: 5\n", encoding="utf-8")
    results = Results(lambda path: path.read_text(encoding="utf-8"), lambda loaded: [facts])
    with results.request():
        assert results.version(facts).loaded == "percent: 5\n"
        facts.write_text("percent: 6\n", encoding="utf-8")  # while the page renders
        assert results.version(facts).loaded == "percent: 5\n"  # the page's own version
    with results.request():
        assert results.version(facts).loaded == "percent: 6\n"
    assert results.loads == 2


def test_the_results_kept_are_bounded_and_the_most_used_stay(tmp_path):
    from docgen.web.cache import VERSIONS, VIEWS

    facts = tmp_path / "facts.yaml"
    facts.write_text("a\n", encoding="utf-8")
    results = Results(lambda path: path.name, lambda loaded: [facts])
    version = results.version(facts)
    made = []

    def make(value: str):
        made.append(value)
        return value

    version.get("check", lambda: make("checked"))
    for number in range(VIEWS + 10):
        version.get(("filter", number), lambda: make("view"))
        version.get("check", lambda: make("checked again"))  # every page uses it
    assert version.get("check", lambda: make("checked again")) == "checked"
    assert len(made) == 1 + VIEWS + 10
    version.get(("filter", 0), lambda: make("view again"))  # long dropped: made again
    assert made[-1] == "view again"
    others = []
    for number in range(VERSIONS + 2):
        other = tmp_path / f"other-{number}.yaml"
        other.write_text("b\n", encoding="utf-8")
        others.append(results.version(other))
    assert results.loads == 1 + VERSIONS + 2
    results.version(facts)  # dropped with the oldest: loaded again
    assert results.loads == 2 + VERSIONS + 2


# ------------------------------------------------------------------ more than 5,000 rows


@pytest.fixture
def population(tmp_path) -> Path:
    """5,050 participants from an HRIS export (bench/realistic.py): 51 pages of a table."""
    import realistic

    realistic.write_hris(realistic.rrp_facts(5_050), tmp_path, "rrp")
    return tmp_path


def participants_of(html: str) -> list[str]:
    """The participants the RRP screen's table lists, in order."""
    return re.findall(r'<tr id="participant-([^"]+)">', html)


def next_link(html: str) -> str:
    found = re.search(r'<a href="(\?[^"]*)">next</a>', html)
    assert found, "no next link"
    return found.group(1).replace("&amp;", "&")


@pytest.mark.slow
def test_more_than_5000_participants_read_page_by_page_through_links(population):
    """The RRP screen's participants (the glance's people: tests/test_workspace_browser.py)."""
    browser = client(population)
    ids = [p.id for p in load_facts(population / "rrp-hris.yaml").facts.participants]
    pages = -(-len(ids) // PAGE_ROWS)
    first = browser.get("/rrp?f=rrp-hris.yaml&as_of=2025-12-31").text
    assert f"Page 1 of {pages}:" in first and ">previous</a>" not in first
    assert participants_of(first) == ids[:PAGE_ROWS]
    second = browser.get(f"/rrp{next_link(first)}").text
    assert "Page 2 of" in second and participants_of(second) == ids[PAGE_ROWS : 2 * PAGE_ROWS]
    middle = browser.get("/rrp?f=rrp-hris.yaml&as_of=2025-12-31&page=37").text
    assert participants_of(middle) == ids[36 * PAGE_ROWS : 37 * PAGE_ROWS]
    last = browser.get(f"/rrp?f=rrp-hris.yaml&as_of=2025-12-31&page={pages}").text
    assert participants_of(last) == ids[(pages - 1) * PAGE_ROWS :]
    assert ">next</a>" not in last and ">previous</a>" in last


# ------------------------------------------------------------------ the RRP screen's figures


def command_json(*args: str) -> dict:
    """What a `docgen` command prints as JSON, run as the command line runs it."""
    import json

    from typer.testing import CliRunner

    from docgen.cli import app

    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def with_only(document: dict, ids: list[str]) -> dict:
    return {**document, "participants": [p for p in document["participants"] if p["id"] in ids]}


@pytest.mark.parametrize("sample", ["rrp-2026-workday.yaml", "rrp-2026-year.yaml"])
def test_a_page_of_participants_has_exactly_the_figures_compute_and_payroll_give_them(sample):
    path = SAMPLES / sample
    computed = command_json("compute", str(path), "--format", "json")
    paid = command_json("payroll", str(path), "--format", "json")
    loaded = load_facts(path)
    ids = api.subject_ids(loaded)
    assert ids == [p["id"] for p in computed["participants"]]
    for chosen in ([ids[0]], [ids[-1]], ids[2:5], [ids[len(ids) // 2], ids[1]], ids, []):
        assert api.figures_of(loaded, chosen) == with_only(computed, chosen), chosen
        assert api.paychecks_of(loaded, chosen) == with_only(paid, chosen), chosen


@pytest.mark.parametrize(
    "sample", ["rrp-2026-workday.yaml", "rrp-2026-year.yaml", "rrp-2026-hris.yaml"]
)
def test_the_plan_wide_totals_per_pay_date_add_up_payrolls_rows(sample):
    from decimal import Decimal

    path = SAMPLES / sample
    paid = command_json("payroll", str(path), "--format", "json")
    computed = command_json("compute", str(path), "--format", "json")
    added: dict[str | None, tuple[Decimal, Decimal]] = {}
    for participant in paid["participants"]:
        for row in participant["paychecks"]:
            d, m = added.get(row["paid_on"], (Decimal(0), Decimal(0)))
            added[row["paid_on"]] = (
                d + Decimal(row["elective_deferral"] or 0),
                m + Decimal(row["matching_restoration"] or 0),
            )
    totals = api.totals_by_pay_date(load_facts(path))
    worked = {None if day is None else day.isoformat(): (d, m) for day, d, m in totals.by_pay_date}
    assert worked == added
    # the year's sample has no pay dates (the Plan Year as one line); the others have
    assert (len(worked) > 1) == (sample != "rrp-2026-year.yaml"), worked
    everyone = computed["participants"]
    shared = [n for n in everyone[0]["notes"] if all(n in p["notes"] for p in everyone[1:])]
    assert list(totals.shared_notes) == shared


def rrp_chart_and_table(html: str) -> str:
    """The RRP screen from its chart to the end of the participants' table."""
    start = html.index("<h2>Deferral and match")
    return html[start : html.index("</table>", html.index('<table id="participants"')) + 8]


def test_a_large_plans_rrp_screen_shows_its_table_at_once_and_the_chart_once_worked_out(
    hris, counted, monkeypatch
):
    """Past CHART_AT_ONCE participants (set to 1 here, for the HRIS sample), the plan-wide totals
    are worked in a thread: the first page has the table and says the chart is coming, refreshing
    itself; the page it refreshes to is the one a small plan shows at once; no load or check
    more."""
    import time

    from docgen.web import app as web

    url = f"/rrp?f=rrp.yaml&as_of={HRIS_AS_OF}"
    at_once = rrp_chart_and_table(client(hris).get(url).text)
    assert 'id="deferral-chart"' in at_once and "Of every participant" in at_once
    ids = api.subject_ids(load_facts(hris / "rrp.yaml"))
    counted.update(loads=0, checks=0)
    monkeypatch.setattr(web, "CHART_AT_ONCE", 1)
    browser = client(hris)
    first = browser.get(url).text
    assert 'id="chart-working"' in first and '<meta http-equiv="refresh" content="1">' in first
    assert 'id="deferral-chart"' not in first and "Of every participant" not in first
    assert participants_of(first) == ids  # the table is complete at once
    for _ in range(200):
        page = browser.get(url).text
        if 'id="chart-working"' not in page:
            break
        time.sleep(0.05)
    assert 'http-equiv="refresh"' not in page
    assert rrp_chart_and_table(page) == at_once
    assert counted == {"loads": 1, "checks": 1}


def test_a_result_made_in_the_background_is_made_once_and_a_failure_is_said_to_each_page():
    import threading
    import time

    from docgen.web.cache import Version

    version = Version((), "sha", None, threading.RLock())
    release, made = threading.Event(), []

    def slow() -> str:
        release.wait(10)
        made.append(1)
        return "totals"

    assert version.started("chart", slow) == (False, None)
    assert version.started("chart", slow) == (False, None)  # asked again: not started twice
    release.set()
    for _ in range(200):
        done, value = version.started("chart", slow)
        if done:
            break
        time.sleep(0.01)
    assert (done, value, made) == (True, "totals", [1])

    def failing() -> str:
        raise ValueError("no pay dates")

    assert version.started("broken", failing) == (False, None)
    for _ in range(200):
        try:
            version.started("broken", failing)
        except ValueError as error:
            assert str(error) == "no pay dates"
            break
        time.sleep(0.01)
    else:
        raise AssertionError("the failure was never said")


# the thread's end is what is tested: pytest reports the SystemExit that ended it
@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_result_whose_thread_ends_without_one_is_said_to_fail_not_awaited_for_ever():
    """SystemExit raised in the worker (a library calling sys.exit) ends the thread with no
    exception to keep: the page asking for it must get a failure, not refresh for ever."""
    import threading
    import time

    from docgen.web.cache import Version

    version = Version((), "sha", None, threading.RLock())

    def exits() -> str:
        raise SystemExit(3)

    assert version.started("chart", exits) == (False, None)
    for _ in range(200):
        try:
            done, _ = version.started("chart", exits)
        except RuntimeError as error:
            assert "stopped before it gave a result" in str(error)
            break
        assert not done
        time.sleep(0.01)
    else:
        raise AssertionError("the page would wait for ever")
    for thread in threading.enumerate():  # ended here, so pytest reports its SystemExit here
        if thread.name == "docgen-serve 'chart'":
            thread.join(5)
