"""The workspace's two charts as the shapes of an inline SVG (templates/web/ draws them, so
every label is escaped): a timeline of election windows and deadlines, and deferral and match
over the Plan Year. Only geometry here; the figures come from `docgen calendar` and
`docgen payroll`."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal

WIDTH = 900
LEFT = 230  # the labels' column at least; wider for a longer label, up to MOST_LEFT
MOST_LEFT = 480
CHAR = 7.2  # the widest a 12-point label's character averages (digits, sans-serif): an estimate
RIGHT = 100  # room for the last bar's "to YYYY-MM-DD"
ROW = 26


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    label: str
    span: str


@dataclass
class Timeline:
    height: int
    bars: list[Bar] = field(default_factory=list)
    ticks: list[tuple[float, str]] = field(default_factory=list)
    today: float | None = None
    today_label: str = ""


def _x(day: date, first: date, last: date, left: float = LEFT) -> float:
    days = max((last - first).days, 1)
    return left + (WIDTH - left - RIGHT) * (day - first).days / days


def timeline(windows: list[dict[str, str]], as_of: date) -> Timeline:
    """One bar per window the calendar lists (route, first and last day), naming how many
    people it is open to; a window with no first day starts at the as-of date."""
    groups: Counter[tuple[str, str, str]] = Counter()
    for window in windows:
        groups[(window["route"], window["opens_on"], window["closes_on"])] += 1
    if not groups:
        return Timeline(height=40)
    days = [as_of]
    for _, opens, closes in groups:
        days.append(date.fromisoformat(closes))
        if opens:
            days.append(date.fromisoformat(opens))
    first, last = min(days), max(days)
    chart = Timeline(height=ROW * len(groups) + 50)
    labels = {
        key: f"{key[0]} ({count} {'person' if count == 1 else 'people'})"
        for key, count in groups.items()
    }
    # the bars start right of the longest label, so none is drawn over (a route names its
    # period's end: "performance-based-2026-12-31 (274 people)" is wider than LEFT)
    left = min(max(LEFT, 8 + CHAR * max(len(label) for label in labels.values()) + 12), MOST_LEFT)

    def x(day: date) -> float:
        return _x(day, first, last, left)

    for row, ((_, opens, closes), label) in enumerate(sorted(labels.items())):
        start = date.fromisoformat(opens) if opens else min(first, as_of)
        end = date.fromisoformat(closes)
        x0, x1 = x(start), x(end)
        chart.bars.append(Bar(x0, 10 + ROW * row, max(x1 - x0, 3), label, f"to {closes}"))
    # the first and last days, and the first of each month between (weeks for a short span)
    span = (last - first).days
    marks = [first]
    day = first
    while day < last:
        day = day + timedelta(days=1)
        if span > 62 and day.day == 1 or span <= 62 and day.weekday() == 0 and span > 14:
            marks.append(day)
    if marks[-1] != last:
        marks.append(last)
    kept: list[date] = []
    for mark in marks:  # no two labels closer than 70 points
        if not kept or x(mark) - x(kept[-1]) >= 70:
            kept.append(mark)
        elif mark == last:
            kept[-1] = last
    chart.ticks = [(x(mark), mark.isoformat()) for mark in kept]
    chart.today = x(as_of)
    chart.today_label = f"as of {as_of.isoformat()}"
    return chart


@dataclass(frozen=True)
class Column:
    x: float
    y: float  # the top of the deferral
    deferred: float  # the deferral's height; the match is stacked above it
    matched: float
    label: str  # the pay date, or the participant
    words: str  # the amounts in words, the column's tooltip


@dataclass
class Columns:
    height: int
    width: int
    columns: list[Column] = field(default_factory=list)
    grid: list[tuple[float, str]] = field(default_factory=list)  # (y, amount) of each grid line
    labels: list[tuple[float, str]] = field(default_factory=list)  # (x, text) under the axis
    bar: float = 10.0
    base: float = 0.0  # the y of the axis


CHART_LEFT = 80  # room for the amounts of the grid lines
CHART_TOP = 12
SMALL_CHAR = 6.6  # the widest an 11-point label's character averages: an estimate
PLOT = 220


def deferral_and_match(
    pay_dates: list[tuple[str, Decimal, Decimal]], *, by_pay_date: bool = True
) -> Columns:
    """Per pay date (or per participant, when the facts give no pay dates), the deferral and the
    match stacked, scaled to the largest column, with grid lines at quarters of it and, under
    the axis, each month's first pay date (or each participant, when they fit)."""
    chart = Columns(height=PLOT + CHART_TOP + 34, width=WIDTH, base=PLOT + CHART_TOP)
    if not pay_dates:
        return chart
    peak = max((d + m for _, d, m in pay_dates), default=Decimal(0)) or Decimal(1)
    step = (WIDTH - CHART_LEFT - 20) / len(pay_dates)
    chart.bar = max(step * 0.7, 1.0)
    for quarter in range(5):
        amount = peak * quarter / 4
        chart.grid.append((chart.base - PLOT * quarter / 4, f"{amount:,.0f}"))
    month = ""
    for index, (label, deferral, match) in enumerate(pay_dates):
        deferred = float(deferral / peak) * PLOT
        matched = float(match / peak) * PLOT
        x = CHART_LEFT + index * step + (step - chart.bar) / 2
        words = f"{label}: deferral {deferral:,.2f}, match {match:,.2f}"
        chart.columns.append(Column(x, chart.base - deferred, deferred, matched, label, words))
        centre = x + chart.bar / 2
        if by_pay_date:
            try:
                day = date.fromisoformat(label)
            except ValueError:
                chart.labels.append((centre, label))
                continue
            if day.strftime("%b") != month:  # each month's first pay date
                month = day.strftime("%b")
                chart.labels.append((centre, month))
        elif not chart.labels or centre - chart.labels[-1][0] >= SMALL_CHAR * len(label) + 8:
            chart.labels.append((centre, label))  # a participant, where it clears the last label
    return chart
