"""Reading what a person wrote on a form (dates, percentages, a printed name) and replacing the
facts files all at once (docgen.core.dates, docgen.core.filings, docgen.core.output)."""

from __future__ import annotations

import os
from datetime import date
from decimal import Decimal

import pytest

from docgen.core.dates import NotADate, parse_written_date
from docgen.core.filings import parse_percent, same_person
from docgen.core.output import ChangedMeanwhile, replace_files


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("2030-07-01", date(2030, 7, 1)),
        ("July 1, 2030", date(2030, 7, 1)),
        ("july 1 2030", date(2030, 7, 1)),
        ("Jul. 1, 2030", date(2030, 7, 1)),
        ("Sept 30, 2030", date(2030, 9, 30)),
        ("  December 31,  2030 ", date(2030, 12, 31)),
        ("February 29, 2028", date(2028, 2, 29)),  # a leap year's last day of February
        ("2028-02-29", date(2028, 2, 29)),
        ("January 1st, 2031", date(2031, 1, 1)),
        # Only one reading is a date: accepted as people write them (issue 24).
        ("04/24/2026", date(2026, 4, 24)),  # 24 cannot be a month
        ("24/04/2026", date(2026, 4, 24)),
        ("24 April 2026", date(2026, 4, 24)),
        ("24th Apr. 2026", date(2026, 4, 24)),
        ("Apr. 24, 2026", date(2026, 4, 24)),
        ("05/05/2026", date(2026, 5, 5)),  # the same day either way
        ("02/29/2028", date(2028, 2, 29)),  # a leap day: 29 cannot be a month
        ("31.12.2030", date(2030, 12, 31)),
    ],
)
def test_dates_written_the_ways_a_form_accepts(text, day):
    assert parse_written_date(text) == day


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("February 29, 2027", "not a real calendar date"),  # not a leap year
        ("2027-02-29", "not a real calendar date"),
        ("April 31, 2030", "not a real calendar date"),
        ("07/01/2030", "two different dates"),
        ("1.7.2030", "two different dates"),
        ("04/05/2026", "two different dates"),  # April 5 or May 4
        ("12/11/2026", "two different dates"),
        ("02/29/2027", "not a real calendar date"),  # no leap day in 2027, either reading
        ("13/13/2026", "not a real calendar date"),
        ("7/1/30", "year in two digits"),
        ("next Tuesday", "is not a date"),
        ("Julember 1, 2030", "is not a date"),
        ("2030-7-1", "is not a date"),
    ],
)
def test_anything_else_is_refused_not_guessed(text, why):
    with pytest.raises(NotADate, match=why):
        parse_written_date(text)


@pytest.mark.parametrize(
    ("printed", "name", "same"),
    [
        ("Jane Q. Smith", "Jane Q. Smith", True),
        ("jane smith", "Jane Q. Smith", True),  # an initial left out
        ("Jose Nunez", "José Núñez", True),  # accents
        ("David White", "David White, Jr.", True),
        ("O'Brien, Mary", "Mary O'Brien", False),  # another order is another reading
        ("Jane Smyth", "Jane Q. Smith", False),
        ("Jane", "Jane Q. Smith", False),
        ("Patrick Murphy", "Patrick Murphy & Sons Trustee Designee", False),
        # Issue 24: letters typed without their marks, a title, initials for names.
        ("Lukasz Wrobel", "Łukasz Wróbel", True),
        ("Soren Ostergaard", "Søren Østergaard", True),
        ("Dang Van Nguyen", "Đặng Văn Nguyễn", True),
        ("Robert L. Whitcombe III", "Hon. Robert L. Whitcombe III", True),
        ("José I. Muñoz-Quiñones", "José Ignacio Muñoz-Quiñones", True),
        ("J. Q. Smith", "Jane Q. Smith", True),
        ("Særen Berg", "Søren Berg", False),  # æ is not ø: folded, they still differ
        ("J. Q.", "Jane Q. Smith", False),  # initials alone are no printed name
        ("Smith Jane", "Jane Smith", False),
        ("Jane Smith, Hon.", "Jane Smith", False),  # a title only before the name
    ],
)
def test_a_printed_name_matches_as_a_person_reads_it(printed, name, same):
    assert same_person(printed, name) is same


@pytest.mark.parametrize(
    ("text", "value"), [("10", 10), ("10%", 10), (" 7.5 % ", Decimal("7.5")), ("0", 0), (".5", 0.5)]
)
def test_a_percentage_as_written(text, value):
    assert parse_percent(text) == Decimal(str(value))


@pytest.mark.parametrize("text", ["ten", "-5", "10-20", "1,5", "", "%"])
def test_a_percentage_that_is_not_one(text):
    with pytest.raises(ValueError, match="not a percentage"):
        parse_percent(text)


def test_files_are_replaced_all_at_once_keeping_their_permissions(tmp_path):
    facts, roster = tmp_path / "facts.yaml", tmp_path / "roster.csv"
    facts.write_bytes(b"old facts\n")
    roster.write_bytes(b"old roster\n")
    os.chmod(roster, 0o640)
    read = {facts: b"old facts\n", roster: b"old roster\n"}
    replace_files({facts: b"new facts\n", roster: b"new roster\n"}, read)
    assert (facts.read_bytes(), roster.read_bytes()) == (b"new facts\n", b"new roster\n")
    assert os.stat(roster).st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["facts.yaml", "roster.csv"]


def test_a_file_changed_since_it_was_read_replaces_nothing(tmp_path):
    facts, roster = tmp_path / "facts.yaml", tmp_path / "roster.csv"
    facts.write_bytes(b"old facts\n")
    roster.write_bytes(b"edited in the meantime\n")
    read = {facts: b"old facts\n", roster: b"old roster\n"}
    with pytest.raises(ChangedMeanwhile, match="roster.csv: changed while docgen was reading it"):
        replace_files({facts: b"new\n", roster: b"new\n"}, read)
    assert facts.read_bytes() == b"old facts\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["facts.yaml", "roster.csv"]
