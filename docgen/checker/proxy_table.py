"""The proxy's Director Compensation figures (`docgen proxy`; Regulation S-K Item 402(k)): per
director, the grant-date fair value of each stock award granted in the fiscal year (FASB ASC Topic
718) and the stock awards outstanding at the fiscal year-end, from one or more cycles, as CSV or
HTML. A director in several cycles is one row summing the awards, each award listed."""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Literal

from docgen.core.awards import (
    ROUNDING,
    UNITS_SHOWN,
    FiscalYear,
    OtherCompensation,
    ProxyAward,
    fiscal_year,
    whole_dollars,
)
from docgen.core.errors import LoadError, Problem
from docgen.core.safe_text import csv_text
from docgen.kinds import GrantsStockAwards, all_kinds, kind_of
from docgen.load import load_facts

ProxyFormat = Literal["csv", "html"]

CSV_COLUMNS = (
    "director_id",
    "name",
    "stock_awards_usd",
    "awards_in_fiscal_year",
    "stock_awards_outstanding_at_fiscal_year_end",
    "outstanding_awards",
    "notes",
    # The whole table (DESIGN.md A27): added after the first columns, which keep their places.
    "fees_earned_or_paid_in_cash_usd",
    "option_awards_usd",
    "all_other_compensation_usd",
    "total_usd",
    "unvested_units_at_fiscal_year_end",
    "vested_deferred_units_at_fiscal_year_end",
    "compensation_source",
)
# A figure the facts do not give: shown so, never as zero (an empty cell in CSV).
MISSING_HTML = "not given"
CITATION = "Regulation S-K Item 402(k)(2)(iii) and its Instruction; FASB ASC Topic 718"


@dataclass(frozen=True)
class DirectorRow:
    director_id: str
    name: str
    awards: tuple[ProxyAward, ...]  # in the order the cycles were given
    notes: tuple[str, ...]

    @property
    def in_year(self) -> tuple[ProxyAward, ...]:
        return tuple(a for a in self.awards if a.in_fiscal_year)

    @property
    def stock_awards(self) -> int:
        """The table's Stock Awards column: the rounded grant-date fair values, summed."""
        return sum(a.fair_value_reported for a in self.in_year)

    @property
    def unvested(self) -> Decimal:
        return sum((a.outstanding_units for a in self.awards), Decimal("0.0000")).quantize(
            UNITS_SHOWN
        )

    @property
    def deferred(self) -> Decimal:
        return sum((a.deferred_units for a in self.awards), Decimal("0.0000")).quantize(UNITS_SHOWN)

    @property
    def outstanding(self) -> Decimal:
        """The stock awards outstanding at the fiscal year-end: unvested, and vested but not yet
        settled (Item 402(k), Instruction to (2)(iii) and (iv); DESIGN.md A27)."""
        return self.unvested + self.deferred

    @property
    def other(self) -> OtherCompensation | None:
        """The director's other figures (every cycle giving them gives the same: checked)."""
        return next((a.other for a in self.awards if a.other is not None), None)

    @property
    def fees(self) -> int | None:
        other = self.other
        return None if other is None or other.fees is None else whole_dollars(other.fees)

    @property
    def option_awards(self) -> int | None:
        other = self.other
        if other is None or other.option_awards is None:
            return None
        return whole_dollars(other.option_awards)

    @property
    def all_other(self) -> int | None:
        other = self.other
        return None if other is None or other.all_other is None else whole_dollars(other.all_other)

    def total(self, with_options: bool) -> int | None:
        """Item 402(k)(2)(viii): the sum of the columns, or None when one the table shows is not
        given (a sum of what is given would understate it)."""
        parts = [self.fees, self.stock_awards, self.all_other]
        if with_options:
            parts.append(self.option_awards)
        if any(part is None for part in parts):
            return None
        return sum(part for part in parts if part is not None)


def rows(awards: list[ProxyAward]) -> list[DirectorRow]:
    """One row per director (by id, without regard to case), first seen first; a director with
    nothing granted in the year and nothing outstanding at its end is left out. A director named
    differently in two cycles takes the last cycle's name, and the row says so."""
    grouped: dict[str, list[ProxyAward]] = {}
    for award in awards:
        if award.left_out is not None:
            continue  # no award after all: the table's notes say why (left_out_notes)
        grouped.setdefault(award.holder_id.casefold(), []).append(award)
    found = []
    for held in grouped.values():
        if not any(
            a.in_fiscal_year or a.outstanding_units or a.deferred_units or a.other for a in held
        ):
            continue
        names = list(dict.fromkeys(a.holder_name for a in held))
        notes = []
        if len(names) > 1:
            notes.append(
                f"named {' and '.join(repr(n) for n in names)} in different cycles: shown as the "
                "last cycle names the director"
            )
        found.append(DirectorRow(held[-1].holder_id, names[-1], tuple(held), tuple(notes)))
    return found


def left_out_notes(awards: list[ProxyAward]) -> list[str]:
    """Each award the table leaves out because it was never made, and why (DESIGN.md A27)."""
    return [f"Left out of {a.award_id}: {a.left_out}." for a in awards if a.left_out is not None]


def notes(year: FiscalYear) -> list[str]:
    """What every figure rests on, printed with the table."""
    return [
        year.reading + ".",
        "Stock Awards: the aggregate grant-date fair value of the awards granted in the fiscal "
        "year, computed under FASB ASC Topic 718 as the units granted times the grant's Fair "
        f"Market Value per share ({CITATION}); {ROUNDING}.",
        "Outstanding at fiscal year-end (the footnote to the Stock Awards column, Item 402(k), "
        "Instruction to (2)(iii) and (iv)): the restricted stock units not yet vested on the "
        "fiscal year-end, and apart from them those vested by then but not yet settled (a "
        "deferral election, or a delivery after the year-end: still unsettled stock awards), "
        "each with the dividend-equivalent units credited by then (Notice E), carried to four "
        "decimal places; units forfeited or settled by then are not counted "
        "(checks/NOT_ENCODED.md, Proxy figures).",
        "Fees Earned or Paid in Cash (Item 402(k)(2)(ii)), Option Awards (Item 402(k)(2)(iv), "
        "shown only when a director's figure is recorded) and All Other Compensation (Item "
        "402(k)(2)(vii)) are as the facts give them (director_compensation, each with its "
        "source), rounded to the whole dollar, half a dollar up; a figure not given is shown "
        f"as {MISSING_HTML!r} (an empty cell in CSV), never as zero, and the Total (Item "
        "402(k)(2)(viii), the sum of the columns) is then not given either.",
    ]


def _award_words(award: ProxyAward) -> str:
    return (
        f"{award.award_id} ({award.grant_date.isoformat()}): {award.units:,} units x "
        f"${award.price:,.2f} = ${award.fair_value:,.2f}, reported as "
        f"${award.fair_value_reported:,}"
    )


def _outstanding_words(award: ProxyAward) -> str:
    units = (award.outstanding_units + award.deferred_units).quantize(UNITS_SHOWN)
    return f"{award.award_id}: {units:f} units ({award.status})"


def _cell(value: int | None) -> str | int:
    return "" if value is None else value


def _shown(value: int | None) -> str:
    return MISSING_HTML if value is None else f"{value:,}"


def with_options(table: list[DirectorRow]) -> bool:
    """Whether the table has an Option Awards column: when a director's figure is recorded
    (Item 402(a)(5): a column with nothing to report may be left out)."""
    return any(row.option_awards is not None for row in table)


def as_csv(table: list[DirectorRow], year: FiscalYear, extra: Sequence[str] = ()) -> str:
    options = with_options(table)
    body: list[list[str | int]] = [
        [
            row.director_id,
            row.name,
            row.stock_awards,
            "; ".join(_award_words(a) for a in row.in_year),
            f"{row.outstanding:f}",
            "; ".join(_outstanding_words(a) for a in row.awards),
            " ".join(row.notes),
            _cell(row.fees),
            _cell(row.option_awards),
            _cell(row.all_other),
            _cell(row.total(options)),
            f"{row.unvested:f}",
            f"{row.deferred:f}",
            row.other.source if row.other is not None else "",
        ]
        for row in table
    ]
    body.append(["", "notes", "", "", "", "", " ".join([*notes(year), *extra]), *[""] * 7])
    return csv_text(CSV_COLUMNS, body)


def _list(items: list[str]) -> str:
    if not items:
        return "none"
    return "<ul>" + "".join(f"<li>{html.escape(i)}</li>" for i in items) + "</ul>"


def as_html(
    table: list[DirectorRow], year: FiscalYear, company: str, extra: Sequence[str] = ()
) -> str:
    title = html.escape(
        f"{company}: Director Compensation, fiscal year ending {year.end.isoformat()}"
    )
    options = with_options(table)
    lines = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{title}</title>",
        "<style>body{font-family:serif;margin:2em}table{border-collapse:collapse}"
        "th,td{border:1px solid #888;padding:.3em .6em;vertical-align:top}"
        "td.n{text-align:right;white-space:nowrap}ul{margin:0;padding-left:1.1em}"
        "@page{size:letter landscape;margin:1.5cm}</style></head><body>",
        f"<h1>{title}</h1>",
        "<table><thead><tr><th>Director</th><th>Fees Earned or Paid in Cash ($)</th>"
        "<th>Stock Awards ($)</th>"
        + ("<th>Option Awards ($)</th>" if options else "")
        + "<th>All Other Compensation ($)</th><th>Total ($)</th><th>Awards granted in "
        "the fiscal year</th><th>Stock awards outstanding at fiscal year-end (units): unvested; "
        "vested but deferred</th><th>Outstanding awards</th></tr></thead><tbody>",
    ]
    for row in table:
        name = html.escape(row.name)
        extra = "".join(f"<br><small>{html.escape(n)}</small>" for n in row.notes)
        if row.other is not None:
            extra += f"<br><small>Source: {html.escape(row.other.source)}</small>"
        option_cell = f'<td class="n">{_shown(row.option_awards)}</td>' if options else ""
        lines.append(
            f'<tr><td>{name}{extra}</td><td class="n">{_shown(row.fees)}</td>'
            f'<td class="n">{row.stock_awards:,}</td>{option_cell}'
            f'<td class="n">{_shown(row.all_other)}</td>'
            f'<td class="n">{_shown(row.total(options))}</td>'
            f"<td>{_list([_award_words(a) for a in row.in_year])}</td>"
            f'<td class="n">{row.outstanding:f}<br><small>unvested {row.unvested:f}; vested but '
            f"deferred {row.deferred:f}</small></td>"
            f"<td>{_list([_outstanding_words(a) for a in row.awards])}</td></tr>"
        )
    lines.append("</tbody></table><h2>Notes</h2><ol>")
    lines.extend(f"<li>{html.escape(n)}</li>" for n in [*notes(year), *extra])
    lines.append("</ol></body></html>")
    return "\n".join(lines) + "\n"


def _other_conflicts(awards: list[ProxyAward], files: dict[int, str]) -> list[Problem]:
    """A director whose cycles give different figures besides stock awards for the year: each
    is a problem (one table row has one figure; docgen never picks)."""
    first: dict[str, ProxyAward] = {}
    problems = []
    for award in awards:
        if award.other is None:
            continue
        key = award.holder_id.casefold()
        seen = first.setdefault(key, award)
        if seen.other is not None and seen.other != award.other:
            problems.append(
                Problem(
                    files[id(award)],
                    None,
                    "directors.director_compensation",
                    f"{award.holder_name}'s fees, option awards or other compensation for the "
                    f"fiscal year differ from those {files[id(seen)]} gives",
                    fix="Give the director's figures for the year in one cycle's file, or the "
                    "same in each.",
                )
            )
    return problems


def figures(paths: list[Path], end: date, shown: ProxyFormat) -> str:
    """`docgen proxy`: the figures of the cycles in ``paths`` for the fiscal year ending ``end``.
    Every file must be of a kind with stock awards, all of one company, each cycle once; every
    problem is told (file:line, exit 2) before anything is figured."""
    year = fiscal_year(end)
    loaded = [load_facts(path) for path in paths]
    problems = []
    seen: dict[str, str] = {}
    company: str | None = None  # the first file of a kind with stock awards names the issuer
    granting = []  # each file's facts with its kind, which grants awards
    granted_from: list[str] = []  # the file of each
    for one in loaded:
        kind = kind_of(one.facts)
        where = one.source.file
        if not isinstance(kind, GrantsStockAwards):
            having = " or ".join(k.name for k in all_kinds() if k.has_proxy)
            problems.append(
                Problem(
                    where,
                    one.source.line_of(("kind",)),
                    "kind",
                    f"the file is of kind {kind.name}, which grants no stock awards for the proxy",
                    kind.name,
                    f"Give files of kind {having}.",
                )
            )
            continue
        granting.append((one.facts, kind))
        granted_from.append(str(where))
        cycle = kind.cycle_name(one.facts)
        if cycle in seen:
            problems.append(
                Problem(
                    where,
                    None,
                    "",
                    f"cycle {cycle} is also given as {seen[cycle]}: its awards would count twice",
                    fix="Give each cycle's facts file once.",
                )
            )
        seen.setdefault(cycle, where)
        if company is None:
            company = one.facts.company.name
        elif one.facts.company.name != company:
            problems.append(
                Problem(
                    where,
                    one.source.line_of(("company", "name")),
                    "company.name",
                    f"a different company from the first file's ({company}): one proxy table "
                    "is one issuer's",
                    one.facts.company.name,
                    "Give the cycles of one company only.",
                )
            )
    if problems:
        raise LoadError(problems)
    assert company is not None  # every file was of a kind with awards, and there is one at least
    awards = []
    granting_files: dict[int, str] = {}  # id of each award -> the file it came from
    for (facts, kind), where in zip(granting, granted_from, strict=True):
        for award in kind.proxy_awards(facts, year):
            awards.append(award)
            granting_files[id(award)] = where
    conflicts = _other_conflicts(awards, granting_files)
    if conflicts:
        raise LoadError(conflicts)
    table = rows(awards)
    extra = left_out_notes(awards)
    return as_csv(table, year, extra) if shown == "csv" else as_html(table, year, company, extra)
