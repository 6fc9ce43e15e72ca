"""A director grant's awards as the proxy's Director Compensation table reports them (Regulation
S-K Item 402(k); DESIGN.md, "After the grant"): each director's award, whether it was granted in
the fiscal year (its grant-date fair value: units x the grant's Fair Market Value, FASB ASC Topic
718) and the units still unvested at the fiscal year-end, dividend-equivalent units credited by
then included (Notice A, B and E: docgen.kinds.director_rsu.settlement)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from docgen.core.awards import UNITS_SHOWN, FiscalYear, OtherCompensation, ProxyAward
from docgen.kinds.director_rsu.facts import Director, DirectorGrantFacts
from docgen.kinds.director_rsu.settlement import (
    dividend_equivalents,
    grant_not_made,
    vesting_outcome,
)
from docgen.kinds.director_rsu.terms import payment_date


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
    units, deferred, status = _outstanding(facts, director, year)
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
        deferred_units=deferred,
        other=_other(director, year),
    )


def _other(director: Director, year: FiscalYear) -> OtherCompensation | None:
    """The director's figures besides stock awards for the fiscal year, as given."""
    for given in director.director_compensation:
        if given.fiscal_year_end == year.end:
            return OtherCompensation(
                given.fees_earned_or_paid_in_cash,
                given.option_awards,
                given.all_other_compensation,
                given.source,
            )
    return None


def _credited(facts: DirectorGrantFacts, director: Director, through: date) -> Decimal:
    """The units granted and the dividend-equivalent units credited by ``through`` (Notice E)."""
    steps = dividend_equivalents(facts, director, through)
    added = sum((step.units_added for step in steps), Decimal("0.0000"))
    return (Decimal(director.units) + added).quantize(UNITS_SHOWN)


def _outstanding(
    facts: DirectorGrantFacts, director: Director, year: FiscalYear
) -> tuple[Decimal, Decimal, str]:
    """The units unvested at the fiscal year-end, the units vested but not settled by then, and
    why (Notice A, B: vesting and forfeiture; Notice C, F: payment, delivery recorded as
    ``settlement.delivered_on``; Notice E: the dividend equivalents credited on dividends paid by
    the year-end, or by the Payment Date when that came first)."""
    end = year.end
    none = Decimal("0.0000")
    if facts.grant.grant_date > end:
        return (
            none,
            none,
            f"granted {facts.grant.grant_date.isoformat()}, after the fiscal year-end",
        )
    outcome = vesting_outcome(facts, director)
    if outcome.vested_on is not None and outcome.vested_on <= end:
        vested = f"vested on {outcome.vested_on.isoformat()}, by the fiscal year-end"
        settlement = director.settlement
        delivered = settlement.delivered_on if settlement is not None else None
        if delivered is not None and delivered <= end:
            return none, none, f"{vested}; settled {delivered.isoformat()}: {outcome.because}"
        paid_on, _ = payment_date(facts, director)
        through = end if paid_on is None or paid_on > end else paid_on
        units = _credited(facts, director, through)
        why = "no delivery recorded" if delivered is None else f"delivered {delivered.isoformat()}"
        return (
            none,
            units,
            f"{vested}, not settled by then ({why}): {units:f} units vested but deferred, "
            f"dividend-equivalent units credited through {through.isoformat()} included "
            f"(Notice E): {outcome.because}",
        )
    if outcome.forfeited_on is not None and outcome.forfeited_on <= end:
        return none, none, f"{outcome.because}: by the fiscal year-end"
    total = _credited(facts, director, end)
    added = total - Decimal(director.units)
    credited = f", {added:f} dividend-equivalent units included (Notice E)" if added else ""
    return total, none, f"unvested at the fiscal year-end{credited}: {outcome.because}"
