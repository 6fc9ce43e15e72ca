"""`docgen serve`'s checks through Starlette's TestClient (no browser): the token and its cookie,
the Host and Origin headers, CSRF, paths kept in the folder, escaping, a facts file that does not
load, a stale decision refused, and the check kept by the facts' SHA-256 (issue 41)."""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path
from urllib.parse import quote_plus

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")

from starlette.testclient import TestClient  # noqa: E402

from docgen.load import load_facts  # noqa: E402
from docgen.web.app import create_app  # noqa: E402
from docgen.web.security import LOCAL_HOSTS, csrf_token  # noqa: E402

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
GRANT = SAMPLES / "director-grant-2026.yaml"
UNAPPROVED = SAMPLES / "problems" / "director-unapproved-clauses.yaml"
TOKEN = "a-test-token"
AS_OF = "2026-07-01"
PORT = 8765
HOST = f"127.0.0.1:{PORT}"


def client(folder: Path, *, signed_in: bool = True) -> TestClient:
    app = create_app(folder, folder / "out", TOKEN, LOCAL_HOSTS, PORT)
    browser = TestClient(app, base_url=f"http://{HOST}")
    if signed_in:
        assert browser.get(f"/?token={TOKEN}").status_code == 200
    return browser


@pytest.fixture
def folder(tmp_path) -> Path:
    shutil.copy(GRANT, tmp_path / "grant.yaml")
    shutil.copy(UNAPPROVED, tmp_path / "unapproved.yaml")
    return tmp_path


def messages(html: str) -> list[str]:
    return re.findall(r"<li>(.*?)</li>", html, re.S)


def test_a_request_without_the_token_is_refused(folder):
    browser = client(folder, signed_in=False)
    for url in ("/", f"/cycle?f=grant.yaml&as_of={AS_OF}", "/files/x.pdf"):
        response = browser.get(url)
        assert response.status_code == 403, url
        assert "token" in response.text
    assert browser.get("/?token=not-the-token").status_code == 403


def test_the_token_in_the_address_sets_a_strict_http_only_cookie(folder):
    browser = client(folder, signed_in=False)
    response = browser.get(
        f"/cycle?f=grant.yaml&token={TOKEN}&as_of={AS_OF}", follow_redirects=False
    )
    assert response.status_code == 303
    assert response.headers["location"] == f"/cycle?f=grant.yaml&as_of={AS_OF}"  # token gone
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"docgen_token={TOKEN};")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    # the cookie alone then opens every page
    assert browser.get(f"/cycle?f=grant.yaml&as_of={AS_OF}").status_code == 200
    headers = browser.get("/").headers
    assert (
        headers["x-frame-options"] == "DENY"
        and "frame-ancestors 'none'" in headers["content-security-policy"]
    )


def test_another_host_is_refused_even_with_the_token(folder):
    browser = client(folder)
    # DNS rebinding: a name of the attacker's resolving to 127.0.0.1
    response = browser.get(f"/?token={TOKEN}", headers={"host": f"evil.example:{PORT}"})
    assert response.status_code == 403 and "Host" in response.text
    assert browser.get("/", headers={"host": "127.0.0.1:9999"}).status_code == 403
    assert browser.get("/", headers={"host": f"localhost:{PORT}"}).status_code == 200


def test_a_post_from_another_origin_is_refused_and_records_nothing(folder):
    browser = client(folder)
    before = (folder / "unapproved.yaml").read_bytes()
    data = {"csrf": csrf_token(TOKEN), "f": "unapproved.yaml", "as_of": AS_OF, "by": "X"}
    response = browser.post("/approve", data=data, headers={"origin": "http://evil.example"})
    assert response.status_code == 403 and "Origin" in response.text
    response = browser.post("/approve", data=data, headers={"origin": "null"})
    assert response.status_code == 403
    assert (folder / "unapproved.yaml").read_bytes() == before


def test_a_post_without_its_csrf_token_is_refused(folder):
    browser = client(folder)
    before = (folder / "unapproved.yaml").read_bytes()
    for csrf in (None, "forged"):
        data = {"f": "unapproved.yaml", "as_of": AS_OF, "by": "A. Counsel"}
        if csrf:
            data["csrf"] = csrf
        response = browser.post("/approve", data=data, headers={"origin": f"http://{HOST}"})
        assert response.status_code == 403
        assert "reload the page" in response.text
    assert (folder / "unapproved.yaml").read_bytes() == before


@pytest.mark.parametrize(
    "url",
    [
        "/cycle?f=../grant.yaml",
        "/cycle?f=/etc/passwd",
        "/cycle?f=%2e%2e/%2e%2e/etc/hosts.yaml",
        "/files/../grant.yaml",
        "/files/..%2fgrant.yaml",
        "/files/%2e%2e/%2e%2e/etc/passwd",
        "/pages/..%2f..%2fetc%2fpasswd.pdf",
        "/files/link/passwd",
    ],
)
def test_no_file_outside_the_folder_is_served(folder, url):
    (folder / "out").mkdir()
    (folder / "out" / "link").symlink_to("/etc")
    response = client(folder).get(url)
    assert response.status_code in (403, 404), url
    assert "root:" not in response.text


def test_what_the_facts_hold_is_shown_as_text(folder):
    text = GRANT.read_text(encoding="utf-8").replace(
        "name: Jane Q. Smith", "name: <script>alert(1)</script>", 1
    )
    (folder / "grant.yaml").write_text(text, encoding="utf-8")
    html = client(folder).get("/cycle?f=grant.yaml&as_of=2026-06-01").text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<script>" not in html


def test_a_facts_file_that_does_not_load_shows_its_messages(folder):
    (folder / "broken.yaml").write_text(
        GRANT.read_text(encoding="utf-8").replace("grant_date: 2026-06-23", "grant_date: someday"),
        encoding="utf-8",
    )
    response = client(folder).get(f"/cycle?f=broken.yaml&as_of={AS_OF}")
    assert response.status_code == 422
    said = messages(response.text)
    assert any(re.search(r"broken\.yaml:\d+: grant\.grant_date", m) for m in said), said
    assert "Traceback" not in response.text


def test_an_internal_error_is_a_page_without_a_traceback(folder, monkeypatch):
    from docgen import api

    def broken(*args, **kwargs):
        raise RuntimeError("secret internals")

    monkeypatch.setattr(api, "run_checks", broken)
    response = client(folder).get(f"/cycle?f=grant.yaml&as_of={AS_OF}")
    assert response.status_code == 500
    assert "secret internals" not in response.text and "Traceback" not in response.text
    assert "Nothing was written" in response.text


def _approve_form(html: str, wording: str) -> dict[str, str]:
    """The fields of the Approve form of ``wording`` as the page shows them."""
    form = re.search(
        r'<form method="post" action="/approve">(?:(?!</form>).)*name="wording" value="'
        + re.escape(wording)
        + r'"(?:(?!</form>).)*</form>',
        html,
        re.S,
    )
    assert form, wording
    return dict(re.findall(r'name="([a-z_0-9]+)" value="([^"]*)"', form.group(0)))


def test_two_browsers_approving_at_once_one_wins_the_other_is_told_to_reload(folder):
    first, second = client(folder), client(folder)
    url = f"/review?f=unapproved.yaml&as_of={AS_OF}"
    page_one, page_two = first.get(url).text, second.get(url).text
    wordings = re.findall(r'name="wording" value="([^"]+)"', page_one)
    assert len(wordings) == 2, wordings
    origin = {"origin": f"http://{HOST}"}
    one = {**_approve_form(page_one, wordings[0]), "by": "A. Counsel"}
    two = {**_approve_form(page_two, wordings[1]), "by": "B. Counsel"}
    won = first.post("/approve", data=one, headers=origin, follow_redirects=False)
    assert won.status_code == 303, won.text
    after = (folder / "unapproved.yaml").read_bytes()
    lost = second.post("/approve", data=two, headers=origin)
    assert lost.status_code == 409
    assert "reload the page" in lost.text
    assert (folder / "unapproved.yaml").read_bytes() == after  # nothing recorded by the loser
    # after reloading, the second approval goes through and the check turns clean of them
    fresh = second.get(url).text
    two = {**_approve_form(fresh, wordings[1]), "by": "B. Counsel"}
    assert second.post("/approve", data=two, headers=origin).status_code == 200
    assert "DOC-DRAFTED-CLAUSE" not in second.get(f"/findings?f=unapproved.yaml&as_of={AS_OF}").text


def test_a_refused_decision_shows_why_and_records_nothing(folder):
    browser = client(folder)
    page = browser.get(f"/returned?f=grant.yaml&as_of={AS_OF}").text
    facts_sha = re.search(r'name="facts_sha" value="([^"]+)"', page).group(1)
    before = (folder / "grant.yaml").read_bytes()
    response = browser.post(
        "/decide",
        data={
            "csrf": csrf_token(TOKEN),
            "f": "grant.yaml",
            "as_of": AS_OF,
            "facts_sha": facts_sha,
            "person": "nobody",
            "form": "1",
            "effective": "no",
            "reason": "late",
            "by": "C. Secretary",
        },
        headers={"origin": f"http://{HOST}"},
    )
    assert response.status_code == 422
    assert "nobody" in response.text and "Nothing was recorded" in response.text
    assert (folder / "grant.yaml").read_bytes() == before


def test_the_home_page_lists_each_facts_file_with_its_kind(folder):
    shutil.copy(SAMPLES / "rrp-2026-year.yaml", folder / "rrp.yaml")
    (folder / "notes.yaml").write_text("plan_year: 2026\n", encoding="utf-8")
    (folder / "odd.yaml").write_text('kind: "pension"  # not one\n', encoding="utf-8")
    html = client(folder).get("/").text
    listed = dict(re.findall(r'>([^<]+\.yaml)</a> <span class="muted">([^<]*)</span>', html))
    assert listed == {
        "grant.yaml": "Director restricted stock unit grant (director-rsu-grant)",
        "unapproved.yaml": "Director restricted stock unit grant (director-rsu-grant)",
        "rrp.yaml": "Retirement Restoration Plan Year (rrp-plan-year)",
        "notes.yaml": "no kind: line (docgen check says what it lacks)",
        "odd.yaml": "pension: not a kind docgen knows",
    }


def _decide(browser: TestClient, **fields: str):
    page = browser.get(f"/returned?f=grant.yaml&as_of={AS_OF}").text
    assert 'name="signature_seen_by"' in page  # the form offers what `docgen decide` does
    facts_sha = re.search(r'name="facts_sha" value="([^"]+)"', page).group(1)
    data = {"csrf": csrf_token(TOKEN), "f": "grant.yaml", "as_of": AS_OF, "facts_sha": facts_sha}
    return browser.post(
        "/decide",
        data={**data, **fields},
        headers={"origin": f"http://{HOST}"},
        follow_redirects=False,
    )


def test_the_decide_form_records_who_saw_the_signature_as_docgen_decide_does(folder, cli):
    """--signature-seen-by alone (neither in nor out of effect): the same bytes as the command."""
    twin = folder / "twin"
    twin.mkdir()
    shutil.copy(GRANT, twin / "grant.yaml")
    said = cli(
        "decide",
        twin / "grant.yaml",
        "--for",
        "jsmith",
        "--signature-seen-by",
        "P. Secretary",
        "--as-of",
        AS_OF,
    )
    assert said.exit_code == 0, said.output
    response = _decide(
        client(folder), person="jsmith", effective="unchanged", signature_seen_by="P. Secretary"
    )
    assert response.status_code == 303, response.text
    assert (folder / "grant.yaml").read_bytes() == (twin / "grant.yaml").read_bytes()
    (election,) = load_facts(folder / "grant.yaml").facts.director("jsmith").elections
    assert (election.signature_seen_by, election.status) == ("P. Secretary", None)


def test_the_decide_form_records_a_form_not_in_effect_with_the_signature_seen(folder):
    response = _decide(
        client(folder),
        person="jsmith",
        effective="no",
        reason="late",
        by="C. Secretary",
        signature_seen_by="P. Secretary",
    )
    assert response.status_code == 303, response.text
    (election,) = load_facts(folder / "grant.yaml").facts.director("jsmith").elections
    assert (election.status, election.decided_by, election.signature_seen_by) == (
        "ineffective",
        "C. Secretary",
        "P. Secretary",
    )


def test_the_decide_form_saying_nothing_to_record_is_refused_and_writes_nothing(folder):
    before = (folder / "grant.yaml").read_bytes()
    response = _decide(client(folder), person="jsmith", effective="unchanged")
    assert response.status_code == 422
    assert "says nothing to record" in response.text and "--signature-seen-by" in response.text
    assert (folder / "grant.yaml").read_bytes() == before


def test_the_check_is_kept_until_the_facts_change(folder):
    app = create_app(folder, folder / "out", TOKEN, LOCAL_HOSTS, PORT)
    browser = TestClient(app, base_url=f"http://{HOST}")
    browser.get(f"/?token={TOKEN}")
    results = app.app.state.workspace.results
    url = f"/findings?f=grant.yaml&as_of={AS_OF}"
    browser.get(url)
    browser.get(url)
    browser.get(f"/findings?f=grant.yaml&as_of={AS_OF}&severity=error")
    assert results.loads == 1  # the filter is a view of the same version: no load again
    path = folder / "grant.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    browser.get(url)
    assert results.loads == 2  # loaded again once (every screen: tests/test_workspace_results.py)


def _elect(browser: TestClient, fields: dict[str, str]) -> object:
    page = browser.get("/returned?f=grant.yaml&as_of=2026-06-22").text
    facts_sha = re.search(r'name="facts_sha" value="([^"]+)"', page).group(1)
    return browser.post(
        "/returned/elect",
        data={
            "csrf": csrf_token(TOKEN),
            "f": "grant.yaml",
            "as_of": "2026-06-22",
            "received_on": "2026-06-22",
            "facts_sha": facts_sha,
            "person": "sjohnson-ames",
            **fields,
        },
        headers={"origin": f"http://{HOST}"},
    )


PAPER = {"pay-on": "date", "pay-date": "July 1, 2030", "signed-on": "2026-06-21"}


def test_a_paper_form_is_shown_as_elect_would_record_it_before_it_is_recorded(folder):
    browser = client(folder)
    before = (folder / "grant.yaml").read_bytes()
    query = "&".join(f"{k}={v}" for k, v in PAPER.items())
    html = browser.get(
        "/returned?f=grant.yaml&as_of=2026-06-22&received_on=2026-06-22&paper=1"
        f"&person=sjohnson-ames&{query}&recorded-by=C.+Secretary"
    ).text
    preview = html[html.index('id="paper"') :]
    for shown in (
        "Sarah Johnson-Ames",
        "Exhibit I option (b) July 1, 2030, filed June 22, 2026",
        "<th>Payment date</th><td>July 1, 2030</td>",
        "<th>Date signed</th><td>June 21, 2026</td>",
        "<th>How received</th><td>a paper form (docgen elect)</td>",
        "<th>Recorded by</th><td>C. Secretary</td>",
        "Record the paper form",
    ):
        assert shown in preview, shown
    assert (folder / "grant.yaml").read_bytes() == before  # shown, not recorded


def test_a_paper_form_is_recorded_through_elects_fields(folder):

    browser = client(folder)
    response = _elect(browser, PAPER)
    assert response.status_code == 200 and "Recorded sjohnson-ames" in response.text
    director = next(
        d for d in load_facts(folder / "grant.yaml").facts.directors if d.id == "sjohnson-ames"
    )
    assert str(director.elections[-1].pay_date) == "2030-07-01"
    assert director.elections[-1].received_as == "paper"


def test_a_refused_paper_form_is_shown_with_why_and_offers_no_record(folder):
    html = (
        client(folder)
        .get("/returned?f=grant.yaml&as_of=2026-06-22&paper=1&person=sjohnson-ames&pay-on=date")
        .text
    )
    preview = html[html.index('id="paper"') :]
    assert "Refused: nothing will be recorded" in preview
    assert "option (b) is marked but its date is blank" in preview
    assert "Record the paper form" not in preview


@pytest.mark.parametrize(
    "fields, says",
    [
        ({}, "no field is given"),
        ({"pay-on": "date"}, "option (b) is marked but its date is blank"),  # elect's refusal
    ],
)
def test_a_refused_paper_form_shows_why_and_records_nothing(folder, fields, says):
    before = (folder / "grant.yaml").read_bytes()
    response = _elect(client(folder), fields)
    assert response.status_code in (400, 422)
    assert says in response.text and "Nothing was recorded" in response.text
    assert (folder / "grant.yaml").read_bytes() == before


def test_the_workspace_serves_only_inside_its_folder(tmp_path):
    from docgen.web.server import ServeError, hosts_for, prepare, url

    with pytest.raises(ServeError, match="no such folder"):
        prepare(tmp_path / "missing", None, "127.0.0.1", 0)
    with pytest.raises(ServeError, match="only inside"):
        prepare(tmp_path, tmp_path.parent / "elsewhere", "127.0.0.1", 0)
    folder, out, port = prepare(tmp_path, None, "127.0.0.1", 0)
    assert out == tmp_path.resolve() / "out" and port > 0
    assert url("::1", 8000, "t") == "http://[::1]:8000/?token=t"
    assert "[::1]" in hosts_for("::1") and "evil.example" not in hosts_for("127.0.0.1")


@pytest.mark.slow
def test_docgen_serve_prints_an_address_with_its_token_and_answers_it(folder):
    import subprocess
    import sys
    import urllib.error
    import urllib.request

    server = subprocess.Popen(
        [sys.executable, "-m", "docgen", "serve", str(folder)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        lines = [server.stdout.readline() for _ in range(2)]
        address = lines[1].strip()
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/\?token=[\w-]{43}", address), lines
        import http.cookiejar

        jar = http.cookiejar.CookieJar()
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        for _ in range(100):
            try:
                opened = browser.open(address, timeout=5)
                break
            except urllib.error.HTTPError:
                raise
            except urllib.error.URLError:  # not listening yet
                time.sleep(0.1)
        else:
            pytest.fail("docgen serve did not answer")
        with opened as response:  # redirected to / without the token, the cookie kept
            assert response.url == address.split("?")[0]
            assert response.status == 200 and "grant.yaml" in response.read().decode()
        assert [cookie.name for cookie in jar] == ["docgen_token"]
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(address.split("?")[0], timeout=5)
        assert refused.value.code == 403
    finally:
        server.terminate()
        server.wait(timeout=10)


LATE = SAMPLES / "problems" / "director-late-and-partial.yaml"


def _findings(folder: Path, query: str) -> tuple[str, list[str]]:
    """The Findings page filtered by ``query`` (a plain GET, as the form sends it without
    JavaScript): what it says it shows, and each finding's rule as listed."""
    shutil.copy(LATE, folder / "late.yaml")
    html = client(folder).get(f"/findings?f=late.yaml&as_of={AS_OF}&{query}").text
    shown = re.search(r'<p id="shown">(.*?)</p>', html, re.S).group(1)
    return shown, re.findall(
        r'<span class="sev (\w+)">\w+</span> <strong>([A-Z0-9-]+)</strong>', html
    )


def test_the_findings_are_all_shown_unfiltered(folder):
    shown, listed = _findings(folder, "")
    assert shown.startswith("8 of 8 findings shown")
    assert len(listed) == 8


def test_the_findings_filtered_by_person_are_that_persons_only(folder):
    shown, listed = _findings(folder, "person=second-thoughts")
    assert shown.startswith("2 of 8 findings shown by the filter")
    assert [rule for _, rule in listed] == [
        "RSU-ELECTION-AFTER-IRREVOCABLE",
        "RSU-ELECTION-LATE",
    ]


def test_the_findings_filtered_by_rule_are_that_rules_only(folder):
    shown, listed = _findings(folder, "rule=RSU-ELECTION-LATE")
    assert shown.startswith("2 of 8")
    assert {rule for _, rule in listed} == {"RSU-ELECTION-LATE"}


def test_the_findings_filtered_by_severity_are_that_severitys_only(folder):
    shown, listed = _findings(folder, "severity=info")
    assert shown.startswith("1 of 8")
    assert listed == [("info", "DOC-SEED-UNDEFINED")]
    _, errors = _findings(folder, "severity=error")
    assert len(errors) == 7 and {severity for severity, _ in errors} == {"error"}


def test_the_findings_filters_combine_and_say_when_nothing_matches(folder):
    shown, listed = _findings(folder, "person=late&rule=RSU-ELECTION-LATE&severity=error")
    assert shown.startswith("1 of 8") and listed == [("error", "RSU-ELECTION-LATE")]
    shown, listed = _findings(folder, "person=late&severity=info")
    assert shown.startswith("0 of 8") and listed == []
    html = client(folder).get(f"/findings?f=late.yaml&as_of={AS_OF}&person=late&severity=info")
    assert "No finding matches the filter" in html.text


def test_the_findings_filter_offers_what_the_findings_name_and_keeps_the_choice(folder):
    shutil.copy(LATE, folder / "late.yaml")
    html = client(folder).get(f"/findings?f=late.yaml&as_of={AS_OF}&rule=RSU-ELECTION-LATE").text
    assert '<option value="RSU-ELECTION-LATE" selected>RSU-ELECTION-LATE (2)</option>' in html
    assert '<option value="second-thoughts">second-thoughts (2)</option>' in html
    assert '<option value="error">error (7)</option>' in html


EVIL = "<script>alert(1)</script> & <b>Smith</b>"


@pytest.mark.parametrize(
    "sample, url",
    [
        (GRANT, "/cycle?f=evil.yaml&as_of=2026-06-10"),
        (GRANT, "/findings?f=evil.yaml&as_of=2026-06-10"),
        (GRANT, "/review?f=evil.yaml&as_of=2026-06-10"),
        (GRANT, "/returned?f=evil.yaml&as_of=2026-06-10"),
        (GRANT, "/issue?f=evil.yaml&as_of=2026-06-10"),
        (GRANT, "/rrp?f=evil.yaml&as_of=2026-06-10"),
        (SAMPLES / "rrp-2026-year.yaml", "/rrp?f=evil.yaml&as_of=2026-12-31"),
        (SAMPLES / "rrp-2026-year.yaml", "/rrp?f=evil.yaml&as_of=2026-12-31&person=e1001"),
        (SAMPLES / "rrp-2026-year.yaml", "/returned?f=evil.yaml&as_of=2026-12-31"),
    ],
)
def test_every_screen_shows_what_the_facts_hold_as_text(folder, sample, url):
    old = "name: Jane Q. Smith" if sample == GRANT else "name: Pat Lee"
    text = sample.read_text(encoding="utf-8")
    (folder / "evil.yaml").write_text(text.replace(old, f'name: "{EVIL}"', 1), encoding="utf-8")
    response = client(folder).get(url)
    assert response.status_code < 500 and "Traceback" not in response.text
    assert "<script>alert" not in response.text and "<b>Smith" not in response.text
    if "person=" in url or "/cycle" in url or "/returned" in url:
        assert (
            "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;Smith&lt;/b&gt;" in response.text
        )


def test_an_rrp_paper_form_with_funds_and_beneficiaries_is_shown_then_recorded(folder):

    shutil.copy(SAMPLES / "rrp-2026.yaml", folder / "rrp.yaml")
    browser = client(folder)
    fields = {
        "salary-percent": "8",
        "signed-on": "2025-11-30",
        "allocation": "Stable Value Fund=60\nBond Index Fund=40",
        "beneficiary": "Sam Doe;spouse;100",
        "recorded-by": "B. Administrator",
    }
    query = "&".join(f"{k}={quote_plus(v)}" for k, v in fields.items())
    page = browser.get(
        "/returned?f=rrp.yaml&as_of=2025-12-01&received_on=2025-12-01&paper=1&person=e1006&" + query
    ).text
    preview = page[page.index('id="paper"') :]
    for shown in (
        "salary 8%, investment allocation, 1 Beneficiary, received December 1, 2025",
        "<th>Stable Value Fund</th><td>60%</td>",
        "<th>Sam Doe (spouse)</th><td>primary, 100%</td>",
    ):
        assert shown in preview, shown
    # Record posts what was shown: each fund and Beneficiary a field of its own
    record = re.search(r'<form method="post" action="/returned/elect">(.*?)</form>', preview, re.S)
    posted = re.findall(r'name="([^"]+)" value="([^"]*)"', record.group(1))
    assert ("allocation", "Bond Index Fund=40") in posted
    data: dict[str, list[str]] = {}
    for name, value in posted:
        data.setdefault(name, []).append(value.replace("&amp;", "&"))
    response = browser.post("/returned/elect", data=data, headers={"origin": f"http://{HOST}"})
    assert "Recorded e1006" in response.text
    e1006 = next(p for p in load_facts(folder / "rrp.yaml").facts.participants if p.id == "e1006")
    assert [b.name for b in e1006.beneficiaries] == ["Sam Doe"]
    assert e1006.elections[-1].recorded_by == "B. Administrator"


def test_the_issue_screen_offers_to_hold_people_only_and_says_what_no_hold_lifts(folder):
    # As of 2026-06-10 the grant packets are early (an error about the cycle, which batch
    # refuses to --hold) and two forms are filed after that day (errors about two directors).
    html = client(folder).get("/issue?f=grant.yaml&as_of=2026-06-10&stage=grant").text
    held = re.findall(r'name="hold" value="([^"]+)"', html)
    assert held == ["akhan", "pmurphy"]
    assert "No hold lifts this error:</strong> 2026-annual (1) concerns the whole cycle" in html


def test_the_rrp_screen_names_a_participant_not_in_the_file_and_lists_everyone(folder):
    shutil.copy(SAMPLES / "rrp-2026-year.yaml", folder / "rrp.yaml")
    response = client(folder).get("/rrp?f=rrp.yaml&as_of=2026-12-31&person=e9999")
    assert response.status_code == 200
    assert "No participant e9999 in rrp.yaml: choose one from the table" in response.text
    assert response.text.count('<tr id="participant-') == 21


def test_the_only_script_is_the_workspaces_own_served_from_itself(folder):
    browser = client(folder)
    page = browser.get(f"/returned?f=grant.yaml&as_of={AS_OF}")
    scripts = re.findall(r"<script[^>]*>(.*?)</script>", page.text, re.S)
    assert scripts == [""]  # one script, its own file: nothing inline
    assert '<script src="/static/drop.js" defer></script>' in page.text
    policy = page.headers["content-security-policy"]
    assert "script-src" not in policy and "default-src 'self'" in policy  # scripts: own only
    served = browser.get("/static/drop.js")
    assert served.status_code == 200 and served.headers["content-type"].startswith(
        "text/javascript"
    )
    assert "input.files = files" in served.text and "http" not in served.text  # fetches nothing
    assert client(folder, signed_in=False).get("/static/drop.js").status_code == 403


def test_past_its_limit_of_people_the_findings_filter_takes_a_typed_id(folder, monkeypatch):
    from docgen.web import app

    monkeypatch.setattr(app, "PERSON_CHOICES", 3)  # late.yaml's findings name 7 subjects
    shown, listed = _findings(folder, "person=second-thoughts")
    html = client(folder).get(f"/findings?f=late.yaml&as_of={AS_OF}&person=late").text
    assert '<input name="person" value="late" size="14">' in html
    assert '<select name="person">' not in html
    assert shown.startswith("2 of 8") and len(listed) == 2
