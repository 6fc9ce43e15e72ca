"""The workspace's two charts as the shapes of an inline SVG (templates/web/ draws them, so
every label is escaped): a timeline of election windows and deadlines, and deferral and match
over the Plan Year. Only geometry here; the figures come from `docgen calendar` and
`docgen payroll`."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

WIDTH = 900
LEFT = 230
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


def _x(day: date, first: date, last: date) -> float:
    days = max((last - first).days, 1)
    return LEFT + (WIDTH - LEFT - RIGHT) * (day - first).days / days


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
    for row, ((route, opens, closes), count) in enumerate(sorted(groups.items())):
        start = date.fromisoformat(opens) if opens else min(first, as_of)
        end = date.fromisoformat(closes)
        x0, x1 = _x(start, first, last), _x(end, first, last)
        people = f"{count} {'person' if count == 1 else 'people'}"
        chart.bars.append(
            Bar(x0, 10 + ROW * row, max(x1 - x0, 3), f"{route} ({people})", f"to {closes}")
        )
    chart.ticks = [(_x(first, first, last), first.isoformat()), (_x(last, first, last), "")]
    chart.ticks[-1] = (chart.ticks[-1][0], last.isoformat())
    chart.today = _x(as_of, first, last)
    chart.today_label = f"as of {as_of.isoformat()}"
    return chart


@dataclass
class Columns:
    height: int
    width: int
    columns: list[tuple[float, float, float, float, str, str]] = field(default_factory=list)
    # (x, deferral's y, deferral's height, match's height, pay date, amounts in words)
    top: str = ""
    bar: float = 10.0


def deferral_and_match(pay_dates: list[tuple[str, Decimal, Decimal]]) -> Columns:
    """Per pay date, the deferral and the match stacked, scaled to the largest pay date."""
    height, width = 220, WIDTH
    chart = Columns(height=height + 40, width=width)
    if not pay_dates:
        return chart
    peak = max((d + m for _, d, m in pay_dates), default=Decimal(0)) or Decimal(1)
    step = (width - 60) / len(pay_dates)
    chart.bar = max(step * 0.7, 1.0)
    for index, (paid_on, deferral, match) in enumerate(pay_dates):
        deferred = float(deferral / peak) * height
        matched = float(match / peak) * height
        x = 50 + index * step
        words = f"{paid_on}: deferral {deferral:,.2f}, match {match:,.2f}"
        chart.columns.append((x, height - deferred + 10, deferred, matched, paid_on, words))
    chart.top = f"{peak:,.2f}"
    return chart
