"""A director grant's awards as the proxy's Director Compensation table reports them (Regulation
S-K Item 402(k); DESIGN.md, "After the grant"): each director's award, whether it was granted in
the fiscal year (its grant-date fair value: units x the grant's Fair Market Value, FASB ASC Topic
718) and the units still unvested at the fiscal year-end, dividend-equivalent units credited by
then included (Notice A, B and E: docgen.kinds.director_rsu.settlement)."""

from __future__ import annotations

from decimal import Decimal

from docgen.core.awards import UNITS_SHOWN, FiscalYear, ProxyAward
from docgen.kinds.director_rsu.facts import Director, DirectorGrantFacts
from docgen.kinds.director_rsu.settlement import (
    dividend_equivalents,
    grant_not_made,
    vesting_outcome,
)


def proxy_awards(facts: DirectorGrantFacts, year: FiscalYear) -> list[ProxyAward]:
    """Every director's award of this grant, in file order."""
    return [_award(facts, director, year) for director in facts.directors]


def _award(facts: DirectorGrantFacts, director: Director, year: FiscalYear) -> ProxyAward:
    grant = facts.grant
    no_grant = grant_not_made(facts, director)
    if no_grant is not None:
        return ProxyAward(
            holder_id=director.id,
            holder_name=director.name,
            award_id=grant.id,
            grant_date=grant.grant_date,
            units=0,
            price=grant.fair_market_value,
            in_fiscal_year=False,
            outstanding_units=Decimal("0.0000"),
            status="no grant",
            left_out=no_grant.words(director.name, grant.grant_date),
        )
    units, status = _outstanding(facts, director, year)
    return ProxyAward(
        holder_id=director.id,
        holder_name=director.name,
        award_id=grant.id,
        grant_date=grant.grant_date,
        units=director.units,
        price=grant.fair_market_value,
        in_fiscal_year=grant.grant_date in year,
        outstanding_units=units,
        status=status,
    )


def _outstanding(
    facts: DirectorGrantFacts, director: Director, year: FiscalYear
) -> tuple[Decimal, str]:
    """The units unvested at the fiscal year-end and why (Notice A, B: vesting and forfeiture;
    Notice E: the dividend equivalents credited on dividends paid by the year-end)."""
    end = year.end
    none = Decimal("0.0000")
    if facts.grant.grant_date > end:
        return none, f"granted {facts.grant.grant_date.isoformat()}, after the fiscal year-end"
    outcome = vesting_outcome(facts, director)
    if outcome.vested_on is not None and outcome.vested_on <= end:
        return (
            none,
            f"vested on {outcome.vested_on.isoformat()}, by the fiscal year-end: {outcome.because}",
        )
    if outcome.forfeited_on is not None and outcome.forfeited_on <= end:
        return none, f"{outcome.because}: by the fiscal year-end"
    added = sum((step.units_added for step in dividend_equivalents(facts, director, end)), none)
    total = (Decimal(director.units) + added).quantize(UNITS_SHOWN)
    credited = f", {added:f} dividend-equivalent units included (Notice E)" if added else ""
    return total, f"unvested at the fiscal year-end{credited}: {outcome.because}"
